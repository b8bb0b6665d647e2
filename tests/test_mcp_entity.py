"""The live workspace behind the MCP tools: memory_entity links only the notes the recall index names (and answers
as the whole workspace would); every tool sees files as they are now."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from site_builder.core.library import Library
from site_builder.io.reader import open_workspace
from site_builder.load import load
from site_builder.mcp.live import LiveWorkspace
from site_builder.mcp.tools import MemoryTools, ToolError
from site_builder.recall.bundle import opinion_json
from site_builder.recall.entity_shard import entity_shard
from tests.conftest import REPO, write_workspace

FILES = {
    "memory/2025-11-03.md": (
        "# Monday\n## Lunch with @Anna\nLunch with @Ania, @Zoe and @Bob at the [[Harbour Cafe]].\n"
        "Read [[Projects]] with @Anna.\n\n## Retain\n"
        "- O(c=0.7) @Anna: Anna prefers mornings. ^anna-mornings\n- W @Anna @Zed: Zed lent Anna a kiln.\n"
    ),
    "memory/2025-11-04.md": (
        "# Tuesday\n@Bob fixed the [[Harbour Cafe]] sign with [[bank/entities/Anna]].\n"
        "[[Projects]] is growing, says @Anna.\n\n## Retain\n- O(c=0.9): Anna prefers mornings. ^anna-mornings\n"
    ),
    "memory/2025-11-05.md": "# Wednesday\n@Bob went to the [[Harbour Cafe]] alone.\n@Zoe came once.\n",
    "memory/2025-11-06.md": "# Thursday\n```\n@Anna in a code block\n```\nCarol and @Anna talked.\n",
    "memory/2025-11-07.md": "---\nprivate: true\n---\n# Friday\n@Anna told @Bob a secret.\n",
    "memory/2025-11-08.md": "# Saturday\n\n## Retain\n- O(c=0.95): Anna prefers mornings. ^anna-mornings\n",
    "bank/entities/Anna.md": "---\naliases: [Ania]\ntype: person\n---\n# Anna\nCeramicist; works with @Bob.\n",
    "bank/entities/Dora.md": "# Dora\nNever mentioned elsewhere.\n",
    "pages/Projects.md": "# Projects\nA list.\n",
}


def shard(library: Library, name: str) -> dict[str, Any] | None:
    entity = library.resolver.entity(name)
    if entity is None:
        return None
    answer = entity_shard(library, entity)
    answer["opinions"] = [opinion_json(opinion) for opinion in library.opinions_about(entity.key)]
    return answer


def answers(root: Path) -> list[tuple[str, dict[str, Any] | None, dict[str, Any] | None]]:
    """(name, the answer from the whole workspace, memory_entity's answer) for every entity and alias."""
    full = load(open_workspace(root)).library
    tools = MemoryTools(LiveWorkspace(open_workspace(root)), allow_write=False)
    names = [*(e.name for e in full.entities.values()), *(a for e in full.entities.values() for a in e.aliases)]
    out = []
    for name in [*names, "bank/entities/Anna", "Nobody"]:
        try:
            got: dict[str, Any] | None = tools.call("memory_entity", {"name": name})
        except ToolError as exc:
            assert exc.code == "unknown_entity"
            got = None
        out.append((name, shard(full, name), got))
    return out


def test_memory_entity_answers_as_the_whole_workspace_would(tmp_path: Path) -> None:
    results = answers(write_workspace(tmp_path / "ws", FILES))
    assert {name for name, expected, _ in results if expected} >= {"Anna", "Ania", "Bob", "Harbour Cafe", "Dora", "Zoe"}
    assert "Projects" not in {name for name, expected, _ in results if expected}  # a note, not an entity
    for name, expected, got in results:
        assert got == expected, name
    anna = next(got for name, _, got in results if name == "Anna")
    assert anna is not None and [o["confidence"] for o in anna["opinions"]] == [0.95]  # restated without @Anna
    assert {r["name"] for r in anna["related"]} >= {"Bob", "Zoe", "Harbour Cafe"}
    assert "memory/2025-11-07.md#L5" not in str(anna)  # the private note stays out


def test_memory_entity_matches_the_whole_example_workspace(tmp_path: Path) -> None:
    root = tmp_path / "example"
    shutil.copytree(REPO / "example_workspace", root, ignore=shutil.ignore_patterns(".memwiki"))
    for name, expected, got in answers(root):
        assert got == expected, name


def test_memory_entity_of_the_user_is_the_person_the_profile_names(tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "ws", {**FILES, "USER.md": "# USER.md\n\n- **What to call them:** Ania\n"})
    tools = MemoryTools(LiveWorkspace(open_workspace(root)), allow_write=False)
    anna = tools.call("memory_entity", {"name": "Anna"})
    assert anna["name"] == "Anna"
    assert tools.call("memory_entity", {"name": "user"}) == tools.call("memory_entity", {"name": "the user"}) == anna
    (root / "USER.md").write_text("# USER.md\n\n- **Name:**\n", encoding="utf-8")  # names nobody now
    with pytest.raises(ToolError) as unknown:
        tools.call("memory_entity", {"name": "user"})
    assert unknown.value.code == "unknown_entity"


@pytest.mark.parametrize("edit", ["change", "delete"])
def test_memory_entity_follows_edits(tmp_path: Path, edit: str) -> None:
    root = write_workspace(tmp_path / "ws", FILES)
    tools = MemoryTools(LiveWorkspace(open_workspace(root)), allow_write=False)
    assert len(tools.call("memory_entity", {"name": "Bob"})["mentions"]) == 4
    day = root / "memory/2025-11-05.md"
    if edit == "change":
        day.write_text("# Wednesday\n@Rob went to the [[Harbour Cafe]] alone.\n@Carol came once.\n", encoding="utf-8")
    else:
        day.unlink()
    assert len(tools.call("memory_entity", {"name": "Bob"})["mentions"]) == 3
    assert tools.call("memory_entity", {"name": "Bob"}) == shard(load(open_workspace(root)).library, "Bob")


def test_memory_context_sees_a_same_size_edit_that_keeps_the_modification_time(tmp_path: Path) -> None:
    root = write_workspace(tmp_path / "ws", {**FILES, "memory.md": "# Core\nI am Wren.\n"})
    tools = MemoryTools(LiveWorkspace(open_workspace(root)), allow_write=False)
    assert "I am Wren." in tools.call("memory_context", {})["text"]
    core = root / "memory.md"
    before = core.stat()
    core.write_text("# Core\nI am Kite.\n", encoding="utf-8")
    os.utime(core, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert "I am Kite." in tools.call("memory_context", {})["text"]


def test_memory_search_answers_from_the_files_as_they_are_now(tmp_path: Path) -> None:
    """memory_search ranks while the files are statted; an answer from an index that then changes is asked again."""
    root = write_workspace(tmp_path / "ws", FILES)
    tools = MemoryTools(LiveWorkspace(open_workspace(root)), allow_write=False)
    assert tools.call("memory_search", {"query": "zanzibar"})["results"] == []
    with pytest.raises(ToolError) as unknown:
        tools.call("memory_search", {"query": "zanzibar", "entity": "Nadia"})
    assert "unknown entity" in str(unknown.value)
    day = root / "memory/2025-11-09.md"
    day.write_text("# Sunday\n@Nadia planned a zanzibar holiday.\n", encoding="utf-8")
    found = tools.call("memory_search", {"query": "zanzibar", "entity": "Nadia"})["results"]  # unknown a call ago
    assert [r["citation"] for r in found] == ["memory/2025-11-09.md#L2"]
    day.unlink()
    assert tools.call("memory_search", {"query": "zanzibar"})["results"] == []
