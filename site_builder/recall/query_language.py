"""The stop words of the language a query is written in.

Agents write memory in their person's language and are asked about it in that
language ("¿En qué puerto y con qué software corre mi relay de Nostr?"). The
English stop words leave "en", "qué", "y", "con", "mi" and "de" in such a
query: each is on a large share of a Spanish workspace's lines, and together
they rank a long line full of them above the short line that answers. A query
holding at least ``MIN_HITS`` stop words of one other language, and more of them
than of English, is written in that language and searched without its stop
words (the lists of the ``stop-words`` package, one per language; the most
such words wins). An English query keeps its words: "war", "die" or "man" are
German stop words, not English ones.

The lists are read once a process, on its first query (about 10 ms for 29
languages). Chinese, Japanese and Korean are searched
by character pairs (``scripts.py``), not by words: their lists are not read.
"""

from __future__ import annotations

import functools

from site_builder.core.stop_words import STOP_WORDS

MIN_HITS = 2
UNSPACED = frozenset({"english", "chinese", "japanese", "korean"})  # English: ``STOP_WORDS``; the rest: no words


def stop_words_of(words: list[str]) -> frozenset[str]:
    """The stop words to leave out of a query of these (casefolded) words: English's, and those of the other
    language the words are written in, if any."""
    english = sum(word in STOP_WORDS for word in words)
    best, hits = None, 0
    for language, stop in _lists().items():
        count = sum(word in stop for word in words)
        if count > hits:
            best, hits = language, count
    if best is None or hits < MIN_HITS or hits <= english:
        return STOP_WORDS
    return STOP_WORDS | _lists()[best]


@functools.cache
def _lists() -> dict[str, frozenset[str]]:
    import stop_words

    return {
        language: frozenset(word.casefold() for word in stop_words.get_stop_words(language))
        for language in sorted(set(stop_words.AVAILABLE_LANGUAGES) - UNSPACED)
    }
