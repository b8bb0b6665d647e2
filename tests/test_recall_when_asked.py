"""Recall for questions about time: a line written in the time a question names comes before small talk of other
times, and a question that asks when prefers the line that says when."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.recall import search, when_asked
from tests.conftest import recall_sources as recall
from tests.conftest import write_workspace

GROCERIES = "# 2023-05-01\n\n" + "".join(
    f"- {('Anna', 'Ben')[n % 2]}: Groceries list {n}: bread, milk.\n" for n in range(30)
)


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


@pytest.fixture
def pottery(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path / "ws",
        {
            "memory.md": "# Memory\n\n- Friends: @Anna and @Ben.\n",
            "memory/2023-05-01.md": GROCERIES,
            "memory/2023-07-03.md": "# 2023-07-03\n\n"
            "- Ben: How are you, Anna?\n"
            "- Anna: Pottery is so calming.\n"
            "- Ben: Nice, Anna.\n"
            "- Anna: I signed up for a pottery class yesterday, finally!\n",
        },
    )


CALMING, SIGNED_UP = "memory/2023-07-03.md#L4", "memory/2023-07-03.md#L6"


def test_a_question_that_asks_when_prefers_the_line_that_says_when(pottery: Path) -> None:
    assert recall("When did Anna start pottery?", str(pottery))[0] == SIGNED_UP  # "yesterday"
    assert recall("What does Anna think of pottery?", str(pottery))[0] == CALMING  # asks no time: the shorter match


def test_the_lift_for_saying_when_is_what_puts_it_first(pottery: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "SAYS_WHEN_LIFT", 1.0)
    assert recall("When did Anna start pottery?", str(pottery))[0] == CALMING


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("When did Anna start pottery?", True),
        ("How long has Nate had his turtles?", True),
        ("How many pots did Anna make?", True),
        ("In which year did Jo move?", True),
        ("What games did Anna play at the picnic?", False),
        ("Where did Ben go last week?", False),  # the time is a filter here, not what is asked
        ("How did Anna feel when Ben left?", False),  # "when" joins two clauses here
        ("So when did Ben leave?", True),
        ("¿Cuándo bajé Bitcoin Core a la v29.2?", True),  # memory's other languages ask too
        ("¿Cuántos sats le pedí a Daniel?", True),
        ("¿En qué año se mudó Jo?", True),
        ("Lo hice cuando llegó Ben.", False),  # without its accent, "cuando" joins two clauses
        ("Quand est-ce que Ben est parti ?", True),
        ("Wie lange dauert der Download?", True),
        ("我们什么时候买的硬件？", True),
        ("几乎没有人来。", False),  # 几乎: "almost", not "how many"
    ],
)
def test_which_questions_ask_when(question: str, asks: bool) -> None:
    assert when_asked.asks_when(question) is asks


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("I signed up for a class yesterday!", True),
        ("We went camping two weekends ago.", True),
        ("I've had them for 3 years now.", True),
        ("The gig is on Friday.", True),
        ("Pottery is so calming.", False),
        ("I may try it sometime.", False),  # "may" is a verb, not the month
    ],
)
def test_which_lines_say_when(line: str, says: bool) -> None:
    assert when_asked.says_when(line) is says


def test_a_query_is_read_up_to_its_first_2000_characters(pottery: Path) -> None:
    """Longer text is not a question: what it says past the cut (here that it asks when) is not read, and a huge
    query costs no more than its first part."""
    long = "What does Anna think of pottery? " + "zzz " * 600
    assert recall(long + "When did she start?", str(pottery))[0] == CALMING
    assert recall("When did Anna start? " + long, str(pottery))[0] == SIGNED_UP  # said before the cut: read
