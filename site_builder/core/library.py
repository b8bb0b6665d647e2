"""The linked model: ``Library``, every public note linked together (entities, backlinks, facts by entity, opinions)
with the ``Resolver`` that says what a name stands for, and what pages, feeds and recall ask of it again and again,
worked out once (``core.model`` holds the records it is made of).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Entity, Fact, Link, Note, Opinion

if TYPE_CHECKING:
    from site_builder.core.resolver import Resolver

# A fresh TinyClaw knowledge.md: one line in italics, "_No entries yet._" (it means empty).
PLACEHOLDER = re.compile(r"^\s*(?:#[^\n]*\n\s*)?[_*][^_*\n]+[_*]\s*$")
# Which note a day's page is, when several files share a date: the daily log first, then sessions, then the rest.
DAY_PRIORITY: dict[str, int] = {"daily": 0, "session": 1, "dream": 3}


@dataclass
class Library:
    """All notes linked together: entities, backlinks, facts and opinions."""

    notes: list[Note]
    entities: dict[str, Entity]
    facts: list[Fact]
    backlinks: dict[str, list[Link]]
    facts_by_entity: dict[str, list[Fact]]
    related: dict[str, list[tuple[str, int]]]
    opinions: list[Opinion]
    note_by_path: dict[str, Note]
    resolver: Resolver
    problems: Diagnostics = field(default_factory=lambda: Diagnostics())  # what linking found
    note_backlinks: dict[str, list[Link]] = field(default_factory=dict)  # note path -> lines of other notes linking it
    citing: dict[str, list[tuple[int, int]]] | None = None  # ``library.citing.citing_places``, when kept with it
    to_review: list[tuple[str, int, str]] | None = None  # ``library.hygiene.opinions_to_review``, when kept with it
    day_places: list[tuple[int, list[int]]] | None = None  # ``by_day`` as (ordinal, places in ``notes``), when kept
    relinked: frozenset[str] | None = None  # made from the last build's by ``library.relink``: what changed
    _about: tuple[list[Opinion], dict[str, list[Opinion]]] | None = field(default=None, init=False, repr=False)
    _seen: dict[str, list[dt.date]] = field(default_factory=dict, init=False, repr=False)

    @functools.cached_property
    def days(self) -> list[Note]:
        """One note per date, in date order: the page of that day (its daily log when there is one)."""
        return [notes[0] for notes in self.by_day.values()]

    @functools.cached_property
    def by_day(self) -> dict[dt.date, list[Note]]:
        """Every dated note, by date (in date order), the day's page first (worked out once: pages, feeds and recall
        ask for it again and again; from ``day_places`` when the library came with it, no note looked at)."""
        if self.day_places is not None:
            notes = self.notes
            return {dt.date.fromordinal(day): [notes[i] for i in places] for day, places in self.day_places}
        found: dict[dt.date, list[Note]] = {}
        for note in sorted((n for n in self.notes if n.date is not None), key=_day_order):
            assert note.date is not None
            found.setdefault(note.date, []).append(note)
        return found

    @functools.cached_property
    def core(self) -> Note | None:
        """The core memory: the note the agent loads first (``MEMORY.md``, ``memory.md``, ``knowledge.md``…). Worked
        out once: every page with the agent's view asks, and a workspace without one is every note looked through."""
        return core_of(self.notes)

    def note(self, path: str) -> Note | None:
        return self.note_by_path.get(path)

    def dreamed(self, fact: Fact) -> bool:
        """Stated inside an OpenClaw dreaming block: a machine candidate, not memory a budget should carry."""
        note = self.note_by_path.get(fact.path)
        return note is not None and note.in_dream(fact.line)

    def seen(self, key: str) -> list[dt.date]:
        """Sorted distinct dates on which the entity was mentioned or a fact named it (worked out once per entity:
        the recall directory and the entity's shard both ask)."""
        known = self._seen.get(key)
        if known is None:
            dates = {f.date for f in self.facts_by_entity.get(key, []) if f.date}
            notes = map(self.note_by_path.get, {link.path for link in self.backlinks.get(key, [])})
            dates.update(note.date for note in notes if note is not None and note.date)
            known = self._seen[key] = sorted(dates)
        return list(known)

    def opinions_about(self, key: str, opinions: list[Opinion] | None = None) -> list[Opinion]:
        """Opinions (the library's, or those given) naming the entity, in their order."""
        pool = self.opinions if opinions is None else opinions
        if self._about is None or self._about[0] is not pool:  # one pass over the opinions, not one per entity
            self._about = (pool, {})
            for opinion in pool:
                for key_ in dict.fromkeys(e.key for n in opinion.entities if (e := self.resolver.entity(n))):
                    self._about[1].setdefault(key_, []).append(opinion)
        return list(self._about[1].get(key, []))


def _day_order(note: Note) -> tuple[dt.date, int, int, str]:
    """Dated notes by date; within a day the daily log, then sessions, pages and dreams; shallow paths first."""
    return (note.date or dt.date.min, DAY_PRIORITY.get(note.kind, 2), note.path.count("/"), note.path)


def core_of(notes: list[Note]) -> Note | None:
    """The core memory among ``notes`` (in path order): the first public core note, unless it is only a placeholder."""
    core = next((n for n in notes if n.kind == "core" and not n.private), None)
    return None if core is None or PLACEHOLDER.match(core.body) else core
