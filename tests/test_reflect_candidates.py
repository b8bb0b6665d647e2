"""Which facts reflect weighs an opinion against (``reflect.candidates.verdict_inputs``): of the facts about its
entities, the ``VERDICT_CANDIDATES`` that share the most words with its statement, the newest first among equals
(then the newest sharing none), the judged ones left out, oldest first. Checked against that rule written as a sort,
on random days of facts."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.core.model import Fact, Opinion
from site_builder.library.opinions import VERDICTS
from site_builder.load import load
from site_builder.reflect.candidates import VERDICT_CANDIDATES, verdict_inputs
from site_builder.reflect.offline import Words
from tests.conftest import write_workspace

WORDS = ["tea", "morning", "walk", "harbour", "boat", "coffee", "rain", "market", "bread", "kayak"]
SENTENCES = st.lists(st.sampled_from(WORDS), min_size=1, max_size=5, unique=True).map(" ".join)


def by_the_rule(opinion: Opinion, facts: list[Fact], words: Words) -> list[str]:
    """The ids of the facts the rule picks for ``opinion`` among ``facts`` (in fact order), as a plain sort."""
    stems = words.stems(opinion.statement) - words.names(opinion.entities)
    judged = {p.fact_id for p in opinion.history if p.change in VERDICTS}
    if len(facts) > VERDICT_CANDIDATES:
        ranked = sorted(range(len(facts)), key=lambda i: (len(stems & words.stems(facts[i].content)), i))
        facts = [facts[i] for i in sorted(ranked[-VERDICT_CANDIDATES:])]
    return [fact.id for fact in facts if fact.id not in judged]


@pytest.mark.slow  # 1.6-1.8 s
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    facts=st.lists(SENTENCES, min_size=VERDICT_CANDIDATES - 5, max_size=100),
    statements=st.lists(SENTENCES, min_size=1, max_size=4),
)
def test_an_opinion_is_weighed_against_the_facts_that_share_the_most_words_with_it(
    facts: list[str], statements: list[str]
) -> None:
    days = {
        f"memory/2025-{1 + n // 28:02d}-{1 + n % 28:02d}.md": f"# Day {n}\n\n## Retain\n- W @Anna: Anna {text}.\n"
        for n, text in enumerate(facts)
    }
    opinions = "".join(f"- O(c=0.6) @Anna: Anna likes {text} {n}.\n" for n, text in enumerate(statements))
    with tempfile.TemporaryDirectory() as tmp:
        ws = write_workspace(Path(tmp) / "ws", {"bank/opinions.md": f"# Opinions\n\n{opinions}", **days})
        library = load(ws, cache=False).library
    about = [fact for fact in library.facts if fact.kind == "W"]
    chosen = {item.opinion.id: [fact.id for fact in item.facts] for item in verdict_inputs(library)}
    words = Words()
    for opinion in library.opinions:
        assert chosen.get(opinion.id, []) == by_the_rule(opinion, about, words), opinion.statement
