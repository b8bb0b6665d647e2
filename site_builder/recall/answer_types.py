"""Questions that ask for a place or a title, and the lines that name one.

"Which cities has Jon visited?" is answered by "Took a short trip last week to
Rome to clear my mind", which shares nothing with the question but Jon; "What
books has Tim read?" by `Great bookshelf! I saw you had "The Alchemist"`. Like
a question that asks when (``when_asked.py``), such a question says what kind
of thing its answer names, and the lines that name one are likelier answers:
- a *place*: "where", or a city, country, state, town, region, area, place or
  location asked for (in Spanish, Portuguese, French, German and Italian too:
  "¿Dónde…?", "Wo…?"); a line names one when a capitalised name in it is a
  country, continent, US state or city of at least 100,000 people
  (``places.txt``, from GeoNames), not one of the line's own entities or its
  speaker (``@Austin`` is a person), and, at the start of a sentence, not a
  city that is also a common word ("Nice one, Jon!"; "Florence is lovely" and
  "a trip to Nice" name one);
- a *title*: a book, novel, author, film, show, series, song, album, band,
  artist, game or podcast asked for; a line names one when it quotes a name
  (``"The Alchemist"``, ``*Dune*``) or has two capitalised words in a row inside a
  sentence ("the Harry Potter books", "a Taylor Swift concert").

``search.py`` gives each line that names what is asked a share of the
query's best score (``ANSWER_SUPPORT``, the share ``when_asked.TIME_SUPPORT``
gives a line of the time asked), and looks for such lines among all the lines
that name the people the question names, not only among those its words
match best (``candidates.lines_naming``; such a line scores by the names it
shares with the question). Measured on the LoCoMo dev conversations, evidence
recall at 10: 82.2 → 82.7 (multi-hop 47.9 → 49.3, open-domain 37.5 → 40.5,
temporal 87.6 → 88.7; single-hop and adversarial unchanged; +0.1 on the first
two conversations, +0.6 on the other three, whose questions ask for places and
titles more often).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from importlib import resources

from site_builder.core.stop_words import STOP_WORDS
from site_builder.recall.dialogue import speaker
from site_builder.recall.evidence import Row
from site_builder.recall.scripts import fold_accents

ANSWER_SUPPORT = 0.2  # share of the query's best score that a line naming what is asked gets on top of its own

Names = Callable[[Row], bool]  # does this line name what the question asks for?

_ASKS_PLACE = re.compile(
    r"\bwhere\b|\b(?:cit(?:y|ies)|countr(?:y|ies)|states?|towns?|regions?|areas?|places?|locations?)\b"
    # the same in the other languages memory is written in: Spanish, Portuguese, French, German, Italian
    r"|\b(?:d[oó]nde|onde|où|wo|ciudad(?:es)?|cidades?|villes?|städte|stadt|città|pa[ií]s(?:es)?|länder"
    r"|lugar(?:es)?|lieux?|orte?)\b",
    re.IGNORECASE,
)
_ASKS_TITLE = re.compile(
    r"\b(?:books?|novels?|authors?|writers?|movies?|films?|shows?|series|songs?|albums?|bands?|artists?|musicians?"
    r"|singers?|games?|podcasts?"
    r"|libros?|livros?|livres?|b[uü]ch(?:er)?|libri|pel[ií]culas?|filmes?|canci[oó]n(?:es)?|can[cç][oõ]es|chansons?"
    r"|lieder|juegos?|jogos?|jeux|spiele?|autor(?:es|en)?|auteurs?)\b",
    re.IGNORECASE,
)
_UPPER = "A-ZÀ-ÖØ-Þ"
_CAPITALISED = rf"(?:[{_UPPER}]\.|[{_UPPER}](?:[\w'’-]|\.(?=\w))*)"  # "Rome", "U.S", "R." (an initial)
_JOINERS = "de|del|da|do|dos|das|di|du|la|le|el|of|upon|am|the|and|on|in|to|for|a|an"
_RUN = re.compile(rf"{_CAPITALISED}(?:(?: (?:{_JOINERS})){{0,2}} {_CAPITALISED})*")
_NOT_NAMES = frozenset(["I", "I'm", "I'll", "I've", "I'd", "I’m", "I’ll", "I’ve", "I’d"])
_QUOTED = re.compile(
    r'"[^"\n]{2,80}"|“[^”\n]{2,80}”|‘[^’\n]{2,80}’|(?<!\w)\'[A-ZÀ-Þ][^\'\n]{1,80}\'(?!\w)'
    r"|(?<![\w*])\*[A-ZÀ-Þ][^*\n]{1,80}\*(?!\*)|(?<!\w)_[A-ZÀ-Þ][^_\n]{1,80}_(?!\w)"
)
_QUOTE_MARKS = ('"', "“", "‘", " '", "*", "_")  # a quick test before ``_QUOTED``
_LONGEST_NAME = 4  # words


def asked_kinds(question: str) -> tuple[str, ...]:
    """What the question's answer names: ``("place",)``, ``("title",)``, both or neither."""
    return tuple(kind for kind, asks in (("place", _ASKS_PLACE), ("title", _ASKS_TITLE)) if asks.search(question))


def asked_for(question: str) -> Names | None:
    """A test of whether a line names what the question asks for (each line tested once), or None when it asks for
    neither a place nor a title."""
    tests = [{"place": names_place, "title": names_title}[kind] for kind in asked_kinds(question)]
    if not tests:
        return None
    tested: dict[tuple[str, int], bool] = {}

    def names(row: Row) -> bool:
        if (row[0], row[1]) not in tested:
            tested[row[0], row[1]] = any(test(row) for test in tests)
        return tested[row[0], row[1]]

    return names


def names_place(row: Row) -> bool:
    """Does the line name a place (not one of its entities, not its speaker)? A run of capitalised words that starts
    a sentence names one only from its first word, and not with a city that is also a common word ("Nice one, Jon!",
    "Iron Man is my pick"; "Florence is lovely", "New York was busy" do)."""
    places, common = _places()
    for run, starts in _capitalised_runs(row[2]):
        for name in _spans(run, from_first=starts):
            if starts and name in common:
                continue
            if name in places and fold_accents(name.casefold().replace(" ", "-")) not in _own(row):
                return True
    return False


def _own(row: Row) -> set[str]:
    """The folded keys of a line's entities and of its speaker: names in it that are not places."""
    return {fold_accents(key) for key in row[5].split()} | {speaker(row[2])}


def names_title(row: Row) -> bool:
    """Does the line quote a name or have two capitalised words in a row inside a sentence?"""
    text = row[2]
    if any(mark in text for mark in _QUOTE_MARKS) and _QUOTED.search(text):
        return True
    return any(not starts and sum(not word.islower() for word in run) >= 2 for run, starts in _capitalised_runs(text))


def _capitalised_runs(text: str) -> list[tuple[list[str], bool]]:
    """Runs of capitalised words ("to New York City", "of Rio de Janeiro"), each word without a possessive, and
    whether the run starts a sentence; lower-case joiners ("de", "of the") may stand between the words. Inside a
    sentence a word follows a lower-case letter, a digit or a comma (not a full stop, a colon or the start of the
    line); a capitalised stop word that starts one is left out and the run after it is inside ("In Paris", "The
    Minnesota Wolves")."""
    runs = []
    for match in _RUN.finditer(text):
        run = match[0]
        if run in _NOT_NAMES:
            continue
        words = run.split(" ")
        at = match.start() - 1
        while at >= 0 and text[at] == " ":
            at -= 1
        before = text[at] if at >= 0 else "."
        starts = not (before.islower() or before.isdigit() or before in ",;(")
        if starts:
            first = 0
            while first < len(words) and (words[first].casefold() in STOP_WORDS or words[first].islower()):
                first += 1  # "Where in England", "The Hobbit": the name starts after the stop word
            words, starts = words[first:], first == 0
        if "'" in run or "’" in run:
            words = [word.removesuffix("'s").removesuffix("’s") for word in words]
        while words and words[0] in _NOT_NAMES:
            words.pop(0)
        if words:
            runs.append((words, starts))
    return runs


def _spans(run: list[str], *, from_first: bool = False) -> list[str]:
    """Every stretch of up to ``_LONGEST_NAME`` words of a run that starts and ends with a capitalised word (only
    those that start with its first word when ``from_first``)."""
    return [
        " ".join(run[i:j])
        for i in range(1 if from_first else len(run))
        if not run[i].islower()
        for j in range(i + 1, min(len(run), i + _LONGEST_NAME) + 1)
        if not run[j - 1].islower()
    ]


@functools.cache
def _places() -> tuple[frozenset[str], frozenset[str]]:
    """The place names of ``places.txt``, and those of them that are also common words (marked ``~``)."""
    text = resources.files("site_builder.recall").joinpath("places.txt").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    common = [line[1:] for line in lines if line.startswith("~")]
    names = [line.removeprefix("~") for line in lines]
    return frozenset([*names, *(name.rstrip(".") for name in names)]), frozenset(common)  # "U.S." is read as "U.S"
