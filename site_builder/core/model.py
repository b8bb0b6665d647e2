"""The data model: plain records produced by parsing and linked by the library.

Nothing here does I/O or rendering. Dates are ``datetime.date``; a fact's
``source`` is the citation ``path#L<line>`` used everywhere (site, recall).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from site_builder.core.diagnostics import Diagnostic, Diagnostics
from site_builder.core.names import page_url

if TYPE_CHECKING:
    from site_builder.core.resolver import Resolver

FactKind = Literal["W", "B", "O", "S"]
KIND_NAMES: dict[str, str] = {
    "W": "world",
    "B": "experience",
    "O": "opinion",
    "S": "observation",
}
# fmt: off
NoteKind = Literal[  # by group: the agent's own files, logs, bank, pages, TinyClaw's, ClawXMemory's
    "core", "soul", "standing",
    "daily", "session", "dream",
    "bank", "entity", "page",
    "reflections", "episodes", "skills", "skill",
    "project", "feedback",
]
# fmt: on
# A fresh TinyClaw knowledge.md: one line in italics, "_No entries yet._" (it means empty).
PLACEHOLDER = re.compile(r"^\s*(?:#[^\n]*\n\s*)?[_*][^_*\n]+[_*]\s*$")
# Which note a day's page is, when several files share a date: the daily log first, then sessions, then the rest.
DAY_PRIORITY: dict[str, int] = {"daily": 0, "session": 1, "dream": 3}


class Fact(NamedTuple):
    """A typed Retain bullet: ``- O(c=0.9) @Peter: Prefers concise replies.`` (A named tuple, like ``Link``: a large
    workspace has hundreds of thousands, which the build cache loads at every build, twice as fast as dataclasses.)"""

    id: str
    kind: str
    content: str
    entities: tuple[str, ...]
    path: str
    line: int
    date: dt.date | None
    occurred: tuple[dt.date, dt.date] | None = None
    confidence: float | None = None
    block_id: str | None = None
    mentions: tuple[str, ...] = ()  # names linked inside the text: ``@Name``, ``[[Name]]``
    by: str = ""  # who read it from the text: "" the workspace's own Retain line, "claude" Claude (``reflect.reader``)

    @property
    def source(self) -> str:
        return f"{self.path}#L{self.line}"

    @property
    def names(self) -> tuple[str, ...]:
        """Every name the fact is about: its entities, then the names linked in its text."""
        return (*self.entities, *self.mentions)


def fact_order(fact: Fact) -> tuple[str, str, int]:
    """The one order of facts everywhere: by date (undated first), then file and line."""
    return (fact.date.isoformat() if fact.date else "", fact.path, fact.line)


class Link(NamedTuple):
    """A reference from a line of a note to a target name (entity or note)."""

    path: str
    line: int
    target: str
    # "file": to a note, by wikilink, ``.md`` link or citation; "name": an entity's name in plain text
    syntax: Literal["mention", "wikilink", "fact", "file", "name"]
    sentence: str
    heading: str | None = None
    label: str | None = None


class Found(NamedTuple):
    """An entity Claude found named in a note's prose (``reflect.reader``): the line that names it cited."""

    name: str
    type: str
    aliases: tuple[str, ...]
    line: int


class Cited(NamedTuple):
    """Lines a claim rests on: a workspace path and its first and last line (0: the whole file)."""

    path: str
    first: int
    last: int
    note: str = ""


class Claim(NamedTuple):
    """A statement a memory-wiki page makes in its front matter, with its status and evidence (``parse.claims``)."""

    id: str
    text: str
    status: str  # as written, in lower case: supported, contested, superseded, stale…
    confidence: float | None
    evidence: tuple[Cited, ...]
    line: int  # where the page writes its claims


class Tag(NamedTuple):
    """A tag a note carries (``#project/memwiki`` in its text, ``tags:`` in its front matter, an episode's tags):
    its name as written, without the ``#``, and its line (in the front matter when ``front``)."""

    name: str
    line: int
    front: bool = False


class Heading(NamedTuple):
    level: int
    text: str
    slug: str
    line: int


@dataclass(frozen=True)
class Reflected:
    """What reflect recorded in a note's generated blocks: its entity summary and opinion histories."""

    summary: str = ""
    opinion_history: dict[str, list[OpinionPoint]] = field(default_factory=dict)


@dataclass(eq=False)
class Note:
    """One parsed Markdown file of the workspace (two notes are the same only if they are one object)."""

    path: str
    kind: NoteKind
    title: str
    body: str
    body_start: int
    meta: dict[str, Any] = field(default_factory=dict)
    fields: dict[str, int] = field(default_factory=dict)  # the line of each top-level key of ``meta``
    date: dt.date | None = None
    facts: list[Fact] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    file_links: list[tuple[int, str]] = field(default_factory=list)  # (line, target as written) of ``[x](y.md)`` links
    records: dict[int, dict[str, Any]] = field(default_factory=dict)  # TinyClaw's JSON records, by line
    dreaming: list[tuple[int, int]] = field(default_factory=list)  # first and last line of OpenClaw dreaming blocks

    def in_dream(self, line: int) -> bool:
        """Is the line inside a block OpenClaw's dreaming wrote (machine candidates, not memory yet)?"""
        if not self.dreaming:  # most notes: asked for every fact of the workspace by the recall bundle
            return False
        return any(start <= line <= end for start, end in self.dreaming)

    @property
    def awake_body(self) -> str:
        """The body without its dreaming blocks."""
        if not self.dreaming:
            return self.body
        lines = self.body.split("\n")
        return "\n".join(line for i, line in enumerate(lines) if not self.in_dream(self.body_start + i))

    headings: list[Heading] = field(default_factory=list)
    tags: list[Tag] = field(
        default_factory=list
    )  # front matter's first, then the text's in line order (``parse.tags``)
    claims: tuple[Claim, ...] = ()  # what its front matter claims (a memory-wiki page)
    found: tuple[Found, ...] = ()  # the entities Claude found in its prose (``reflect.reader``)
    private: bool = False
    reflected: Reflected = field(default_factory=lambda: Reflected())  # what reflect's blocks recorded
    problems: list[Diagnostic] = field(default_factory=list)  # what parsing this file found, with file:line
    digest: str = ""  # hash of the source text: tells a changed file from an unchanged one
    filled_lines: int = 0  # how many lines of the body hold any text: a day's measure on the timeline's calendars
    chars: int = field(init=False, default=0)  # len(body), counted once: the agent page sums it, reading no body

    def __post_init__(self) -> None:
        self.chars = len(self.body)

    @property
    def stem(self) -> str:
        return self.path.rsplit("/", 1)[-1].removesuffix(".md")

    @functools.cached_property
    def url(self) -> str:
        """Site path of its page, like its path (``x.md.html`` where memwiki's pages are); every link to it asks."""
        return page_url(self.path)

    def line_text(self, line: int) -> str:
        lines = self.body.split("\n")
        index = line - self.body_start
        return lines[index] if 0 <= index < len(lines) else ""


@dataclass
class Entity:
    """A person, place, project or thing, with or without a page of its own."""

    key: str
    name: str
    slug: str
    note: Note | None = None
    aliases: tuple[str, ...] = ()
    type: str = ""
    prose: bool = False  # found in prose (``library.prose_entities``): a page of its own is not missing
    home: str = ""  # the note about it that is no entity page: the profile of the user, the identity of the agent
    by: str = ""  # "claude": Claude found it in prose and nothing else names it so (``reflect.reader``)

    @property
    def placeholder(self) -> bool:
        """Named by a link, without a page: the site makes one, the hygiene report asks for one."""
        return self.note is None and not self.prose and not self.home

    @property
    def url(self) -> str:
        return f"bank/entities/{self.slug}.html"


class OpinionPoint(NamedTuple):
    """One value in an opinion's confidence history and the fact that set it.

    ``change`` is how: ``stated``/``restated`` (an ``O(c=…)`` bullet) or reflect's
    verdict on evidence (``reinforces``, ``weakens``, ``contradicts``). ``fact`` is
    None when the fact has since been removed from the workspace; the point stays.
    A point with its fact cites where that fact is (``source`` is ``fact.source``).
    (A named tuple, like ``Fact``: a heavy workspace's history is a million points, loaded at every build.)
    """

    date: dt.date | None
    confidence: float
    change: str
    fact_id: str
    source: str
    text: str = ""
    fact: Fact | None = None


class Evidence(NamedTuple):
    fact: Fact
    stance: Literal["supports", "contradicts", "restates", "reinforces", "weakens"]


@dataclass
class Opinion:
    """A belief with a confidence that follows its evidence over time."""

    id: str
    statement: str
    entities: tuple[str, ...]
    confidence: float
    changed: dt.date | None
    history: list[OpinionPoint]
    evidence: list[Evidence]
    origin: Fact


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
