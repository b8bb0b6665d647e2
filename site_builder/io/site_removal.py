"""A site memwiki swapped out (or one it staged and abandoned) removed by a process of its own, beside the build: a
site is thousands of files. A folder's ``last`` entry (the site's marker) goes last, so that a folder left half
removed is still known as memwiki's, and the next build removes the rest. While a folder is being removed its
marker is locked (the OS's ``flock``): the next build passes it over (``being_removed``) instead of removing the same
files beside that process — after a full build, 12,000 files of the large race corpus, which took an edit started
at once 0.75 s more."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

_LEFT: list[subprocess.Popen[bytes]] = []  # removals no build waited for (``Removal.leave``), reaped by later ones


class Removal:
    """``folders`` being removed by a process of its own; removed here when no process can be started."""

    def __init__(self, folders: list[Path], last: str) -> None:
        self._folders, self._last = folders, last
        self._process: subprocess.Popen[bytes] | None = None
        _LEFT[:] = [left for left in _LEFT if left.poll() is None]
        command = [sys.executable, "-I", "-m", "site_builder.io.site_removal", last, *map(str, folders)]
        quiet = subprocess.DEVNULL  # holds no pipe of the build's, hears no Ctrl-C of its terminal
        try:
            self._process = subprocess.Popen(command, stdin=quiet, stdout=quiet, stderr=quiet, start_new_session=True)
        except OSError:
            self._here()

    def wait(self) -> None:
        """Wait until the folders are gone (removed here when the process could not)."""
        if self._process is not None and self._process.wait() != 0:
            self._here()

    def leave(self) -> None:
        """Let the removal go on without waiting for it (a process that ends with the build)."""
        if self._process is not None:
            _LEFT.append(self._process)

    def _here(self) -> None:
        remove_folders(self._folders, self._last)


def remove_folder(folder: Path, last: str) -> None:
    """``folder`` gone, its entry ``last`` last (while another process may be at it: what it removed first is passed
    over)."""
    remove_folders([folder], last)


def remove_folders(folders: list[Path], last: str) -> None:
    """``remove_folder`` of each of ``folders``, all of them locked first: the next build passes over every one."""
    with contextlib.ExitStack() as locks:
        for folder in folders:
            locks.enter_context(_locked(folder / last, wait=True))
        for folder in folders:
            with contextlib.suppress(OSError):
                for entry in folder.iterdir():
                    if entry.name == last:
                        continue
                    if entry.is_dir() and not entry.is_symlink():
                        shutil.rmtree(entry, ignore_errors=True)
                    else:
                        entry.unlink(missing_ok=True)
                (folder / last).unlink(missing_ok=True)
                folder.rmdir()


def being_removed(folder: Path, last: str) -> bool:
    """Whether another process is removing ``folder`` now (``remove_folder`` holds the lock of its ``last`` entry)."""
    with _locked(folder / last, wait=False) as locked:
        return not locked


@contextlib.contextmanager
def _locked(marker: Path, *, wait: bool) -> Iterator[bool]:
    """The lock of a folder's marker, held here: False when another process holds it (True where files cannot be
    locked, or the marker is gone: nothing to pass over). ``wait``: until that process lets it go."""
    try:
        import fcntl

        handle = open(marker, "rb")  # noqa: SIM115 (closed below, after the lock)
    except (ImportError, OSError):
        yield True
        return
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # held by another process
            yield False
            return
        except OSError:  # a file system without locks: none held
            pass
        yield True


if __name__ == "__main__":  # ``Removal``: LAST FOLDER...
    remove_folders([Path(gone) for gone in sys.argv[2:]], sys.argv[1])
