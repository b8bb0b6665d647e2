"""Stage timing, shown as progress on a terminal and kept silent in pipes and CI."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol, TextIO


class Tick(Protocol):
    """How much of the stage is done, in its own units (files, pages), and of how many when the stage learns its size
    only as it goes (0: of the total the stage was started with)."""

    def __call__(self, done: int, total: int = 0, /) -> None: ...


@dataclass
class Progress:
    """Times each stage; on a TTY (``stream``) shows how far a long stage is, then one ``name  0.12 s`` line."""

    stream: TextIO | None = None
    timings: dict[str, float] = field(default_factory=dict)
    every: float = 0.1  # seconds between two updates of the same line

    @classmethod
    def for_terminal(cls) -> Progress:
        stream = sys.stderr
        interactive = stream.isatty() and not os.environ.get("CI")
        return cls(stream if interactive else None)

    @contextmanager
    def stage(self, name: str, total: int = 0) -> Iterator[Tick]:
        """Time the stage; the yielded ``tick(done)`` updates its ``done/total (percent)`` on the terminal (``total``
        as the stage was started with, or as a tick last said it)."""
        stream = self.stream
        shown = 0.0

        def tick(done: int, now_known: int = 0) -> None:
            nonlocal shown, total
            total = now_known or total
            now = time.perf_counter()
            if stream and total and (now - shown >= self.every or done >= total):
                shown = now
                stream.write(f"\r\033[K  {name} {min(done, total):,}/{total:,} ({min(done, total) * 100 // total}%)")
                stream.flush()

        if stream:
            stream.write(f"\r\033[K  {name} …")
            stream.flush()
        start = time.perf_counter()
        try:
            yield tick
        finally:
            elapsed = time.perf_counter() - start
            self.timings[name] = self.timings.get(name, 0.0) + elapsed
            if stream:
                stream.write(f"\r\033[K  {name:<12} {elapsed:6.2f} s\n")
                stream.flush()
