"""Answer from the recall index while the workspace is checked for changes.

A recall call spends its time in two independent parts: statting every note
to see whether the index is fresh, and ranking the query in SQLite. Both wait
on the operating system or on SQLite, which let other threads run, so the check
runs in a thread while the query is answered from the index as it stands. The
answer is kept only when the index still holds what it held when the query
began (the digest of the stamps it was brought up to date with, which every
process that changes it rewrites in the same transaction); otherwise the query is
answered again from the refreshed index. Either way the answer is the one a
fresh index gives.
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
Result = TypeVar("Result")


def in_background(work: Callable[[], Result]) -> Callable[[], Result]:
    """Start ``work`` in a thread; the function returned waits for its result (or raises what it raised)."""
    done: list[Result] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(work())
        except BaseException as exc:  # handed to the waiting thread as it is
            failed.append(exc)

    thread = threading.Thread(target=run, name="memwiki-check")
    thread.start()

    def wait() -> Result:
        thread.join()
        if failed:
            raise failed[0]
        return done[0]

    return wait


def answer_refreshed(
    index: RecallIndex,
    checked: Callable[[], tuple[Workspace, dict[str, str]]],
    ask: Callable[[RecallIndex], Answer],
    diagnostics: Diagnostics,
) -> Answer:
    """What ``ask`` answers from ``index`` once it is refreshed with what ``checked`` (running meanwhile) found:
    asked before the refresh, and again when the index changed meanwhile (refreshed here or by another process)."""
    before = index.state()
    guess: list[Answer] = []
    failure: Exception | None = None
    try:
        guess.append(ask(index))
    except Exception as exc:  # an unknown entity, say: the refresh may bring it
        failure = exc
    workspace, stamps = checked()
    index.refresh(workspace, stamps, diagnostics)
    if index.state() != before:
        return ask(index)
    if failure is not None:
        raise failure
    return guess[0]


def answer_fresh(
    path: Path, diagnostics: Diagnostics, ask: Callable[[RecallIndex], Answer]
) -> tuple[Workspace, RecallIndex, Answer]:
    """The workspace at ``path``, its recall index brought up to date and what ``ask`` answers from it.
    ``WorkspaceError`` when ``path`` is no usable folder."""
    checked = in_background(lambda: open_workspace_stamped(path))
    existing = index_path(path.expanduser().resolve())
    if existing.is_file():  # never make a folder for a path not yet known to be a workspace
        index = RecallIndex(existing)
        answer = answer_refreshed(index, checked, ask, diagnostics)
        return checked()[0], index, answer
    workspace, stamps = checked()
    from site_builder.recall.publish import first_index  # the parser and linker: only for a first index

    index = first_index(workspace, stamps, diagnostics)
    return workspace, index, ask(index)
