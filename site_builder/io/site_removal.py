"""A site memwiki swapped out (or one it staged and abandoned) removed by a process of its own, beside the build: a
site is thousands of files. A folder's ``last`` entry (the site's marker) goes last, so that a folder left half
removed is still known as memwiki's, and the next build removes the rest."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
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
        for folder in self._folders:
            remove_folder(folder, self._last)


def remove_folder(folder: Path, last: str) -> None:
    """``folder`` gone, its entry ``last`` last (while another process may be at it: what it removed first is passed
    over)."""
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


if __name__ == "__main__":  # ``Removal``: LAST FOLDER...
    for gone in sys.argv[2:]:
        remove_folder(Path(gone), sys.argv[1])
