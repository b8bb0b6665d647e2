"""A part's search records linked at their pages' paths, in the folder Pagefind reads that part from.

Pagefind is driven from a thread while render runs in the main one, and a thread that links a file at a time waits
for the interpreter's lock after every link (one switch interval, 5 ms, each time): 365 links took 0.4 s beside
render. So the links are made by a process of its own (``python -m site_builder.site.record_links FOLDER``, the
pairs on its standard input), or here when that process cannot run.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from site_builder.io.writer import link_or_copy


def link_records(pairs: list[tuple[str, str]], into: Path) -> None:
    """Each record file (the first of a pair) at its page's site path (the second) under ``into``."""
    if pairs and not _linked_apart(pairs, into):
        shutil.rmtree(into, ignore_errors=True)  # what it linked before it failed
        _link(pairs, into)


def _linked_apart(pairs: list[tuple[str, str]], into: Path) -> bool:
    data = "\0".join(f"{source}\0{path}" for source, path in pairs).encode("utf-8", "surrogateescape")
    command = [sys.executable, "-I", "-m", "site_builder.site.record_links", str(into)]
    try:
        return subprocess.run(command, input=data, capture_output=True, check=False).returncode == 0
    except OSError:
        return False


def _link(pairs: Iterable[tuple[str, str]], into: Path) -> None:
    folders: set[str] = set()
    for source, path in pairs:
        folder = path.rpartition("/")[0]
        if folder not in folders:
            (into / folder).mkdir(parents=True, exist_ok=True)
            folders.add(folder)
        link_or_copy(source, into / path)


def _main() -> None:
    words = sys.stdin.buffer.read().decode("utf-8", "surrogateescape").split("\0")
    _link(zip(words[::2], words[1::2], strict=True), Path(sys.argv[1]))


if __name__ == "__main__":
    _main()
