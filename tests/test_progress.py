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
    ws = workspace({"memory.md": "# Memory\n\n- Tea.\n", **days})
    screen = io.StringIO()
    build(ws, tmp_path / "site", search=False, progress=Progress(screen, every=0.0))
    shown = screen.getvalue()
    assert re.search(r"parse 10/21 \(47%\)", shown) and "parse 21/21 (100%)" in shown
    assert re.search(r"render \d+/\d+ \(\d+%\)", shown)
    finished = re.findall(r"\r\x1b\[K  (\w[\w ]*?) +\d+\.\d\d s\n", shown)
    assert finished == ["read", "parse", "model", "render", "write", "recall"]  # each stage once


def test_pipes_get_no_progress(workspace: MakeWorkspace, tmp_path: Path) -> None:
    ws = workspace({"memory.md": "# Memory\n\n- Tea.\n"})
    result = run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search")
    assert "\r" not in result.output and "…" not in result.output
