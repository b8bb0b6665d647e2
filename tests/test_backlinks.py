"""Backlinks on every page kind: notes that link to a note (wikilinks, ``.md`` links, OpenClaw citations), the
entities and opinions citing a day's facts, what links into a folder; built end to end from tiny workspaces."""

from __future__ import annotations

import re
from pathlib import Path

from site_builder.load import load
from tests.conftest import MakeWorkspace, run

DAY = "# Monday\n\nFlew the kite with @Peter.\n\n## Retain\n- W @Peter: Peter flies a yellow kite.\n"
FILES = {
    "memory/2025-11-03.md": DAY,
    "memory.md": "# Core\n\nSee [the kite day](memory/2025-11-03.md) and [Peter](bank/entities/Peter.md).\n",
    "bank/world.md": "# World\n\nNothing about kites.\n\nBut [[2025-11-03]] was windy.\n",
    "notes/kites.md": "# Kites\n\nA page in a folder.\n",
    "notes/more.md": "# More\n\nBack to [kites](kites.md).\n",
    "MEMORY.md": "",
    "bank/entities/Peter.md": "# Peter\n\nFlies kites; see [notes](../../notes/kites.md).\n",
}


def side_of(html: str) -> str:
    """The page's side column."""
    return html.split('<div class="page-side"', 1)[1]


def test_the_library_knows_which_notes_link_to_a_note(workspace: MakeWorkspace) -> None:
    files = {k: v for k, v in FILES.items() if k != "MEMORY.md"}
    library = load(workspace(files)).library
    day = library.note_backlinks["memory/2025-11-03.md"]
    assert [(link.path, link.line) for link in day] == [("bank/world.md", 5), ("memory.md", 3)]
    assert day[0].sentence == "But [[2025-11-03]] was windy."
    kites = library.note_backlinks["notes/kites.md"]
    assert [link.path for link in kites] == ["bank/entities/Peter.md", "notes/more.md"]


def test_a_day_lists_the_notes_linking_to_it_then_who_cites_its_facts(workspace: MakeWorkspace) -> None:
    files = {k: v for k, v in FILES.items() if k != "MEMORY.md"}
    ws = workspace(files)
    assert run("build", str(ws), "--no-search", "--no-reflect").exit_code == 0
    side = side_of((ws / ".memwiki/site/memory/2025-11-03.html").read_text(encoding="utf-8"))
    groups = re.findall(r'<h3><a href="([^"]+)">([^<]+)</a></h3>', side)
    assert groups == [
        ("../bank/world.html", "World"),
        ("../memory.html", "Core"),
        ("../bank/entities/peter.html", "Peter"),
    ]
    assert 'href="../bank/world.html#L5"' in side and "was windy." in side
    note = load(ws).library.note("memory/2025-11-03.md")
    assert note is not None
    fact = note.facts[0]
    assert f'href="../bank/entities/peter.html#t-{fact.id}"' in side  # the fact in Peter's timeline
    assert 'class="chip " href="../bank/entities/peter.html">Peter</a>' in side  # and the entities it mentions


def test_links_to_an_entitys_file_reach_its_page(workspace: MakeWorkspace) -> None:
    ws = workspace({k: v for k, v in FILES.items() if k != "MEMORY.md"})
    assert run("build", str(ws), "--no-search", "--no-reflect").exit_code == 0
    core = (ws / ".memwiki/site/memory.html").read_text(encoding="utf-8")
    assert 'href="bank/entities/peter.html"' in core
    assert not (ws / ".memwiki/site/bank/entities/Peter.html").exists()


def test_a_folder_lists_what_links_into_it_from_outside(workspace: MakeWorkspace) -> None:
    ws = workspace({k: v for k, v in FILES.items() if k != "MEMORY.md"})
    assert run("build", str(ws), "--no-search", "--no-reflect").exit_code == 0
    side = side_of((ws / ".memwiki/site/notes/index.html").read_text(encoding="utf-8"))
    assert re.findall(r'<h3><a href="([^"]+)">', side) == ["../bank/entities/peter.html"]  # not notes/more.md
    assert 'href="../bank/entities/peter.html#L3"' in side


def test_a_note_nothing_links_to_says_so(workspace: MakeWorkspace, tmp_path: Path) -> None:
    ws = workspace({"memory/2025-11-03.md": "# Monday\n\nQuiet day.\n"})
    assert run("build", str(ws), "--no-search", "--no-reflect").exit_code == 0
    side = side_of((ws / ".memwiki/site/memory/2025-11-03.html").read_text(encoding="utf-8"))
    assert "Nothing links here yet." in side


def test_a_wikilink_to_a_missing_day_is_a_broken_link_not_an_entity(workspace: MakeWorkspace) -> None:
    ws = workspace(
        {
            "memory/2025-11-03.md": "# Monday\n\nAs on [[2025-11-01]].\n",
            "memory/2025-11-04.md": "# Tuesday\n\nAnd [[2025-11-01]] again.\n",
        }
    )
    library = load(ws).library
    assert "2025-11-01" not in library.entities
    broken = [p for p in library.problems.items if p.code == "broken-link"]
    assert [(p.path, p.line) for p in broken] == [("memory/2025-11-03.md", 3), ("memory/2025-11-04.md", 3)]
    assert "no note of that day" in broken[0].message


def test_a_relative_link_in_a_quoted_line_opens_what_it_opens_on_its_note(tmp_path: Path) -> None:
    """An entity's page quotes a line of a note elsewhere: its ``./fusion/`` link goes where it goes on the note's
    own page (the folder beside the note), not beside the entity's page."""
    from tests.conftest import run, write_workspace

    ws = write_workspace(
        tmp_path / "ws",
        {
            "bank/entities/Adair.md": "# Adair\n\nAn inventor.\n",
            "memory/projects/index.md": "# Projects\n\n- [Fusion](./fusion/) in the style of [[Adair]].\n",
            "memory/projects/fusion/index.md": "# Fusion\n\nA reactor.\n",
        },
    )
    assert run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search").exit_code == 0
    entity = (tmp_path / "site" / "bank/entities/adair.html").read_text(encoding="utf-8")
    assert 'href="../../memory/projects/fusion/"' in entity and 'href="./fusion/"' not in entity
    folder = (tmp_path / "site" / "memory/projects/index.html").read_text(encoding="utf-8")
    assert 'href="../../memory/projects/fusion/index.html"' in folder  # the folder's page shows it too
