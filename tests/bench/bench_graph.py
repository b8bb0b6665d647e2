"""The graph page in Chromium: time to first draw and frame times, with 2,000 entities.

    python tests/bench/bench_graph.py [--entities 2000] [--days 730] [--keep DIR]

Builds a synthetic workspace (gen_corpus: each entity page links one other entity, each day's lines
co-mention pairs), serves the site on loopback and opens graph.html at 1280×900 in /usr/bin/chromium. Prints:
first draw (ms from navigation start to graph.js's ``memwiki-graph-first-draw`` mark), the frame intervals
while the layout settles, one layout step and one full redraw (median of 40), and the frame intervals while
zooming and panning the settled graph with the mouse.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root, for tests.bench
import itertools

from site_builder.build import build
from tests.bench.gen_corpus import generate

FRAMES = """ms => new Promise(done => {
  const times = [];
  const step = t => { times.push(t); if (t - times[0] < ms) requestAnimationFrame(step); else done(times); };
  requestAnimationFrame(step);
})"""
MEDIAN_COST = """what => {
  const graph = document.querySelector('figure[data-graph]').graph, costs = [];
  for (let i = 0; i < 40; i++) {
    const start = performance.now();
    if (what === 'draw') graph.draw(); else graph.layout.tick();
    costs.push(performance.now() - start);
  }
  costs.sort((a, b) => a - b);
  return costs[20];
}"""


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return


def intervals(times: list[float]) -> str:
    gaps = sorted(b - a for a, b in itertools.pairwise(times))
    if not gaps:
        return "no frames"
    p95 = gaps[min(len(gaps) - 1, int(len(gaps) * 0.95))]
    return f"median {statistics.median(gaps):.1f} ms, p95 {p95:.1f} ms, max {gaps[-1]:.1f} ms ({len(gaps)} frames)"


def measure(site: Path) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/graph.html")
        page.wait_for_function("() => performance.getEntriesByName('memwiki-graph-first-draw').length")
        first = page.evaluate("performance.getEntriesByName('memwiki-graph-first-draw')[0].startTime")
        timing = page.evaluate(
            "(({responseEnd, domInteractive}) => [responseEnd, domInteractive])(performance.getEntriesByType('navigation')[0])"
        )
        nodes = page.get_attribute(".graph-canvas", "data-nodes")
        settling = page.evaluate(FRAMES, 2000)
        page.wait_for_selector(".graph-canvas[data-settled]", timeout=60_000)
        tick = page.evaluate(MEDIAN_COST, "tick")
        draw = page.evaluate(MEDIAN_COST, "draw")
        box = page.locator(".graph-canvas").bounding_box()
        assert box is not None
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(cx, cy)
        frames = page.evaluate_handle(FRAMES, 2500)
        for _ in range(10):
            page.mouse.wheel(0, -120)
            page.wait_for_timeout(60)
        page.mouse.down()
        for i in range(30):
            page.mouse.move(cx + 8 * i, cy + 4 * i)
            page.wait_for_timeout(16)
        page.mouse.up()
        interacting = frames.json_value()
        browser.close()
    server.shutdown()
    print(f"graph.html, {nodes} nodes at 1280×900 (Chromium {p.chromium.name}, software raster):")
    print(
        f"  first draw      {first:.0f} ms after navigation start "
        f"(page received at {timing[0]:.0f} ms, parsed at {timing[1]:.0f} ms)"
    )
    print(f"  settling        {intervals(settling)} (layout steps within a 7 ms budget, then a draw)")
    print(f"  one layout step {tick:.1f} ms; one full redraw {draw:.1f} ms (medians of 40)")
    print(f"  zoom + pan      {intervals(interacting)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entities", type=int, default=2000)
    parser.add_argument("--days", type=int, default=730)
    parser.add_argument("--keep", type=Path, help="build the site here and keep it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        generate(ws, args.days, args.entities)
        site = args.keep or Path(tmp) / "site"
        result = build(ws, site, search=False)
        print(f"built {result.pages} pages in {sum(result.timings.values()):.1f} s")
        measure(site)


if __name__ == "__main__":
    main()
