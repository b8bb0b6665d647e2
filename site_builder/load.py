"""What every command starts from: the workspace read, parsed (only what changed since the cached parse) and
linked, a ``Loaded``; and the key of a build's whole input (``io.listing.input_key``) as the workspace stands once
reflect's pages are written (``key_after_reflect``). Reflect on a ``Loaded`` is ``reflect_loaded``.

read -> parse (over both cores when there is enough to parse) -> model
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from site_builder.core.collector import cycle_collection_paused
from site_builder.core.diagnostics import Diagnostics
from site_builder.core.library import Library
from site_builder.core.model import Note
from site_builder.core.processes import map_in_two
from site_builder.core.progress import Progress, Tick
from site_builder.io.build_cache import NoteKey, load_notes, note_key, save_notes
from site_builder.io.listing import KnownTexts, input_key, list_notes
from site_builder.io.reader import Workspace, WorkspaceError, open_workspace
from site_builder.io.sources import SourceFile, read_notes, read_sources
from site_builder.library.hygiene import broken_file_links, future_dated
from site_builder.library.link import link_notes
from site_builder.library.saved import LinkedFrom, reuse_library
from site_builder.parse.note import parse_note

# Characters to parse: below this a second process costs more than it saves (about 0.25 s of parsing).
PARALLEL_PARSE_FROM = 500_000
PARSE_COST_PER_FILE = 1_250  # a file counts as at least this many characters (a file of a few lines costs more)


@dataclass
class Loaded:
    """A workspace read, parsed and linked: what every command starts from."""

    workspace: Workspace
    notes: list[Note]  # every note, private ones included
    library: Library  # the public notes, linked
    read_problems: Diagnostics
    cached: NotesCache  # the parsed notes of the build cache, as loaded and as this build leaves them
    linked: LinkedFrom  # the saved library the library is, or none ("" token: linked anew)

    @property
    def root(self) -> Path:
        return self.workspace.root

    def problems(self) -> Diagnostics:
        """Everything found so far: in the settings, while reading, in each note and while linking."""
        found = Diagnostics([*self.workspace.problems, *self.read_problems.items])
        for note in self.notes:
            found.items.extend(note.problems)
        found.extend(self.library.problems)
        found.items.extend(broken_file_links(self.notes))
        found.items.extend(future_dated(self.notes, dt.date.today()))
        return found


@dataclass
class NotesCache:
    """The parsed notes in the build cache: as the last build left them (``last``) and as this one leaves them
    (``now``: every shareable note, by key). A build saves ``now`` once reflect's pages are written, so that the
    pages reflect wrote are cached as parsed after it, not parsed again by the next build."""

    last: dict[NoteKey, Note]
    now: dict[NoteKey, Note]

    def save(self, memwiki_dir: Path) -> None:
        """Write the shards of the cache that changed."""
        if self.now.keys() != self.last.keys():
            save_notes(memwiki_dir, self.now, self.last)


def load(workspace: str | Path | Workspace, progress: Progress | None = None, *, cache: bool = True) -> Loaded:
    """read -> parse (only the files that changed since the cached parse, unless ``cache`` is off) -> model.
    The cache is only read: builds bring it up to date (``Loaded.cached``), commands that only read don't."""
    progress = progress or Progress()
    opened = open_workspace(workspace)
    read_problems = Diagnostics()
    with progress.stage("read"):
        sources = read_sources(opened, read_problems)
    return load_sources(opened, sources, read_problems, progress, cache=cache)


def load_sources(
    opened: Workspace,
    sources: list[SourceFile],
    read_problems: Diagnostics,
    progress: Progress,
    *,
    cache: bool,
) -> Loaded:
    with cycle_collection_paused():
        with progress.stage("parse", len(sources)) as tick:
            notes, cached = parse_sources(opened, sources, read_problems, cache=cache, tick=tick)
        with progress.stage("model"):
            keys = {key[0]: key for key in cached.now}
            reused = reuse_library(opened.root / ".memwiki", notes, keys, cached.last) if cache else None
            library, linked = reused or (link_notes(notes), LinkedFrom("", {}))
    return Loaded(opened, notes, library, read_problems, cached, linked)


def parse_sources(
    opened: Workspace, sources: list[SourceFile], read_problems: Diagnostics, *, cache: bool, tick: Tick | None = None
) -> tuple[list[Note], NotesCache]:
    """Every source parsed (over both cores when there are many), or taken from the build cache when its path,
    kind and text are unchanged; and the cache with them. Private notes are never cached: their text stays in the
    workspace files alone, and is read again (a source not read, ``SourceFile.text`` None, is read when the
    cache does not have it)."""
    parsed = load_notes(opened.root / ".memwiki") if cache else {}
    keys = [note_key(s.path, s.kind, s.digest, s.problems) for s in sources]
    unread = {s.path for key, s in zip(keys, sources, strict=True) if s.text is None and key not in parsed}
    if unread:
        again = {s.path: s for s in read_notes(opened, sorted(unread), read_problems)}
        sources = [s for s in (again.get(s.path) if s.path in unread else s for s in sources) if s is not None]
        keys = [note_key(s.path, s.kind, s.digest, s.problems) for s in sources]
    missing = [source for key, source in zip(keys, sources, strict=True) if key not in parsed]
    cached = len(sources) - len(missing)
    size = max(len(missing) * PARSE_COST_PER_FILE, sum(len(source.text or "") for source in missing))
    counted = (lambda n: tick(cached + n)) if tick else None
    fresh = iter(map_in_two(parse_note, missing, PARALLEL_PARSE_FROM, counted, size))
    notes = {key: parsed.get(key) or next(fresh) for key in keys}
    if tick:
        tick(len(notes))
    shareable = {key: note for key, note in notes.items() if not note.private}
    return list(notes.values()), NotesCache(parsed, shareable)


def key_after_reflect(
    loaded: Loaded, base_url: str | None, settings: tuple[object, ...], known: KnownTexts
) -> tuple[str, str]:
    """The key the next build finds when the workspace is as reflect left it: the site just made is what that build
    would make (it was made from the texts reflect wrote, and reflect run again changes no byte), so that build has
    nothing to do. The workspace is read again, as that build will read it (but the files whose stamps are as this
    build read them, ``known``); "" when anything is not as this build saw it: a file or memwiki.toml edited
    meanwhile, or a layout that a folder reflect added changes (build again next time). Not called when reflect or
    writing said anything (a page it could not write, a model call that failed). With it, the key of the stamps of
    the files as read again (``list_notes``)."""
    was = loaded.workspace
    try:
        again = open_workspace(loaded.root).with_base_url(base_url)
        listing = list_notes(again, settings)
        sources = listing.read(again, known)
    except (WorkspaceError, OSError):  # the folder went away meanwhile: the next build will say so
        return "", ""
    if {s.path: s.digest for s in sources} != {note.path: note.digest for note in loaded.notes}:
        return "", ""
    if (again.config, again.layout, again.problems, again.styling, again.leave_out, listing.problems.items) != (
        was.config, was.layout, was.problems, was.styling, was.leave_out, loaded.read_problems.items
    ):  # fmt: skip
        return "", ""
    return input_key(again, sources, listing.problems, settings), listing.stamps
