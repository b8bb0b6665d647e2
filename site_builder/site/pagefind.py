"""The search index: Pagefind, run in-process over the staged site folder (its input: the rendered pages)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path


class SearchIndexError(Exception):
    """Pagefind could not build the index (missing binary, crash)."""


@dataclass(frozen=True)
class SearchStats:
    pages: int
    files: int
    bytes: int


def index_site(site_dir: Path) -> SearchStats:
    """Index the HTML under ``site_dir`` and write Pagefind's bundle to ``site_dir/pagefind``.

    One ``add_directory`` request: the Python service answers one message per
    0.1 s poll, so adding pages one by one would cost 0.1 s per page.
    """
    try:
        pages = _run(site_dir)
    except Exception as exc:  # the service reports failures as assorted exceptions
        raise SearchIndexError(f"Pagefind failed: {exc}") from exc
    files = [p for p in (site_dir / "pagefind").rglob("*") if p.is_file()]
    return SearchStats(pages, len(files), sum(p.stat().st_size for p in files))


def _run(site_dir: Path) -> int:
    """Run the async indexer, also when the caller already runs an event loop (notebooks, Playwright)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_index(site_dir))
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(_index(site_dir))).result()


async def _index(site_dir: Path) -> int:
    from pagefind.index import IndexConfig, PagefindIndex  # imported here: only a build with search needs it

    # Leaving the context writes the bundle to ``output_path``; without an
    # absolute one Pagefind writes to ./pagefind of the current directory.
    config = IndexConfig(keep_index_url=True, force_language="en", output_path=str(site_dir / "pagefind"))
    async with PagefindIndex(config=config) as index:
        result = await index.add_directory(str(site_dir))
    return int(result["page_count"])
