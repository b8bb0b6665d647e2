"""The acronyms a question's words stand for in memory.

Memory abbreviates what a question spells out: "When did the Bitcoin node
finish its initial block download?" is answered by "Nodo 100% sincronizado
después de ~2 días de IBD", which shares only "node" and "Bitcoin" with it. A
question is also searched by the initials of each run of ``RUN_WORDS`` words
in a row (none a stop word or a number) when memory spells the acronym out
itself: a line writes it in capitals beside the run's words ("IBD (Initial
Block Download) started"). The initials of most runs spell nothing ("bnf"),
a word ("car", "new", "Mel" for "Melanie enjoy listening") or another
acronym ("CLI" for "cover letters instead"), which would match lines that are
not about the run at all. Runs of two words are left alone: "long position"
is no "LP" of memory's.

Measured on the real questions (``real_recall_check.py``): the initial block
download question from past the 50th to 4th, no other question changed;
LoCoMo unchanged (without a test, "mel", "car" and "met" cost it an
open-domain question).
"""

from __future__ import annotations

import re

from site_builder.recall.index import RecallIndex
from site_builder.recall.query import spaced_words
from site_builder.recall.query_language import stop_words_of

RUN_WORDS = (3, 4)  # the lengths of the runs of words whose initials a question is searched by too
SCAN = 50  # the lines holding a run's words and its initials that are read for the acronym in capitals


def acronyms_written(index: RecallIndex, question: str) -> list[str]:
    """The initials (lower case) of the question's runs of words that memory spells out as an acronym."""
    runs = dict(runs_of(spaced_words(question)))
    return [initials for initials, run in runs.items() if _spelled_out(index, initials, run)]


def runs_of(words: list[str]) -> list[tuple[str, tuple[str, ...]]]:
    """Each run of ``RUN_WORDS`` words in a row, none a stop word (of the question's language) or a number, with
    its initials."""
    stop = stop_words_of(words)
    found = []
    run: list[str] = []
    for word in [*words, ""]:
        if len(word) > 1 and word[0].isalpha() and word not in stop:
            run.append(word)
            continue
        for size in RUN_WORDS:
            found += [("".join(w[0] for w in part), tuple(part)) for part in _parts(run, size)]
        run = []
    return found


def _parts(run: list[str], size: int) -> list[list[str]]:
    return [run[i : i + size] for i in range(len(run) - size + 1)]


def _spelled_out(index: RecallIndex, initials: str, run: tuple[str, ...]) -> bool:
    """Does a line write the initials in capitals beside each word of the run?"""
    capitals = re.compile(rf"\b{re.escape(initials.upper())}\b")
    match = " AND ".join(f'content : "{word}"' for word in (initials, *run))
    rows = index.db.execute(
        "SELECT content FROM docs WHERE id IN (SELECT rowid FROM docs_fts WHERE docs_fts MATCH ? LIMIT ?)",
        (match, SCAN),
    ).fetchall()
    return any(capitals.search(content) for (content,) in rows)
