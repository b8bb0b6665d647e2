"""Python's cycle collector, paused while a workspace's many long-lived objects are made.

Notes, facts, links and index rows are many small objects, none in a cycle. Each collection they set off would
walk every object the process holds (a whole library), again and again as they grow: on a ten-year workspace
that was most of the time spent linking. Paused, the collector walks them once when it runs again (a build
freezes them first: ``gc.freeze``).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cycle_collection_paused() -> Iterator[None]:
    """The cycle collector off inside, back as it was after (nested uses keep it off to the outermost)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
