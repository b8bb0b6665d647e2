"""Reflect on a loaded workspace (``load.Loaded``): its new page texts parsed again in memory and the library linked
again (``reflect_loaded``: relinked from the one reflect read when it can), or written into the workspace
(``reflect_workspace``: ``memwiki reflect``); and in a build, not asked at all on an input it settled on
(``reflect_unless_settled``).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import NamedTuple

from site_builder.core.collector import cycle_collection_paused
from site_builder.core.diagnostics import Diagnostics
from site_builder.core.digest import value_digest
from site_builder.core.library import Library
from site_builder.core.model import Note, Opinion
from site_builder.io.build_cache import NoteKey, note_key
from site_builder.io.derived import write_derived
from site_builder.io.memo_store import MEMO_FOLDER, MemoStore
from site_builder.io.sources import SourceFile, read_raw, source_file
from site_builder.io.writer import write_workspace_files
from site_builder.library.link import OPINIONS_PATH, link_notes
from site_builder.library.relink import relink
from site_builder.library.repoint import kept_as_they_were
from site_builder.library.saved import LinkedFrom
from site_builder.load import Loaded, NotesCache
from site_builder.parse.note import parse_note
from site_builder.reflect.reader import with_findings
from site_builder.reflect.reflector import Reflector
from site_builder.reflect.run import NoteReads, ReflectResult, input_digest, reflect


def reflect_unless_settled(
    loaded: Loaded, reflector: Reflector, diagnostics: Diagnostics, memwiki_dir: Path | None
) -> tuple[Loaded, ReflectResult, ReflectInput | None]:
    """``reflect_loaded``, unless reflect last settled on this very input (``save_settled``): then it would change
    no byte, and is not run (a plain edit of a workspace of thousands of opinions skips seconds of it; an edit of a
    fact, a mention, an entity page or ``bank/opinions.md`` runs it). With the input reflect ran on (None when it
    did not run, or without ``memwiki_dir``: no cache)."""
    store = MemoStore(memwiki_dir / MEMO_FOLDER if memwiki_dir is not None else None)
    settled = store.get("reflect-settled", (), tuple)
    if not (isinstance(settled, tuple) and len(settled) == 4 and isinstance(settled[1], dict)):
        settled = None
    given = reflect_input(loaded, reflector, settled[1] if settled else None) if memwiki_dir else None
    if given is not None and settled is not None and settled[0] == given.key:
        return loaded, ReflectResult(entities=settled[2], opinions=settled[3], usage=reflector.usage), None
    file = _opinions_file(loaded)
    written = file is not None and _block_written(store, loaded.linked.opinions) == file
    again, result = reflect_loaded(loaded, reflector, diagnostics, opinions_written=written)
    return again, result, given


def save_opinions_block(store: MemoStore, loaded: Loaded, opinions: str, result: ReflectResult) -> None:
    """Once reflect's pages are written: when ``bank/opinions.md`` has the block of the library's opinions (saved
    as ``opinions``), remember it by that token and the file's digest. While both stay the same (a new fact that
    moves no opinion), reflect need not make that block again to know the file has it."""
    made = result.opinions_block_of
    now = loaded.library.opinions
    if made is None or not (made is now or kept_as_they_were(now, made)):
        store.keep("opinions-block", (opinions,))  # reflect did not make the block now; it may ask next time
        return
    file = _opinions_file(loaded)
    if file is not None and opinions and _block_written(store, opinions) != file:
        store.put("opinions-block", (opinions,), file)


def _block_written(store: MemoStore, opinions: str) -> str | None:
    """The digest of ``bank/opinions.md`` when it had the block of the opinions saved as ``opinions``."""
    return store.get("opinions-block", (opinions,), str) if opinions else None


def _opinions_file(loaded: Loaded) -> str | None:
    """The digest of ``bank/opinions.md`` as parsed (None: there is none)."""
    note = loaded.library.note_by_path.get(OPINIONS_PATH)
    return note.digest if note is not None else None


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
    MemoStore.of(memwiki_dir, cache=True).put(
        "reflect-settled", (), (given.key, given.reads, result.entities, result.opinions)
    )


def reflect_loaded(
    loaded: Loaded, reflector: Reflector, diagnostics: Diagnostics, opinions_written: bool = False
) -> tuple[Loaded, ReflectResult]:
    """Ask reflect for new page texts; the pages it changes are parsed again in memory (once: reflect parses them
    to see whether their facts moved, and that parse is this one) and the library is relinked from the one reflect
    read when ``library.relink`` takes those pages (``_relinked``), else linked anew. The cycle collector is paused
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
    now |= {key: note for key, note in reparsed.items() if not note.private}
    cached = NotesCache(loaded.cached.last, now)
    relinked = _relinked(loaded, notes, result.opinions_now)
    if relinked is not None:
        return dataclasses.replace(loaded, notes=notes, library=relinked[0], cached=cached, linked=relinked[1]), result
    library = link_notes(notes, opinions=result.opinions_now)
    # Opinions reflect left as they were (no verdict moved one, no fact moved) are the saved ones: their file is kept
    # (on a workspace of a million history points it took 18 s to write again).
    same = result.opinions_now is loaded.library.opinions and kept_as_they_were(library.opinions, result.opinions_now)
    linked = LinkedFrom("", {}, opinions=loaded.linked.opinions if same else "")
    if same:  # and so is which of them cite each note (``library.citing``: a pass over every history point)
        library.citing = loaded.library.citing
    return dataclasses.replace(loaded, notes=notes, library=library, cached=cached, linked=linked), result


def _relinked(loaded: Loaded, notes: list[Note], opinions: list[Opinion]) -> tuple[Library, LinkedFrom] | None:
    """The library of ``notes`` (with the pages reflect wrote) relinked from ``loaded``'s, when reflect moved no
    opinion and ``library.relink`` takes those pages (an entity's page written again for a new fact about it, its
    names as they were): linking a heavy workspace anew took 4 s, and then every page's inputs were worked out
    again. It is relinked from the saved library ``loaded``'s is or was relinked from, what both relinks changed."""
    last = loaded.library
    public = sorted((note for note in notes if not note.private), key=lambda note: note.path)
    if opinions is not last.opinions or [note.path for note in public] != [note.path for note in last.notes]:
        return None
    library = relink(last, public)
    if library is None or library.opinions is not last.opinions:  # a fact in those pages moved an opinion
        return None
    library.relinked = (last.relinked or frozenset()) | (library.relinked or frozenset())
    return library, LinkedFrom("", {}, loaded.linked.token or loaded.linked.since, loaded.linked.opinions)


def read_by_reflector(loaded: Loaded, reflector: Reflector, diagnostics: Diagnostics, store: MemoStore) -> Loaded:
    """``loaded`` with what the reflector found reading the notes' prose (Claude: ``reflect.reader``) in its notes and
    library (linked anew); ``loaded`` itself when it found nothing (offline). A note with findings is kept in the
    build cache under a key of its own, so that a build without them never takes it for the note as parsed."""
    answers = reflector.read(loaded.library.notes, store, diagnostics)
    notes = [with_findings(n, answers[n.path], diagnostics) if n.path in answers else n for n in loaded.notes]
    read = {note.path: note for note, was in zip(notes, loaded.notes, strict=True) if note is not was}
    if not read:
        return loaded
    now: dict[NoteKey, Note] = {}
    for key, note in loaded.cached.now.items():
        found = read.get(key[0])
        if found is None:
            now[key] = note
        else:
            now[(key[0], key[1], f"{key[2]}+{value_digest((found.found, found.facts))}", key[3])] = found
    cached = NotesCache(loaded.cached.last, now)
    return dataclasses.replace(loaded, notes=notes, library=link_notes(notes), cached=cached, linked=LinkedFrom("", {}))


def reflect_workspace(
    loaded: Loaded, reflector: Reflector, *, dry_run: bool = False
) -> tuple[Loaded, ReflectResult, Diagnostics]:
    """``memwiki reflect``: read the notes' prose (Claude), reflect, write the changed pages (unless ``dry_run``)
    and say what went wrong."""
    found = Diagnostics()
    loaded = read_by_reflector(loaded, reflector, found, MemoStore.of(loaded.root / ".memwiki", cache=True))
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
