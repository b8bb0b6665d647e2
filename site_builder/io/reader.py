"""The reader: the only module that reads the workspace from disk.

It lists the files memwiki understands (DESIGN §2), refuses anything that
resolves outside the workspace, and decodes text leniently so that a bad byte
costs a warning, never the build.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from site_builder.core.diagnostics import Diagnostics

CONFIG_NAME = "memwiki.toml"
TOP_LEVEL_NOTES = ("memory.md", "SOUL.md")
NOTE_FOLDERS = ("memory", "bank", "bank/entities")


class WorkspaceError(Exception):
    """The workspace path cannot be used at all (missing, not a folder)."""


@dataclass(frozen=True)
class SourceFile:
    """One Markdown file of the workspace: its relative POSIX path and text."""

    path: str
    text: str

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Workspace:
    """Everything read from a workspace folder, ready to parse."""

    root: Path
    files: tuple[SourceFile, ...]
    config_text: str | None


def open_workspace(path: str | Path) -> Path:
    """Resolve and check the workspace folder."""
    root = Path(path).expanduser()
    if not root.exists():
        raise WorkspaceError(f"workspace not found: {root}")
    if not root.is_dir():
        raise WorkspaceError(f"workspace is not a folder: {root}")
    return root.resolve()


def read_workspace(root: Path, diagnostics: Diagnostics) -> Workspace:
    """Read every note and the config; problems become diagnostics."""
    files: list[SourceFile] = []
    for path in _note_paths(root, diagnostics):
        source = _read_text(root, path, diagnostics)
        if source is not None:
            files.append(source)
    config_text = read_config(root, diagnostics)
    if not files:
        diagnostics.warn(".", 0, "the workspace holds no memory files (memory.md, memory/, bank/)", "empty")
    return Workspace(root=root, files=tuple(files), config_text=config_text)


def read_config(root: Path, diagnostics: Diagnostics) -> str | None:
    """The text of ``memwiki.toml``, or None when the workspace has none."""
    config_path = root / CONFIG_NAME
    if config_path.is_file() and _inside(root, config_path, diagnostics):
        return _decode(config_path.read_bytes(), CONFIG_NAME, diagnostics)
    return None


def _note_entries(root: Path, diagnostics: Diagnostics) -> list[tuple[str, os.DirEntry[str] | Path]]:
    """``(relative path, entry)`` of every note, in a stable order; plain strings keep this fast."""
    found: list[tuple[str, os.DirEntry[str] | Path]] = []
    for name in TOP_LEVEL_NOTES:
        path = root / name
        if path.exists() and _inside(root, path, diagnostics) and path.is_file():
            found.append((name, path))
    for folder in NOTE_FOLDERS:
        directory = root / folder
        if not directory.is_dir() or not _inside(root, directory, diagnostics):
            continue
        with os.scandir(directory) as scan:
            entries = sorted(
                (e for e in scan if not e.name.startswith(".") and e.name.lower().endswith(".md")),
                key=lambda e: e.name,
            )
        for entry in entries:
            # A plain file in a folder inside the workspace is inside; only symlinks need resolving.
            if entry.is_symlink() and not _inside(root, Path(entry.path), diagnostics):
                continue
            if entry.is_file():
                found.append((f"{folder}/{entry.name}", entry))
    return found


def _note_paths(root: Path, diagnostics: Diagnostics) -> list[Path]:
    return [root / rel for rel, _ in _note_entries(root, diagnostics)]


def stamp_workspace(root: Path, diagnostics: Diagnostics) -> dict[str, str]:
    """``{relative path: "mtime_ns:size"}`` of every note: a cheap way to spot changed files."""
    stamps = {}
    for rel, entry in _note_entries(root, diagnostics):
        try:
            info = entry.stat()
        except OSError:
            continue
        stamps[rel] = stamp_of(info)
    return stamps


def stamp_of(info: os.stat_result) -> str:
    """Modification time and size: changes whenever a file is rewritten."""
    return f"{info.st_mtime_ns}:{info.st_size}"


def read_notes(root: Path, paths: list[str], diagnostics: Diagnostics) -> list[SourceFile]:
    """Read the given notes (relative paths from ``stamp_workspace``)."""
    files = [_read_text(root, root / rel, diagnostics) for rel in paths]
    return [f for f in files if f is not None]


def _inside(root: Path, path: Path, diagnostics: Diagnostics) -> bool:
    """True when ``path`` resolves inside ``root``; a symlink that leaves is skipped."""
    try:
        resolved = path.resolve()
    except OSError as exc:
        diagnostics.warn(_rel(root, path), 1, f"cannot resolve path ({exc}); skipped", "path")
        return False
    if resolved == root or root in resolved.parents:
        return True
    diagnostics.warn(_rel(root, path), 1, "points outside the workspace (symlink); skipped", "path")
    return False


def _read_text(root: Path, path: Path, diagnostics: Diagnostics) -> SourceFile | None:
    rel = _rel(root, path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        diagnostics.warn(rel, 1, f"cannot read file ({exc.strerror or exc}); skipped", "io")
        return None
    text = _decode(data, rel, diagnostics)
    if not text.strip():
        diagnostics.warn(rel, 1, "file is empty", "empty")
    return SourceFile(path=rel, text=text)


def _decode(data: bytes, rel: str, diagnostics: Diagnostics) -> str:
    if b"\x00" in data[:8192]:
        diagnostics.warn(rel, 1, "looks like a binary file, not Markdown; its text is skipped", "encoding")
        return ""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        diagnostics.warn(rel, line, "not valid UTF-8; undecodable bytes are shown as \ufffd", "encoding")
        text = data.decode("utf-8-sig", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _rel(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def read_raw(root: Path, rel: str) -> str | None:
    """A note's exact text for rewriting a generated block: newlines and BOM kept, bad bytes kept as
    surrogates (so writing it back gives the same bytes). None when missing or outside the workspace."""
    path = root / rel
    if not path.is_file() or not _inside(root, path, Diagnostics()):
        return None
    return path.read_bytes().decode("utf-8", errors="surrogateescape")
