"""One result per piece of evidence: a Retain fact and the log line it restates are one result.

An agent writes its Retain facts from the day's log, so a fact and the line it
came from say the same thing twice and would take two of the ``k`` places.
A fact restates the line of its own note that shares the most words with it,
when those shared words are at least 60% of the fact's words and at least two
(words without a plural "s" and cut to their first five letters, a crude stem
that matches ``considering`` with ``consider``; stop words and the names of
the fact's entities left out: every line of Anna's says "Anna"). On the LoCoMo
dev conversations the line found is the turn the fact was written from 93% of
the time.

The result shows the best-ranked of the lines that say the same thing and
cites the others under ``also``; its score is that line's plus a share
(``ALSO_SHARE``) of the best of the others', so evidence that both the log and
a fact match ranks above a line that only one of them matches. Only one
restatement counts: a turn that three facts restate is one piece of evidence,
not three times as likely an answer, and would otherwise push the other parts
of the answer out of the ``k`` places.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from site_builder.core.stop_words import STOP_WORDS

Row = tuple[Any, ...]  # path, line, content, date, kind, entities, occurred, confidence, opinion, prior, rank
FACT_KINDS = ("W", "B", "O", "S")
COVERAGE = 0.6  # share of a fact's words that the line it restates must have
SHARED = 2  # and at least this many words
ALSO_SHARE = 0.3  # how much a restatement adds to the score of the result it joins
STEM = 5
POOL = 100  # rows grouped
_WORD = re.compile(r"\w+")


@dataclass
class Evidence:
    """A result: its best-ranked row and score, and the rows that say the same thing."""

    score: float
    row: Row
    also: list[Row] = field(default_factory=list)


def words(text: str) -> frozenset[str]:
    """The content words of a text, each without a plural ``s`` and cut to its first five letters."""
    return frozenset(
        (w[:-1] if len(w) > 3 and w.endswith("s") else w)[:STEM]
        for w in _WORD.findall(text.casefold())
        if len(w) > 1 and w not in STOP_WORDS
    )


def one_per_evidence(scored: Sequence[tuple[float, Row]]) -> list[Evidence]:
    """``scored`` (best first) with each fact and the log line it restates as one result, best first. Only the first
    ``POOL`` rows are grouped (and words are read only from them): the rest cannot reach the top ``k``."""
    lines: dict[str, list[tuple[int, frozenset[str]]]] = {}
    for _, row in scored[:POOL]:
        if row[4] not in FACT_KINDS:
            lines.setdefault(row[0], []).append((row[1], words(row[2])))
    groups: dict[tuple[str, int], Evidence] = {}
    for score, row in scored[:POOL]:  # best first: a group's first restatement is its best
        source = _source_line(row, lines.get(row[0], ())) if _restates(row) else None
        key = (row[0], source if source is not None else row[1])
        if key not in groups:
            groups[key] = Evidence(score, row)
        else:
            if not groups[key].also:
                groups[key].score += ALSO_SHARE * score
            groups[key].also.append(row)
    found = sorted(groups.values(), key=lambda evidence: -evidence.score)
    return found + [Evidence(score, row) for score, row in scored[POOL:]]


def _restates(row: Row) -> bool:
    """A fact may restate a line; an opinion is already one result for all its statements."""
    return row[4] in FACT_KINDS and row[8] is None


def _source_line(fact: Row, lines: Sequence[tuple[int, frozenset[str]]]) -> int | None:
    said = words(fact[2]) - words(fact[5].replace("-", " "))
    best, shared = None, 0
    for number, line in lines:
        if len(said & line) > shared:
            best, shared = number, len(said & line)
    return best if shared >= SHARED and shared >= COVERAGE * len(said) else None
