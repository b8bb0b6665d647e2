"""The recall index: SQLite FTS5 over every fact and log line, under ``.memwiki/``.

One row per non-blank, non-heading line of the workspace. Retain facts carry
their kind and entities; log lines carry their neighbours as context so a line
that answers a question in two turns is still found. The index is derived: it
is updated file by file and rebuilt if it is corrupt. A file is read again only
when its size or modification time changed, and re-indexed only when its content
hash changed, so a query on an unchanged workspace reads no Markdown at all.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Fact, Note
from site_builder.core.names import entity_key
from site_builder.io.reader import Workspace, read_notes, stamp_workspace
from site_builder.library.link import OPINIONS_PATH, entity_aliases
from site_builder.library.opinions import DEFAULT_CONFIDENCE, opinion_key
from site_builder.parse.lines import walk_lines
from site_builder.parse.link_syntax import plain_sentence
from site_builder.parse.note import parse_note
from site_builder.recall.scripts import grams, spaced

INDEX_VERSION = "4"
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files(path TEXT PRIMARY KEY, digest TEXT NOT NULL, stamp TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS aliases(alias TEXT NOT NULL, key TEXT NOT NULL, path TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS aliases_key ON aliases(key);
CREATE TABLE IF NOT EXISTS docs(
    id INTEGER PRIMARY KEY, path TEXT NOT NULL, line INTEGER NOT NULL, date TEXT,
    kind TEXT NOT NULL, entities TEXT NOT NULL, content TEXT NOT NULL,
    occurred TEXT, confidence REAL, opinion TEXT);
CREATE INDEX IF NOT EXISTS docs_path ON docs(path);
CREATE INDEX IF NOT EXISTS docs_opinion ON docs(opinion) WHERE opinion IS NOT NULL;
CREATE TABLE IF NOT EXISTS opinion_points(
    opinion TEXT NOT NULL, date TEXT, confidence REAL NOT NULL, source TEXT NOT NULL, path TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS opinion_points_key ON opinion_points(opinion);
CREATE VIRTUAL TABLE IF NOT EXISTS docs_fts USING fts5(
    content, context, entities, cjk, tokenize = 'porter unicode61 remove_diacritics 2');
"""
TABLES = ("files", "docs", "docs_fts", "aliases", "opinion_points")
CONTEXT_LINES = 1


@dataclass(frozen=True)
class Doc:
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


def docs_of(note: Note) -> list[Doc]:
    """Every searchable line of a note (code inside fences too; not fence lines, comments or headings), with its neighbours."""
    facts = {f.line: f for f in note.facts}
    headings = {h.line for h in note.headings}
    linked: dict[int, list[str]] = defaultdict(list)
    for link in note.links:
        linked[link.line].append(link.target)
    date = note.date.isoformat() if note.date else None
    rows: list[Doc] = []
    for line in walk_lines(note.body.split("\n"), note.body_start):
        if line.role in ("fence", "comment") or not line.text.strip() or line.number in headings:
            continue
        fact = facts.get(line.number)
        if fact is not None:
            rows.append(_fact_doc(note.path, date, fact))
            continue
        text = plain_sentence(line.text)
        if text and not set(text) <= set("|-: "):
            kind = "log" if note.kind == "daily" else "page"
            rows.append(Doc(note.path, line.number, date, kind, _keys(linked[line.number]), text, ""))
    docs = []
    for i, doc in enumerate(rows):
        around = [
            rows[j].content for j in range(max(0, i - CONTEXT_LINES), min(len(rows), i + CONTEXT_LINES + 1)) if j != i
        ]
        docs.append(dataclasses.replace(doc, context=" ".join(around)))
    return docs


def _fact_doc(path: str, date: str | None, fact: Fact) -> Doc:
    occurred = f"{fact.occurred[0].isoformat()}/{fact.occurred[1].isoformat()}" if fact.occurred else None
    opinion = opinion_key(fact) if fact.kind == "O" else None
    confidence = fact.confidence if fact.confidence is not None or fact.kind != "O" else DEFAULT_CONFIDENCE
    return Doc(path, fact.line, date, fact.kind, _keys(fact.names), fact.content, "", occurred, confidence, opinion)


def _keys(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(k for k in (entity_key(n) for n in names) if k))


class RecallIndex:
    """Open (creating or repairing) the index of one workspace."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.db = self._open()

    def _open(self) -> sqlite3.Connection:
        if self.path is None:
            return self._init(sqlite3.connect(":memory:"))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:  # read-only workspace: keep the index in memory
            self.path = None
            return self._init(sqlite3.connect(":memory:"))
        try:
            db = sqlite3.connect(self.path, timeout=2)
            db = self._init(db)
            # Touch every table this version relies on: a damaged or foreign file fails here.
            db.execute("SELECT count(*) FROM docs_fts").fetchone()
            db.execute("SELECT path, digest, stamp FROM files LIMIT 1").fetchone()
            db.execute("SELECT id, path, line, date, kind, entities, content FROM docs LIMIT 1").fetchone()
            return db
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                return self._rebuild()
            # another process holds it: answer from a private in-memory index
            self.path = None
            return self._init(sqlite3.connect(":memory:"))
        except sqlite3.DatabaseError:
            return self._rebuild()

    def _rebuild(self) -> sqlite3.Connection:
        """The index is corrupt or unreadable; it is derived, so start over."""
        assert self.path is not None
        try:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            return self._init(sqlite3.connect(self.path, timeout=2))
        except (OSError, sqlite3.DatabaseError):
            self.path = None
            return self._init(sqlite3.connect(":memory:"))

    @staticmethod
    def _init(db: sqlite3.Connection) -> sqlite3.Connection:
        db.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT)")
        version = db.execute("SELECT value FROM meta WHERE key='version'").fetchone()
        if version is None or version[0] != INDEX_VERSION:
            # Made by another memwiki version (or new): start from empty tables of this version.
            db.executescript("".join(f"DROP TABLE IF EXISTS {table};" for table in TABLES))
            db.executescript(SCHEMA)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (INDEX_VERSION,))
            db.commit()
        return db

    def stale(self, stamps: dict[str, str]) -> list[str]:
        """Paths whose size or modification time differs from when they were indexed."""
        known = dict(self.db.execute("SELECT path, stamp FROM files"))
        return [path for path, stamp in stamps.items() if known.get(path) != stamp]

    def update(self, stamps: dict[str, str], notes: list[Note]) -> int:
        """Record ``stamps`` (every current file), re-index the ``notes`` whose content changed and drop
        files that are gone. Returns the number of notes re-indexed."""
        known = dict(self.db.execute("SELECT path, digest FROM files"))
        changed = [n for n in notes if known.get(n.path) != n.digest]
        with self.db:
            for path in set(known) - set(stamps):
                self._drop(path)
            for note in changed:
                self._drop(note.path)
                if note.private:
                    continue
                if note.kind == "entity":
                    self._aliases(note)
                if note.path == OPINIONS_PATH:
                    self._opinion_points(note)
                for doc in docs_of(note):
                    self._insert(doc)
            self.db.executemany(
                "INSERT OR REPLACE INTO files VALUES (?, ?, ?)",
                [(n.path, n.digest, stamps.get(n.path, "")) for n in notes],
            )
        return len(changed)

    def _insert(self, doc: Doc) -> None:
        cur = self.db.execute(
            "INSERT INTO docs(path, line, date, kind, entities, content, occurred, confidence, opinion)"
            " VALUES (?,?,?,?,?,?,?,?,?)",
            (
                doc.path,
                doc.line,
                doc.date,
                doc.kind,
                " ".join(doc.entities),
                doc.content,
                doc.occurred,
                doc.confidence,
                doc.opinion,
            ),
        )
        self.db.execute(
            "INSERT INTO docs_fts(rowid, content, context, entities, cjk) VALUES (?,?,?,?,?)",
            (
                cur.lastrowid,
                spaced(doc.content),
                spaced(doc.context),
                " ".join(doc.entities).replace("-", " "),
                grams(doc.content),
            ),
        )

    def _opinion_points(self, note: Note) -> None:
        """The confidence history reflect recorded in ``bank/opinions.md``: it moves opinions between restatements."""
        for key, points in note.reflected.opinion_history.items():
            self.db.executemany(
                "INSERT INTO opinion_points VALUES (?, ?, ?, ?, ?)",
                [(key, p.date.isoformat() if p.date else None, p.confidence, p.source, note.path) for p in points],
            )

    def _aliases(self, note: Note) -> None:
        key = entity_key(note.stem)
        for name in (note.stem, *(entity_aliases(note) or ())):
            self.db.execute("INSERT INTO aliases VALUES (?, ?, ?)", (entity_key(name), key, note.path))

    def _drop(self, path: str) -> None:
        self.db.execute("DELETE FROM docs_fts WHERE rowid IN (SELECT id FROM docs WHERE path = ?)", (path,))
        self.db.execute("DELETE FROM docs WHERE path = ?", (path,))
        self.db.execute("DELETE FROM aliases WHERE path = ?", (path,))
        self.db.execute("DELETE FROM opinion_points WHERE path = ?", (path,))
        self.db.execute("DELETE FROM files WHERE path = ?", (path,))

    def count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM docs").fetchone()[0])


def index_path(root: Path) -> Path:
    return root / ".memwiki" / "recall.sqlite"


def open_index(workspace: Workspace, diagnostics: Diagnostics, stamps: dict[str, str] | None = None) -> RecallIndex:
    """Bring the workspace's index under ``.memwiki/`` up to date, parsing only the files that changed
    (``stamps``: the notes' stamps when the caller has just taken them)."""
    stamps = stamps if stamps is not None else stamp_workspace(workspace, diagnostics)
    index = RecallIndex(index_path(workspace.root))
    notes = [parse_note(source) for source in read_notes(workspace, index.stale(stamps), diagnostics)]
    index.update(stamps, notes)
    return index


def refresh_index(workspace: Workspace, notes: list[Note]) -> RecallIndex:
    """The index brought up to date with notes already parsed (by a build): no file is read again."""
    index = RecallIndex(index_path(workspace.root))
    index.update(stamp_workspace(workspace, Diagnostics()), notes)
    return index
