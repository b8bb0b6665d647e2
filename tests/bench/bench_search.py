"""Pagefind index time and size, and bytes a browser downloads for one query.

    python tests/bench/bench_search.py [--sizes example,medium]

example = example_workspace/, medium = 3,650 days / 1,000 entities (gen_corpus).
The query runs in Chromium on the site served over loopback; bytes are the
bodies of every /pagefind/ response from loading the search page to the results.
"""

from __future__ import annotations

import argparse
import functools
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root, for tests.bench
from site_builder.build import build
from tests.bench.gen_corpus import generate

EXAMPLE = Path(__file__).resolve().parents[2] / "example_workspace"
QUERIES = {"example": "marrakech lamps", "medium": "invoice migration"}


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return


def query_bytes(site: Path, query: str) -> tuple[int, int, int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sizes: dict[str, int] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.on("response", lambda r: sizes.__setitem__(r.url, len(r.body())) if "/pagefind/" in r.url else None)
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/search.html?q={query.replace(' ', '+')}")
        page.wait_for_selector(".search-result")
        page.wait_for_load_state("networkidle")
        results = int(page.inner_text(".search-status").split()[0])
        browser.close()
    server.shutdown()
    return sum(sizes.values()), len(sizes), results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="example,medium")
    args = parser.parse_args()
    for size in args.sizes.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            ws = EXAMPLE
            if size == "medium":
                ws = Path(tmp) / "ws"
                generate(ws, 3650, 1000)
            result = build(ws, Path(tmp) / "site")
            stats = result.search
            assert stats is not None
            total, files, results = query_bytes(result.output, QUERIES[size])
            index = [path.stat().st_size for path in (result.output / "pagefind").rglob("*") if path.is_file()]
            print(
                f"{size}: {stats.pages} pages indexed in {result.timings['index']:.2f} s; "
                f"index {len(index)} files, {sum(index) / 1e6:.2f} MB. "
                f"Query '{QUERIES[size]}': {results} results, {total / 1e3:.0f} kB in {files} files"
            )


if __name__ == "__main__":
    main()
