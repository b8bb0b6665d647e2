"""Reflect: offline time on a synthetic corpus, and how many Claude calls a re-run makes.

    python tests/bench/bench_reflect.py [--size medium]

Offline: a fresh copy of the corpus is reflected twice (the second run must
change nothing). Claude: the example workspace is reflected through the real
anthropic SDK with a mock HTTP transport (no network), then one daily log is
added and it is reflected again; only the entities and opinions whose facts
changed are sent.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anthropic
import httpx2 as httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root, for tests.bench
from site_builder.core.config import Config
from site_builder.load import load
from site_builder.reflect.choose import make_reflector
from site_builder.reflect.offline import OfflineReflector
from site_builder.reflect_loaded import reflect_workspace
from tests.bench.gen_corpus import generate

EXAMPLE = Path(__file__).resolve().parents[2] / "example_workspace"
SIZES = {"small": (365, 100), "medium": (3650, 1000)}


def fake_claude(request: httpx.Request) -> httpx.Response:
    body = json.loads(request.content)
    tool = body["tools"][0]["name"]
    prompt = body["messages"][0]["content"]
    payload: dict[str, Any]
    if tool == "write_summary":
        payload = {"summary": "A summary."}
    else:
        ids = re.findall(r"^- \[([0-9a-f]{10})\]", prompt, re.M)
        payload = {"verdicts": [{"fact_id": i, "verdict": "irrelevant"} for i in ids]}
    content = [{"type": "tool_use", "id": "t", "name": tool, "input": payload}]
    usage = {"input_tokens": len(prompt) // 4, "output_tokens": 20}
    return httpx.Response(
        200,
        json={
            "id": "m",
            "type": "message",
            "role": "assistant",
            "model": "x",
            "content": content,
            "stop_reason": "tool_use",
            "usage": usage,
        },
    )


def claude_run(ws: Path) -> str:
    client = anthropic.Anthropic(api_key="k", http_client=httpx.Client(transport=httpx.MockTransport(fake_claude)))
    reflector = make_reflector(Config(reflect_provider="anthropic"), root=ws, client=client)
    _, result, _ = reflect_workspace(load(ws), reflector)
    u = result.usage
    return f"{u.calls} calls ({u.cached} cached), {u.input_tokens:,} input tokens, {len(result.changes)} pages changed"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", default="medium", choices=sorted(SIZES))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "corpus"
        generate(ws, *SIZES[args.size])
        for run in ("first", "second"):
            start = time.perf_counter()
            loaded = load(ws)
            loaded_at = time.perf_counter() - start
            _, result, _ = reflect_workspace(loaded, OfflineReflector())
            total = time.perf_counter() - start
            print(
                f"offline reflect, {args.size}, {run} run: {total:.2f} s (load {loaded_at:.2f} s); "
                f"{result.entities} entities, {result.opinions} opinions, {len(result.changes)} pages changed"
            )
        example = Path(tmp) / "example"
        shutil.copytree(EXAMPLE, example, ignore=shutil.ignore_patterns("_site", ".memwiki"))
        print(f"claude, example, first run: {claude_run(example)}")
        print(f"claude, example, same input: {claude_run(example)}")
        (example / "memory/2025-12-16.md").write_text(
            "# Tuesday 16 December 2025\n\nAnna finished the tiles.\n\n## Retain\n"
            "- W @Kitchen-Renovation: The kitchen tiles were finished on 2025-12-16.\n"
        )
        print(f"claude, example, after one new daily log: {claude_run(example)}")


if __name__ == "__main__":
    main()
