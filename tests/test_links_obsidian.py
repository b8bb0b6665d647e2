"""Links resolve as Obsidian opens them: relative to the linking note, by path suffix, by file name anywhere
(nearest the root first, an ambiguous name reported), case- and ``.md``-insensitive, a folder's ``index.md`` or
``README.md`` for the folder; ``[text](x.md)`` links alike. Built end to end from small knowledge-folder
workspaces."""

from __future__ import annotations

import re
from pathlib import Path

from site_builder.core.note_paths import NotePaths
from site_builder.load import load
from tests.conftest import MakeWorkspace, run

FILES = {
    "MEMORY.md": "# Memory\n\nThe boss is [[people/roger-gimbel/summary|Roger]]; the Pi is [[raspberry-pi/summary]].\n",
    "knowledge/people/roger-gimbel/summary.md": "# Roger Gimbel\n\nWorks on [[../../projects/atlas/index|Atlas]].\n",
    "knowledge/infrastructure/raspberry-pi/summary.md": "# Raspberry Pi\n\nRuns [the gateway](../../projects/Atlas/INDEX.md).\n",
    "knowledge/projects/atlas/index.md": "# Atlas\n\nOwned by [Roger](../../people/roger-gimbel/SUMMARY.md).\n",
    "memory/projects/openclaw/README.md": "# OpenClaw\n\nThe gateway.\n",
    "memory/2026-02-10.md": (
        "# Tuesday\n\n"
        "- Fixed [[OpenClaw]] and [[projects/openclaw]] with [[Raspberry-Pi/Summary.md]].\n"
        "- Read [[summary]] again.\n"
        "- See [atlas](knowledge/projects/atlas/index.md) and [pi](raspberry-pi/summary.md).\n"
        "- Nothing at [[people/nobody]].\n"
    ),
}


def hrefs(page: Path) -> dict[str, str]:
    """Link text -> href of the page's links in its article."""
    article = page.read_text(encoding="utf-8").split("<article", 1)[1].split("</article>", 1)[0]
    return {
        re.sub(r"<[^>]+>", "", text).strip(): href
        for href, text in re.findall(r'<a [^>]*href="([^"]*)"[^>]*>(.*?)</a>', article, flags=re.S)
    }


def test_the_index_finds_by_relative_path_suffix_name_and_folder_nearest_the_root_first() -> None:
    paths = NotePaths(
        (
            "a/people/anna.md",
            "b/deep/people/anna.md",
            "people/anna/index.md",
            "notes/Plan B.md",
            "docs/guide/README.md",
            "docs/guide/index.md",
        )
    )
    assert paths.wikilink("people/anna") == "a/people/anna.md"  # a file before a folder's page, then fewest folders
    assert paths.wikilink("deep/people/anna") == "b/deep/people/anna.md"
    assert paths.wikilink("../deep/people/anna", "b/x.md") == "b/deep/people/anna.md"
    assert paths.wikilink("./anna", "b/deep/people/x.md") == "b/deep/people/anna.md"
    assert paths.wikilink("PLAN_b.MD") == "notes/Plan B.md"
    assert paths.wikilink("guide") == "docs/guide/index.md"  # index.md before README.md
    assert paths.wikilink("people/anna/index") == "people/anna/index.md"
    assert paths.wikilink("nobody") is None
    assert paths.wikilink("../outside/anna2", "a/x.md") is None
    assert paths.same_name("anna") == ["a/people/anna.md", "b/deep/people/anna.md"]
    assert paths.same_name("plan b") == []  # one file of that name
    assert paths.markdown("../people/anna.md", "a/notes/x.md") == "a/people/anna.md"
    assert paths.markdown("/home/me/workspace/notes/plan b.md", "x.md") == "notes/Plan B.md"
    assert paths.markdown("/home/me/elsewhere/anna.md", "x.md") is None  # an absolute path is never a suffix guess


def test_wikilinks_open_notes_by_path_suffix_relative_path_and_folder_page(workspace: MakeWorkspace) -> None:
    root = workspace(FILES)
    out = root / ".memwiki" / "site"
    result = run("build", str(root), "--no-search")
    assert result.exit_code == 0, result.output
    memory = hrefs(out / "MEMORY.html")
    assert memory["Roger"] == "knowledge/people/roger-gimbel/summary.html"
    assert memory["raspberry-pi/summary"] == "knowledge/infrastructure/raspberry-pi/summary.html"
    roger = hrefs(out / "knowledge/people/roger-gimbel/summary.html")
    assert roger["Atlas"] == "../../../knowledge/projects/atlas/index.html"  # [[../../projects/atlas/index]]
    atlas = hrefs(out / "knowledge/projects/atlas/index.html")
    assert atlas["Roger"] == "../../../knowledge/people/roger-gimbel/summary.html"  # [x](../../people/x/SUMMARY.md)
    day = hrefs(out / "memory/2026-02-10.html")
    assert day["projects/openclaw"] == "../memory/projects/openclaw/README.html"  # the folder's page
    assert day["OpenClaw"] == "../bank/entities/openclaw.html"  # the thing kept in that folder, by its name
    assert day["Raspberry-Pi/Summary.md"] == "../knowledge/infrastructure/raspberry-pi/summary.html"
    assert day["summary"] == "../knowledge/people/roger-gimbel/summary.html"  # the shorter of two paths as deep
    assert day["atlas"] == "../knowledge/projects/atlas/index.html"
    assert day["pi"] == "../knowledge/infrastructure/raspberry-pi/summary.html"  # a .md link by path suffix
    assert day["people/nobody"] == "#"


def test_only_links_that_lead_nowhere_are_broken_and_an_ambiguous_name_is_reported(workspace: MakeWorkspace) -> None:
    library = load(workspace(FILES)).library
    problems = {(d.path, d.line, d.code): d.message for d in library.problems.items}
    broken = {(path, line) for path, line, code in problems if code == "broken-link"}
    assert broken == {("memory/2026-02-10.md", 6)}  # [[people/nobody]] only
    ambiguous = problems[("memory/2026-02-10.md", 4, "ambiguous-link")]
    assert "knowledge/infrastructure/raspberry-pi/summary.md" in ambiguous
    assert "knowledge/people/roger-gimbel/summary.md" in ambiguous
    links_to_atlas = library.note_backlinks["knowledge/projects/atlas/index.md"]
    assert {link.path for link in links_to_atlas} == {
        "knowledge/people/roger-gimbel/summary.md",
        "knowledge/infrastructure/raspberry-pi/summary.md",
        "memory/2026-02-10.md",
    }
    hygiene = run("check", str(workspace(FILES)))
    assert "people/nobody" in hygiene.output
    assert "raspberry-pi/summary.md" not in hygiene.output.split("people/nobody")[0].split("Broken")[-1]


def test_a_link_by_path_to_an_entity_page_opens_the_entity(workspace: MakeWorkspace) -> None:
    root = workspace(
        {
            "memory.md": "# Core\n\nAsk [[entities/Anna]] or [[../bank/entities/anna|her]].\n",
            "bank/entities/Anna.md": "# Anna\n\nA friend.\n",
            "memory/2025-11-03.md": "# Day\n\nMet @Anna.\n",
        }
    )
    library = load(root).library
    assert [link.path for link in library.backlinks["anna"]] == ["memory.md", "memory/2025-11-03.md"]
    assert not [d for d in library.problems.items if d.code == "broken-link"]


def test_a_link_to_a_page_not_written_yet_gets_one_and_a_hygiene_entry(workspace: MakeWorkspace) -> None:
    root = workspace(
        {
            "MEMORY.md": "# Memory\n\nMet [[Some Person]] once; see ![[photo.png]] and [[tts:voiceId=abc]].\n",
            "memory/2026-02-10.md": "# Tuesday\n\n- Nothing else.\n",
        }
    )
    assert run("build", str(root), "--no-search").exit_code == 0
    memory = hrefs(root / ".memwiki" / "site" / "MEMORY.html")
    assert memory["Some Person"] == "bank/entities/some-person.html"
    assert (root / ".memwiki" / "site" / "bank/entities/some-person.html").is_file()
    text = (root / ".memwiki" / "site" / "MEMORY.html").read_text(encoding="utf-8")
    assert "[[tts:voiceId=abc]]" in text  # a directive: text
    check = run("check", str(root)).output
    assert "Some Person: mentioned once, no page" in check
    assert "MEMORY.md:3: [[photo.png]]: no such note in the workspace" in check


def test_a_wikilink_in_a_table_cell_escapes_its_bar(workspace: MakeWorkspace) -> None:
    root = workspace(
        {
            "MEMORY.md": "# Memory\n\n| Who | Page |\n|---|---|\n| boss | [[people/roger\\|Roger]] |\n",
            "knowledge/people/roger.md": "# Roger\n",
        }
    )
    assert run("build", str(root), "--no-search").exit_code == 0
    assert hrefs(root / ".memwiki" / "site" / "MEMORY.html")["Roger"] == "knowledge/people/roger.html"
    assert not [d for d in load(root).library.problems.items if d.code == "broken-link"]
