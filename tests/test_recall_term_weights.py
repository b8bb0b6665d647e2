"""What a line is found by and how much each word of a query weighs.

A log line carries its neighbours' text (so an answer one turn after its question is found), but a word is
weighed (BM25's IDF) by how many lines hold it themselves. A word on every sixth line is beside half of all
lines: counted over whole rows it would weigh nothing, and a question would be ranked by its other words alone.
A Retain fact stands on its own: the facts beside it are about other things.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import recall_results, write_workspace

TOPICS = ("weather", "groceries", "traffic", "laundry", "emails")


def _chat() -> str:
    """36 turns: every sixth is about dancing, the others about small things (never next to another dance turn)."""
    lines = []
    for n in range(36):
        speaker = ("Anna", "Ben")[n % 2]
        if n % 6 == 0:
            lines.append(f"- {speaker}: We had dance class number {n} tonight.")
        else:
            lines.append(f"- {speaker}: Small talk about the {TOPICS[n % 5]}, round {n}.")
    return "# 2023-03-02\n\n" + "\n".join(lines) + "\n"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path / "ws",
        {
            "memory/2023-03-02.md": _chat(),
            "memory/2023-03-09.md": "# 2023-03-09\n\n"
            "- Anna: My piano teacher moved to Lisbon.\n"
            "- Ben: Nice.\n"
            "- Ben: Okay.\n"
            "- Anna: I finally played the piano piece for my dance group and they loved it, even the new members.\n",
        },
    )


def test_a_word_beside_half_the_lines_still_weighs_what_its_own_lines_make_it(ws: Path) -> None:
    # "piano" is on two lines; "dance" on seven, beside half of all lines. The line holding both answers.
    results = recall_results("piano dance", str(ws))
    assert results[0]["source"] == "memory/2023-03-09.md#L6"


def test_a_fact_is_not_found_by_the_words_of_the_facts_beside_it(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/2023-03-10.md": "# 2023-03-10\n\n- Anna: Busy day.\n\n## Retain\n\n"
            "- W @Tom: Tom fixed my bike.\n- W @Sam: Sam rides a scooter to work.\n"
        },
    )
    assert [r["source"] for r in recall_results("fixed bike", str(ws))] == ["memory/2023-03-10.md#L7"]


def test_a_name_finds_the_facts_about_its_entity_though_their_text_does_not_say_it(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/2023-03-11.md": "# 2023-03-11\n\n- Lunch with @Tom at the harbour.\n\n## Retain\n\n"
            "- W @Tom: Fixed my bike on Saturday.\n- W @Sam: Rides a scooter to work.\n"
        },
    )
    found = [r["source"] for r in recall_results("Tom", str(ws))]
    assert found == ["memory/2023-03-11.md#L3", "memory/2023-03-11.md#L7"]  # the line that says it first
