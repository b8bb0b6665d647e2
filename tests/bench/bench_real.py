"""Cold build and edit of today's log on copies of real agent workspaces (``../shared/real``, never changed).

    python tests/bench/bench_real.py [--real ../shared/real] [--runs 3] [--memwiki memwiki]

For each workspace: a cold build (no ``.memwiki/``, no site; ``--no-reflect``, with search), then a line appended
to its newest daily log and ``memwiki build`` timed (the whole process, as a user sees it), the log restored and
built again. Prints each workspace's cold and edit medians and runs. Real workspaces are young and their daily
logs long: what their users wait for is not what the race's ten-year corpus of short days shows.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

REAL = Path(__file__).resolve().parents[3] / "shared" / "real"
DAY = re.compile(r"\d{4}-\d\d-\d\d\.md$")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--real", type=Path, default=REAL, help="a folder of workspaces")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--memwiki", default=shutil.which("memwiki") or "memwiki")
    args = parser.parse_args()
    for source in sorted(path for path in args.real.iterdir() if path.is_dir()):
        with tempfile.TemporaryDirectory() as tmp:
            ws, out = Path(tmp) / "ws", Path(tmp) / "site"
            shutil.copytree(source, ws, symlinks=True, ignore=shutil.ignore_patterns(".memwiki"))
            for path in [ws, *ws.rglob("*")]:  # the shared copies are read-only
                path.chmod(path.stat().st_mode | 0o200)
            build = [args.memwiki, "build", str(ws), "-o", str(out), "--no-reflect"]
            # the newest daily log (of two of the same day, the one nearest the top: memory/, not a dream report)
            days = sorted((p for p in ws.rglob("*.md") if DAY.search(p.name)), key=lambda p: (p.name, -len(p.parts)))
            cold, edit = [], []
            for _ in range(args.runs):
                shutil.rmtree(ws / ".memwiki", ignore_errors=True)
                shutil.rmtree(out, ignore_errors=True)
                cold.append(_timed(build))
                if days:
                    original = days[-1].read_bytes()
                    days[-1].write_bytes(original + f"\n- one new line {time.time_ns()}\n".encode())
                    edit.append(_timed(build))
                    days[-1].write_bytes(original)
                    _timed(build)
            said = f"edit {statistics.median(edit):.2f} s {[round(t, 2) for t in edit]}" if edit else "no daily log"
            print(f"{source.name}: cold {statistics.median(cold):.2f} s {[round(t, 2) for t in cold]}; {said}")


def _timed(command: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode not in (0, 1):  # 1: built, with warnings
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr[-2000:]}")
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
