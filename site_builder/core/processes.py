"""Both cores: how many processes a stage uses, and a map over two of them.

A forked child inherits everything the parent has (nothing is sent to it) and sends back only its results. No
fork from a process with other threads (``memwiki serve``, Pagefind's thread): forking one is unsafe.
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


def process_count(jobs: int, worth_from: int) -> int:
    """2 on a machine with two cores or more for at least ``worth_from`` jobs, else 1; ``MEMWIKI_PROCESSES=1``
    forces one."""
    if os.environ.get("MEMWIKI_PROCESSES") == "1" or jobs < worth_from or threading.active_count() > 1:
        return 1
    return 2 if len(os.sched_getaffinity(0)) > 1 else 1


def map_in_two(
    work: Callable[[In], Out], items: Sequence[In], worth_from: int, done: Callable[[int], None] | None = None
) -> list[Out]:
    """``[work(item) for item in items]``, a forked child taking every second item when it pays. ``done`` hears
    how many items are done (counted here, times two). If the child fails, its share is done here, so an error
    is raised with its real traceback."""
    if process_count(len(items), worth_from) == 1:
        return _each(work, items, done)
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(work, items[1::2], send), daemon=True)
    child.start()
    send.close()
    mine = _each(work, items[0::2], (lambda count: done(2 * count)) if done else None)
    try:
        theirs: list[Out] | None = receive.recv()
    except EOFError:  # the child died
        theirs = None
    child.join()
    if theirs is None:
        theirs = _each(work, items[1::2])
    results: list[Out] = []
    for index in range(len(items)):
        results.append(mine[index // 2] if index % 2 == 0 else theirs[index // 2])
    return results


def _each(work: Callable[[In], Out], items: Sequence[In], done: Callable[[int], None] | None = None) -> list[Out]:
    results = []
    for item in items:
        results.append(work(item))
        if done:
            done(len(results))
    return results


def _child(work: Callable[[In], Out], items: Sequence[In], send: Connection) -> None:
    try:
        send.send(_each(work, items))
    except BaseException:  # the parent does this share itself and raises what it meets
        send.send(None)
    finally:
        send.close()
