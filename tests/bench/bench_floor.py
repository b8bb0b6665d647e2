"""How fast a cold build could be: the parts every memwiki build must run, each timed alone, beside a whole build.

    python tests/bench/bench_floor.py --corpus DIR [--hugo-site DIR] [--memwiki memwiki]

On a copy of the workspace ``DIR`` (the race's ``/tmp/memwiki-race/corpus-large``, or one of ``gen_corpus.py``):
- memwiki's cold build (``--no-reflect``, with search), as a process: wall and CPU of its whole tree;
- a naive render: every Markdown file through mistune and one Jinja2 template on two processes, written out (no
  links, entities, facts or search): what the issue calls the low floor;
- Pagefind over those naive pages, and over the search records memwiki's build made (line anchors, entity filters);
- the recall index (SQLite FTS5) of every line, alone;
- with ``--hugo-site`` (the race's ``../shared/bench/race/hugo_site``) and ``hugo`` installed: Hugo + Pagefind.
CPU is user + system time. Since a build's parts are CPU-bound on this machine's two cores, CPU / 2 is the least
wall time they can take together.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The naive render: one process per half of the files.
NAIVE = """
import sys
from multiprocessing import Pool
from pathlib import Path
import jinja2, mistune
source, out = Path(sys.argv[1]), Path(sys.argv[2])
page = jinja2.Template("<!doctype html><html><head><title>{{ title }}</title></head>"
                       "<body><nav><a href='/'>home</a></nav><main>{{ body }}</main></body></html>")
markdown = mistune.create_markdown(escape=False, plugins=["table", "strikethrough"])
def render(paths):
    for path in paths:
        target = out / path.relative_to(source).with_suffix(".html")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page.render(title=path.stem, body=markdown(path.read_text())))
if __name__ == "__main__":
    files = sorted(source.rglob("*.md"))
    with Pool(2) as pool:
        pool.map(render, [files[0::2], files[1::2]])
"""

# The recall index of every note, alone (the notes as the build cache has them: no parse timed).
RECALL_INDEX = """
import resource, sys, time
from pathlib import Path
from site_builder.load import load
from site_builder.recall.index import RecallIndex
loaded = load(sys.argv[1])
stamps = {note.path: "1:1" for note in loaded.notes}
before, start = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
RecallIndex(Path(sys.argv[2])).update(stamps, loaded.notes)
after = resource.getrusage(resource.RUSAGE_SELF)
cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
print(time.perf_counter() - start, cpu)
"""

# Pagefind over the search records the last build kept, in its parts, as a build makes them (two at a time).
RECORDS_INDEX = """
import resource, shutil, sys, time
from pathlib import Path
from site_builder.site.fragments_cache import load_fragments
from site_builder.site.pagefind import SearchRecords, build_index
memwiki = Path(sys.argv[1]) / ".memwiki"
fragments = load_fragments(memwiki)
assert fragments is not None, "no build cache to read the records from"
digests = {url: mark[2] for url, mark in fragments.pages.items() if mark[2]}
before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
built = build_index(SearchRecords(memwiki / "cache" / "search-records", digests, sys.argv[2]), None)
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
print(time.perf_counter() - start, cpu, len(built.parts) if built else 0)
if built is not None and built.scratch is not None:
    shutil.rmtree(built.scratch)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, required=True, help="a workspace (copied, never changed)")
    parser.add_argument("--hugo-site", type=Path, help="the race's Hugo site, to time Hugo + Pagefind too")
    parser.add_argument("--memwiki", default=shutil.which("memwiki") or "memwiki")
    parser.add_argument("--language", default="en", help="the language Pagefind indexes in")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memwiki-floor-") as tmp:
        work = Path(tmp)
        ws = work / "ws"
        shutil.copytree(args.corpus, ws, ignore=shutil.ignore_patterns(".memwiki"))
        rows: list[tuple[str, float, float]] = []
        build = [args.memwiki, "build", str(ws), "-o", str(work / "site"), "--no-reflect"]
        rows.append(("memwiki cold build", *_timed(build)))
        naive = [sys.executable, "-c", NAIVE, str(ws), str(work / "naive")]
        rows.append(("naive render (mistune + Jinja2, 2 processes)", *_timed(naive)))
        rows.append(("Pagefind over the naive pages", *_timed(_pagefind(work / "naive"))))
        wall, cpu, parts = _said([sys.executable, "-c", RECORDS_INDEX, str(ws), args.language])
        rows.append((f"Pagefind over memwiki's search records ({parts:.0f} parts)", wall, cpu))
        wall, cpu = _said([sys.executable, "-c", RECALL_INDEX, str(ws), str(work / "recall.sqlite")])
        rows.append(("recall index (SQLite FTS5) alone", wall, cpu))
        hugo = None
        if args.hugo_site and shutil.which("hugo"):
            site = str(args.hugo_site.resolve())
            made = _timed(["hugo", "--quiet", "-s", site, "--contentDir", str(ws), "--destination", str(work / "hugo")])
            indexed = _timed(_pagefind(work / "hugo"))
            hugo = (made[0] + indexed[0], made[1] + indexed[1])
            rows.append(("Hugo + Pagefind", *hugo))
    for name, wall, cpu in rows:
        print(f"{name:<52} wall {wall:6.2f} s  cpu {cpu:6.2f} s")
    rendered, naive_index, records, recall = rows[1], rows[2], rows[3], rows[4]
    low = rendered[1] + naive_index[1]
    needed = rendered[2] + records[2] + recall[2]
    print(f"low floor (naive render, then Pagefind over it): {low:.2f} s wall")
    print(
        f"memwiki's required parts (naive render + Pagefind over its records + recall index): {needed:.2f} s CPU,"
        f" at least {needed / 2:.2f} s on two cores"
    )
    if hugo is not None:
        print(
            f"as ratios of Hugo + Pagefind: memwiki {rows[0][1] / hugo[0]:.2f}, low floor {low / hugo[0]:.2f}, "
            f"required parts at least {needed / 2 / hugo[0]:.2f}"
        )


def _pagefind(site: Path) -> list[str]:
    return [sys.executable, "-m", "pagefind", "--site", str(site)]


def _timed(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of ``command`` and its children."""
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    done = subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # 1: memwiki built, with warnings
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr[-2000:]}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def _said(command: list[str]) -> list[float]:
    """The numbers ``command`` prints (a part timed inside its own process, without its start-up)."""
    done = subprocess.run(command, check=False, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command[:3])}\n{done.stderr[-2000:]}")
    return [float(word) for word in done.stdout.split()]


if __name__ == "__main__":
    main()
