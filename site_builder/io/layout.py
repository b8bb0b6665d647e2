"""Workspace layouts: which files memwiki reads and what kind of note each one is.

One layout today, Clawd "Workspace Memory v2" (memwiki's own, DESIGN §2). The
other layouts agents write (OpenClaw, TinyClaw, toebeans, ClawXMemory, Claude
Code; ``LAYOUTS.md``) go here as further ``Layout`` values: the reader lists a
layout's files and tags each with its kind, so everything after the reader sees
the same ``SourceFile`` records whatever wrote the workspace.
"""

from __future__ import annotations

from dataclasses import dataclass

from site_builder.core.model import NoteKind

CONFIG_NAME = "memwiki.toml"


@dataclass(frozen=True)
class Layout:
    """Where a layout keeps its notes: files at the top, and folders whose ``*.md`` files are notes."""

    name: str
    top_level: tuple[str, ...]
    folders: tuple[str, ...]

    def kind_of(self, path: str) -> NoteKind:
        """The kind of note at ``path`` (relative, POSIX)."""
        if path == "memory.md":
            return "core"
        if path == "SOUL.md":
            return "soul"
        if path.startswith("bank/entities/"):
            return "entity"
        if path.startswith("bank/"):
            return "bank"
        return "daily"


CLAWD_V2 = Layout("clawd-v2", top_level=("memory.md", "SOUL.md"), folders=("memory", "bank", "bank/entities"))
