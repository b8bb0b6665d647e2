"""The data model: plain records produced by parsing and linked by the library (``core.library.Library``).

Nothing here does I/O or rendering. Dates are ``datetime.date``; a fact's
``source`` is the citation ``path#L<line>`` used everywhere (site, recall).
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from site_builder.core.diagnostics import Diagnostic
from site_builder.core.names import page_url

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
