"""Rebuild time after the edits an agent makes to a day, on a copy of any workspace (the race's large corpus).

    python tests/bench/bench_edit.py --workspace /tmp/memwiki-race/corpus-large [--runs 3] [--memwiki memwiki]

Copies the workspace and builds it (``--no-reflect``, with search). Then, for each kind of edit of its middle
daily log — a plain line (the race's edit), a Retain fact about its two most-named entities, a new opinion about
the first — appends it, times ``memwiki build`` (the whole process, as a user or ``race.py`` sees it), restores
the file and builds again. Prints each kind's median and runs, and the stages of its last run.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STAGES = """
import json, sys
from site_builder.build import build
r = build(sys.argv[1], sys.argv[2])  # no reflector: as --no-reflect
print(json.dumps(r.timings))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workspace", type=Path, required=True, help="e.g. the race's corpus-large")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--memwiki", default=shutil.which("memwiki") or "memwiki")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ws, out = Path(tmp) / "ws", Path(tmp) / "site"
        shutil.copytree(args.workspace, ws, symlinks=True, ignore=shutil.ignore_patterns(".memwiki"))
        build = [args.memwiki, "build", str(ws), "-o", str(out), "--no-reflect"]
        subprocess.run(build, check=True, capture_output=True)
        day, first, second = _day_and_names(ws)
        original = day.read_bytes()
        edits = {
            "plain line": "\n- bench edit: one new line\n",
            "Retain fact": f"\n\n## Retain\n\n- W @{first}: Agreed the release date with @{second}.\n",
            "new opinion": f"\n\n## Retain\n\n- O(c=0.8) @{first}: Prefers written release notes.\n",
        }
        print(f"{ws.name}: {day.relative_to(ws)}, about @{first} and @{second}")
        for kind, text in edits.items():
            times, stages = [], {}
            for _ in range(args.runs):
                day.write_bytes(original + text.encode())
                start = time.perf_counter()
                subprocess.run(build, check=True, capture_output=True)
                times.append(time.perf_counter() - start)
                day.write_bytes(original)
                subprocess.run(build, check=True, capture_output=True)
            day.write_bytes(original + text.encode())  # once more, in-process, for where the time goes
            ran = subprocess.run(
                [sys.executable, "-c", STAGES, str(ws), str(out)], check=True, capture_output=True, text=True
            )
            stages = json.loads(ran.stdout.strip().splitlines()[-1])
            day.write_bytes(original)
            subprocess.run(build, check=True, capture_output=True)
            shown = " ".join(f"{k}={v:.2f}" for k, v in stages.items())
            runs = [round(t, 2) for t in times]
            print(f"{kind:<12} median {statistics.median(times):.2f} s  runs {runs}  stages {shown}")


def _day_and_names(ws: Path) -> tuple[Path, str, str]:
    """The middle daily log and the two entities named most (a name for each when there are fewer)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from site_builder.load import load

    library = load(ws).library
    days = library.days or library.notes
    ranked = sorted(library.entities.values(), key=lambda e: -len(library.backlinks.get(e.key, [])))
    names = [e.name for e in ranked[:2]] + ["Sam", "Ada"]
    return ws / days[len(days) // 2].path, names[0], names[1]


if __name__ == "__main__":
    main()
