"""Stage timing, shown as progress on a terminal and kept silent in pipes and CI."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TextIO


@dataclass
class Progress:
    """Times each stage; prints ``name ... 0.12 s`` lines only when ``stream`` is a TTY."""

    stream: TextIO | None = None
    timings: dict[str, float] = field(default_factory=dict)

    @classmethod
    def for_terminal(cls) -> Progress:
        stream = sys.stderr
        interactive = stream.isatty() and not os.environ.get("CI")
        return cls(stream if interactive else None)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        if self.stream:
            self.stream.write(f"\r\033[K  {name} …")
            self.stream.flush()
        start = time.perf_counter()
        try:
            yield
        finally:
            elapsed = time.perf_counter() - start
            self.timings[name] = self.timings.get(name, 0.0) + elapsed
            if self.stream:
                self.stream.write(f"\r\033[K  {name:<10} {elapsed:6.2f} s\n")
                self.stream.flush()
