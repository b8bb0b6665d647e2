"""`memwiki build` as people run it: reflect first, then the site, on a synthetic corpus.

    python tests/bench/bench_default_build.py [--size medium] [--memwiki MEMWIKI] [--workspace COPY]

Each line is one `memwiki build` process (wall time, peak memory, what it said):
- cold: no cache and no site; reflect writes entity pages and bank/opinions.md;
- again: nothing changed since (must be "Up to date": the build after reflect wrote has nothing to do);
- edit, plain line: a line appended to the middle day, then the build after it;
- edit, Retain fact: a new fact about an entity (reflect writes its page), then the build after it.
The race (`../shared/bench/race/race.py`) builds with `--no-reflect`; this is the other half.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root, for tests.bench
from tests.bench.gen_corpus import generate

SIZES = {"small": (365, 100), "medium": (3650, 1000), "large": (9000, 1000)}
PEAK = (
    "import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
    "print(' '.join(line for line in r.stdout.splitlines() if line.startswith(('reflect:', 'Built', 'Up to')))); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024); sys.exit(r.returncode)"
)


def build(memwiki: str, ws: Path, out: Path, label: str) -> None:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", PEAK, memwiki, "build", str(ws), "-o", str(out)], capture_output=True, text=True
    )
    wall = time.perf_counter() - start
    said, peak = done.stdout.rstrip("\n").rsplit("\n", 1)
    what = "up to date" if "Up to date" in said else "built"
    reflect = re.search(r"reflect: [^.]*", said)
    print(f"{label:<28}{wall:8.2f} s{int(peak):7d} MB  {what}{'; ' + reflect[0] if reflect else ''}", flush=True)
    if done.returncode:
        raise SystemExit(f"memwiki build failed: {said}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", default="medium", choices=sorted(SIZES))
    parser.add_argument("--memwiki", default=shutil.which("memwiki") or "memwiki")
    parser.add_argument("--workspace", type=Path, help="a corpus to copy instead of generating one")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ws, out = Path(tmp) / "ws", Path(tmp) / "site"
        if args.workspace:
            shutil.copytree(args.workspace, ws, ignore=shutil.ignore_patterns(".memwiki", "_site"))
        else:
            generate(ws, *SIZES[args.size])
        build(args.memwiki, ws, out, "cold")
        build(args.memwiki, ws, out, "again, nothing changed")
        days = sorted((ws / "memory").glob("*.md"))
        day = days[len(days) // 2]
        with day.open("a", encoding="utf-8") as file:
            file.write("\n- A plain line added by the benchmark.\n")
        build(args.memwiki, ws, out, "edit, plain line")
        build(args.memwiki, ws, out, "the build after it")
        entity = sorted((ws / "bank" / "entities").glob("*.md"))[0].stem
        with day.open("a", encoding="utf-8") as file:
            file.write(f"\n## Retain\n- W @{entity}: Moved the benchmark to a new server.\n")
        build(args.memwiki, ws, out, "edit, Retain fact")
        build(args.memwiki, ws, out, "the build after it")


if __name__ == "__main__":
    main()
