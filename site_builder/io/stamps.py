"""A file's stamps: its size and times, taken from the walk that lists it, tell that it changed without reading it.

Two uses: the recall index's freshness check (``stamps_of``: size and modification time, each file on its own) and
the build's no-op check (``settled_stamps``: every note, with its change time and inode). Both trust a stamp only
once the file has not changed for ``SETTLED_NS`` (git's "racily clean" rule).
"""

from __future__ import annotations

import os
from collections.abc import Iterable

NoteEntry = tuple[str, os.stat_result | None]  # a note's relative path and its stat, as listed (None: unreadable)


def stamps_of(entries: Iterable[NoteEntry]) -> dict[str, str]:
    """``{relative path: "mtime_ns:size"}`` of the entries (what the recall index records)."""
    # stamp_of, inlined: this runs for every file
    return {rel: f"{info.st_mtime_ns}:{info.st_size}" for rel, info in entries if info is not None}


# A file changed this close to the moment its folder was listed may change again within the same tick of its
# time stamps (two seconds on FAT; a few milliseconds on most others): its stamp then cannot vouch for its text
# (the build's no-op check, the recall index's freshness check).
SETTLED_NS = 2_000_000_000


FileStamp = tuple[int, int, int, int]  # size, modification and change times, inode


def settled_stamps(entries: Iterable[NoteEntry], listed_ns: int) -> dict[str, FileStamp]:
    """Each note's size, modification and change times and inode, as listed (``time.time_ns()`` when the listing
    began), by its path: while they stay the same, so does the text (a rewrite in place changes the change time,
    which no one can set back; a replacement changes the inode). A note is left out when it changed within
    ``SETTLED_NS`` of the listing (git's "racily clean" rule), has no modification time (some network and FUSE
    file systems) or cannot be looked at: then only reading it tells."""
    stamps = {}
    for rel, info in entries:
        if info is None or info.st_mtime_ns <= 0 or max(info.st_mtime_ns, info.st_ctime_ns) >= listed_ns - SETTLED_NS:
            continue
        stamps[rel] = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
    return stamps


def stamp_of(info: os.stat_result) -> str:
    """Modification time and size: changes whenever a file is rewritten."""
    return f"{info.st_mtime_ns}:{info.st_size}"
