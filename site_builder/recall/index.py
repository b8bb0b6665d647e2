"""The recall index: SQLite FTS5 over every fact and log line, under ``.memwiki/``.

One row per non-blank, non-heading line of the workspace. Retain facts carry
their kind and entities; log lines carry their neighbours as context so a line
that answers a question in two turns is still found. The index is derived: it
is updated file by file and rebuilt if it is corrupt. A file is read again only
when its size or modification time changed, and re-indexed only when its content
hash changed, so a query on an unchanged workspace reads no Markdown at all.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Note
from site_builder.core.names import entity_key
from site_builder.io.reader import SourceFile, read_notes, stamp_workspace
from site_builder.parse.blocks import FENCE
from site_builder.parse.link_syntax import find_links, plain_sentence
from site_builder.parse.note import ATX_HEADING, parse_note

INDEX_VERSION = "2"
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files(path TEXT PRIMARY KEY, digest TEXT NOT NULL, stamp TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS aliases(alias TEXT NOT NULL, key TEXT NOT NULL, path TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs(
    id INTEGER PRIMARY KEY, path TEXT NOT NULL, line INTEGER NOT NULL, date TEXT,
    kind TEXT NOT NULL, entities TEXT NOT NULL, content TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS docs_path ON docs(path);
CREATE VIRTUAL TABLE IF NOT EXISTS docs_fts USING fts5(
    content, context, entities, tokenize = 'porter unicode61 remove_diacritics 2');
"""
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


def docs_of(note: Note) -> list[Doc]:
    """Every searchable line of a note, with its neighbours as context."""
    facts = {f.line: f for f in note.facts}
    date = note.date.isoformat() if note.date else None
    rows: list[tuple[int, str, str, tuple[str, ...]]] = []
    fence = False
    for offset, raw in enumerate(note.body.split("\n")):
        number = note.body_start + offset
        if FENCE.match(raw):
            fence = not fence
            continue
        if not raw.strip() or ATX_HEADING.match(raw) or raw.lstrip().startswith("<!--"):
            continue
        fact = facts.get(number)
        if fact is not None:
            names = [*fact.entities, *(ref.target for ref in find_links(fact.content))]
            rows.append((number, fact.kind, fact.content, _keys(names)))
        else:
            text = plain_sentence(raw)
            if text and not set(text) <= set("|-: "):
                rows.append(
                    (
                        number,
                        "log" if note.kind == "daily" else "page",
                        text,
                        _keys([ref.target for ref in find_links(raw)]),
                    )
                )
    docs = []
    for i, (number, kind, text, keys) in enumerate(rows):
        around = [rows[j][2] for j in range(max(0, i - CONTEXT_LINES), min(len(rows), i + CONTEXT_LINES + 1)) if j != i]
        docs.append(Doc(note.path, number, date, kind, keys, text, " ".join(around)))
    return docs


def _keys(names: list[str]) -> tuple[str, ...]:
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
            db.executescript(
                "DROP TABLE IF EXISTS files; DROP TABLE IF EXISTS docs; DROP TABLE IF EXISTS docs_fts;"
                "DROP TABLE IF EXISTS aliases;"
            )
            db.executescript(SCHEMA)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (INDEX_VERSION,))
            db.commit()
        return db

    def stale(self, stamps: dict[str, str]) -> list[str]:
        """Paths whose size or modification time differs from when they were indexed."""
        known = dict(self.db.execute("SELECT path, stamp FROM files"))
        return [path for path, stamp in stamps.items() if known.get(path) != stamp]

    def update(self, stamps: dict[str, str], files: list[SourceFile], diagnostics: Diagnostics) -> int:
        """Record ``stamps`` (every current file), re-index ``files`` whose content changed, drop files
        that are gone. Returns the number of files re-indexed."""
        known = dict(self.db.execute("SELECT path, digest FROM files"))
        changed = [f for f in files if known.get(f.path) != f.digest]
        with self.db:
            for path in set(known) - set(stamps):
                self._drop(path)
            for source in changed:
                self._drop(source.path)
                note = parse_note(source, diagnostics)
                if note.private:
                    docs: list[Doc] = []
                else:
                    docs = docs_of(note)
                    if note.kind == "entity":
                        self._aliases(note)
                for doc in docs:
                    cur = self.db.execute(
                        "INSERT INTO docs(path, line, date, kind, entities, content) VALUES (?,?,?,?,?,?)",
                        (doc.path, doc.line, doc.date, doc.kind, " ".join(doc.entities), doc.content),
                    )
                    self.db.execute(
                        "INSERT INTO docs_fts(rowid, content, context, entities) VALUES (?,?,?,?)",
                        (cur.lastrowid, doc.content, doc.context, " ".join(doc.entities).replace("-", " ")),
                    )
            for source in files:
                self.db.execute(
                    "INSERT OR REPLACE INTO files VALUES (?, ?, ?)", (source.path, source.digest, stamps[source.path])
                )
        return len(changed)

    def _aliases(self, note: Note) -> None:
        key = entity_key(note.stem)
        raw = note.meta.get("aliases", [])
        names = [note.stem, *([raw] if isinstance(raw, str) else raw if isinstance(raw, list) else [])]
        for name in names:
            self.db.execute("INSERT INTO aliases VALUES (?, ?, ?)", (entity_key(str(name)), key, note.path))

    def _drop(self, path: str) -> None:
        self.db.execute("DELETE FROM docs_fts WHERE rowid IN (SELECT id FROM docs WHERE path = ?)", (path,))
        self.db.execute("DELETE FROM docs WHERE path = ?", (path,))
        self.db.execute("DELETE FROM aliases WHERE path = ?", (path,))
        self.db.execute("DELETE FROM files WHERE path = ?", (path,))

    def count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM docs").fetchone()[0])


def open_index(root: Path, diagnostics: Diagnostics) -> RecallIndex:
    """Bring the workspace's index under ``.memwiki/`` up to date, reading only files that changed."""
    stamps = stamp_workspace(root, diagnostics)
    index = RecallIndex(root / ".memwiki" / "recall.sqlite")
    files = read_notes(root, index.stale(stamps), diagnostics)
    index.update(stamps, files, diagnostics)
    return index
