"""Recall for questions that ask for a place or a title: the line that names one comes before lines that only share
the question's words, even when the question's words do not find it at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.recall import candidates, search
from site_builder.recall.answer_types import asked_kinds, names_place, names_title
from tests.conftest import recall_sources as recall
from tests.conftest import write_workspace

FILLER = "".join(f"- Gina: The weather was grey today, note {n}.\n" for n in range(30))  # gives "Jon" its weight
SMALL_TALK = ["- Jon: Not yet, Gina. I will soon.", "- Jon: Busy week at work, Gina."]  # share only "Jon"
ROME = "- Jon: Took a short trip last week to Rome to clear my mind a little."


@pytest.fixture
def trips(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path / "ws",
        {
            "memory.md": "# Memory\n\n- Friends: @Jon and @Gina.\n",
            "memory/2023-01-05.md": "# 2023-01-05\n\n- Gina: I visited the new bakery downtown.\n" + FILLER,
            "memory/2023-01-20.md": "# 2023-01-20\n\n" + "\n".join(SMALL_TALK) + "\n",
            "memory/2023-06-19.md": "# 2023-06-19\n\n- Gina: Hey Jon, how was your week?\n" + ROME + "\n",
        },
    )


ROME_SOURCE = "memory/2023-06-19.md#L4"
SMALL_TALK_SOURCES = ["memory/2023-01-20.md#L3", "memory/2023-01-20.md#L4"]
QUESTION = "Which cities has Jon visited?"


def test_a_question_asking_which_cities_puts_the_line_naming_a_city_before_small_talk(trips: Path) -> None:
    sources = recall(QUESTION, str(trips))
    assert all(sources.index(ROME_SOURCE) < sources.index(other) for other in SMALL_TALK_SOURCES)
    sources = recall("What has Jon done?", str(trips))  # asks for no place
    assert any(sources.index(ROME_SOURCE) > sources.index(other) for other in SMALL_TALK_SOURCES)


def test_the_answer_support_is_what_puts_it_there(trips: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "ANSWER_SUPPORT", 0.0)
    sources = recall(QUESTION, str(trips))
    assert any(sources.index(ROME_SOURCE) > sources.index(other) for other in SMALL_TALK_SOURCES)


def test_a_line_naming_a_place_is_found_beyond_the_lines_the_questions_words_match_best(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many short lines say "Jon"; the one naming Rome is longer and past the candidates BM25 ranks first (made few
    here), yet it is found among the lines that name Jon, and the support puts it above them."""
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory.md": "# Memory\n\n- Friends: @Jon and @Gina.\n",
            "memory/2023-01-05.md": "# 2023-01-05\n\n- Gina: I keep a list of the cities I visited.\n" + FILLER,
            "memory/2023-01-20.md": "# 2023-01-20\n\n" + "- Gina: Hi Jon!\n" * 30,
            "memory/2023-06-19.md": "# 2023-06-19\n\n" + ROME + "\n",
        },
    )
    monkeypatch.setattr(candidates, "CANDIDATES", 10)
    assert ROME_SOURCE.replace("L4", "L3") in recall(QUESTION, str(ws), "--k", "3")
    monkeypatch.setattr(candidates, "NAMING_SCAN", 0)  # no line but the candidates is read: not found
    assert ROME_SOURCE.replace("L4", "L3") not in recall(QUESTION, str(ws), "--k", "3")


def test_a_question_asking_for_books_puts_the_line_that_quotes_a_title_before_small_talk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory.md": "# Memory\n\n- Friends: @Tim and @John.\n",
            "memory/2023-07-01.md": "# 2023-07-01\n\n" + FILLER.replace("Gina", "John"),
            "memory/2023-08-01.md": "# 2023-08-01\n\n- Tim: Not yet, John. I will soon.\n- Tim: Busy week, John.\n",
            "memory/2023-08-09.md": "# 2023-08-09\n\n- John: Hey Tim, what is new?\n"
            '- Tim: Great shelf! You had "The Alchemist" on there, a favourite.\n',
        },
    )
    alchemist, small_talk = "memory/2023-08-09.md#L4", ["memory/2023-08-01.md#L3", "memory/2023-08-01.md#L4"]
    sources = recall("What books has Tim read?", str(ws))
    assert all(sources.index(alchemist) < sources.index(other) for other in small_talk)
    monkeypatch.setattr(search, "ANSWER_SUPPORT", 0.0)
    sources = recall("What books has Tim read?", str(ws))
    assert any(sources.index(alchemist) > sources.index(other) for other in small_talk)


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Which cities has Jon visited?", ["place"]),
        ("Where did Caroline move from?", ["place"]),
        ("What European countries has Maria been to?", ["place"]),
        ("What books has Tim read?", ["title"]),
        ("Which TV series does Tim mention watching?", ["title"]),
        ("Which city did Tim see in the film?", ["place", "title"]),
        ("What does Melanie do to destress?", []),
        ("¿Dónde vive Oscar?", ["place"]),  # memory's other languages ask too
        ("¿En qué país nació Daniel?", ["place"]),
        ("Wo wohnt Miguel?", ["place"]),
        ("¿Qué libros leyó Tim?", ["title"]),
        ("Who pays the rent?", []),  # "pays" is French for a country, an English verb here
    ],
)
def test_which_questions_ask_for_a_place_or_a_title(question: str, asks: list[str]) -> None:
    assert list(asked_kinds(question)) == asks


def line(text: str, entities: str = "") -> tuple[object, ...]:
    return ("memory/2023-01-01.md", 3, text, "2023-01-01", "log", entities, None, None, None, 0.0)


@pytest.mark.parametrize(
    ("text", "entities", "names"),
    [
        ("Jon: Took a short trip last week to Rome to clear my mind.", "", True),
        ("We drove from New York City to Rio de Janeiro.", "", True),
        ("Tim: Wow, Chicago sounds great!", "", True),  # after a comma
        ("John: Wow, that looks great! Where in England was it?", "", True),  # after a capitalised stop word
        ("In São Paulo the food was great.", "", True),
        ("Jon: Nice one, Gina!", "", False),  # starts the sentence and is a common word: not the city
        ("Nate: That's great, Joanna! Iron Man is my top pick.", "", False),  # nor "Man" after "Iron"
        ("Gina: New York was busy.", "", True),  # a name may start a sentence
        ("Florence is the main stop and has the concert.", "", True),
        ("We stayed a night in Nice.", "", True),  # inside a sentence, a common word is a city too
        ("Had lunch with Austin today.", "austin", False),  # one of the line's entities: a person
        ("Austin: Had lunch in the park today.", "", False),  # the speaker
        ("I went to the park with the kids.", "", False),
    ],
)
def test_which_lines_name_a_place(text: str, entities: str, names: bool) -> None:
    assert names_place(line(text, entities)) is names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ('Tim: I saw that you had "The Alchemist" on there.', True),
        ("Joanna watched 'The Lord of the Rings' Trilogy on Nate's advice.", True),
        ("I finally finished *Dune* last night.", True),
        ("Have you read all of George R. R. Martin's books?", True),
        ("We watched the Harry Potter films again.", True),
        ("It's Tim's 'thing', I'd say.", False),  # a quoted word that is no name
        ("Joanna: Thanks Nate! I absolutely love DIYs, and I know she does too.", False),
        ("Tim: I read every day before bed.", False),
    ],
)
def test_which_lines_name_a_title(text: str, names: bool) -> None:
    assert names_title(line(text)) is names
