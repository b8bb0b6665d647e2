"""Wall time and peak memory of a full build on synthetic corpora.

    python tests/bench/bench_build.py [--sizes small,medium,large] [--no-search]

small = 365 days / 100 entities, medium = 3,650 / 1,000, large = 10,000 pages
(9,000 days / 1,000 entities). Each build runs in a fresh subprocess so peak RSS
is the build's own (Pagefind's helper process is reported separately by the OS
and not included).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root, for tests.bench
from tests.bench.gen_corpus import generate

SIZES = {"small": (365, 100), "medium": (3650, 1000), "large": (9000, 1000)}

CHILD = """
import json, resource, sys, time
from site_builder.build import build
t = time.perf_counter()
r = build(sys.argv[1], sys.argv[2], search=sys.argv[3] == "1")
wall = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"wall": wall, "peak_mb": peak, "pages": r.pages, "timings": r.timings}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="small,medium,large")
    parser.add_argument("--no-search", action="store_true")
    args = parser.parse_args()
    print(f"{'size':<8}{'days':>7}{'ents':>6}{'facts':>8}{'pages':>7}{'wall s':>9}{'peak MB':>9}  stages")
    for size in args.sizes.split(","):
        days, entities = SIZES[size]
        with tempfile.TemporaryDirectory() as tmp:
            ws = Path(tmp) / "ws"
            stats = generate(ws, days, entities)
            proc = subprocess.run(
                [sys.executable, "-c", CHILD, str(ws), str(Path(tmp) / "site"), "0" if args.no_search else "1"],
                capture_output=True,
                text=True,
                check=True,
            )
            r = json.loads(proc.stdout.strip().splitlines()[-1])
            stages = " ".join(f"{k}={v:.2f}" for k, v in r["timings"].items())
            print(
                f"{size:<8}{days:>7}{entities:>6}{stats['facts']:>8}{r['pages']:>7}{r['wall']:>9.2f}{r['peak_mb']:>9.0f}  {stages}"
            )


if __name__ == "__main__":
    main()
