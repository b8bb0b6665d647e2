"""The files memwiki derives into the workspace's ``.memwiki/`` (``recall.json`` and its shards, beside the
workspace where an agent finds them), replaced all at once, and left in place where they did not change."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path

from site_builder.io.writer import link_or_copy


def write_derived(folder: Path, files: Mapping[str, bytes | Path]) -> None:
    """Replace derived files under ``folder`` (the workspace's ``.memwiki/``) all at once: each path's bytes, or
    the file it names (a hard link where the file system allows, else a copy).

    Each top-level entry of ``files`` (a file, or a folder of files) is written
    to a temporary sibling and renamed into place, so readers never see a half
    written bundle and entries dropped from ``files`` disappear.
    """
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".tmp-{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    by_entry: dict[str, dict[str, bytes | Path]] = {}
    for rel, data in files.items():
        by_entry.setdefault(rel.partition("/")[0], {})[rel] = data
    changed = {
        rel: data
        for name, entry in by_entry.items()
        if not _in_place(folder, name, entry)
        for rel, data in entry.items()
    }
    made: set[Path] = set()
    try:
        for rel, data in sorted(changed.items()):
            target = tmp / rel
            if target.parent not in made:
                target.parent.mkdir(parents=True, exist_ok=True)
                made.add(target.parent)
            if isinstance(data, Path):
                link_or_copy(data, target)
            else:
                target.write_bytes(data)
        for entry in sorted(tmp.iterdir()):
            final = folder / entry.name
            if entry.is_dir():
                old = folder / f".old-{os.getpid()}-{entry.name}"
                if final.exists():
                    final.rename(old)
                entry.rename(final)
                shutil.rmtree(old, ignore_errors=True)
            else:
                entry.replace(final)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _in_place(folder: Path, name: str, files: dict[str, bytes | Path]) -> bool:
    """Does ``folder/name`` (a file, or a folder of files) hold these ``files`` and no other, each already the very
    file it names (a hard link of it)? Then it is left as it is: a recall bundle whose 2,000 entity shards did not
    change is not linked again."""
    here = folder / name
    try:
        if here.is_dir():
            present = {
                f"{Path(top).relative_to(folder).as_posix()}/{file}"
                for top, _, found in os.walk(here)
                for file in found
            }
        else:
            present = {name} if here.exists() else set()
        base = str(folder)  # plain strings: thousands of files
        return present == files.keys() and all(
            isinstance(data, Path) and os.path.samestat(os.stat(data), os.stat(f"{base}/{rel}"))  # noqa: PTH116
            for rel, data in files.items()
        )
    except OSError:
        return False
