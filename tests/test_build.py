"""Whole builds of tiny workspaces through the CLI, asserting on output files."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from site_builder.core.processes import process_count
from site_builder.load import PARALLEL_PARSE_FROM, PARSE_COST_PER_FILE
from site_builder.site.render_jobs import PARALLEL_FROM
from tests.conftest import MakeWorkspace, run

DAY = """# Thursday

Met @Peter and [[Anna Lee|Anna]] at the cafe, see [[Peter#Working style]].

```python
print("code")
```

## Retain
- W @Peter: In Marrakech Nov 27–Dec 1, 2025.
- O(c=0.8) @Peter: Prefers concise replies. ^concise
"""
LATER = """# Saturday
Peter asked for a long report; [[Anna Lee]] too.

## Retain
- O(c=0.6) @Peter: Prefers concise replies, yet asked for a long report. ^concise
"""
PETER = """---
aliases: [Pete]
type: person
---
# Peter

## Working style
Short replies. Talks to @Pete's friends.
"""


def build(ws: Path, *extra: str) -> tuple[Path, str]:
    out = ws.parent / "site"
    result = run("build", str(ws), "-o", str(out), "--no-search", *extra)
    assert result.exit_code == 0, result.output
    return out, result.output


def read(out: Path, rel: str) -> str:
    return (out / rel).read_text(encoding="utf-8")


def small(workspace: MakeWorkspace) -> Path:
    return workspace(
        {
            "memory.md": "# Core\n- I help @Peter.\n",
            "memory/2025-11-20.md": DAY,
            "memory/2025-11-22.md": LATER,
            "bank/entities/Peter.md": PETER,
            "bank/opinions.md": "# Opinions\n- O(c=0.9) @Peter: Prefers concise replies. ^concise\n",
        }
    )


def test_build_writes_every_page_kind(workspace: MakeWorkspace) -> None:
    out, _ = build(small(workspace))
    for rel in [
        "index.html",
        "memory.html",
        "memory/index.html",
        "memory/2025-11.html",
        "memory/2025-11-20.html",
        "memory/2025-11-22.html",
        "bank/opinions.html",
        "bank/entities/index.html",
        "bank/entities/peter.html",
        "bank/entities/anna-lee.html",
        "hygiene.html",
        "404.html",
        "_theme/style.css",
    ]:
        assert (out / rel).is_file(), rel


def test_every_nonblank_source_line_has_an_anchor(workspace: MakeWorkspace) -> None:
    out, _ = build(small(workspace))
    html = read(out, "memory/2025-11-20.html")
    for number, line in enumerate(DAY.split("\n"), start=1):
        if line.strip():
            assert f'id="L{number}"' in html, (number, line)


def test_backlinks_show_sentence_date_and_exact_line(workspace: MakeWorkspace) -> None:
    out, _ = build(small(workspace))
    html = read(out, "bank/entities/peter.html")
    assert 'href="../../memory/2025-11-20.html#L3"' in html
    assert "at the cafe" in html
    assert "2025-11-20" in html
    # the alias @Pete on Peter's own page is not a backlink to itself
    assert "Talks to" not in html.split("Backlinks", 1)[1]


def test_alias_and_heading_links_resolve(workspace: MakeWorkspace) -> None:
    out, _ = build(small(workspace))
    html = read(out, "memory/2025-11-20.html")
    assert 'href="../bank/entities/peter.html#working-style"' in html
    assert 'href="../bank/entities/anna-lee.html"' in html
    assert ">Anna</a>" in html


def test_a_name_without_a_page_gets_a_placeholder_page_and_a_finding_not_a_warning(workspace: MakeWorkspace) -> None:
    out, output = build(small(workspace))
    assert "Anna Lee" not in output  # a name without a page is normal, not something to fix
    assert "No page yet" in read(out, "bank/entities/anna-lee.html")
    assert "Anna Lee: mentioned 2 times, no page" in read(out, "hygiene.html")


def test_opinion_history_chart_links_each_point_to_its_fact(workspace: MakeWorkspace) -> None:
    out, _ = build(small(workspace))
    html = read(out, "bank/opinions.html")
    chart = re.search(r'<svg class="chart confidence".*?</svg>', html, re.S)
    assert chart is not None
    assert chart[0].count("<circle") == 2
    assert 'href="../memory/2025-11-20.html#L11"' in chart[0]
    assert 'href="../memory/2025-11-22.html#L5"' in chart[0]
    assert "<strong>0.60</strong>" in html  # current confidence = latest restatement


def test_an_opinion_stated_once_shows_its_confidence_and_source_without_a_chart(workspace: MakeWorkspace) -> None:
    once = "# Friday\n\n## Retain\n- O(c=0.7) @Peter: Likes early meetings. ^early\n"
    out, _ = build(workspace({"memory.md": "# Core\n", "memory/2025-11-21.md": once}))
    html = read(out, "bank/opinions.html")
    card = re.search(r'<article class="opinion" id="op-early">.*?</article>', html, re.S)
    assert card is not None
    assert "<strong>0.70</strong>" in card[0]
    assert 'href="../memory/2025-11-21.html#L4">first stated' in card[0]
    assert "<svg" not in card[0]  # one point is no history to draw


def test_daily_pages_link_prev_and_next(workspace: MakeWorkspace) -> None:
    out, _ = build(small(workspace))
    first = read(out, "memory/2025-11-20.html")
    assert 'rel="next" href="../memory/2025-11-22.html"' in first
    assert 'rel="prev"' not in first


def test_links_are_relative(workspace: MakeWorkspace) -> None:
    out, _ = build(small(workspace))
    for page in out.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        for target in re.findall(r'(?:href|src)="([^"]+)"', html):
            assert not target.startswith(("/", "http:", "https:")), (page, target)


def test_same_input_gives_same_bytes(workspace: MakeWorkspace, tmp_path: Path) -> None:
    ws = small(workspace)
    a, b = tmp_path / "a", tmp_path / "b"
    assert run("build", str(ws), "-o", str(a)).exit_code == 0
    assert run("build", str(ws), "-o", str(b)).exit_code == 0

    def ours(root: Path) -> list[Path]:
        # Pagefind's filter/meta files vary in byte order between runs (upstream);
        # its page fragments, and everything memwiki writes, must not.
        return sorted(
            p.relative_to(root) for p in root.rglob("*") if p.is_file() and p.parent.name not in ("pagefind", "filter")
        )

    files_a, files_b = ours(a), ours(b)
    assert files_a == files_b
    assert any(p.parts[0] == "pagefind" and p.parts[2] == "fragment" for p in files_a)
    for rel in files_a:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel


def test_build_without_reflect_never_writes_into_the_workspace(workspace: MakeWorkspace) -> None:
    ws = small(workspace)
    before = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}
    build(ws, "--no-reflect")
    after = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}
    derived = {p for p in after if p.relative_to(ws).parts[0] in ("_site", ".memwiki")}
    assert {p: after[p] for p in set(after) - derived} == before
    assert ws / ".memwiki" / "recall.json" in derived


def test_build_reflects_first_and_keeps_every_human_byte(workspace: MakeWorkspace) -> None:
    ws = small(workspace)
    before = {p: p.read_bytes() for p in ws.rglob("*.md")}
    assert run("build", str(ws), "--no-search").exit_code == 0
    for path, data in before.items():
        assert path.read_bytes().startswith(data), path
    changed = [p for p in before if p.read_bytes() != before[p]]
    assert changed and all(b"<!-- memwiki:begin" in p.read_bytes() for p in changed)


def test_default_output_is_workspace_site_and_rebuild_replaces_it(workspace: MakeWorkspace) -> None:
    """A workspace set up for memwiki (its memwiki.toml) has its site in _site/."""
    ws = small(workspace)
    (ws / "memwiki.toml").write_text('[site]\ntitle = "Mine"\n', encoding="utf-8")
    result = run("build", str(ws), "--no-search")
    assert result.exit_code == 0 and ".memwiki/site" not in result.output
    assert (ws / "_site" / "index.html").is_file() and not (ws / ".memwiki" / "site").exists()
    (ws / "memory" / "2025-11-22.md").unlink()
    assert run("build", str(ws), "--no-search").exit_code == 0
    assert not (ws / "_site" / "memory" / "2025-11-22.html").exists()


def test_an_agents_own_workspace_gets_its_site_under_dot_memwiki(workspace: MakeWorkspace) -> None:
    """Without a memwiki.toml the workspace is the agent's: it gains .memwiki/ only, and the terminal says where the
    site is, as many files as are on disk, and that an earlier _site/ is no longer kept up."""
    ws = small(workspace)
    (ws / "_site").mkdir()
    (ws / "_site" / ".memwiki-site").write_text("", encoding="utf-8")  # an earlier build's
    before = {p.name for p in ws.iterdir()}
    result = run("build", str(ws))
    assert result.exit_code == 0, result.output
    site = ws / ".memwiki" / "site"
    assert (site / "index.html").is_file() and {p.name for p in ws.iterdir()} == before | {".memwiki"}
    on_disk = sum(1 for p in site.rglob("*") if p.is_file())
    assert f"({on_disk} files) into {site}" in result.output and (site / "pagefind").is_dir()
    assert "The site is in .memwiki/site/: this workspace has no memwiki.toml" in result.output
    assert "_site/ holds an earlier build's site, no longer updated" in result.output


@pytest.mark.parametrize("python", ["ours", "one that cannot run"])
def test_the_old_site_is_gone_once_a_rebuild_is_done(
    workspace: MakeWorkspace, monkeypatch: pytest.MonkeyPatch, python: str
) -> None:
    """Removed by a process of its own, or by the build when that process cannot do it."""
    if python != "ours":
        monkeypatch.setattr("sys.executable", "/bin/false")
    ws = small(workspace)
    for day in ("2025-11-22", "2025-11-23"):
        assert run("build", str(ws), "--no-search").exit_code == 0
        (ws / "memory" / f"{day}.md").write_text(f"# {day}\n\nAnother line.\n", encoding="utf-8")
    assert run("build", str(ws), "--no-search").exit_code == 0
    assert sorted(p.name for p in (ws / ".memwiki").iterdir() if p.name.startswith(("site", ".site"))) == ["site"]


def test_search_index_is_built_with_pagefind(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = small(workspace)
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    out = ws.parent / "site"
    assert run("build", str(ws), "-o", str(out)).exit_code == 0
    parts = json.loads((out / "pagefind" / "parts.json").read_text(encoding="utf-8"))["parts"]
    assert (out / "pagefind" / "pagefind.js").is_file()
    assert parts and all((out / "pagefind" / part / "pagefind-entry.json").is_file() for part in parts)
    assert list((out / "pagefind" / parts[0] / "fragment").iterdir())
    assert not list(elsewhere.iterdir()), "nothing may be written outside the output folder"


@pytest.mark.slow  # 1.4 s
def test_the_memwiki_process_says_all_it_did_and_leaves_a_whole_site(workspace: MakeWorkspace, tmp_path: Path) -> None:
    """The command's own process exits as soon as the build is done (``cli.run``): its report still reaches a pipe in
    full, and the site and the caches it writes are complete; a second build finds nothing to do."""
    import subprocess
    import sys

    ws = small(workspace)
    out = tmp_path / "site"
    command = [sys.executable, "-m", "site_builder", "build", str(ws), "-o", str(out), "--no-search"]
    first = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert lines[-2].startswith(f"Built {len(list(out.rglob('*.html')))} pages"), lines
    assert lines[-1].startswith("recall.json: ~"), lines
    assert json.loads((out / "recall.json").read_text(encoding="utf-8"))["facts"]
    again = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert again.returncode == 0 and "Up to date" in again.stdout, again.stdout + again.stderr


def test_version_and_help() -> None:
    assert "memwiki" in run("--version").output
    for command in ("build", "check", "recall"):
        text = run(command, "--help").output
        assert "Usage:" in text
        for option in re.findall(r"^\s+(--[a-z-]+)", text, re.M):
            line = next(row for row in text.splitlines() if option in row)
            assert len(line.split(option, 1)[1].strip()) > 0, option


@pytest.mark.slow  # 1.7 s
def test_two_processes_parse_and_render_the_same_bytes_as_one(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    count = max(PARALLEL_FROM, PARALLEL_PARSE_FROM // PARSE_COST_PER_FILE)
    days = {
        f"memory/{2026 + i // 336}-{1 + i // 28 % 12:02d}-{1 + i % 28:02d}.md": f"# Day {i}\n\n- Met @Ana{i % 7} about [[Harbor]].\n"
        for i in range(count)
    }
    ws = workspace({"memory.md": "# Memory\n\n- Ana0 likes tea.\n", **days})
    assert process_count(count, PARALLEL_FROM) == 2 or len(os.sched_getaffinity(0)) == 1
    both, one = tmp_path / "both", tmp_path / "one"
    assert run("build", str(ws), "-o", str(both), "--no-search", "--no-cache").exit_code == 0
    monkeypatch.setenv("MEMWIKI_PROCESSES", "1")
    assert process_count(count, PARALLEL_FROM) == 1
    assert run("build", str(ws), "-o", str(one), "--no-search", "--no-cache").exit_code == 0
    files = sorted(p.relative_to(both) for p in both.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert len(files) > PARALLEL_FROM
    for rel in files:
        assert (both / rel).read_bytes() == (one / rel).read_bytes(), rel


CHILD_OUTLIVES_PARENT = """
import os, signal, sys, time
from site_builder.core import processes

processes.process_count = lambda jobs, worth_from: 2
pids = sys.argv[1]

def work(take, reporting):
    if not reporting:
        with open(pids, "w") as f:
            f.write(str(os.getpid()))
        time.sleep(0.5)  # the parent is killed meanwhile
        return "x" * 1_000_000  # more than a pipe holds
    while not os.path.exists(pids):
        time.sleep(0.01)
    os.kill(os.getpid(), signal.SIGKILL)

processes.in_shares(work, 2, 1)
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_forked_child_whose_parent_is_killed_ends(tmp_path: Path) -> None:
    """A build killed while its child renders must not leave that child waiting forever (holding the lock)."""
    import subprocess
    import sys
    import time

    pids = tmp_path / "child.pid"
    subprocess.run([sys.executable, "-c", CHILD_OUTLIVES_PARENT, str(pids)], check=False, timeout=60)
    child = int(pids.read_text())

    def running() -> bool:  # an ended child no one has reaped yet is a zombie: ended
        status = Path(f"/proc/{child}/status")
        return status.exists() and "\nState:\tZ" not in status.read_text()

    deadline = time.monotonic() + 20
    while running() and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = running()
    if alive:
        os.kill(child, 9)
    assert not alive, "the child still waits to send its share"
