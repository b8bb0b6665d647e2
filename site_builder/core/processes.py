"""Both cores: work split into two shares, the second done by a forked child.

A forked child inherits everything the parent has (nothing is sent to it) and sends back only its share's result.
No fork from a process with other threads (``memwiki serve``, Pagefind's thread): forking one is unsafe.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import TypeVar

In = TypeVar("In")
Out = TypeVar("Out")

# work(share, shares): the result of every ``shares``-th item from ``share``; share 0 is always done here.
Share = Callable[[int, int], Out]


def process_count(jobs: int, worth_from: int) -> int:
    """2 on a machine with two cores or more for at least ``worth_from`` jobs, else 1; ``MEMWIKI_PROCESSES=1``
    forces one."""
    if os.environ.get("MEMWIKI_PROCESSES") == "1" or jobs < worth_from or threading.active_count() > 1:
        return 1
    return 2 if len(os.sched_getaffinity(0)) > 1 else 1


def in_shares(work: Share[Out], jobs: int, worth_from: int) -> list[Out]:
    """``[work(0, 1)]``, or ``[work(0, 2), work(1, 2)]`` with the second share done by a forked child when ``jobs``
    make it worth it. If the child fails, its share is done here, so an error is raised with its real traceback."""
    if process_count(jobs, worth_from) == 1:
        return [work(0, 1)]
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(work, send, receive), daemon=True)
    child.start()
    send.close()
    mine = work(0, 2)
    try:
        theirs = receive.recv()
    except EOFError:  # the child died
        theirs = None
    child.join()
    return [mine, work(1, 2) if theirs is None else theirs]


def map_in_two(
    work: Callable[[In], Out], items: Sequence[In], worth_from: int, done: Callable[[int], None] | None = None
) -> list[Out]:
    """``[work(item) for item in items]`` over both cores when there are ``worth_from`` items or more. ``done``
    hears how many items are done (counted here, times the number of shares)."""

    def share(first: int, shares: int) -> list[Out]:
        results = []
        for item in items[first::shares]:
            results.append(work(item))
            if done and first == 0:
                done(shares * len(results))
        return results

    parts = in_shares(share, len(items), worth_from)
    return [parts[index % len(parts)][index // len(parts)] for index in range(len(items))]


def _child(work: Share[Out], send: Connection, receive: Connection) -> None:
    # The child's copy of the parent's end: were it kept open, a child whose parent was killed would wait forever
    # to send its share (and hold the build's lock); closed, sending fails and the child ends.
    receive.close()
    try:
        send.send(work(1, 2))
    except BaseException:  # the parent does this share itself and raises what it meets
        send.send(None)
    finally:
        send.close()
