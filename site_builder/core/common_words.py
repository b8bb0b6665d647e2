"""The common words of the languages a workspace is written in: a capitalised one ("Manager", "Phase", "Depth",
"SIEMPRE") is a word of the language, not a name, unless the prose writes it as names are written.

A small workspace never writes "manager" in lower case, so the notes alone cannot tell; the most frequent
``TOP`` words of each language (pyspellchecker's word-frequency lists) can. English is always read; another
language when its stop words are at least ``LANGUAGE_SHARE`` of the words the notes write in lower case (the
``stop-words`` package's lists). Each list is read once a process (about 0.3 s a language).
"""

from __future__ import annotations

import functools
import heapq
from collections import Counter
from operator import itemgetter

TOP = 10_000
LANGUAGE_SHARE = 0.05
# pyspellchecker's languages written with capitals, by the ``stop-words`` package's name of each
LANGUAGES = {
    "es": "spanish",
    "fr": "french",
    "pt": "portuguese",
    "de": "german",
    "it": "italian",
    "nl": "dutch",
    "ru": "russian",
}


def common_words(lowered: Counter[str]) -> frozenset[str]:
    """The common words (casefolded) of English and of the other languages of these words written in lower case
    (each word and how often)."""
    return _union(("en", *written_in(lowered)))


_ENDINGS = ("ing", "ed", "d", "es", "s")  # "Deploying", "Pinged", "Promises": a common word's forms
# Words made of a common one ("Embodiment" of "embody", "Provisional" of "provision", "Dreamless" of "dream"): words
# of the language too, though rarer than the commonest.
_DERIVED = (
    "ment", "ness", "ity", "ism", "ist", "ous", "ive", "al", "able", "ible", "ence", "ance", "ship", "less", "ful", "or",
    "er", "ion", "ation", "ly", "ize", "ise", "ic", "ary",
)  # fmt: skip


def of_language(word: str, common: frozenset[str]) -> bool:
    """Is this (casefolded) word one of the ``common`` words, or one of its forms ("deploying" of "deploy")?"""
    return word in common or any(
        word.endswith(ending) and len(word) - len(ending) >= 4 and _stem_common(word[: -len(ending)], common)
        for ending in (*_ENDINGS, *_DERIVED)
    )


def _stem_common(stem: str, common: frozenset[str]) -> bool:
    return stem in common or stem + "e" in common or (stem.endswith("i") and stem[:-1] + "y" in common)


def written_in(lowered: Counter[str]) -> list[str]:
    """The languages other than English whose stop words make ``LANGUAGE_SHARE`` of the words."""
    total = sum(lowered.values())
    english = _stop_words("english")
    found = []
    for language, name in LANGUAGES.items():
        own = _stop_words(name) - english
        if total and sum(lowered[word] for word in own) >= LANGUAGE_SHARE * total:
            found.append(language)
    return found


@functools.cache
def _union(languages: tuple[str, ...]) -> frozenset[str]:
    return frozenset().union(*(_top(language) for language in languages))


@functools.cache
def _top(language: str) -> frozenset[str]:
    from spellchecker import SpellChecker

    frequency = SpellChecker(language=language, distance=1).word_frequency
    return frozenset(word for word, _ in heapq.nlargest(TOP, frequency.items(), key=itemgetter(1)))


@functools.cache
def _stop_words(language: str) -> frozenset[str]:
    import stop_words

    return frozenset(word.casefold() for word in stop_words.get_stop_words(language))
