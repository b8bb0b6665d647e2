"""One edit, one warm rebuild: the site is byte for byte the cold build of the same input, whatever the edit touched
(a day's text, its facts and opinions, its links, the days around it, an entity's page), and the pages the edit does
not reach are kept from the last site without their views being made."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

import site_builder.site.pages as pages_module
import site_builder.site.render_jobs as render_jobs
from site_builder.core.model import Entity, Note
from site_builder.library.graph import NEIGHBOURS
from site_builder.load import load
from site_builder.site.builder import PageBuilder
from site_builder.site.entity_page import entity_page
from site_builder.site.note_page import note_page
from site_builder.site.page_views import EntityPage, NotePage
from tests.conftest import EXAMPLE, MakeWorkspace, run

DAY = "memory/2025-11-26.md"


def site_bytes(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def build(ws: Path, out: Path, *extra: str) -> None:
    result = run("build", str(ws), "-o", str(out), "--no-reflect", *extra)
    assert result.exit_code == 0, result.output


def append(rel: str, text: str) -> Callable[[Path], object]:
    return lambda ws: (ws / rel).write_text((ws / rel).read_text(encoding="utf-8") + text, encoding="utf-8")


def replace(rel: str, old: str, new: str) -> Callable[[Path], object]:
    def edit(ws: Path) -> None:
        text = (ws / rel).read_text(encoding="utf-8")
        assert old in text
        (ws / rel).write_text(text.replace(old, new), encoding="utf-8")

    return edit


EDITS: dict[str, Callable[[Path], object]] = {
    "a line that is no fact": append(DAY, "- race edit: one new line\n"),
    "a new fact about an entity": append(DAY, "- W @Porto: The ferry to Porto runs hourly.\n"),
    "an opinion restated": append(DAY, "- O(c=0.5) @Peter @Porto: Peter will move to Porto in 2026. ^porto-move\n"),
    "a new link on a linking line": replace(DAY, "to [[Rui]].", "to [[Rui]] and @Marco."),
    "the first line (the day's summary)": replace(DAY, "Last day before the trip.", "The last day at home."),
    "the title": replace(DAY, "# Wednesday 26 November 2025", "# The day before the trip"),
    "a new day between two": lambda ws: (ws / "memory/2025-11-27.md").write_text("# 27 Nov\n\nMet @Anna.\n"),
    "a day removed": lambda ws: (ws / DAY).unlink(),
    "a new day after the last": lambda ws: (ws / "memory/2025-12-16.md").write_text("# 16 Dec\n\nCalled @Peter.\n"),
    "an entity's page": replace("bank/entities/Porto.md", "type: place", "type: city"),
    "an entity's page text": append("bank/entities/Porto.md", "\nIts bridges are iron.\n"),
    "an opinion's statement": replace("bank/opinions.md", "Marco prefers written", "Marco likes written"),
    "an opinion's confidence (its fact's text the same)": replace(
        "bank/opinions.md", "O(c=0.4) @Harbor", "O(c=0.45) @Harbor"
    ),
    "an alias that names a mention elsewhere": replace(
        "bank/entities/Marco.md", "[Marco Bellini]", "[Marco Bellini, Rui]"
    ),
}


@pytest.mark.slow  # 4.0 s
@pytest.mark.parametrize("edit", EDITS)
def test_a_warm_rebuild_after_one_edit_is_the_cold_build(tmp_path: Path, edit: str) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns(".memwiki", "_site"))
    warm = tmp_path / "warm"
    build(ws, warm, "--no-search")
    EDITS[edit](ws)
    build(ws, warm, "--no-search")
    build(ws, tmp_path / "cold", "--no-search", "--no-cache")
    assert site_bytes(warm) == site_bytes(tmp_path / "cold")


@pytest.fixture
def built(tmp_path: Path) -> Path:
    """A copy of the example, built once (into ``tmp_path / "site"``) without search."""
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns(".memwiki", "_site"))
    build(ws, tmp_path / "site", "--no-search")
    return ws


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The note paths and entity page URLs whose views the next builds make, in order."""
    views: list[str] = []

    def spy_note(builder: PageBuilder, note: Note) -> NotePage:
        views.append(note.path)
        return note_page(builder, note)

    def spy_entity(builder: PageBuilder, entity: Entity) -> EntityPage:
        views.append(entity.url)
        return entity_page(builder, entity)

    monkeypatch.setattr(pages_module, "note_page", spy_note)
    monkeypatch.setattr(pages_module, "entity_page", spy_entity)
    return views


@pytest.mark.slow  # 1.0 s
def test_pages_the_edit_does_not_reach_are_kept_without_making_their_views(
    built: Path, made: list[str], tmp_path: Path
) -> None:
    ws = built
    append(DAY, "- race edit: one new line\n")(ws)
    build(ws, tmp_path / "site", "--no-search")
    assert made == [DAY]  # no entity is on the new line, no other note links to it
    made.clear()
    append(DAY, "- W @Porto: The ferry to Porto runs hourly.\n")(ws)
    build(ws, tmp_path / "site", "--no-search")
    # The day, World (it lists the world facts of every other page), Porto's page, and the pages that show Porto's
    # count of mentions (its neighbours' graphs)
    library = load(ws).library
    near = {
        e.url
        for e in library.entities.values()
        if "porto" in [k for k, _ in library.related.get(e.key, [])[:NEIGHBOURS]]
    }
    assert near and sorted(made) == sorted({DAY, "bank/world.md", "bank/entities/porto.html", *near})


def test_a_new_day_keeps_the_pages_of_the_other_notes_without_making_their_views(
    built: Path, made: list[str], tmp_path: Path
) -> None:
    """Today's log is the change a workspace sees every day: its name is new, but no older line names it."""
    ws = built
    (ws / "memory/2025-12-16.md").write_text("# 16 Dec\n\nA quiet day.\n", encoding="utf-8")
    build(ws, tmp_path / "site", "--no-search")
    assert sorted(made) == ["memory/2025-12-15.md", "memory/2025-12-16.md"]  # the day before links to it now


@pytest.mark.parametrize(
    ("link", "new", "shown"),
    [
        ("see [[Packing list]]", "notes/Packing list.md", "The new note"),
        ("see [the list](../notes/Packing%20list.md)", "notes/Packing list.md", 'title="The new note"'),
        ("plan for [[2026-01-05]]", "memory/2026-01-05.md", 'href="../memory/2026-01-05.html"'),
    ],
)
def test_a_new_note_that_an_unchanged_line_links_to_renders_that_line_again(
    workspace: MakeWorkspace, tmp_path: Path, link: str, new: str, shown: str
) -> None:
    ws = workspace({"memory.md": "# Core\n", "memory/2026-01-02.md": f"# 2 Jan\n\n- {link}\n- with @Ana\n"})
    build(ws, tmp_path / "warm", "--no-search")
    (ws / new).parent.mkdir(parents=True, exist_ok=True)
    (ws / new).write_text("# The new note\n\nIts text.\n", encoding="utf-8")
    build(ws, tmp_path / "warm", "--no-search")
    build(ws, tmp_path / "cold", "--no-search", "--no-cache")
    assert site_bytes(tmp_path / "warm") == site_bytes(tmp_path / "cold")
    assert shown in (tmp_path / "warm" / "memory/2026-01-02.html").read_text(encoding="utf-8")


@pytest.mark.slow  # 1.4 s
def test_a_warm_rebuild_with_search_is_the_cold_build(tmp_path: Path) -> None:
    """The pages and their search records; Pagefind's own files are not compared here: its hashes are not the same
    from one run to the next (``test_search_index`` covers the index)."""
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns(".memwiki", "_site"))
    build(ws, tmp_path / "warm")
    EDITS["a new fact about an entity"](ws)
    build(ws, tmp_path / "warm")
    build(ws, tmp_path / "cold", "--no-cache")
    warm, cold = site_bytes(tmp_path / "warm"), site_bytes(tmp_path / "cold")
    assert {k: v for k, v in warm.items() if not k.startswith("pagefind/")} == {
        k: v for k, v in cold.items() if not k.startswith("pagefind/")
    }


def test_recall_shards_the_edit_does_not_reach_are_kept_and_the_workspace_gets_the_same(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns(".memwiki", "_site"))
    site = tmp_path / "site"
    build(ws, site, "--no-search")
    shards = site / "recall" / "entities"
    before = {p.name: p.stat().st_ino for p in shards.iterdir()}
    append(DAY, "- W @Porto: The ferry to Porto runs hourly.\n")(ws)
    build(ws, site, "--no-search")
    after = {p.name: p.stat().st_ino for p in shards.iterdir()}
    assert after.keys() == before.keys()
    made_again = sorted(name for name in after if after[name] != before[name])
    # The shards of the entities the edited day names are made again; the others are the last site's files.
    library = load(ws).library
    named = {
        e.slug + ".json"
        for e in library.entities.values()
        if any(f.path == DAY for f in library.facts_by_entity.get(e.key, []))
        or any(link.path == DAY for link in library.backlinks.get(e.key, []))
    }
    assert "porto.json" in named and made_again == sorted(named) and len(named) < len(after) / 2
    assert "The ferry to Porto runs hourly." in (shards / "porto.json").read_text(encoding="utf-8")
    copied = ws / ".memwiki" / "recall" / "entities"
    assert {p.name: p.read_bytes() for p in copied.iterdir()} == {p.name: p.read_bytes() for p in shards.iterdir()}
    assert (ws / ".memwiki" / "recall.json").read_bytes() == (site / "recall.json").read_bytes()


@pytest.mark.slow  # 2.1 s
def test_builds_that_render_a_few_pages_without_the_html_cache_leave_it_true_for_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build that makes few pages renders their notes and lines again and leaves the cache of HTML as it was, with
    the names it holds for: a line rendered when a day did not exist yet is not taken once it does."""
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns(".memwiki", "_site"))
    warm = tmp_path / "warm"
    line = "- W @Porto: The plans for Porto are in [[2025-12-20]].\n"  # no such day yet: a broken link

    def built_as_cold() -> None:
        build(ws, warm, "--no-search")
        build(ws, tmp_path / "cold", "--no-search", "--no-cache")
        assert site_bytes(warm) == site_bytes(tmp_path / "cold")

    append(DAY, line)(ws)
    built_as_cold()
    replace(DAY, line, "")(ws)  # its HTML stays in the cache
    built_as_cold()
    monkeypatch.setattr(render_jobs, "READ_HTML_FROM", 2.0)  # more than every page: the cache is not read
    (ws / "memory/2025-12-20.md").write_text("# 20 Dec\n\nThe plans.\n", encoding="utf-8")
    built_as_cold()
    monkeypatch.setattr(render_jobs, "READ_HTML_FROM", 0.0)  # read by every build
    append(DAY, line)(ws)  # the line again: rendered again, as the day exists now
    built_as_cold()


@pytest.mark.slow  # 0.9 s
def test_a_day_named_by_a_line_before_it_existed_is_linked_from_every_page_once_it_does(tmp_path: Path) -> None:
    """The note that names it changes in the same build: its line, rendered before, is on pages kept otherwise."""
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns(".memwiki", "_site"))
    warm = tmp_path / "warm"
    append(DAY, "- W @Porto: The plans for Porto are in [[2025-12-20]].\n")(ws)  # no such day yet: a broken link
    build(ws, warm, "--no-search")
    append(DAY, "- one more line\n")(ws)
    (ws / "memory/2025-12-20.md").write_text("# 20 Dec\n\nThe plans.\n", encoding="utf-8")
    build(ws, warm, "--no-search")
    build(ws, tmp_path / "cold", "--no-search", "--no-cache")
    assert site_bytes(warm) == site_bytes(tmp_path / "cold")


def test_the_feed_is_kept_when_its_days_are_and_made_again_when_one_changes(workspace: MakeWorkspace) -> None:
    from site_builder.site.feeds import FEED_ENTRIES

    days = [f"memory/2025-{1 + n // 28:02d}-{1 + n % 28:02d}.md" for n in range(FEED_ENTRIES + 5)]
    ws = workspace({day: f"# {day[7:17]}\n\nMet @Anna about plan {n}.\n" for n, day in enumerate(days)})
    out = ws.parent / "site"
    build(ws, out, "--no-search")
    feed = (out / "feed.xml").stat()
    append(days[0], "An old day, not in the feed.\n")(ws)
    build(ws, out, "--no-search")
    assert (out / "feed.xml").stat().st_ino == feed.st_ino  # kept: the same file
    append(days[-1], "The newest day, in the feed.\n")(ws)
    build(ws, out, "--no-search")
    assert "The newest day, in the feed." in (out / "feed.xml").read_text(encoding="utf-8")
