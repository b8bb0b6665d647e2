"""Opinions re-pointed at where their facts now are, after an edit moved some of them to other lines, and whether
that kept them as they were (then the opinions saved with the last library still hold: ``library.saved``)."""

from __future__ import annotations

import operator
from dataclasses import replace

from site_builder.core.model import Evidence, Fact, Opinion
from site_builder.library.opinions import refresh_point


def repoint_opinions(opinions: list[Opinion], facts: list[Fact]) -> list[Opinion]:
    """The same opinions, their citations moved to where their facts now are (ids are content hashes)."""
    by_id = {f.id: f for f in facts}

    def moved(fact: Fact) -> Fact:
        return by_id.get(fact.id, fact)

    def same_or_moved(evidence: Evidence) -> Evidence:
        now = by_id.get(evidence.fact.id, evidence.fact)
        return evidence if now is evidence.fact or now == evidence.fact else Evidence(now, evidence.stance)

    return [
        replace(
            o,
            history=[refresh_point(p, by_id) for p in o.history],
            evidence=list(map(same_or_moved, o.evidence)),
            origin=moved(o.origin),
        )
        for o in opinions
    ]


def kept_as_they_were(repointed: list[Opinion], opinions: list[Opinion]) -> bool:
    """Did ``repoint_opinions`` keep every point and evidence of ``opinions`` (it gives back the very ones it keeps)
    and every origin (an equal fact)? Then the opinions are the same as before, fact for fact."""
    return len(repointed) == len(opinions) and all(
        len(new.history) == len(old.history)
        and all(map(operator.is_, new.history, old.history))
        and len(new.evidence) == len(old.evidence)
        and all(map(operator.is_, new.evidence, old.evidence))
        and new.origin == old.origin
        for new, old in zip(repointed, opinions, strict=True)
    )
