"""The workspace's notes, listed, and the key of a build's whole input: from the notes' stamps (nothing read) or
from their texts. The same key as the last build's means the same site: nothing to build. A file whose stamps are
as when the last build read it is not read again (``Listing.read``): after one edit, one file is read."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from site_builder.core.diagnostics import Diagnostic, Diagnostics
from site_builder.io.build_cache import build_key
from site_builder.io.memo_store import MemoStore
from site_builder.io.reader import Workspace, note_entries
from site_builder.io.sources import KnownText, SourceFile, read_sources
from site_builder.io.stamps import FileStamp, NoteEntry, settled_stamps

KnownTexts = dict[str, tuple[FileStamp, str, tuple[Diagnostic, ...]]]  # path -> its stamps when read, digest, problems


@dataclass
class Listing:
    """The workspace's notes as listed, none read yet."""

    entries: list[NoteEntry]
    problems: Diagnostics  # what listing found (reading adds what it finds)
    settled: dict[str, FileStamp]  # the stamps that can vouch for a text (``stamps.settled_stamps``), by path
    stamps: str  # the key of all the notes' stamps and of the settings; "" when a stamp cannot vouch for a text

    def read(self, opened: Workspace, known: KnownTexts | None = None) -> list[SourceFile]:
        """The notes: read, or (in ``known``, as the last build read them) vouched for by their stamps."""
        vouched: dict[str, KnownText] = {}
        for rel, (stamp, digest, problems) in (known or {}).items():
            if self.settled.get(rel) == stamp:
                vouched[rel] = (digest, problems)
        return read_sources(opened, self.problems, self.entries, vouched)

    def known(self, sources: list[SourceFile]) -> KnownTexts:
        """What the next build need not read again while the stamps stay as listed."""
        settled = self.settled
        return {s.path: (settled[s.path], s.digest, s.problems) for s in sources if s.path in settled}


def load_known(memwiki_dir: Path) -> KnownTexts:
    """What the last build read (``Listing.known``), or nothing when the cache cannot say."""
    known = MemoStore.of(memwiki_dir, cache=True).get("read", (), dict)
    if not isinstance(known, dict) or not all(_is_known(value) for value in known.values()):
        return {}
    return known


def _is_known(value: object) -> bool:
    return isinstance(value, tuple) and len(value) == 3 and isinstance(value[2], tuple)


def save_known(store: MemoStore, known: KnownTexts) -> None:
    store.put("read", (), known)


def list_notes(opened: Workspace, settings: tuple[object, ...]) -> Listing:
    """List the notes and key their stamps (``stamps.settled_stamps``) with the settings: the same key as the last
    build's says, without reading a file, that the input is the same (a no-op build on a workspace of tens of
    thousands of files, or of a reflect page of a hundred MB, then reads nothing)."""
    listed_ns = time.time_ns()
    problems = Diagnostics()
    entries = note_entries(opened, problems)
    settled = settled_stamps(entries, listed_ns)
    key = ""
    if len(settled) == len(entries):
        stamps = ((rel, *stamp) for rel, stamp in settled.items())
        key = build_key(stamps, ("stamps", *_settings(opened, problems, settings)))
    return Listing(entries, problems, settled, key)


def input_key(
    opened: Workspace, sources: list[SourceFile], read_problems: Diagnostics, settings: tuple[object, ...]
) -> str:
    """The key of a build's whole input (``build_key``): its files, the workspace's settings and the build's."""
    found = _settings(opened, read_problems, settings)
    return build_key(((s.path, s.kind, s.digest, s.problems) for s in sources), found)


def _settings(opened: Workspace, problems: Diagnostics, settings: tuple[object, ...]) -> tuple[object, ...]:
    return (opened.config, opened.layout, opened.leave_out, opened.problems, opened.styling, *settings, *problems.items)
