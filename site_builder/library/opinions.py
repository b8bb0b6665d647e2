"""Opinions from ``O`` facts: identity, confidence history and evidence (DESIGN §2).

An opinion is stated as ``- O(c=0.9) @Peter: Prefers concise replies. ^concise-replies``,
usually in ``bank/opinions.md``. Its history is a list of points, each naming the
fact that set it:

- ``stated`` / ``restated``: an ``O(c=…)`` bullet with the same block id (or the
  same statement) sets the confidence it gives;
- ``reinforces`` / ``weakens`` / ``contradicts``: reflect judged a fact about the
  opinion's entities as evidence and moved the confidence a small step.

The history is in the order of the dates its points refer to (undated
statements first), never in the order memory was written, so the same files
give the same opinions whenever each was added. The current confidence is the
latest point the workspace still says (its fact is there and, for a
restatement, gives that value). The points reflect recorded in
``bank/opinions.md`` are never dropped: a point whose fact was removed stays
in the history. A point is new when its fact, change and value have not been
recorded before, so a person who edits a confidence adds a point.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import re
import sys
from collections import defaultdict
from dataclasses import dataclass

from site_builder.core.diagnostics import Diagnostic
from site_builder.core.model import Evidence, Fact, Opinion, OpinionPoint, fact_order
from site_builder.core.names import REMEMBERED

DEFAULT_CONFIDENCE = 0.5
VERDICTS = ("reinforces", "weakens", "contradicts", "irrelevant")
STEP = 0.05  # reinforce/weaken: 5 % of the way to 1 or 0
CONTRADICT_STEP = 0.10
REPEATED_CONTRADICT_STEP = 0.20  # only when the previous judged point also contradicted
CLAUSE_END = re.compile(r"[;:,.!?()\u2013\u2014]| - | but | though | despite ")
CHANGE_ORDER = {change: rank for rank, change in enumerate(("stated", "restated", *VERDICTS))}


@functools.lru_cache(maxsize=REMEMBERED)  # linking asks twice per fact (the warnings, then the opinions)
def opinion_key(fact: Fact) -> str:
    """Block id when given, else the statement's words: restatements share it."""
    if fact.block_id:
        return fact.block_id.lower()
    words = re.findall(r"\w+", fact.content.casefold())
    return "-".join(words)[:80] or fact.id


@dataclass(frozen=True)
class Event:
    """Something that sets or moves an opinion's confidence."""

    fact: Fact
    change: str
    confidence: float | None  # given by the fact (stated/restated); None when judged


def group_opinion_facts(facts: list[Fact]) -> dict[str, list[Fact]]:
    groups: dict[str, list[Fact]] = defaultdict(list)
    for fact in facts:
        if fact.kind == "O":
            groups[opinion_key(fact)].append(fact)
    return dict(groups)


def restated_differently(groups: dict[str, list[Fact]]) -> list[Diagnostic]:
    """A warning for each ``O`` bullet whose ``^id`` names an opinion it does not restate, with both texts, in file
    and line order (``groups``: ``group_opinion_facts``).

    A restatement may shorten the statement or add a reason after it
    ("Peter prefers concise replies; he cut my summary"); it may not say something else.
    """
    problems = []
    for key, group in groups.items():
        origin = _origin(group)
        for fact in group:
            if fact.block_id and fact is not origin and not _same_statement(fact.content, origin.content):
                problems.append(
                    Diagnostic(
                        fact.path,
                        fact.line,
                        f'opinion ^{key} is restated with a different statement: "{_one_line(fact.content)}" here, '
                        f'"{_one_line(origin.content)}" at {origin.source}; the opinion keeps the first',
                        "opinion",
                    )
                )
    return sorted(problems, key=lambda d: (d.path, d.line))  # one fact per line: one warning at most


def _same_statement(one: str, other: str) -> bool:
    """Does either text's first clause begin the other (the same claim, maybe with a reason added)?"""
    words_one, words_other = _words(one), _words(other)
    for clause, whole in (
        (_words(CLAUSE_END.split(one)[0]), words_other),
        (_words(CLAUSE_END.split(other)[0]), words_one),
    ):
        if len(clause) >= min(3, len(whole)) and whole[: len(clause)] == clause:
            return True
    return False


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _origin(facts: list[Fact]) -> Fact:
    """The fact that first stated an opinion: an undated statement (bank pages), else the earliest restatement."""
    undated = [f for f in facts if f.date is None]
    return min(undated or facts, key=fact_order)


def collect_opinions(
    facts: list[Fact],
    recorded: dict[str, list[OpinionPoint]] | None = None,
    verdicts: dict[tuple[str, str], str] | None = None,
) -> list[Opinion]:
    """Opinions with their history: ``recorded`` points first, then new events in date order.

    ``verdicts`` maps (opinion id, fact id) to reflect's judgement of that fact.
    """
    recorded = recorded or {}
    verdicts = verdicts or {}
    by_id = {f.id: f for f in facts}
    judged: dict[str, list[tuple[Fact, str]]] = {}  # opinion id -> its judged facts, in fact id order
    for (opinion_id, fact_id), verdict in sorted(verdicts.items()):
        if fact_id in by_id:
            judged.setdefault(opinion_id, []).append((by_id[fact_id], verdict))
    opinions = []
    for key, group in group_opinion_facts(facts).items():
        opinions.append(make_opinion(key, group, recorded.get(key, []), judged.get(key, []), by_id))
    return sorted(opinions, key=lambda o: (-o.confidence, o.id))


def make_opinion(
    key: str,
    facts: list[Fact],
    recorded: list[OpinionPoint],
    judged: list[tuple[Fact, str]],
    by_id: dict[str, Fact],
) -> Opinion:
    undated = [f for f in facts if f.date is None]
    dated = sorted((f for f in facts if f.date is not None), key=fact_order)
    origin = _origin(facts)
    events = [Event(f, "stated", f.confidence) for f in undated if f.confidence is not None]
    events += [Event(f, "restated", f.confidence) for f in dated if f.confidence is not None]
    events += [Event(f, v, None) for f, v in judged if v in VERDICTS[:3]]
    history = merge_history([refresh_point(p, by_id) for p in recorded], events)
    live = [p for p in history if _live(p)]
    if live:
        confidence = live[-1].confidence
    else:
        confidence = origin.confidence if origin.confidence is not None else DEFAULT_CONFIDENCE
    evidence = _evidence(history, by_id)
    evidence += [Evidence(f, "restates") for f in dated if f.confidence is None]
    evidence.sort(key=lambda e: fact_order(e.fact))
    return Opinion(
        id=key,
        statement=origin.content,
        entities=tuple(dict.fromkeys(name for f in facts for name in f.entities)),
        confidence=confidence,
        changed=_last_change(live),
        history=history,
        evidence=evidence,
        origin=origin,
    )


def merge_history(recorded: list[OpinionPoint], events: list[Event]) -> list[OpinionPoint]:
    """Recorded points and a point for each event not recorded yet, in the order of the dates they refer to.

    The order does not depend on when a point was recorded, so memory written in any
    order gives the same history. A judged point's value is a step from the point
    before it, so it is worked out again along that order.
    """
    points = list(recorded)
    known: set[tuple[str, str, float | None]]
    known = {(p.fact_id, p.change, round(p.confidence, 2)) for p in recorded if p.change not in VERDICTS}
    known |= {(p.fact_id, p.change, None) for p in recorded if p.change in VERDICTS}
    for event in events:
        fact = event.fact
        value = None if event.confidence is None else round(event.confidence, 2)
        if (fact.id, event.change, value) in known:
            continue
        known.add((fact.id, event.change, value))
        points.append(OpinionPoint(fact.date, value or 0.0, event.change, fact.id, _source(fact), fact.content, fact))
    history: list[OpinionPoint] = []
    last_verdict = None
    for point in sorted(points, key=point_order):
        if point.change in VERDICTS:
            current = history[-1].confidence if history else DEFAULT_CONFIDENCE
            moved = step(current, point.change, last_verdict)
            point = OpinionPoint(point.date, moved, point.change, point.fact_id, point.source, point.text, point.fact)
            last_verdict = point.change
        history.append(point)
    return history


def point_order(point: OpinionPoint) -> tuple[int, str, int, int, str, bool]:
    """By the date the point refers to (undated statements first), then where its fact is, then what it did.

    Of two points for one fact (a person changed its confidence), the one the fact
    states now comes last.
    """
    fact = point.fact
    if fact is not None:  # the point cites where its fact is (``OpinionPoint.source``): no need to read it
        path, line = fact.path, fact.line
    else:
        path, _, written = point.source.rpartition("#L")
        line = int(written) if written.isdigit() else 0
    change = CHANGE_ORDER.get(point.change, len(CHANGE_ORDER))
    return (point.date.toordinal() if point.date else 0, path, line, change, point.fact_id, _live(point))


def _live(point: OpinionPoint) -> bool:
    """Does the workspace still say this? Its fact is there and, for a restatement, gives this value."""
    fact = point.fact
    if fact is None:
        return False
    if point.change in VERDICTS:
        return True
    return fact.confidence is not None and round(fact.confidence, 2) == point.confidence


def step(confidence: float, verdict: str, previous_verdict: str | None) -> float:
    """Small moves: 5 % toward 1 or 0; a contradiction 10 %, 20 % when it repeats."""
    if verdict == "reinforces":
        moved = confidence + STEP * (1 - confidence)
    elif verdict == "weakens":
        moved = confidence - STEP * confidence
    elif verdict == "contradicts":
        size = REPEATED_CONTRADICT_STEP if previous_verdict == "contradicts" else CONTRADICT_STEP
        moved = confidence - size * confidence
    else:
        moved = confidence
    return round(min(1.0, max(0.0, moved)), 2)


def refresh_point(point: OpinionPoint, by_id: dict[str, Fact]) -> OpinionPoint:
    """A recorded point with its citation updated if its fact moved to another line. A point that holds its fact
    cites where that fact is (``OpinionPoint``): one holding that fact, or a copy of it (the opinions of the build
    cache's library hold copies), is kept as it is; a million points of a heavy workspace were made again."""
    fact = by_id.get(point.fact_id)
    if fact is None or point.fact is fact or point.fact == fact:
        return point
    return OpinionPoint(point.date, point.confidence, point.change, point.fact_id, _source(fact), fact.content, fact)


def _source(fact: Fact) -> str:
    """The fact's citation, one string for all the points it sets (a fact bears on many opinions; the build cache
    pickles each string once: a heavy workspace's opinions hold a million points)."""
    return sys.intern(fact.source)


def _evidence(history: list[OpinionPoint], by_id: dict[str, Fact]) -> list[Evidence]:
    out = []
    previous: float | None = None
    for point in history:
        fact = point.fact or by_id.get(point.fact_id)
        if fact is not None and point.change != "stated":
            if point.change in VERDICTS:
                stance = point.change
            elif previous is None or point.confidence == previous:
                stance = "restates"
            else:
                stance = "supports" if point.confidence > previous else "contradicts"
            out.append(Evidence(fact, stance))  # type: ignore[arg-type]
        previous = point.confidence
    return out


def _last_change(history: list[OpinionPoint]) -> dt.date | None:
    dated = [p for p in history if p.date]
    changed = dated[0].date if dated else None
    for before, after in itertools.pairwise(history):
        if after.confidence != before.confidence and after.date:
            changed = after.date
    return changed
