"""MCP round-trip time of `memory_search` (and the other tools) through the SDK's client over stdio.

    python tests/bench/bench_mcp.py [--workspace DIR] [--facts 100000] [--calls 50]

Without --workspace it measures a copy of example_workspace, then a synthetic
workspace of about --facts Retain facts (tests/bench/gen_corpus.py; --facts 0
skips it). Prints server start (process + SDK import + handshake), the first
`memory_search` (which brings the index up to date), the median and 95th
percentile of the next --calls searches, and one call of each other tool
(memory_entity twice: first, then again with its notes parsed; it links only the
notes the index names; memory_context is made from the facts the index keeps, so
only the core memory and bank/opinions.md are parsed).
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root, for tests.bench
from tests.bench.gen_corpus import WORDS, generate

REPO = Path(__file__).resolve().parents[2]


async def measure(root: Path, calls: int, label: str, entity: str) -> None:
    rng = random.Random(5)
    params = StdioServerParameters(command=sys.executable, args=["-m", "site_builder", "mcp", str(root)])
    started = time.perf_counter()
    async with Client(params) as client:
        await client.list_tools()
        print(f"{label}: server start + handshake {time.perf_counter() - started:.2f} s")
        timed = time.perf_counter()
        await client.call_tool("memory_search", {"query": "invoice migration kitchen"})
        print(f"  first memory_search (brings the index up to date): {1000 * (time.perf_counter() - timed):.0f} ms")
        rounds = []
        for _ in range(calls):
            words = " ".join(rng.sample(WORDS, 3))
            timed = time.perf_counter()
            result = await client.call_tool("memory_search", {"query": words, "maxResults": 10})
            rounds.append(time.perf_counter() - timed)
            assert not result.is_error, result.content
        rounds.sort()
        p95 = rounds[max(0, int(len(rounds) * 0.95) - 1)]
        print(f"  memory_search round trip: median {1000 * statistics.median(rounds):.1f} ms, p95 {1000 * p95:.1f} ms")
        others: list[tuple[str, dict[str, Any]]] = [
            ("memory_entity", {"name": entity}),
            ("memory_entity", {"name": entity}),
            ("memory_context", {"query": "kitchen budget", "budget": 2000}),
            ("memory_get", {"path": "memory.md"}),
        ]
        for name, arguments in others:
            timed = time.perf_counter()
            result = await client.call_tool(name, arguments)
            print(f"  {name}: {1000 * (time.perf_counter() - timed):.0f} ms{' (error)' if result.is_error else ''}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workspace", type=Path, help="Measure this workspace (it gets a .memwiki/ folder).")
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--entity", default="Anna", help="Entity for memory_entity with --workspace.")
    args = parser.parse_args()
    if args.workspace:
        anyio.run(measure, args.workspace.resolve(), args.calls, str(args.workspace), args.entity)
        return
    with tempfile.TemporaryDirectory() as tmp:
        example = Path(tmp) / "example"
        shutil.copytree(REPO / "example_workspace", example)
        anyio.run(measure, example, args.calls, "example_workspace", "Anna")
        if args.facts:
            ws = Path(tmp) / "ws"
            stats = generate(ws, days=int(args.facts / 3.5), entities=1000)
            anyio.run(measure, ws, args.calls, f"synthetic, {stats['facts']:,} facts", "Entity00042")


if __name__ == "__main__":
    main()
