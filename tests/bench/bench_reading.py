"""What reading the wiki costs in Chromium: live search while typing, and scrolling a long page with its contents.

    python tests/bench/bench_reading.py [--workspace DIR] [--query WORDS] [--page memory/2026-03-24.html]

Builds a copy of the workspace (default example_workspace/) in a temporary folder without reflecting, serves it on
loopback and prints: seconds from typing a query into the header's box to its first matching lines (the first
query loads Pagefind; a second, different query does not), and the time of two animation frames per scroll step
on the long page, with its contents and without (median and 95th percentile). Use a real workspace for the long
page, e.g. ``--workspace ../shared/real/kitthefox --page memory/2026-03-24.html`` (a 342 KB day).
"""

from __future__ import annotations

import argparse
import functools
import shutil
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root
from site_builder.build import build

EXAMPLE = Path(__file__).resolve().parents[2] / "example_workspace"
SCROLL = """async () => {
  const times = [];
  for (let i = 0; i < 60; i++) {
    const start = performance.now();
    window.scrollBy(0, 1500);
    await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return [times[30], times[57]];
}"""


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return


def typed(page: Any, query: str) -> float:
    """Seconds from typing ``query`` into the header's box to its first result line."""
    page.fill("#site-search-q", "")
    start = time.perf_counter()
    page.fill("#site-search-q", query)
    page.wait_for_function(
        "q => document.querySelector('.live-all') && document.querySelector('.live-all').href.endsWith(encodeURIComponent(q))"
        " && document.querySelector('.live-results [role=option]')",
        arg=query,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workspace", type=Path, default=EXAMPLE)
    parser.add_argument("--query", default="kitchen,marrakech", help="two queries, comma separated")
    parser.add_argument("--page", default="bank/entities/anna.html", help="a long page, from the site root")
    args = parser.parse_args()
    first, second = args.query.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        workspace = Path(tmp) / "ws"
        shutil.copytree(
            args.workspace, workspace, ignore=shutil.ignore_patterns(".memwiki", "_site")
        )  # nothing written there
        build(workspace, site)
        server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(base + "index.html")
            print(f"live search {first!r}: first lines after {typed(page, first):.2f} s (loads Pagefind)")
            print(f"live search {second!r}: first lines after {typed(page, second):.2f} s")
            for contents in (True, False):
                tab = browser.new_page(viewport={"width": 1280, "height": 900})
                if not contents:
                    tab.route(
                        "**/_theme/layout.js", lambda route: route.fulfill(body="", content_type="text/javascript")
                    )
                tab.goto(base + args.page)
                entries = tab.evaluate("document.querySelectorAll('nav.toc a').length")
                median, p95 = tab.evaluate(SCROLL)
                label = f"with contents ({entries} entries)" if contents else "without contents"
                print(f"scroll {args.page} {label}: two frames {median:.1f} ms median, {p95:.1f} ms p95")
                tab.close()
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main()
