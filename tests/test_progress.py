"""Progress on a terminal: how far a long stage is, then one line per stage; nothing in pipes."""

from __future__ import annotations

import io
import re
from pathlib import Path

from site_builder.build import build
from site_builder.core.progress import Progress
from tests.conftest import MakeWorkspace, run


def test_a_long_stage_shows_its_count_and_percent_then_one_line(workspace: MakeWorkspace, tmp_path: Path) -> None:
    days = {f"memory/2026-02-{d:02d}.md": f"# 2026-02-{d:02d}\n\nDay {d}.\n" for d in range(1, 21)}
    entities = {f"bank/entities/friend-{n}.md": f"# Friend {n}\n\nA friend.\n" for n in range(20)}
    ws = workspace({"memory.md": "# Memory\n\n- Tea.\n", **days, **entities})
    screen = io.StringIO()
    build(ws, tmp_path / "site", search=False, progress=Progress(screen, every=0.0))
    shown = screen.getvalue()
    assert re.search(r"parse 20/41 \(48%\)", shown) and "parse 41/41 (100%)" in shown
    rendered = [(int(done), int(total)) for done, total in re.findall(r"render (\d+)/(\d+) \(\d+%\)", shown)]
    assert rendered and rendered[-1][0] == rendered[-1][1]  # the pages counted to the last: 100 %
    assert all(done <= total for done, total in rendered)
    finished = re.findall(r"\r\x1b\[K  (\w[\w ]*?) +\d+\.\d\d s\n", shown)
    assert finished == ["read", "parse", "model", "render", "write", "recall"]  # each stage once


def test_pipes_get_no_progress(workspace: MakeWorkspace, tmp_path: Path) -> None:
    ws = workspace({"memory.md": "# Memory\n\n- Tea.\n"})
    result = run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search")
    assert "\r" not in result.output and "…" not in result.output


def test_render_counts_its_pages_to_the_last_on_a_rebuild(workspace: MakeWorkspace, tmp_path: Path) -> None:
    days = {f"memory/2026-02-{d:02d}.md": f"# 2026-02-{d:02d}\n\nDay {d}.\n" for d in range(1, 21)}
    ws = workspace({"memory.md": "# Memory\n\n- Tea.\n", **days})
    build(ws, tmp_path / "site", search=False)
    (ws / "memory" / "2026-02-03.md").write_text("# 2026-02-03\n\nDay 3, and tea.\n", encoding="utf-8")
    screen = io.StringIO()
    build(ws, tmp_path / "site", search=False, progress=Progress(screen, every=0.0))  # the edited page first
    rendered = [
        (int(done), int(total)) for done, total in re.findall(r"render (\d+)/(\d+) \(\d+%\)", screen.getvalue())
    ]
    assert rendered and rendered[-1][0] == rendered[-1][1]
    assert [done for done, _ in rendered] == sorted(done for done, _ in rendered)  # never back


def test_the_search_index_counts_the_parts_pagefind_makes(workspace: MakeWorkspace, tmp_path: Path) -> None:
    days = {f"memory/{year}-02-01.md": f"# {year}-02-01\n\nTea in {year}.\n" for year in (2024, 2025, 2026)}
    ws = workspace({"memory.md": "# Memory\n\n- Tea.\n", **days})
    screen = io.StringIO()
    build(ws, tmp_path / "site", progress=Progress(screen, every=0.0))
    counted = re.findall(r"index (\d+)/(\d+) \((\d+)%\)", screen.getvalue())
    assert counted and counted[-1] == ("4", "4", "100")  # a part a year and one of the undated pages
    (ws / "memory" / "2025-02-01.md").write_text("# 2025-02-01\n\nCoffee in 2025.\n", encoding="utf-8")
    screen = io.StringIO()
    build(ws, tmp_path / "site", progress=Progress(screen, every=0.0))
    assert re.findall(r"index (\d+)/(\d+)", screen.getvalue())[-1] == ("1", "1")  # the part of 2025 alone
