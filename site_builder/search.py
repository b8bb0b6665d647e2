"""The search index: Pagefind run in-process over the rendered pages."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from pagefind.index import IndexConfig, PagefindIndex


class SearchIndexError(Exception):
    """Pagefind could not build the index (missing binary, crash)."""


@dataclass(frozen=True)
class SearchStats:
    pages: int
    files: int
    bytes: int


def index_site(pages: dict[str, bytes], site_dir: Path) -> SearchStats:
    """Index the HTML pages and write Pagefind's bundle to ``site_dir/pagefind``."""
    html_pages = {url: data for url, data in pages.items() if url.endswith(".html") and url != "404.html"}
    try:
        asyncio.run(_index(html_pages, site_dir / "pagefind"))
    except Exception as exc:  # the service reports failures as assorted exceptions
        raise SearchIndexError(f"Pagefind failed: {exc}") from exc
    files = [p for p in (site_dir / "pagefind").rglob("*") if p.is_file()]
    return SearchStats(len(html_pages), len(files), sum(p.stat().st_size for p in files))


async def _index(pages: dict[str, bytes], output: Path) -> None:
    config = IndexConfig(keep_index_url=True, force_language="en")
    async with PagefindIndex(config=config) as index:
        for url, data in sorted(pages.items()):
            await index.add_html_file(content=data.decode("utf-8"), url="/" + url)
        await index.write_files(output_path=str(output))
