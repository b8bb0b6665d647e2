"""Pagefind in a thread of its own while the build goes on (``Indexing``, waited for by ``wait_for_index``), its index
placed into the staged site as its parts are ready; and a built site's index brought up to date in place
(``update_search``: ``serve``)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from pathlib import Path

from site_builder.core.diagnostics import WHOLE_WORKSPACE, Diagnostics
from site_builder.core.progress import Progress, Tick
from site_builder.io.build_lock import build_lock
from site_builder.io.staging import Staging
from site_builder.site.pagefind import SearchIndexError, SearchRecords, SearchStats, build_index
from site_builder.site.search_placing import Placing, place_index

TICK_EVERY = 0.1  # seconds between two looks at how far Pagefind is, while the build waits for it


def update_search(output: Path, workspace: Path, records: SearchRecords) -> SearchStats:
    """Index a built site in place from the build's search ``records``: the new index is made beside the old
    one, which it then replaces at once."""
    with build_lock(workspace / ".memwiki", lambda message: print(f"memwiki: {message}", file=sys.stderr)):
        return place_index(build_index(records, workspace / ".memwiki" / "cache"), output, swap=True)


class Indexing:
    """Pagefind (``build_index``) in a thread of its own, its binary a process, and its index placed into the staged
    site (``Placing``: the cached parts while Pagefind makes the others), while the rest of the build goes on. It
    starts as soon as every search record is known: from render, before the pages it keeps are linked
    (``PageOutput.records_known``), else once render is done."""

    def __init__(
        self, cache_dir: Path | None, site: Path, discard: Callable[[Path], None] | None = None, adopt: bool = False
    ) -> None:
        self._cache_dir = cache_dir
        self._site = site
        self._discard = discard  # takes a part of the last site's index out of the staged site (``Placing``)
        self._adopt = adopt  # the last site's index in the staged site is as the last build left it
        self._pool = ThreadPoolExecutor(1, "memwiki-search")
        self._started: tuple[SearchRecords, Future[SearchStats]] | None = None
        self._early = False  # started from render
        self._made = (0, 0)  # how many of the parts Pagefind makes are made, of how many (``result``'s progress)

    def start(self, records: SearchRecords) -> None:
        if self._started is None:
            self._started = (records, self._pool.submit(self._index, records))

    def _index(self, records: SearchRecords) -> SearchStats:
        placing = Placing(self._site, discard=self._discard, adopt=self._adopt)
        try:
            return placing.finish(build_index(records, self._cache_dir, placing.parts, self._discard, self._count))
        except SearchIndexError:
            placing.abandon()
            raise

    def _count(self, made: int, of: int) -> None:
        self._made = (made, of)

    def of(self, records: SearchRecords) -> None:
        """Render is done and the site has these ``records``: the index started from render when it was of the same
        records (a page kept is made again, to the same record, when its file was changed in the output), else
        one of these."""
        if self._started is not None and self._started[0] != records:
            with contextlib.suppress(Exception):  # one Pagefind at a time on the index cache
                self._started[1].result()
            self._started = None
        self._early = self._started is not None
        self.start(records)
        self._pool.shutdown(wait=False)

    def result(self, tick: Tick | None = None) -> SearchStats:
        """The index placed (waits for it; ``tick`` hears how many of the parts Pagefind makes are made as it waits).
        One started from render is made again here when it failed: the records render said were kept may not all
        have been (one removed from the store by hand)."""
        assert self._started is not None
        records, made = self._started
        while tick is not None:
            tick(*self._made)
            if made.done():
                break
            wait([made], timeout=TICK_EVERY)
        try:
            return made.result()
        except SearchIndexError:
            if not self._early:
                raise
            return self._index(records)


def wait_for_index(
    indexing: Indexing, staging: Staging, progress: Progress, diagnostics: Diagnostics
) -> SearchStats | None:
    """Wait for Pagefind and its index beside the staged pages; a failure is a warning, not a lost site."""
    try:
        with progress.stage("index") as tick:
            return indexing.result(tick)
    except SearchIndexError as exc:
        diagnostics.warn(WHOLE_WORKSPACE, 0, f"search index not built: {exc}", "search")
        return None
    except BaseException:
        staging.abort()
        raise
