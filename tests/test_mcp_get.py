"""memory_get checks the one path it is asked for, with the same rules as the walk that lists the workspace."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from site_builder.core.diagnostics import Diagnostics
from site_builder.io.folder_walk import walk_files
from site_builder.io.reader import is_listed, open_workspace, stamp_workspace
from site_builder.mcp.live import LiveWorkspace
from site_builder.mcp.tools import MemoryTools, ToolError
from tests.conftest import REPO, write_workspace

FILES = {
    "memory.md": "# Core\nI am Wren.\n",
    "memory/2025-11-03.md": "# Monday\nKiln day.\n",
    "memory/.draft.md": "# Draft\n",
    "memory/reflections.jsonl": '{"ts":"2025-11-03T10:00:00Z","type":"insight","lesson":"Glaze thin."}\n',
    "notes/topic.md": "# Topic\n",
    "notes/readme.txt": "not memory\n",
    "_site/index.md": "# built\n",
    "node_modules/pkg/README.md": "# dep\n",
    "__pycache__/x.md": "# cache\n",
    "wiki/.memwiki-site": "",
    "wiki/page.md": "# a site memwiki built\n",
    ".hidden/x.md": "# hidden\n",
    "folder.md/inner.md": "# a folder named like a note\n",
}


def tricky_workspace(tmp_path: Path) -> Path:
    outside = write_workspace(tmp_path / "outside", {"secret.md": "# Outside\nSECRET\n", "dir/leak.md": "# Leak\n"})
    root = write_workspace(tmp_path / "ws", FILES)
    (root / "linked-notes").symlink_to(root / "notes", target_is_directory=True)  # inside: followed
    (root / "also-core.md").symlink_to(root / "memory.md")
    (root / "out.md").symlink_to(outside / "secret.md")
    (root / "outdir").symlink_to(outside / "dir", target_is_directory=True)
    (root / "memory" / "dangling.md").symlink_to(root / "missing.md")
    return root


def test_a_path_is_readable_exactly_when_the_walk_lists_it(tmp_path: Path) -> None:
    """The walk lists a file reached by two names (a link inside the workspace) once; either name reads it."""
    root = tricky_workspace(tmp_path)
    opened = open_workspace(root)
    listed = set(stamp_workspace(opened, Diagnostics()))
    every = {rel for rel, _ in walk_files(root, Diagnostics())}
    every |= {p.relative_to(root).as_posix() for p in root.rglob("*")}
    assert "out.md" not in listed and "outdir/leak.md" not in every
    files = {(root / rel).resolve() for rel in listed}
    second_names = set()
    for rel in sorted(every | {"outdir/leak.md", "linked-notes/topic.md", "memory/none.md", "memory", "notes"}):
        if rel in listed:
            assert is_listed(opened, rel), rel
        elif is_listed(opened, rel):
            assert (root / rel).resolve() in files, rel
            second_names.add(rel)
    # A file keeps its own name: memory.md, not the link also-core.md that sorts before it.
    assert second_names == {"linked-notes/topic.md", "also-core.md"}
    assert {"memory.md", "notes/topic.md"} <= listed


def test_a_file_with_two_hard_links_is_listed_once(tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "ws", {"memory/2026-01-02.md": "# Day\nOne.\n", "memory.md": "# Core\n"})
    os.link(root / "memory/2026-01-02.md", root / "memory/copy.md")
    assert [rel for rel, _ in walk_files(root, Diagnostics())] == ["memory.md", "memory/2026-01-02.md"]


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("out.md", "not_found"),
        ("outdir/leak.md", "not_found"),
        ("_site/index.md", "not_found"),
        ("node_modules/pkg/README.md", "not_found"),
        ("wiki/page.md", "not_found"),
        ("notes/readme.txt", "not_found"),
        ("folder.md", "not_found"),
        ("memory/dangling.md", "not_found"),
        ("memory/.draft.md", "not_memory"),
        (".git/config", "not_memory"),
        ("../outside/secret.md", "outside_workspace"),
        (str(Path("/etc/passwd")), "outside_workspace"),
    ],
)
def test_memory_get_refuses_what_is_not_memory(tmp_path: Path, path: str, code: str) -> None:
    tools = MemoryTools(LiveWorkspace(open_workspace(tricky_workspace(tmp_path))), allow_write=False)
    with pytest.raises(ToolError) as caught:
        tools.call("memory_get", {"path": path})
    assert caught.value.code == code
    assert "SECRET" not in str(caught.value)


def test_memory_get_reads_memory_through_links_inside_the_workspace(tmp_path: Path) -> None:
    tools = MemoryTools(LiveWorkspace(open_workspace(tricky_workspace(tmp_path))), allow_write=False)
    assert tools.call("memory_get", {"path": "linked-notes/topic.md"})["text"] == "# Topic"
    assert tools.call("memory_get", {"path": "./memory/2025-11-03.md#L2"})["text"] == "Kiln day."
    assert tools.call("memory_get", {"path": "memory/reflections.jsonl"})["totalLines"] == 1


def test_memory_get_sees_a_file_made_after_the_server_started(tmp_path: Path) -> None:
    root = tricky_workspace(tmp_path)
    tools = MemoryTools(LiveWorkspace(open_workspace(root)), allow_write=False)
    with pytest.raises(ToolError):
        tools.call("memory_get", {"path": "memory/2025-11-04.md"})
    (root / "memory/2025-11-04.md").write_text("# Tuesday\nNew.\n", encoding="utf-8")
    assert tools.call("memory_get", {"path": "memory/2025-11-04.md"})["text"] == "# Tuesday\nNew."
    (root / "memory/2025-11-04.md").unlink()
    with pytest.raises(ToolError):
        tools.call("memory_get", {"path": "memory/2025-11-04.md"})


REAL = REPO.parent / "shared" / "real"


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/real is not present")
def test_on_real_workspaces_every_listed_file_is_readable_and_nothing_else() -> None:
    for real in sorted(p for p in REAL.iterdir() if p.is_dir()):
        root = real.resolve()
        opened = open_workspace(root)
        listed = set(stamp_workspace(opened, Diagnostics()))
        files = {(root / rel).resolve() for rel in listed}
        for path in root.rglob("*"):
            rel = path.relative_to(root).as_posix()
            if rel in listed:
                assert is_listed(opened, rel), (real.name, rel)
            elif is_listed(opened, rel):
                assert path.resolve() in files, (real.name, rel)  # a second name of a listed file
