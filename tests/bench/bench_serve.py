"""Edit -> reloaded page latency of `memwiki serve`, in Chromium, on the example or any workspace (a copy of it).

    python tests/bench/bench_serve.py [--runs 5] [--workspace /tmp/memwiki-race/corpus-large] [--no-reflect]

Appends a fact to a daily log and times until the open page shows it (watch,
the edited page rendered first, server-sent event, reload), then waits until
the whole site is rebuilt and its search updated before the next edit (each
edit is timed on its own, not behind the last one's rebuild). Also prints how
long that whole rebuild took.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

EXAMPLE = Path(__file__).resolve().parents[2] / "example_workspace"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workspace", type=Path, default=EXAMPLE, help="workspace to copy and serve")
    parser.add_argument(
        "--no-reflect", action="store_true", help="serve without reflect (a large corpus's first build)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        shutil.copytree(args.workspace, ws, ignore=shutil.ignore_patterns("_site", ".memwiki"))
        serve = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "site_builder",
                "serve",
                str(ws),
                "--port",
                "0",
                *(["--no-reflect"] * args.no_reflect),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert serve.stdout is not None
        port = None
        while port is None:
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", serve.stdout.readline())
            port = found[1] if found else None
        day = max(p for p in (ws / "memory").glob("*.md") if re.fullmatch(r"\d{4}-\d\d-\d\d\.md", p.name))
        times: list[float] = []
        settled: list[float] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/memory/{day.stem}.html")
            page.wait_for_timeout(500)
            for run in range(args.runs):
                marker = f"Benchmark marker {run}"
                start = time.perf_counter()
                with day.open("a", encoding="utf-8") as handle:
                    handle.write(f"- W @Peter: {marker}.\n")
                page.wait_for_function(f"() => document.body.textContent.includes('{marker}')", timeout=30_000)
                times.append(time.perf_counter() - start)
                settled.append(_settle(port, start))
            browser.close()
        serve.terminate()
        serve.communicate(timeout=10)
    print(
        f"edit -> reloaded page: median {statistics.median(times):.2f} s, "
        f"min {min(times):.2f} s, max {max(times):.2f} s over {len(times)} edits; "
        f"edit -> whole site and search updated: median {statistics.median(settled):.2f} s"
    )


def _settle(port: str, start: float) -> float:
    """Wait until serve is idle again (site rebuilt, search updated); seconds since ``start``."""
    stream = urllib.request.urlopen(f"http://127.0.0.1:{port}/__memwiki/events", timeout=600)
    for raw in stream:
        line = raw.decode()
        if line.startswith("data: "):
            state = json.loads(line[6:])
            if not state["busy"] and not state.get("only"):
                stream.close()
                return time.perf_counter() - start
    raise RuntimeError("the event stream ended")


if __name__ == "__main__":
    main()
