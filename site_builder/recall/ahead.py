"""Answer from the recall index while the workspace is checked for changes.

A cold ``memwiki recall`` spends its time in two independent parts: statting
every note to see whether the index is fresh, and ranking the query in SQLite.
Both wait on the operating system or on SQLite, which let other threads run,
so the check runs in a thread while the query is answered from the index as it
stands. The answer is kept only when the check finds nothing to re-index (the
index did not change); otherwise the query is answered again from the
refreshed index. Either way the answer is the one a fresh index gives.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from site_builder.core.diagnostics import Diagnostics
from site_builder.io.reader import Workspace, open_workspace_stamped
from site_builder.recall.index import RecallIndex, index_path

Answer = TypeVar("Answer")


def answer_fresh(
    path: Path, diagnostics: Diagnostics, ask: Callable[[RecallIndex], Answer] | None = None
) -> tuple[Workspace, RecallIndex, Answer | None]:
    """The workspace at ``path``, its recall index brought up to date and, when ``ask`` is given, what it answers
    from the fresh index. ``WorkspaceError`` when ``path`` is no usable folder."""
    opened: list[tuple[Workspace, dict[str, str]]] = []
    failed: list[Exception] = []

    def check() -> None:
        try:
            opened.append(open_workspace_stamped(path))
        except Exception as exc:  # handed to the caller's thread as it is
            failed.append(exc)

    checking = threading.Thread(target=check, name="memwiki-stamp")
    checking.start()
    index: RecallIndex | None = None
    guess: Answer | None = None
    existing = index_path(path.expanduser().resolve())
    if ask is not None and existing.is_file():  # never make a folder for a path not yet known to be a workspace
        index = RecallIndex(existing)
        guess = ask(index)
    checking.join()
    if failed:
        raise failed[0]
    workspace, stamps = opened[0]
    if index is None or index.path != index_path(workspace.root):
        index = RecallIndex(index_path(workspace.root))
        guess = None
    before = index.generation
    index.refresh(workspace, stamps, diagnostics)
    if ask is None:
        return workspace, index, None
    if guess is None or index.generation != before:
        guess = ask(index)
    return workspace, index, guess
