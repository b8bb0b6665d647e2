"""One build of a workspace at a time: the lock in ``.memwiki/``."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

LOCK_FILE = "build.lock"


@contextlib.contextmanager
def build_lock(memwiki_dir: Path, waiting: Callable[[str], None]) -> Iterator[None]:
    """One build of a workspace at a time: a second one waits for the first (and says so through ``waiting``),
    so two builds never write the site, the cache or the recall index at once. The lock is the OS's (``flock``):
    a killed build leaves nothing to clean up. Where there is no ``flock`` (Windows) builds are not serialised."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    memwiki_dir.mkdir(parents=True, exist_ok=True)
    with open(memwiki_dir / LOCK_FILE, "a+", encoding="utf-8") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            waiting(f"waiting for another build of this workspace to finish ({holder})")
            fcntl.flock(handle, fcntl.LOCK_EX)
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}\n")
        handle.flush()
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
