"""The workspace's notes, listed, and the key of a build's whole input: from the notes' stamps (nothing read) or
from their texts. The same key as the last build's means the same site: nothing to build."""

from __future__ import annotations

import time
from dataclasses import dataclass

from site_builder.core.diagnostics import Diagnostics
from site_builder.io.build_cache import build_key
from site_builder.io.reader import SourceFile, Workspace, note_entries, read_sources
from site_builder.io.stamps import NoteEntry, settled_stamps


@dataclass
class Listing:
    """The workspace's notes as listed, none read yet."""

    entries: list[NoteEntry]
    problems: Diagnostics  # what listing found (reading adds what it finds)
    stamps: str  # the key of the notes' stamps and of the settings; "" when a stamp cannot vouch for a text

    def read(self, opened: Workspace) -> list[SourceFile]:
        return read_sources(opened, self.problems, self.entries)


def list_notes(opened: Workspace, settings: tuple[object, ...]) -> Listing:
    """List the notes and key their stamps (``stamps.settled_stamps``) with the settings: the same key as the last
    build's says, without reading a file, that the input is the same (a no-op build on a workspace of tens of
    thousands of files, or of a reflect page of a hundred MB, then reads nothing)."""
    listed_ns = time.time_ns()
    problems = Diagnostics()
    entries = note_entries(opened, problems)
    stamps = settled_stamps(entries, listed_ns)
    key = "" if stamps is None else build_key(stamps, ("stamps", *_settings(opened, problems, settings)))
    return Listing(entries, problems, key)


def input_key(
    opened: Workspace, sources: list[SourceFile], read_problems: Diagnostics, settings: tuple[object, ...]
) -> str:
    """The key of a build's whole input (``build_key``): its files, the workspace's settings and the build's."""
    found = _settings(opened, read_problems, settings)
    return build_key(((s.path, s.kind, s.digest, s.problems) for s in sources), found)


def _settings(opened: Workspace, problems: Diagnostics, settings: tuple[object, ...]) -> tuple[object, ...]:
    return (opened.config, opened.layout, opened.problems, *settings, *problems.items)
