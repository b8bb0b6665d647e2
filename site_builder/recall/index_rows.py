"""What one note becomes in the recall index: a row per searchable line, a log line with its neighbours as context.

A line of a log or page often answers in two lines (a question and the turn
after it), so its row holds the text of the lines next to it and of the list item
or lead-in it hangs from, and the headings it sits under (a column of their own:
"## Blockers" says what the lines below it are, and a heading on every line weighs
nothing there); a table row reads with its header (``surroundings``). A Retain fact
stands on its own: the facts around it are about other things, so it has no
context and is no other line's context. Each row has a prior, what it is worth
before any query (``prior``): the agent's curated memory states a thing as it
stands now, and a line of sample code is an example, not the workspace's own.

The rows come from the note's one parse: its facts, headings and links (with
the plain sentence of each linked line) are what the parser made; only the
lines that hold no link are made plain here. A build indexes every line of a
workspace, so this runs once per line and does little per line.

Imported only when a file has to be indexed (``RecallIndex.update``): a query on
an unchanged workspace needs none of the parsing behind it.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from collections.abc import Iterable
from typing import NamedTuple

from site_builder.core.model import Fact, Note
from site_builder.core.names import entity_key
from site_builder.library.opinions import DEFAULT_CONFIDENCE, opinion_key
from site_builder.parse.lines import walk_lines
from site_builder.parse.link_syntax import plain_sentence
from site_builder.parse.retain import RETAIN_HEADING
from site_builder.recall.surroundings import (
    TIMED_HEADING,
    front_matter_rows,
    heading_day,
    parents,
    sections,
    table_rows,
)

CONTEXT_LINES = 1
TABLE_RULE = frozenset("|-: ")  # a line of only these is a Markdown table's rule, not text
# The agent's curated memory: its core memory, profile and standing files, its bank and entity pages, its feedback
# and project notes. Where memory states a thing twice, their statement is the current one; a line of sample code
# (inside a fence) is an example, not what the workspace itself does.
CURATED_KINDS = frozenset({"core", "soul", "standing", "bank", "entity", "feedback", "project"})
CURATED_TYPES = frozenset({"user", "project", "reference", "feedback"})  # a Claude Code memory's ``type``
CURATED_PRIOR = 1.5
CODE_PRIOR = 0.8
PATH_WORDS = re.compile(r"[\W\d_]+")
WORDS = re.compile(r"[^\W\d_]{2}")  # two letters in a row


class Doc(NamedTuple):
    path: str
    line: int
    date: str | None
    kind: str
    entities: tuple[str, ...]
    content: str
    context: str
    occurred: str | None = None  # "start/end" (ISO dates) of when a fact happens
    confidence: float | None = None
    opinion: str | None = None  # the opinion an O fact states (restatements share it)
    heading: str = ""  # the headings a line that is not a fact sits under, outermost first
    prior: float = 1.0  # what the line is worth before any query (``prior``)


def docs_of(note: Note, subject: str | None = None) -> list[Doc]:
    """Every searchable line of a note (code inside fences too; not fence lines or comments), its headings and its
    front matter's fields; each line that is not a fact with its neighbours and what it hangs from
    (``surroundings``); each about ``subject`` (an entity key) when the whole note is."""
    linked: dict[int, list[str]] = {}
    sentences: dict[int, str] = {}  # the parser's plain sentence of each line that holds a link
    for link in note.links:
        linked.setdefault(link.line, []).append(link.target)
        if link.syntax in ("mention", "wikilink"):
            sentences[link.line] = link.sentence
    searchable, code = _searchable(note)
    tables = table_rows(searchable) if "|" in note.body else {}
    hanging = parents(searchable)
    headed = {h.line for h in note.headings}
    rows = _rows(note, subject, searchable, tables, linked, sentences)
    contents = ["" if fact else content for _, content, _, fact in rows]  # a fact is no line's context
    is_heading = [number in headed for number, *_ in rows]
    around = sections(note, [number for number, *_ in rows])
    docs = []
    worth = prior(note)
    where = "" if note.date else PATH_WORDS.sub(" ", note.path.removesuffix(".md"))  # "projects home olivella solar"
    kind = "log" if note.kind == "daily" else "page"
    for i, (number, content, entities, fact) in enumerate(rows):
        section = around[i]
        day = note.date or (heading_day(content) if number in headed else None) or section.day
        date = day.isoformat() if day else None
        if fact is not None:
            docs.append(Doc(note.path, number, date, fact.kind, entities, content, "", *_about(fact), prior=worth))
            continue
        near = _neighbours(contents, is_heading, i)
        if number in hanging and hanging[number] not in near:
            near.append(hanging[number])
        heading = f"{section.headings} {tables[number][1]}" if number in tables else section.headings
        if where:
            heading = f"{where} {heading}"
        line_worth = worth * CODE_PRIOR if number in code else worth
        context = " ".join(filter(None, near))
        docs.append(Doc(note.path, number, date, kind, entities, content, context, heading=heading, prior=line_worth))
    return docs


Row = tuple[int, str, tuple[str, ...], Fact | None]  # line, content, entities, fact


def _rows(
    note: Note,
    subject: str | None,
    searchable: list[tuple[int, str]],
    tables: dict[int, tuple[str, str]],
    linked: dict[int, list[str]],
    sentences: dict[int, str],
) -> list[Row]:
    """The note's front-matter fields written in words, then its lines, in order: each fact, heading (not its
    title, not one that only stamps a time: ``_says_what``) and line of text, with its entities."""
    facts = {f.line: f for f in note.facts}
    rows: list[Row] = [(line, text, (subject,) if subject else (), None) for line, text in front_matter_rows(note)]
    headed = {h.line for h in note.headings}
    title_line = next((h.line for h in note.headings[:1] if h.level == 1 or h.text == note.title), 0)
    for number, text in searchable:
        fact = facts.get(number)
        if fact is not None:
            rows.append((number, fact.content, _keys(fact.names, subject), fact))
            continue
        if number in tables:
            content = tables[number][0]
        else:
            content = sentences[number] if number in sentences else plain_sentence(text)
        if number in headed:  # a heading is about what it names, not about its page's subject: one word long,
            if _says_what(content) and number != title_line:  # it would outrank the page's lines on the subject alone
                rows.append((number, content, _keys(linked.get(number, ()), None), None))
        elif content and not TABLE_RULE.issuperset(content):
            rows.append((number, content, _keys(linked.get(number, ()), subject), None))
    return rows


def _neighbours(contents: list[str], is_heading: list[bool], i: int) -> list[str]:
    """The text of the rows next to row ``i`` within its section: a line's context is the line (or heading) above
    it and the line below it; a heading below a line begins another section. A heading has none: it is found by
    what it says (the lines under it are found by it, in their heading column)."""
    if is_heading[i]:
        return []
    before = contents[max(0, i - CONTEXT_LINES) : i]
    after = contents[i + 1 : i + 1 + CONTEXT_LINES]
    return before + [text for text, heading in zip(after, is_heading[i + 1 :], strict=False) if not heading]


def _says_what(heading: str) -> bool:
    """Is a heading (not the note's title: its first heading, at level 1) a line of its own: it says what its section is about ("Komodo down",
    "Florentina — distributed consciousness"), not only when it was written ("14:30", "Session: 2026-01-16 14:30
    UTC") or where memwiki's facts start ("Retain")?"""
    return bool(WORDS.search(heading)) and not TIMED_HEADING.match(heading) and not RETAIN_HEADING.match(heading)


def prior(note: Note) -> float:
    """What a line of this note is worth before any query: the agent's curated memory (``CURATED_KINDS``, and
    Claude Code's memories of the user, a project, a reference or feedback) states a thing as it stands, a log as
    it was on its day."""
    kind = note.meta.get("type")
    curated = note.kind in CURATED_KINDS or (isinstance(kind, str) and kind in CURATED_TYPES)
    return CURATED_PRIOR if curated else 1.0


def _searchable(note: Note) -> tuple[list[tuple[int, str]], set[int]]:
    """``(number, text)`` of the lines that are neither fence lines nor comments, and the numbers of those inside
    a code fence; walked only when the note has any."""
    lines = note.body.split("\n")
    if "```" not in note.body and "~~~" not in note.body and "<!--" not in note.body:
        return list(enumerate(lines, note.body_start)), set()
    walked = [line for line in walk_lines(lines, note.body_start) if line.role in ("text", "code")]
    return [(line.number, line.text) for line in walked], {line.number for line in walked if line.role == "code"}


def _about(fact: Fact) -> tuple[str | None, float | None, str | None]:
    """What a fact's row adds: when it happens, its confidence, its opinion."""
    occurred = f"{fact.occurred[0].isoformat()}/{fact.occurred[1].isoformat()}" if fact.occurred else None
    opinion = opinion_key(fact) if fact.kind == "O" else None
    confidence = fact.confidence if fact.confidence is not None or fact.kind != "O" else DEFAULT_CONFIDENCE
    return occurred, confidence, opinion


def _keys(names: Iterable[str], subject: str | None) -> tuple[str, ...]:
    """The entity keys of a line's names, its note's subject first."""
    keys = (k for k in map(_key, names) if k)
    return tuple(dict.fromkeys((subject, *keys) if subject else keys))


@functools.lru_cache(maxsize=1 << 16)
def _key(name: str) -> str:
    """``entity_key``, remembered: a workspace names the same few entities on line after line."""
    return entity_key(name)


def insert_docs(db: sqlite3.Connection, docs: list[Doc]) -> None:
    """Rows for ``docs``, numbered after the last one (both tables share the number), in two statements."""
    from site_builder.recall.scripts import grams, spaced

    first = int(db.execute("SELECT coalesce(max(id), 0) + 1 FROM docs").fetchone()[0])
    db.executemany(
        "INSERT INTO docs(id, path, line, date, kind, entities, content, occurred, confidence, opinion, prior)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        (
            (
                rowid,
                d.path,
                d.line,
                d.date,
                d.kind,
                " ".join(d.entities),
                d.content,
                d.occurred,
                d.confidence,
                d.opinion,
                d.prior,
            )
            for rowid, d in enumerate(docs, first)
        ),
    )
    db.executemany(
        "INSERT INTO docs_fts(rowid, content, context, entities, cjk, heading) VALUES (?,?,?,?,?,?)",
        (
            (
                rowid,
                spaced(d.content),
                spaced(d.context),
                " ".join(d.entities).replace("-", " "),
                grams(d.content),
                spaced(d.heading),
            )
            for rowid, d in enumerate(docs, first)
        ),
    )
