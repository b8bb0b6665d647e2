"""Watching the workspace for ``memwiki serve``: batches of changed notes, minus memwiki's own writes."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from site_builder.core.config import CONFIG_NAME
from site_builder.io.folder_walk import SKIPPED_FOLDERS
from site_builder.io.reader import Workspace, is_memory_file
from site_builder.io.stamps import stamp_of
from site_builder.io.styling import TEMPLATE_FOLDERS, builtin_templates

if TYPE_CHECKING:
    from watchfiles import Change

Changes = set[tuple["Change", str]]
# The longest a batch waits for more changes. watchfiles filters its events only after it has grouped them, so
# while memwiki itself writes under the workspace (the site, ``.memwiki/``, the last site being removed) its
# default, 1.6 s, held back a person's edit: on the large race corpus it was noticed 1.0-1.2 s late.
DEBOUNCE_MS = 100


def workspace_filter(workspace: Workspace) -> Callable[[Change, str], bool]:
    """Only the files memwiki reads trigger a rebuild (not the site, the index or editor temp files): notes,
    memwiki.toml, a stylesheet (the one ``[site] css`` names may change with it) and the templates over memwiki's."""
    root = workspace.root
    config = str(root / CONFIG_NAME)
    templates = {f"{folder}/{name}" for folder in TEMPLATE_FOLDERS for name in builtin_templates()}

    def accept(_change: Change, path: str) -> bool:
        if path == config:
            return True
        try:
            parts = Path(path).relative_to(root).parts
        except ValueError:
            return False
        rel = "/".join(parts)
        if rel in templates:
            return True
        return (is_memory_file(rel) or rel.endswith(".css")) and not any(
            part.startswith(".") or part in SKIPPED_FOLDERS for part in parts
        )

    return accept


class Watcher(threading.Thread):
    """Watches the workspace in the background and queues batches of changed files.

    ``ready`` is set once the watcher runs (its first timeout has passed), so
    no edit made after that is missed.
    """

    def __init__(self, workspace: Workspace) -> None:
        super().__init__(daemon=True)
        self.workspace = workspace
        self.root = workspace.root
        self.stop = threading.Event()
        self.ready = threading.Event()
        self.changes: queue.Queue[Changes] = queue.Queue()
        self.own: dict[str, str] = {}  # files memwiki wrote itself (reflect) and their stamps

    def ignore_own_writes(self, paths: list[Path]) -> None:
        """Do not rebuild for these files while they are as memwiki wrote them."""
        self.own.update({str(p): _stamp(p) for p in paths})

    def run(self) -> None:
        from watchfiles import watch  # imported here: only serve needs it

        batches = watch(
            self.root,
            watch_filter=workspace_filter(self.workspace),
            stop_event=self.stop,
            debounce=DEBOUNCE_MS,
            step=50,
            rust_timeout=200,
            yield_on_timeout=True,
            raise_interrupt=False,
        )
        for batch in batches:
            self.ready.set()
            if batch:
                self.changes.put(batch)

    def batches(self) -> Iterator[Changes]:
        """Changed files, several quick edits merged into one batch."""
        while True:
            try:
                batch = self.changes.get(timeout=0.5)  # wakes up for Ctrl-C
            except queue.Empty:
                continue
            while not self.changes.empty():
                batch |= self.changes.get_nowait()
            batch = {(change, path) for change, path in batch if self.own.get(path) != _stamp(Path(path))}
            if batch:
                yield batch


def _stamp(path: Path) -> str:
    try:
        info = path.stat()
    except OSError:
        return "gone"
    return stamp_of(info)
