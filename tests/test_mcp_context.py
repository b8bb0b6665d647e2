"""memory_context is made from the recall index (the facts it keeps whole) and answers as the whole workspace would."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from site_builder.io.reader import open_workspace
from site_builder.load import load
from site_builder.mcp.live import LiveWorkspace
from site_builder.mcp.tools import MemoryTools
from site_builder.recall.context import context_for
from tests.conftest import REPO, run, write_workspace

REAL = REPO.parent / "shared" / "real"
TODAY = dt.date(2025, 11, 10)
DAY = "# {day}\nTalked with @Anna about the kiln{n}.\n\n## Retain\n- W @Anna: Anna fired kiln batch {n}.\n"
FILES = {
    "memory.md": "# Core\nI am Wren, Anna's studio assistant.\n",
    **{f"memory/2025-10-{n:02d}.md": DAY.format(day=f"Day {n}", n=n) for n in range(1, 29)},
    "memory/2025-11-03.md": (
        "# Monday\n## Lunch with @Anna\n\n## Retain\n- O(c=0.7) @Anna: Anna prefers mornings. ^anna-mornings\n"
        "- W @Anna @Zed: Zed lent Anna a kiln for the glaze tests.\n- B: I ordered clay (Nov 20–22, 2025).\n"
    ),
    "memory/2025-11-04.md": "# Tuesday\n\n## Retain\n- O(c=0.9): Anna prefers mornings. ^anna-mornings\n",
    "memory/2025-11-08.md": "# Saturday\n\n## Retain\n- W @Anna: Anna prefers mornings; she starts the kiln at six.\n",
    "memory/2025-11-05.md": "---\nprivate: true\n---\n# Private\n\n## Retain\n- W @Anna: SECRETFACT.\n",
    "memory/2025-11-06.md": "---\nprivate: true\n---\n# Newest but private\n",
    "bank/world.md": "# World\n- W @Zed: Zed runs the Harbour kiln.\n- O(c=0.4) @Zed: Zed is reliable.\n",
    "bank/entities/Anna.md": "---\naliases: [Ania]\n---\n# Anna\nCeramicist.\n",
}


def both(root: Path, budget: int | None, query: str) -> tuple[str, str]:
    """(the block from a library of the whole workspace, memory_context's block)."""
    loaded = load(open_workspace(root))
    expected, _ = context_for(
        loaded.workspace, loaded.notes, loaded.library, budget=budget, query=query, fmt="memwiki", report=False,
        today=TODAY,
    )  # fmt: skip
    tools = MemoryTools(LiveWorkspace(open_workspace(root)), allow_write=False, now=TODAY)
    arguments: dict[str, object] = {"query": query} if query else {}
    if budget is not None:
        arguments["budget"] = budget
    got = tools.call("memory_context", arguments)["text"]
    return expected, str(got)


@pytest.mark.parametrize("budget", [None, 60, 150, 400, 100_000])
@pytest.mark.parametrize("query", ["", "kiln glaze"])
def test_memory_context_equals_the_whole_workspace_block(tmp_path: Path, budget: int | None, query: str) -> None:
    root = write_workspace(tmp_path / "ws", FILES)
    expected, got = both(root, budget, query)
    assert got == expected
    assert "SECRETFACT" not in got and 'latest_day="2025-11-08"' in got  # the private day is no day


def test_memory_context_after_reflect_recorded_the_opinions_history(tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "ws", FILES)
    assert run("reflect", str(root)).exit_code == 0
    assert "anna-mornings" in (root / "bank/opinions.md").read_text(encoding="utf-8")
    for budget in (None, 300):
        expected, got = both(root, budget, "")
        assert got == expected
    assert "Anna prefers mornings. (confidence 0.91" in got  # moved by a judged W fact


@pytest.mark.parametrize(
    "core",
    [None, "---\nprivate: true\n---\n# Core\nHidden.\n", "_No entries yet._\n"],
    ids=["no core", "private core", "placeholder core"],
)
def test_memory_context_without_a_core_memory_to_show(tmp_path: Path, core: str | None) -> None:
    files = {path: text for path, text in FILES.items() if path != "memory.md"}
    if core is not None:
        files["memory.md"] = core
    expected, got = both(write_workspace(tmp_path / "ws", files), None, "")
    assert got == expected and "Core memory" not in got


def test_memory_context_follows_edits(tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "ws", FILES)
    tools = MemoryTools(LiveWorkspace(open_workspace(root)), allow_write=False, now=TODAY)
    assert "Zed is reliable" in tools.call("memory_context", {})["text"]
    (root / "bank/world.md").write_text("# World\n- W @Zed: Zed sold the kiln.\n", encoding="utf-8")
    (root / "memory/2025-11-09.md").write_text("# Fri\n\n## Retain\n- W: The studio got a new sign.\n", "utf-8")
    text = tools.call("memory_context", {})["text"]
    assert "Zed is reliable" not in text and "Zed sold the kiln" in text
    assert 'latest_day="2025-11-09"' in text and text.index("new sign") < text.index("Zed lent Anna")
    assert text == both(root, None, "")[1]


@pytest.mark.parametrize("layout", ["tinyclaw", "toebeans", "clawxmemory"])
def test_memory_context_equals_the_whole_workspace_block_on_other_layouts(tmp_path: Path, layout: str) -> None:
    root = tmp_path / layout
    shutil.copytree(REPO / "tests" / "fixtures" / "layouts" / layout, root)
    for budget in (None, 500):
        expected, got = both(root, budget, "")
        assert got == expected


def test_memory_context_equals_the_whole_example_workspace_block(tmp_path: Path) -> None:
    root = tmp_path / "example"
    shutil.copytree(REPO / "example_workspace", root, ignore=shutil.ignore_patterns(".memwiki", "_site"))
    for budget, query in ((None, ""), (800, "Marrakech trip"), (100_000, "")):
        expected, got = both(root, budget, query)
        assert got == expected


@pytest.mark.slow
@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/real is not present")
@pytest.mark.parametrize("name", sorted(p.name for p in REAL.iterdir() if p.is_dir()) if REAL.is_dir() else [])
def test_memory_context_equals_the_whole_workspace_block_on_real_workspaces(tmp_path: Path, name: str) -> None:
    root = tmp_path / name
    shutil.copytree(REAL / name, root, ignore=shutil.ignore_patterns(".memwiki"), symlinks=True)
    for budget, query in ((None, ""), (1500, "memory"), (200_000, "")):
        expected, got = both(root, budget, query)
        assert got == expected, (name, budget)
