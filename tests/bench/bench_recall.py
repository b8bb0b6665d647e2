"""Recall speed on a large synthetic workspace (default: about 100,000 Retain facts).

    python tests/bench/bench_recall.py [--facts 100000] [--queries 200] [--calls 15]

Prints, each measured as a fresh `memwiki recall` process:
- first query: no index yet, so it includes building `.memwiki/recall.sqlite`;
- cold query: a new process with the index on disk (what an agent pays per call), for three
  common words (each on over half the lines) and for one entity name, ``--calls`` of each (their median and
  quartiles: one call varies by tens of milliseconds on a busy machine);
- the freshness check is part of every call (one stat per file; files whose stamp changed are read); it runs
  beside the query, and is measured alone too (in this process);
- batch: `--queries FILE` with N queries in one process, in ms per query.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root, for tests.bench
from tests.bench.gen_corpus import WORDS, generate

MEMWIKI = [sys.executable, "-m", "site_builder"]


def timed(args: list[str], stdin: str | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(args, input=stdin, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout


def spread(seconds: list[float]) -> str:
    """``median 0.29 s (quartiles 0.27–0.31) of 15``."""
    low, _, high = statistics.quantiles(seconds, n=4)
    return f"median {statistics.median(seconds):.2f} s (quartiles {low:.2f}–{high:.2f}) of {len(seconds)}"


def freshness_check(ws: Path) -> float:
    """Seconds to open the workspace and stat every file (what each call does while it answers)."""
    from site_builder.io.reader import open_workspace_stamped

    start = time.perf_counter()
    open_workspace_stamped(ws)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--calls", type=int, default=15, help="cold processes timed for each kind of query")
    args = parser.parse_args()
    rng = random.Random(3)
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        started = time.perf_counter()
        # gen_corpus writes 2-5 facts a day (3.5 on average).
        stats = generate(ws, days=int(args.facts / 3.5), entities=1000)
        files = sum(1 for _ in ws.rglob("*.md"))
        size = sum(p.stat().st_size for p in ws.rglob("*.md")) / 1e6
        print(
            f"workspace: {stats['facts']:,} facts, {files:,} files, {size:.0f} MB ({time.perf_counter() - started:.1f} s)"
        )
        query = ["recall", "invoice migration Entity00042", "--workspace", str(ws), "--json"]
        first, _ = timed([*MEMWIKI, *query])
        index = ws / ".memwiki" / "recall.sqlite"
        print(f"first query (builds the index): {first:.2f} s; index {index.stat().st_size / 1e6:.0f} MB")
        cold = []
        for _ in range(args.calls):
            words = " ".join(rng.sample(WORDS, 3))
            seconds, _ = timed([*MEMWIKI, "recall", words, "--workspace", str(ws), "--json"])
            cold.append(seconds)
        print(f"cold single query (new process, index on disk): {spread(cold)}")
        # Every generated word is on over half the lines (the query above ranks the lines holding all three); a name is rare.
        names = [f"Entity{rng.randrange(1000):05d}" for _ in range(args.calls)]
        rare = [timed([*MEMWIKI, "recall", name, "--workspace", str(ws), "--json"])[0] for name in names]
        print(f"cold single query for one entity name: {spread(rare)}")
        start = time.perf_counter()
        subprocess.run([*MEMWIKI, "--version"], capture_output=True, check=True)
        print(f"  of which Python start + imports: {time.perf_counter() - start:.2f} s")
        check = [freshness_check(ws) for _ in range(5)]
        print(f"  and the freshness check, beside the query: median {statistics.median(check):.2f} s of {len(check)}")
        lines = "\n".join(" ".join(rng.sample(WORDS, 3)) for _ in range(args.queries)) + "\n"
        batch, out = timed([*MEMWIKI, "recall", "--queries", "-", "--workspace", str(ws)], stdin=lines)
        assert out.count("\n") == args.queries
        print(f"batch: {args.queries} queries in {batch:.2f} s = {1000 * batch / args.queries:.1f} ms/query")


if __name__ == "__main__":
    main()
