"""The notes' texts, read (``read_sources``, ``read_notes``) or vouched for by their stamps (``io.listing``): with
``io.reader``, the only module that reads the workspace from disk."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from site_builder.core.diagnostics import WHOLE_WORKSPACE, Diagnostic, Diagnostics
from site_builder.core.model import NoteKind
from site_builder.io.folder_walk import inside
from site_builder.io.reader import Workspace, decode, note_entries
from site_builder.io.stamps import NoteEntry


@dataclass(frozen=True)
class SourceFile:
    """One Markdown file of the workspace: its relative POSIX path, text and kind of note, what reading it found
    and the digest of its text. ``text`` is None for a file not read because its stamps vouch that it is as the last
    build read it (``io.listing``): its digest and problems are then that build's."""

    path: str
    text: str | None
    kind: NoteKind
    problems: tuple[Diagnostic, ...] = ()  # decoding problems, at file:line
    digest: str = ""

    def __post_init__(self) -> None:
        if self.text is not None and not self.digest:
            object.__setattr__(self, "digest", text_digest(self.text))


def text_digest(text: str) -> str:
    """Tells a changed text from an unchanged one (``Note.digest``)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


KnownText = tuple[str, tuple[Diagnostic, ...]]  # a file's digest and what reading it found, as the last build read it


def read_sources(
    workspace: Workspace,
    diagnostics: Diagnostics,
    entries: list[NoteEntry] | None = None,
    known: dict[str, KnownText] | None = None,
) -> list[SourceFile]:
    """Every note of the workspace (those ``note_entries`` listed, when given), in a stable order; problems become
    diagnostics. A file in ``known`` is not read: its stamps vouch that it is as the last build read it."""
    listed = note_entries(workspace, diagnostics) if entries is None else entries
    known = known or {}
    files = []
    for rel, _ in listed:
        if rel in known:
            digest, problems = known[rel]
            files.append(SourceFile(rel, None, workspace.layout.kind_of(rel), problems, digest))
        elif (read := _read_text(workspace, rel, diagnostics)) is not None:
            files.append(read)
    if not files:
        diagnostics.warn(WHOLE_WORKSPACE, 0, "the workspace holds no Markdown memory files", "empty")
    for other in workspace.layout.other_cores:  # two layouts claim the core memory: say which one memwiki took
        diagnostics.warn(
            other, 1, f"also looks like core memory; memwiki shows {workspace.layout.core} as the core memory and "
            "this file as a page (set [workspace] layout in memwiki.toml to choose)", "layout",
        )  # fmt: skip
    return files


def read_notes(workspace: Workspace, paths: list[str], diagnostics: Diagnostics) -> list[SourceFile]:
    """Read the given notes (relative paths from ``stamp_workspace``)."""
    files = [_read_text(workspace, rel, diagnostics) for rel in paths]
    return [f for f in files if f is not None]


def _read_text(workspace: Workspace, rel: str, diagnostics: Diagnostics) -> SourceFile | None:
    path = workspace.root / rel
    try:
        data = path.read_bytes()
    except OSError as exc:
        diagnostics.warn(rel, 1, f"cannot read file ({exc.strerror or exc}); skipped", "io")
        return None
    read = source_file(workspace, rel, data)
    if read.text and (line := workspace.leave_out.template_line(read.text)):
        workspace.left_out[rel] = f"a note template (a placeholder at line {line})"
        return None
    return read


def source_file(workspace: Workspace, rel: str, data: bytes) -> SourceFile:
    """A note from its bytes, as read from disk or as reflect is about to write it."""
    problems = Diagnostics()
    text = decode(data, rel, problems)
    if not text.strip() and not problems.items:  # a binary file was reported as such
        problems.warn(rel, 1, "file is empty", "empty")
    if len(data) > LARGE_FILE:
        size = f"{len(data) / 1_000_000:.1f} MB"
        problems.warn(rel, 1, f"large file ({size}): read whole, but its page is slow to build and to open", "size")
    return SourceFile(rel, text, workspace.layout.kind_of(rel), tuple(problems.items))


LARGE_FILE = 2_000_000  # bytes: a memory file this big is usually a paste or an export, worth a word


def read_raw(root: Path, rel: str) -> str | None:
    """A note's exact text for rewriting a generated block: newlines and BOM kept, bad bytes kept as
    surrogates (so writing it back gives the same bytes). None when missing or outside the workspace."""
    path = root / rel
    if not path.is_file() or not inside(root, path, Diagnostics()):
        return None
    return path.read_bytes().decode("utf-8", errors="surrogateescape")
