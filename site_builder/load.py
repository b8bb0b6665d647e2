"""What every command starts from: the workspace read, parsed (only what changed since the cached parse) and
linked, a ``Loaded``; and reflect's new page texts, parsed again in memory and linked anew (``reflect_loaded``),
or written into the workspace (``reflect_workspace``: ``memwiki reflect``), and not asked at all on an input it
settled on (``reflect_unless_settled``); and the key of a build's whole input (``io.listing.input_key``) as the
workspace stands once reflect's pages are written (``key_after_reflect``).

read -> parse (over both cores when there is enough to parse) -> model -> reflect
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from site_builder.core.collector import cycle_collection_paused
from site_builder.core.diagnostics import Diagnostics
from site_builder.core.digest import value_digest
from site_builder.core.model import Library, Note
from site_builder.core.processes import map_in_two
from site_builder.core.progress import Progress, Tick
from site_builder.io.build_cache import NoteKey, load_cached, load_notes, note_key, save_cached, save_notes
from site_builder.io.derived import write_derived
from site_builder.io.library_cache import LinkedFrom, reuse_library
from site_builder.io.listing import KnownTexts, input_key, list_notes
from site_builder.io.reader import Workspace, WorkspaceError, open_workspace
from site_builder.io.sources import SourceFile, read_notes, read_raw, read_sources, source_file
from site_builder.io.writer import write_workspace_files
from site_builder.library.hygiene import broken_file_links, future_dated
from site_builder.library.link import OPINIONS_PATH, link_notes
from site_builder.library.repoint import kept_as_they_were
from site_builder.parse.note import parse_note
from site_builder.reflect.reflector import Reflector
from site_builder.reflect.run import NoteReads, ReflectResult, input_digest, reflect

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
    if (again.config, again.layout, again.problems, listing.problems.items) != (
        was.config, was.layout, was.problems, loaded.read_problems.items
    ):  # fmt: skip
        return "", ""
    return input_key(again, sources, listing.problems, settings), listing.stamps


SETTLED_FILE = "cache/reflect-settled.pickle"  # under .memwiki/: the input reflect last settled on, what it said


def reflect_unless_settled(
    loaded: Loaded, reflector: Reflector, diagnostics: Diagnostics, memwiki_dir: Path | None
) -> tuple[Loaded, ReflectResult, ReflectInput | None]:
    """``reflect_loaded``, unless reflect last settled on this very input (``save_settled``): then it would change
    no byte, and is not run (a plain edit of a workspace of thousands of opinions skips seconds of it; an edit of a
    fact, a mention, an entity page or ``bank/opinions.md`` runs it). With the input reflect ran on (None when it
    did not run, or without ``memwiki_dir``: no cache)."""
    settled = load_cached(memwiki_dir, SETTLED_FILE) if memwiki_dir is not None else None
    if not (isinstance(settled, tuple) and len(settled) == 4 and isinstance(settled[1], dict)):
        settled = None
    given = reflect_input(loaded, reflector, settled[1] if settled else None) if memwiki_dir else None
    if given is not None and settled is not None and settled[0] == given.key:
        return loaded, ReflectResult(entities=settled[2], opinions=settled[3], usage=reflector.usage), None
    block = _opinions_block(loaded) if memwiki_dir is not None else None
    written = block is not None and memwiki_dir is not None and load_cached(memwiki_dir, OPINIONS_BLOCK_FILE) == block
    again, result = reflect_loaded(loaded, reflector, diagnostics, opinions_written=written)
    kept = result.opinions_block_of is loaded.library.opinions and again.linked.opinions == loaded.linked.opinions
    if memwiki_dir is not None and block is not None and kept and not written:
        save_cached(memwiki_dir, OPINIONS_BLOCK_FILE, block)
    return again, result, given


OPINIONS_BLOCK_FILE = "cache/opinions-block.pickle"  # under .memwiki/: the opinions whose block bank/opinions.md has


def _opinions_block(loaded: Loaded) -> tuple[str, str] | None:
    """The token of the saved opinions the library holds and the digest of ``bank/opinions.md`` as parsed: saved
    once reflect leaves the block those opinions make in that very text, and then, while both are the same, reflect
    need not make that block again to know the file has it."""
    note = loaded.library.note_by_path.get(OPINIONS_PATH)
    return (loaded.linked.opinions, note.digest) if note is not None and loaded.linked.opinions else None


class ReflectInput(NamedTuple):
    """The key of reflect's input: what it reads from the library (``reflect.run.input_digest``), the reflector and
    the settings; and what it read of each note, for the next build's key."""

    key: str
    reads: NoteReads


def reflect_input(loaded: Loaded, reflector: Reflector, known: NoteReads | None = None) -> ReflectInput:
    """The input reflect reads from ``loaded`` (``known``: what it read of each note last time)."""
    digest, reads = input_digest(loaded.library, known)
    reflecting = (type(reflector).__name__, reflector.name, loaded.workspace.config)
    return ReflectInput(value_digest((digest, *reflecting)), reads)


def save_settled(memwiki_dir: Path, given: ReflectInput, result: ReflectResult) -> None:
    """Record that reflect settled on the input ``given``: it changed nothing, or the workspace is now as it wrote
    it (reflect run again on the pages it wrote changes no byte)."""
    save_cached(memwiki_dir, SETTLED_FILE, (given.key, given.reads, result.entities, result.opinions))


def reflect_loaded(
    loaded: Loaded, reflector: Reflector, diagnostics: Diagnostics, opinions_written: bool = False
) -> tuple[Loaded, ReflectResult]:
    """Ask reflect for new page texts; the pages it changes are parsed again in memory (once: reflect parses them
    to see whether their facts moved, and that parse is this one) and linked anew. The cycle collector is paused
    meanwhile: on a workspace of thousands of opinions they make millions of history points (and no cycle), and each
    collection they set off would walk them all again (a fifth of the time)."""
    with cycle_collection_paused():
        return _reflect_loaded(loaded, reflector, diagnostics, opinions_written)


def _reflect_loaded(
    loaded: Loaded, reflector: Reflector, diagnostics: Diagnostics, opinions_written: bool
) -> tuple[Loaded, ReflectResult]:
    pages: dict[tuple[str, str], tuple[SourceFile, Note]] = {}

    def parse_page(path: str, text: str) -> Note:
        found = pages.get((path, text))
        if found is None:
            source = source_file(loaded.workspace, path, text.encode("utf-8", "surrogateescape"))
            found = pages[(path, text)] = (source, parse_note(source))
        return found[1]

    result = reflect(
        loaded.library, reflector, lambda rel: read_raw(loaded.root, rel), diagnostics, parse_page, opinions_written
    )
    if not result.changes:
        return loaded, result
    for path, (_, new) in result.changes.items():
        parse_page(path, new)
    reparsed = {
        note_key(s.path, s.kind, s.digest, s.problems): note
        for (path, text), (s, note) in pages.items()
        if path in result.changes and result.changes[path][1] == text  # not a text the second pass changed again
    }
    again = {note.path: note for note in reparsed.values()}
    now = {key: note for key, note in loaded.cached.now.items() if key[0] not in again}
    notes = [again.pop(n.path, n) for n in loaded.notes] + list(again.values())
    library = link_notes(notes, opinions=result.opinions_now)
    now |= {key: note for key, note in reparsed.items() if not note.private}
    cached = NotesCache(loaded.cached.last, now)
    # Opinions reflect left as they were (no verdict moved one, no fact moved) are the saved ones: their file is kept
    # (on a workspace of a million history points it took 18 s to write again).
    same = result.opinions_now is loaded.library.opinions and kept_as_they_were(library.opinions, result.opinions_now)
    linked = LinkedFrom("", {}, opinions=loaded.linked.opinions if same else "")
    if same:  # and so is which of them cite each note (``library.citing``: a pass over every history point)
        library.citing = loaded.library.citing
    return dataclasses.replace(loaded, notes=notes, library=library, cached=cached, linked=linked), result


def reflect_workspace(
    loaded: Loaded, reflector: Reflector, *, dry_run: bool = False
) -> tuple[Loaded, ReflectResult, Diagnostics]:
    """``memwiki reflect``: reflect, write the changed pages (unless ``dry_run``) and say what went wrong."""
    found = Diagnostics()
    again, result = reflect_loaded(loaded, reflector, found)
    if not dry_run:
        write_reflected(loaded.root, result, reflector, found)
    return again, result, found


def write_reflected(root: Path, result: ReflectResult, reflector: Reflector, diagnostics: Diagnostics) -> None:
    """Reflect's pages into the workspace, its cache into ``.memwiki/``."""
    write_workspace_files(root, {path: new for path, (_, new) in result.changes.items()}, diagnostics)
    cache = reflector.cache_files()
    if cache:
        try:
            write_derived(root / ".memwiki", cache)
        except OSError as exc:
            diagnostics.warn(".memwiki", 0, f"reflect cache not saved: {exc}", "io")
