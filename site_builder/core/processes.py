"""Both cores: jobs shared with a forked child, and work a forked child does in the background.

A forked child inherits everything the parent has (nothing is sent to it) and sends back only its result.
No fork from a process with other threads (``memwiki serve``, Pagefind's thread): forking one is unsafe.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from multiprocessing.connection import Connection
from typing import Any, Generic, TypeVar

In = TypeVar("In")
Out = TypeVar("Out")

Take = Callable[[], "int | None"]  # the next job to do, None once every job is taken
# work(take, reporting): does the jobs ``take`` hands out, returns what they made; ``reporting``: in this process (the
# one that reports progress), not in the forked child.
Share = Callable[[Take, bool], Out]


def can_fork() -> bool:
    """A second process is worth starting: two cores or more, no other thread, not ``MEMWIKI_PROCESSES=1``."""
    if os.environ.get("MEMWIKI_PROCESSES") == "1" or threading.active_count() > 1:
        return False
    return len(os.sched_getaffinity(0)) > 1


def process_count(jobs: int, worth_from: int) -> int:
    """2 when a second process can be forked (``can_fork``) for at least ``worth_from`` jobs, else 1."""
    return 2 if jobs >= worth_from and can_fork() else 1


def in_shares(work: Share[Out], jobs: int, worth_from: int, size: int | None = None) -> list[Out]:
    """``[work(take, True)]``, or ``[mine, theirs]`` when the work's ``size`` (by default ``jobs``: how many jobs
    there are) makes a second process worth it (``process_count``): this process and a
    forked child each take the next job no one has taken until none is left, so both end together however uneven
    the jobs are. If the child fails, the jobs it took are done here again, so an error is raised with its real
    traceback."""
    if process_count(jobs if size is None else size, worth_from) == 1:
        return [work(handing_out(range(jobs)), True)]
    context = multiprocessing.get_context("fork")
    handed = context.Value("q", 0)  # the next job: shared by both processes

    def take() -> int | None:
        with handed.get_lock():
            job = int(handed.value)
            handed.value = job + 1
        return job if job < jobs else None

    mine: list[int] = []

    def take_mine() -> int | None:
        job = take()
        if job is not None:
            mine.append(job)
        return job

    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(lambda: work(take, False), send, receive), daemon=True)
    child.start()
    send.close()
    done_here = work(take_mine, True)
    theirs = _received(receive)
    child.join()
    if theirs is None:  # the child died or failed: its jobs again, here
        taken_here = set(mine)
        return [done_here, work(handing_out(j for j in range(jobs) if j not in taken_here), False)]
    return [done_here, theirs[0]]


def map_in_two(
    work: Callable[[In], Out],
    items: Sequence[In],
    worth_from: int,
    done: Callable[[int], None] | None = None,
    size: int | None = None,
) -> list[Out]:
    """``[work(item) for item in items]`` over both cores when the work's ``size`` (in the units of ``worth_from``;
    by default, how many items) makes it worth it. ``done`` hears how many items have been taken so far."""

    def share(take: Take, reporting: bool) -> list[tuple[int, Out]]:
        results = []
        while (index := take()) is not None:
            results.append((index, work(items[index])))
            if done and reporting:
                done(index + 1)
        return results

    found: dict[int, Out] = {}
    for part in in_shares(share, len(items), worth_from, size):
        found.update(part)
    return [found[index] for index in range(len(items))]


class Background(Generic[Out]):
    """``work()`` done by a forked child while this process goes on; ``result()`` waits for it. When it is not worth
    a process (``process_count`` of ``size`` units of work), or the child failed, ``result()`` does the work itself.
    ``then()``: more work the child does once it has sent its result, at low priority (it yields to the processes
    that render), and ``finish()`` waits for; done here by ``finish()`` when there is no child."""

    def __init__(
        self, work: Callable[[], Out], size: int, worth_from: int, then: Callable[[], object] | None = None
    ) -> None:
        self._work = work
        self._then = then
        self._child: Any = None
        if process_count(size, worth_from) == 1:
            return
        context = multiprocessing.get_context("fork")
        self._receive, send = context.Pipe(duplex=False)
        self._child = context.Process(target=_child, args=(work, send, self._receive, then), daemon=True)
        self._child.start()
        send.close()

    def result(self) -> Out:
        if self._child is None:
            return self._work()
        found = _received(self._receive)
        if found is None:  # the child failed: the work here, and what comes after it in ``finish``
            self._child.join()
            self._child = None
            return self._work()
        return found[0]  # type: ignore[no-any-return]

    def finish(self) -> None:
        """Wait for what the child does after its result (``then``), or do it here."""
        if self._child is not None:
            self._child.join()
            self._child = None
        elif self._then is not None:
            self._then()
        self._then = None

    def cancel(self) -> None:
        """Stop the child (the build it works for failed): it writes nothing more."""
        self._then = None
        if self._child is not None:
            self._child.terminate()
            self._child.join()
            self._receive.close()
            self._child = None


def handing_out(jobs: Iterable[int]) -> Take:
    """``jobs`` handed out one by one, in this process."""
    left = iter(jobs)
    return lambda: next(left, None)


def _received(receive: Connection) -> tuple[Any] | None:
    """What the child sent: its result in a tuple, or None when it died or failed."""
    try:
        found: tuple[Any] | None = receive.recv()
    except EOFError:
        found = None
    receive.close()
    return found


def _child(
    work: Callable[[], Any], send: Connection, receive: Connection, then: Callable[[], object] | None = None
) -> None:
    # The child's copy of the parent's end: were it kept open, a child whose parent was killed would wait forever
    # to send its result (and hold the build's lock); closed, sending fails and the child ends.
    receive.close()
    try:
        send.send((work(),))
    except BaseException:  # the parent does this work itself and raises what it meets
        send.send(None)
        return
    finally:
        send.close()
    if then is not None:
        os.nice(10)  # after its result: what is left yields to the processes that render
        with contextlib.suppress(Exception):  # only ever a cache the next build can do without (``then``)
            then()
