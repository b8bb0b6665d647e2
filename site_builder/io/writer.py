"""The writer of the workspace's files: reflect's pages, each replaced all at once; and a file linked (or copied)
where the file system allows."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from site_builder.core.diagnostics import Diagnostics
from site_builder.io.staging import OutputError


def write_text_atomic(root: Path, rel: str, text: str) -> None:
    """Replace (or create) one workspace file all at once: a temporary sibling renamed over it."""
    target = root / rel
    if root.resolve() not in target.resolve().parents:
        raise OutputError(f"refusing to write {rel}: outside the workspace")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.memwiki-{os.getpid()}.tmp")
    try:
        tmp.write_bytes(text.encode("utf-8", errors="surrogateescape"))
        if target.exists():
            shutil.copymode(target, tmp)
        tmp.replace(target)
    finally:
        tmp.unlink(missing_ok=True)


def write_workspace_files(root: Path, texts: dict[str, str], diagnostics: Diagnostics) -> list[str]:
    """Write reflect's pages into the workspace, each atomically; returns the paths written."""
    written = []
    for path, text in sorted(texts.items()):
        try:
            write_text_atomic(root, path, text)
            written.append(path)
        except (OSError, OutputError) as exc:
            diagnostics.warn(path, 0, f"reflect could not write this page ({exc}); it is unchanged", "reflect")
    return written


def link_or_copy(source: str | Path, target: str | Path) -> None:
    """A hard link where the file system allows (no bytes copied), else a copy."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)
