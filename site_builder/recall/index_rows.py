"""What one note becomes in the recall index: a row per searchable line, a log line with its neighbours as context.

A line of a log or page often answers in two lines (a question and the turn
after it), so its row holds the text of the lines next to it, and the headings
it sits under (a column of their own: "## Blockers" says what the lines below it
are, and a heading on every line weighs nothing there). A Retain fact
stands on its own: the facts around it are about other things, so it has no
context and is no other line's context.

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
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from site_builder.core.model import Fact, Note
from site_builder.core.names import entity_key
from site_builder.library.opinions import DEFAULT_CONFIDENCE, opinion_key
from site_builder.parse.lines import walk_lines
from site_builder.parse.link_syntax import plain_sentence

CONTEXT_LINES = 1
# A heading that starts with a time or a date ("## 14:30 call with Bob", "# Session: 2026-01-16 14:30:00 UTC",
# "# 2026-03-06") says when its lines were written, not what they are about: the line's date and time say that.
TIMED_HEADING = re.compile(r"\W*(?:session\W*)?(?:\d{1,2}[:.h]\d\d|\d{4}-\d\d-\d\d)", re.IGNORECASE)
TABLE_RULE = frozenset("|-: ")  # a line of only these is a Markdown table's rule, not text
# A heading naming who or what does something ("Blockers", "Owners", "Reviewers") heads the lines that answer "what
# blocks…", "who owns…", "who reviews…": the stemmer keeps "blocker" and "block" apart, so the heading's column
# holds the verb too (doubled consonants undone: "Planners" -> "plan").
DOER = re.compile(r"\b([^\W\d_]{3,}?)(?:([b-df-hj-km-np-tv-xz])\2)?ers?\b", re.IGNORECASE)


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


def docs_of(note: Note, subject: str | None = None) -> list[Doc]:
    """Every searchable line of a note (code inside fences too; not fence lines, comments or headings), each line
    that is not a fact with its neighbours; each about ``subject`` (an entity key) when the whole note is."""
    facts = {f.line: f for f in note.facts}
    headings = {h.line for h in note.headings}
    linked: dict[int, list[str]] = {}
    sentences: dict[int, str] = {}  # the parser's plain sentence of each line that holds a link
    for link in note.links:
        linked.setdefault(link.line, []).append(link.target)
        if link.syntax in ("mention", "wikilink"):
            sentences[link.line] = link.sentence
    date = note.date.isoformat() if note.date else None
    kind = "log" if note.kind == "daily" else "page"
    rows: list[tuple[int, str, tuple[str, ...], Fact | None]] = []  # line, content, entities, fact
    for number, text in _searchable(note):
        if number in headings:
            continue
        fact = facts.get(number)
        if fact is not None:
            rows.append((number, fact.content, _keys(fact.names, subject), fact))
            continue
        content = sentences[number] if number in sentences else plain_sentence(text)
        if content and not TABLE_RULE.issuperset(content):
            rows.append((number, content, _keys(linked.get(number, ()), subject), None))
    contents = ["" if fact else content for _, content, _, fact in rows]  # a fact is no line's context
    under = _under_headings(note, [number for number, *_ in rows])
    docs = []
    for i, (number, content, entities, fact) in enumerate(rows):
        if fact is None:
            near = contents[max(0, i - CONTEXT_LINES) : i] + contents[i + 1 : i + 1 + CONTEXT_LINES]
            context = " ".join(filter(None, near))
            docs.append(Doc(note.path, number, date, kind, entities, content, context, heading=under[i]))
        else:
            docs.append(Doc(note.path, number, date, fact.kind, entities, content, "", *_about(fact)))
    return docs


def _under_headings(note: Note, numbers: list[int]) -> list[str]:
    """For each line (``numbers``, in order), the headings it sits under, outermost first: "Blockers" says what the
    lines below it are, "Organic chemistry Mechanisms" what a topic page's lines are about. Not the headings that
    stamp a time (``TIMED_HEADING``)."""
    headings = sorted((h for h in note.headings if not TIMED_HEADING.match(h.text)), key=lambda h: h.line)
    chain: list[tuple[int, str]] = []  # (level, text) of the headings open at the current line
    under = []
    upcoming = iter(headings)
    heading = next(upcoming, None)
    for number in numbers:
        while heading is not None and heading.line < number:
            chain = [*(open_ for open_ in chain if open_[0] < heading.level), (heading.level, heading.text)]
            heading = next(upcoming, None)
        under.append(" ".join(text for _, text in chain))
    return [f"{text} {' '.join(_doers(text))}" if "er" in text else text for text in under]


def _doers(heading: str) -> Iterator[str]:
    """The verbs of the heading's agent nouns ("Blockers" -> "Block"), for the heading column (``DOER``)."""
    for found in DOER.finditer(heading):
        yield found[1] + (found[2] or "")


def _searchable(note: Note) -> Iterator[tuple[int, str]]:
    """``(number, text)`` of the lines that are neither fence lines nor comments; walked only when the note has any."""
    lines = note.body.split("\n")
    if "```" not in note.body and "~~~" not in note.body and "<!--" not in note.body:
        return enumerate(lines, note.body_start)
    return ((line.number, line.text) for line in walk_lines(lines, note.body_start) if line.role in ("text", "code"))


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
        "INSERT INTO docs(id, path, line, date, kind, entities, content, occurred, confidence, opinion)"
        " VALUES (?,?,?,?,?,?,?,?,?,?)",
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
