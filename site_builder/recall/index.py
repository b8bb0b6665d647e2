"""The recall index: SQLite FTS5 over every fact and log line, under ``.memwiki/``.

One row per non-blank line of the workspace, per heading that says what its section is about and per
front-matter field written in words (``index_rows``; the tables: ``index_schema``). Retain facts carry their
kind and entities; other lines carry their neighbours and the item they hang from as context, so a line that
answers a question in two turns is still found, the headings they sit under, and a prior: curated memory
over logs, prose over sample code. The index is
derived: it is updated file by file and rebuilt if it is corrupt.

Freshness: every call stats the workspace's notes (size and modification time,
one ``stat`` each). A file is read again only when its stamp differs from the
one recorded, and re-indexed only when its content hash changed. A stamp taken
less than ``stamps.SETTLED_NS`` after the file was written is not trusted (a same-size
edit within the file system's clock tick would keep it): such a file is recorded
without a stamp and read again on the next call. A digest of every recorded
stamp is kept in ``meta``, so an unchanged workspace costs one comparison, not a
read of the ``files`` table.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

from site_builder.core.collector import cycle_collection_paused
from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Note
from site_builder.io.reader import Workspace, stamp_workspace
from site_builder.io.sources import read_notes
from site_builder.io.stamps import SETTLED_NS
from site_builder.recall.index_schema import FTS_BUFFER, INDEX_VERSION, SCHEMA, TABLES

if TYPE_CHECKING:
    from site_builder.library.subject import Subject
    from site_builder.recall.alias_lookup import AliasLookup
    from site_builder.recall.index_rows import Doc


class RecallIndex:
    """Open (creating or repairing) the index of one workspace."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.db = self._open()
        self._recorded: dict[str, str] | None = None  # the stamps this process last recorded (None: not yet)

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
            # Touch every table this version relies on (one row each): a damaged or foreign file fails here.
            db.execute("SELECT rowid, content, context, entities, cjk, heading FROM docs_fts LIMIT 1").fetchone()
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
            db.execute("DELETE FROM meta")  # the stamps digest described the dropped tables
            db.executescript(SCHEMA)
            with suppress(sqlite3.OperationalError):  # an SQLite older than the option keeps its default
                db.execute("INSERT INTO docs_fts(docs_fts, rank) VALUES ('hashsize', ?)", (FTS_BUFFER,))
            db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (INDEX_VERSION,))
            db.commit()
        return db

    def refresh(self, workspace: Workspace, stamps: dict[str, str], diagnostics: Diagnostics) -> int:
        """Bring the index up to date with the notes as ``stamps`` (every note's, just taken) says they are:
        read only the files whose stamp changed or was too recent to trust. Returns the notes re-indexed."""
        if stamps == self._recorded:
            return 0
        if self._recorded is None and self._meta("stamps") == stamps_digest(stamps):
            self._recorded = stamps
            return 0
        known = self._known()
        stale = [path for path, stamp in stamps.items() if known.get(path, ("", ""))[1] != stamp]
        notes: list[Note] = []
        if stale:
            from site_builder.parse.note import parse_note  # heavy to import; an unchanged workspace needs none

            with cycle_collection_paused():
                notes = [parse_note(source) for source in read_notes(workspace, stale, diagnostics)]
        return self.update(stamps, notes, known)

    def stale(self, stamps: dict[str, str]) -> list[str]:
        """Paths whose size or modification time differs from when they were indexed (or was not trusted)."""
        known = dict(self.db.execute("SELECT path, stamp FROM files"))
        return [path for path, stamp in stamps.items() if known.get(path) != stamp]

    def update(self, stamps: dict[str, str], notes: list[Note], known: dict[str, tuple[str, str]] | None = None) -> int:
        """Record ``stamps`` (every current file), re-index the ``notes`` whose content changed and drop
        files that are gone (``known``: the ``files`` table, when the caller has just read it). Returns the
        number of notes re-indexed."""
        with cycle_collection_paused():
            return self._update(stamps, notes, known)

    def _update(self, stamps: dict[str, str], notes: list[Note], known: dict[str, tuple[str, str]] | None) -> int:
        from site_builder.library.link import OPINIONS_PATH
        from site_builder.library.subject import subject_of
        from site_builder.recall.index_facts import FactRow, fact_row
        from site_builder.recall.index_rows import docs_of, insert_docs

        known = known if known is not None else self._known()
        changed = [n for n in notes if known.get(n.path, ("",))[0] != n.digest]
        trusted = trusted_stamps(stamps)
        recorded = {path: stamp for path, (_, stamp) in known.items() if path in stamps}
        recorded.update((n.path, trusted.get(n.path, "")) for n in notes)
        gone = set(known) - set(stamps)
        with self.db:
            if changed or gone:  # what ``state`` tells other readers, in the same transaction as the rows
                self.db.execute(
                    "INSERT INTO meta VALUES ('changes', 1) ON CONFLICT(key) DO UPDATE SET value = value + 1"
                )
            for path in gone:
                self._drop(path)
            docs: list[Doc] = []
            facts: list[FactRow] = []
            for note in changed:
                if note.path in known:  # a new file has no rows to drop
                    self._drop(note.path)
                if note.private:
                    continue
                subject = subject_of(note)
                if subject is not None:
                    self._aliases(note, subject)
                if note.path == OPINIONS_PATH:
                    self._opinion_points(note)
                docs += docs_of(note, subject.key if subject else None)
                facts += map(fact_row, note.facts)
            insert_docs(self.db, docs)
            self.db.executemany("INSERT INTO facts VALUES (?,?,?,?,?,?,?,?,?,?,?)", facts)
            self.db.executemany(
                "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?)",
                [
                    (n.path, n.digest, recorded[n.path], None if n.private or not n.date else n.date.isoformat())
                    for n in notes
                ],
            )
            if changed or gone:
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('lines', (SELECT count(*) FROM docs))")
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('stamps', ?)", (stamps_digest(recorded),))
        self._recorded = recorded
        return len(changed)

    def _known(self) -> dict[str, tuple[str, str]]:
        """``{path: (digest, stamp)}`` of every file as last indexed."""
        return {
            path: (digest, stamp) for path, digest, stamp in self.db.execute("SELECT path, digest, stamp FROM files")
        }

    def state(self) -> tuple[str | None, str | None]:
        """How many times the rows changed and the digest of the stamps they were last brought up to date with (by
        any process): while it holds, the index holds the same rows."""
        return self._meta("changes"), self._meta("stamps")

    def _meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def _opinion_points(self, note: Note) -> None:
        """The confidence history reflect recorded in ``bank/opinions.md``: it moves opinions between restatements."""
        for key, points in note.reflected.opinion_history.items():
            self.db.executemany(
                "INSERT INTO opinion_points VALUES (?, ?, ?, ?, ?)",
                [(key, p.date.isoformat() if p.date else None, p.confidence, p.source, note.path) for p in points],
            )

    def _aliases(self, note: Note, subject: Subject) -> None:
        """The names of the note's subject (an entity page's name and aliases, the user's names) -> its key."""
        from site_builder.core.names import entity_key
        from site_builder.recall.scripts import fold_accents

        for name in subject.names:
            alias = entity_key(name)
            self.db.execute(
                "INSERT INTO aliases VALUES (?, ?, ?, ?)", (alias, subject.key, note.path, fold_accents(alias))
            )

    def aliases(self) -> AliasLookup:
        """Page names and aliases (accents folded) -> the entity key each stands for, looked up name by name."""
        from site_builder.recall.alias_lookup import AliasLookup

        return AliasLookup(self.db)

    def _drop(self, path: str) -> None:
        self.db.execute("DELETE FROM docs_fts WHERE rowid IN (SELECT id FROM docs WHERE path = ?)", (path,))
        self.db.execute("DELETE FROM docs WHERE path = ?", (path,))
        self.db.execute("DELETE FROM aliases WHERE path = ?", (path,))
        self.db.execute("DELETE FROM opinion_points WHERE path = ?", (path,))
        self.db.execute("DELETE FROM facts WHERE path = ?", (path,))
        self.db.execute("DELETE FROM mention_tags WHERE path = ?", (path,))  # gone with its rows
        self.db.execute("DELETE FROM files WHERE path = ?", (path,))

    def is_empty(self) -> bool:
        return self.db.execute("SELECT 1 FROM docs LIMIT 1").fetchone() is None

    def count(self) -> int:
        """How many lines are indexed (counted when they change; asked by the second hop, when it follows an entity)."""
        counted = self._meta("lines")
        return int(counted) if counted is not None else int(self.db.execute("SELECT count(*) FROM docs").fetchone()[0])


def trusted_stamps(stamps: dict[str, str]) -> dict[str, str]:
    """``stamps`` with "" for every file written less than ``SETTLED_NS`` ago (or in the future): a same-size
    edit in the same clock tick would not change such a stamp, so the file is read again next time."""
    recent = time.time_ns() - SETTLED_NS
    return {path: stamp if int(stamp.partition(":")[0] or 0) < recent else "" for path, stamp in stamps.items()}


def stamps_digest(stamps: dict[str, str]) -> str:
    """One short digest of every path and stamp: equal digests, nothing changed."""
    lines = "\n".join(sorted([f"{path}\t{stamp}" for path, stamp in stamps.items()]))  # strings sort fastest
    return hashlib.blake2b(lines.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def index_path(root: Path) -> Path:
    return root / ".memwiki" / "recall.sqlite"


def refresh_index(workspace: Workspace, notes: list[Note], stamps: dict[str, str] | None = None) -> RecallIndex:
    """The index brought up to date with notes already parsed (by a build): no file is read again. ``stamps``: the
    notes' stamps as listed before they were read (a build's listing: no second walk, and a file changed after it
    was read is indexed again next time, as its stamp then differs); taken now when not given."""
    index = RecallIndex(index_path(workspace.root))
    index.update(stamps if stamps is not None else stamp_workspace(workspace, Diagnostics()), notes)
    return index
