"""The second hop: lines about the entities the best results are about, when the question does not name them.

"Where does the person who fixed my bike live?" finds ``@Tom fixed my bike``
but not ``@Tom lives in Leeds``, which shares only "live" with the question.
The entities of the first ``HOPS_FROM`` results that the question does not
name are bridges: the lines about a bridge that share words with the question
join the results, the line sharing most at a share (``HOP_SHARE``) of the
score of the result it was reached from, the others in proportion. An entity
that a large share of all lines are about (``HUB_SHARE``: the user, the agent,
the two people of a conversation) bridges to everything and is not followed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from site_builder.recall.evidence import Evidence, Row, words
from site_builder.recall.scripts import fold_accents

HOPS_FROM = 3  # the best results whose entities are followed
BRIDGES = 3  # at most this many entities are followed
HOP_SHARE = 0.9  # a hop's best line scores this share of the result it was reached from: just below it
HUB_SHARE = 0.05  # an entity that more than this share of all lines is about is not followed

LinesAbout = Callable[[str], list[Row]]  # entity key -> lines about it (within the query's filters)


@dataclass(frozen=True)
class Hop:
    asked: frozenset[str]  # the question's words (``evidence.words``)
    named: frozenset[str]  # folded keys of the entities the question names: not bridges
    lines_about: LinesAbout
    share: Callable[[str], float]  # entity key -> share of all lines about it


def second_hop(found: list[Evidence], hop: Hop) -> list[Evidence]:
    """``found`` (best first) with the lines about the bridge entities of its best results added, best first."""
    bridges: dict[str, Evidence] = {}  # entity key -> the result it is reached from
    for evidence in found[:HOPS_FROM]:
        for key in evidence.row[5].split():
            if fold_accents(key) not in hop.named and key not in bridges and len(bridges) < BRIDGES:
                bridges[key] = evidence
    bridges = {key: evidence for key, evidence in bridges.items() if hop.share(key) <= HUB_SHARE}
    if not bridges or not hop.asked:
        return found
    placed = {(row[0], row[1]): evidence for evidence in found for row in (evidence.row, *evidence.also)}
    added: list[Evidence] = []
    for key, reached_from in bridges.items():
        shared = [
            (len(hop.asked & words(row[2])), row)
            for row in hop.lines_about(key)
            if placed.get((row[0], row[1])) is not reached_from and _may_share(hop.asked, row[2])
        ]
        most = max((count for count, _ in shared), default=0)
        for count, row in shared:
            if count == 0:
                continue
            hop_score = HOP_SHARE * reached_from.score * count / most
            known = placed.get((row[0], row[1]))
            if known is None:
                placed[(row[0], row[1])] = Evidence(hop_score, row)
                added.append(placed[(row[0], row[1])])
            elif known.score < hop_score:
                known.score = hop_score
    return sorted([*found, *added], key=lambda evidence: -evidence.score)


def _may_share(asked: frozenset[str], text: str) -> bool:
    """A quick test before reading a line's words: a word it shares with the question is in its text."""
    folded = text.casefold()
    return any(word in folded for word in asked)
