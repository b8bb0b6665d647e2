"""The search index: Pagefind, run in-process over the staged site folder (its input: the rendered pages)."""

from __future__ import annotations

import asyncio
import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

SEARCH_FOLDER = "pagefind"  # the index's folder in the site


class SearchIndexError(Exception):
    """Pagefind could not build the index (missing binary, crash)."""


@dataclass(frozen=True)
class SearchStats:
    pages: int
    files: int
    bytes: int


def index_site(site_dir: Path, *, swap: bool = False) -> SearchStats:
    """Index the HTML under ``site_dir`` and write Pagefind's bundle to ``site_dir/pagefind``; with ``swap`` it is
    written beside the index the site already has, which it replaces when complete (a site being served).

    One ``add_directory`` request: the Python service answers one message per
    0.1 s poll, so adding pages one by one would cost 0.1 s per page.
    """
    bundle = site_dir / SEARCH_FOLDER
    target = site_dir / f".{SEARCH_FOLDER}-new" if swap else bundle
    try:
        pages = _run(site_dir, target)
    except Exception as exc:  # the service reports failures as assorted exceptions
        if swap:
            shutil.rmtree(target, ignore_errors=True)
        raise SearchIndexError(f"Pagefind failed: {exc}") from exc
    if swap:
        old = site_dir / f".{SEARCH_FOLDER}-old"
        if bundle.exists():
            bundle.rename(old)
        target.rename(bundle)
        shutil.rmtree(old, ignore_errors=True)
    files = [p for p in bundle.rglob("*") if p.is_file()]
    return SearchStats(pages, len(files), sum(p.stat().st_size for p in files))


def _run(site_dir: Path, bundle: Path) -> int:
    """Run the async indexer, also when the caller already runs an event loop (notebooks, Playwright)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_index(site_dir, bundle))
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(_index(site_dir, bundle))).result()


async def _index(site_dir: Path, bundle: Path) -> int:
    from pagefind.index import IndexConfig, PagefindIndex  # imported here: only a build with search needs it

    # Leaving the context writes the bundle to ``output_path``; without an
    # absolute one Pagefind writes to ./pagefind of the current directory.
    config = IndexConfig(keep_index_url=True, force_language="en", output_path=str(bundle))
    async with PagefindIndex(config=config) as index:
        result = await index.add_directory(str(site_dir))
    return int(result["page_count"])
