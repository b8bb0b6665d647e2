"""Recall for questions about a time: a line written in the time a question names comes before small talk of other
times."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from site_builder.recall import when_asked
from tests.conftest import run, write_workspace


def recall(*args: str) -> list[str]:
    """The sources of the results, best first."""
    result = run("recall", *args, "--json")
    assert result.exit_code == 0, result.output
    results: list[dict[str, Any]] = json.loads(result.output)["results"]
    return [r["source"] for r in results]


@pytest.fixture
def april(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path / "ws",
        {
            "memory.md": "# Memory\n\n- Friends: @Nate and @Jo.\n",
            "memory/2024-02-01.md": "# 2024-02-01\n\n"
            "- Nate: I want a change, new looks for the living room: a change of colours and looks.\n"
            "- Jo: Sounds like a plan, Nate.\n"
            "- Nate: Thanks Jo, see you on Friday.\n"
            "- Jo: Bye Nate!\n",
            "memory/2024-04-12.md": "# 2024-04-12\n\n"
            "- Jo: Hey Nate, how have you been?\n"
            "- Nate: Guess what, I dyed my hair purple last week!\n",
            "memory/2024-06-01.md": "# 2024-06-01\n\n- Nate: Jo, the turtles are fine.\n- Jo: Good to hear, Nate.\n",
        },
    )


QUESTION = "What did Nate change about his looks in April 2024?"
DYED = "memory/2024-04-12.md#L4"  # shares only "Nate" with the question, but was written in April
SMALL_TALK = ["memory/2024-02-01.md#L5", "memory/2024-02-01.md#L6"]  # on the day that matches the question best


def test_a_line_written_in_the_month_the_question_names_comes_before_small_talk_of_other_months(april: Path) -> None:
    sources = recall(QUESTION, str(april), "--now", "2024-07-01")
    assert sources[0] == "memory/2024-02-01.md#L3"  # the line that matches the question still comes first
    assert all(sources.index(DYED) < sources.index(other) for other in SMALL_TALK)


def test_the_time_support_is_what_puts_it_there(april: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(when_asked, "TIME_SUPPORT", 0.0)
    sources = recall(QUESTION, str(april), "--now", "2024-07-01")
    assert all(sources.index(DYED) > sources.index(other) for other in SMALL_TALK)
