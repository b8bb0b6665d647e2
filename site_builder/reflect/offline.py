"""The offline reflector: deterministic entity summaries and evidence verdicts, no network.

Summaries are a short paragraph built from the strongest recent facts (the
newest world/observation fact and the newest thing the agent did), the beliefs
held about the entity and who it comes up with. Verdicts are conservative: a
fact counts as evidence only when it shares at least two content words with
the opinion's statement; negation words make it weaken or contradict.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from typing import Any

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.library import Library
from site_builder.core.model import Entity, Fact, Note, Opinion
from site_builder.core.stop_words import STOP_WORDS
from site_builder.io.memo_store import MemoStore
from site_builder.reflect.reflector import EntityInput, Usage, VerdictInput

NEGATIONS = frozenset(
    [
        "not",
        "no",
        "never",
        "instead",
        "stopped",
        "didn't",
        "doesn't",
        "isn't",
        "wasn't",
        "won't",
        "can't",
        "cannot",
        "rejected",
        "cancelled",
        "canceled",
        "dropped",
        "failed",
        "against",
        "worse",
        "over",
        "unlikely",
        "neither",
        "nor",
    ]
)


class OfflineReflector:
    """Deterministic summaries and verdicts from the facts alone; no network."""

    name = "offline"

    def __init__(self) -> None:
        self.usage = Usage()

    def summaries(self, entities: list[EntityInput], diagnostics: Diagnostics) -> dict[str, str]:
        return {e.key: e.offline for e in entities}

    def verdicts(self, items: list[VerdictInput], diagnostics: Diagnostics) -> dict[tuple[str, str], str]:
        """Only the facts that bear on an opinion are returned (a fact left out is irrelevant to it). Each fact's
        words are found once, however many opinions it is weighed against."""
        words = Words()
        found = {}
        for item in items:
            for fact in item.facts:
                verdict = weigh(item.opinion, fact, words)
                if verdict != "irrelevant":
                    found[(item.opinion.id, fact.id)] = verdict
        return found

    def read(self, notes: list[Note], store: MemoStore, diagnostics: Diagnostics) -> dict[str, dict[str, Any]]:
        return {}  # the offline reader's findings are linking's (``library.prose_entities``)

    def cache_files(self) -> dict[str, bytes]:
        return {}


def offline_summary(entity: Entity, library: Library, opinions: list[Opinion]) -> str:
    facts = [f for f in library.facts_by_entity.get(entity.key, []) if f.kind != "O"]
    seen = library.seen(entity.key)
    who = f"{entity.name} ({entity.type})" if entity.type else entity.name
    if len(seen) > 1:
        sentences = [f"{who} comes up on {len(seen)} days between {_day(seen[0])} and {_day(seen[-1])}."]
    elif seen:
        sentences = [f"{who} comes up on {_day(seen[0])}."]
    else:
        mentions = len(library.backlinks.get(entity.key, []))
        if mentions:
            lines = "1 line" if mentions == 1 else f"{mentions} lines"
            sentences = [f"{who} is named on {lines} of undated notes."]
        else:
            sentences = [f"{who} has a page but no facts or mentions yet."]
    for fact in _strongest(facts):
        when = f" ({_day(fact.date)})" if fact.date and fact.date.isoformat() not in fact.content else ""
        sentences.append(f"{_sentence(fact.content)[:-1]}{when}.")
    names = {e.name for e in library.entities.values()} | {a for e in library.entities.values() for a in e.aliases}
    for opinion in opinions[:2]:
        statement = _lower_first(_sentence(opinion.statement), names)
        sentences.append(f"I believe {statement[:-1]} (confidence {opinion.confidence:.2f}).")
    related = [library.entities[k].name for k, _ in library.related.get(entity.key, [])[:3]]
    if related:
        listed = related[0] if len(related) == 1 else ", ".join(related[:-1]) + " and " + related[-1]
        sentences.append(f"Often mentioned with {listed}.")
    return " ".join(sentences)


class Words:
    """The word stems of texts and of entity names, each text's found once (a fact is weighed against every
    opinion about its entities)."""

    def __init__(self) -> None:
        stem_of = functools.cache(_stem_of)  # a word met again (most are: a workspace has a few thousand) is looked up
        self.stems = functools.cache(lambda text: {stem for word in _words(text) if (stem := stem_of(word))})
        self.names = functools.cache(lambda names: frozenset(w for n in names for w in _words(n)))
        self.negated = functools.cache(lambda text: bool(set(re.findall(r"[\w']+", text.casefold())) & NEGATIONS))


def weigh(opinion: Opinion, fact: Fact, words: Words) -> str:
    """reinforces / weakens / contradicts / irrelevant, from shared words and negation (``words`` finds each
    text's words once)."""
    names = words.names(opinion.entities)
    shared = (words.stems(opinion.statement) & words.stems(fact.content)) - names
    if len(shared) < 2:
        return "irrelevant"
    if words.negated(fact.content):
        return "contradicts" if len(shared) >= 3 else "weakens"
    return "reinforces"


def _strongest(facts: list[Fact]) -> list[Fact]:
    """The newest world/observation fact and the newest experience, newest first."""
    newest = sorted(facts, key=lambda f: (f.date or dt.date.min, f.path, f.line), reverse=True)
    chosen = []
    for kinds in (("W", "S"), ("B",)):
        match = next((f for f in newest if f.kind in kinds), None)
        if match:
            chosen.append(match)
    return sorted(chosen, key=lambda f: (f.date or dt.date.min, f.path, f.line), reverse=True)


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.casefold()))


_WORD = re.compile(r"\w+")


def _stem_of(word: str) -> str:
    """The word's stem, or "" for a word that says nothing about a statement (a stop word, a number, a short one)."""
    return "" if word in STOP_WORDS or len(word) < 3 or word.isdigit() else _stem(word)


def _stem(word: str) -> str:
    """A crude stemmer, enough to match 'mornings' with 'morning': plural, then -ing/-ed."""
    if word.endswith("s") and not word.endswith("ss") and len(word) > 4:
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _sentence(text: str) -> str:
    text = " ".join(text.split()).rstrip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _lower_first(text: str, names: set[str]) -> str:
    """Lower-case the first word so the statement reads inside a sentence, unless it is a name or acronym."""
    first, _, rest = text.partition(" ")
    bare = re.sub(r"\W+$", "", first).removesuffix("'s")
    if bare in names or first.isupper() or (len(first) > 1 and first[1].isupper()):
        return text
    return f"{first[:1].lower()}{first[1:]} {rest}"


def _day(day: dt.date) -> str:
    return f"{day.day} {day:%B %Y}"
