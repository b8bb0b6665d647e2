"""Lines of dialogue in a log: who a line is about, and the line that answers a question.

Logs of conversations (an agent's chats, meeting notes) write one turn a line,
``Anna: I adopted a cat``. Such a line is about its speaker, as a Retain fact
is about its entities, so a question that names Anna prefers what Anna said.
A turn that asks something (``Ben: What games did you play?``) shares the
question's words, but the answer is the turn after it, which often does not
(``Anna: Charades and a scavenger hunt.``): the line right after a question
scores at least a little more than the question (``ANSWER_OVER_QUESTION``), so
that the answer comes first: the question holds the words, the answer the
evidence.
"""

from __future__ import annotations

import re

from site_builder.recall.evidence import FACT_KINDS, Row
from site_builder.recall.scripts import fold_accents

ANSWER_OVER_QUESTION = 1.05  # the answer after a question scores at least this times the question's score
_SPEAKER = re.compile(r"([^\W\d][\w .'-]{0,38}?):\s")  # "Anna: ..." / "Anna Kowalski: ..." starts a line


def about(row: Row, names: frozenset[str]) -> bool:
    """Whether a line is about one of these entities (folded keys): one of its entities or, for a line of dialogue,
    its speaker."""
    return any(fold_accents(key) in names for key in row[5].split()) or speaker(row[2]) in names


def speaker(text: str) -> str:
    """The folded key of who says a line of dialogue ("Anna Kowalski: ..." → ``anna-kowalski``), "" for another line."""
    said = _SPEAKER.match(text)
    return fold_accents(said[1].strip().casefold().replace(" ", "-")) if said else ""


def with_answers(scored: list[tuple[float, Row]]) -> list[tuple[float, Row]]:
    """``scored`` with the line right after each question (a log or page line ending in ``?``) raised just above
    the question's score when it scored less."""
    position = {(row[0], row[1]): i for i, (_, row) in enumerate(scored)}
    raised = list(scored)
    for score, row in scored:
        if row[4] in FACT_KINDS or not row[2].rstrip().endswith("?"):
            continue
        after = position.get((row[0], row[1] + 1))
        if after is not None and raised[after][0] < ANSWER_OVER_QUESTION * score:
            raised[after] = (ANSWER_OVER_QUESTION * score, raised[after][1])
    return raised
