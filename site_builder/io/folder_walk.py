"""The walk of a workspace's folders: every file with its stat, in one pass of ``os.scandir``, leaving out what holds
no memory (dot-folders, dependencies, memwiki's output folders), following a symlink only where it stays inside the
workspace, and listing a file reached by several paths once.
"""

from __future__ import annotations

import os
from pathlib import Path

from site_builder.core.diagnostics import WHOLE_WORKSPACE, Diagnostics
from site_builder.io.staging import MARKER
from site_builder.io.stamps import NoteEntry

SITE_FOLDER = "_site"  # the site's folder in a workspace with a memwiki.toml (``Workspace.default_output``)
# Folders that hold no memory: dependencies, caches and the site a build made with its default name.
SKIPPED_FOLDERS = {"node_modules", "__pycache__", SITE_FOLDER}


def walk_files(root: Path, diagnostics: Diagnostics) -> list[NoteEntry]:
    """Every file below ``root`` except dot-folders, ``node_modules`` and memwiki's output folders, with its stat,
    sorted by path (see ``walk_in_folder_order``)."""
    return sorted(walk_in_folder_order(root, diagnostics), key=_path)


def walk_in_folder_order(root: Path, diagnostics: Diagnostics) -> list[NoteEntry]:
    """``walk_files`` in the order the folders list their files: what needs no order (the recall index's stamps)
    takes them so, each stat read right after it was taken (sorting first makes reading them slower).

    A symlink is followed only when it resolves inside the workspace, and a file reached twice (a link to a file
    also listed, a hard link) is listed once (``_once_each``).
    """
    found: list[NoteEntry] = []
    linked: set[str] = set()  # the files reached through a symlink (the file's own, or a folder's on the way)
    hard = False  # some file has more than one name in its file system
    folders = [(root, "", False)]
    while folders:
        directory, prefix, through_link = folders.pop()
        try:
            with os.scandir(directory) as scan:
                entries = list(scan)
        except OSError as exc:
            diagnostics.warn(
                prefix.rstrip("/") or WHOLE_WORKSPACE, 0, f"cannot list folder ({exc.strerror or exc}); skipped", "io"
            )
            continue
        for entry in entries:  # every command walks every file: one stat each, and little else
            name = entry.name
            if name[0] == ".":
                continue
            link = through_link
            if entry.is_symlink():
                if not inside(root, Path(entry.path), diagnostics):
                    continue
                link = True
            if entry.is_dir():
                if name not in SKIPPED_FOLDERS and not (Path(entry.path) / MARKER).exists():
                    folders.append((Path(entry.path), f"{prefix}{name}/", link))
            elif entry.is_file():
                rel = prefix + name
                try:
                    info: os.stat_result | None = entry.stat()
                except OSError:
                    info = None
                found.append((rel, info))
                if link:
                    linked.add(rel)
                hard = hard or (info is not None and info.st_nlink > 1)
    return _once_each(found, linked) if linked or hard else found


def _once_each(found: list[NoteEntry], linked: set[str]) -> list[NoteEntry]:
    """``found`` with each file once: a file reached by several paths keeps the first by path not through a
    symlink (its own place), else the first."""
    kept: dict[tuple[int, int], NoteEntry] = {}  # (device, inode) -> the path kept
    unknown = []  # files that cannot be looked at: listed as they are (reading them will say what is wrong)
    for rel, info in sorted(found, key=_path):
        if info is None:
            unknown.append((rel, info))
            continue
        have = kept.get(key := (info.st_dev, info.st_ino))
        if have is None or (have[0] in linked and rel not in linked):
            kept[key] = (rel, info)
    return [*kept.values(), *unknown]


def _path(item: NoteEntry) -> str:
    return item[0]


def inside(root: Path, path: Path, diagnostics: Diagnostics) -> bool:
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


def _rel(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()
