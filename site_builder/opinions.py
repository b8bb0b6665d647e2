"""Opinions from ``O`` facts: identity, current confidence and history.

An opinion is first stated in ``bank/opinions.md`` (or in a daily log) as
``- O(c=0.9) @Peter: Prefers concise replies. ^concise-replies``. Any later
``O(c=…)`` bullet with the same block id (``^concise-replies``) or the same
statement restates it; each dated restatement is one point of its history.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections import defaultdict

from site_builder.model import Evidence, Fact, Opinion, OpinionPoint

DEFAULT_CONFIDENCE = 0.5


def opinion_key(fact: Fact) -> str:
    """Block id when given, else the statement's words: restatements share it."""
    if fact.block_id:
        return fact.block_id.lower()
    words = re.findall(r"\w+", fact.content.casefold())
    return "-".join(words)[:80] or fact.id


def collect_opinions(facts: list[Fact]) -> list[Opinion]:
    """Group O facts into opinions, each with its dated confidence history."""
    groups: dict[str, list[Fact]] = defaultdict(list)
    for fact in facts:
        if fact.kind == "O":
            groups[opinion_key(fact)].append(fact)
    opinions = [_opinion(key, group) for key, group in groups.items()]
    return sorted(opinions, key=lambda o: (-o.confidence, o.id))


def _opinion(key: str, facts: list[Fact]) -> Opinion:
    undated = [f for f in facts if f.date is None]
    dated = sorted((f for f in facts if f.date is not None), key=lambda f: (f.date, f.path, f.line))
    origin = (undated or dated)[0]
    history: list[OpinionPoint] = []
    evidence: list[Evidence] = []
    previous = origin.confidence if origin.date is None else None
    for fact in dated:
        if fact.confidence is None:
            evidence.append(Evidence(fact, "restates"))
            continue
        history.append(OpinionPoint(fact.date, fact.confidence, fact))
        if previous is None or fact.confidence == previous:
            stance = "restates"
        else:
            stance = "supports" if fact.confidence > previous else "contradicts"
        evidence.append(Evidence(fact, stance))  # type: ignore[arg-type]
        previous = fact.confidence
    if history:
        confidence = history[-1].confidence
    elif origin.confidence is not None:
        confidence = origin.confidence
    else:
        confidence = DEFAULT_CONFIDENCE
    entities = tuple(dict.fromkeys(name for f in facts for name in f.entities))
    return Opinion(
        id=key,
        statement=origin.content,
        entities=entities,
        confidence=confidence,
        changed=_last_change(history),
        history=history,
        evidence=evidence,
        origin=origin,
    )


def _last_change(history: list[OpinionPoint]) -> dt.date | None:
    changed = history[0].date if history else None
    for before, after in itertools.pairwise(history):
        if after.confidence != before.confidence:
            changed = after.date
    return changed
