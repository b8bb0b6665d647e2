"""memwiki serve shows the edited page first: rendered from the last build before the whole site is rebuilt."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from site_builder.build import build
from site_builder.library import citing
from site_builder.load import Loaded
from site_builder.serve.preview import preview_pages
from tests.conftest import MakeWorkspace, run, spy_on
from tests.test_serve import start, until

DAY = "# Monday\nPeter talked about kites.\n\n## Retain\n- W @Peter: Peter owns a green kite.\n"
FILES = {
    "memory/2025-11-03.md": DAY,
    "memory/2025-11-04.md": "# Tuesday\nRain all day.\n",
    "bank/entities/Peter.md": "# Peter\nA kite flyer.\n",
    "memory.md": "# Core\n- Peter is a friend.\n",
}


@pytest.fixture
def built(workspace: MakeWorkspace, tmp_path: Path) -> tuple[Loaded, Path, Path]:
    ws = workspace(FILES)
    out = tmp_path / "site"
    result = build(ws, out, search=False)
    assert result.loaded is not None
    return result.loaded, ws, out


def test_an_edited_day_is_rendered_at_once_with_its_links(built: tuple[Loaded, Path, Path]) -> None:
    last, ws, out = built
    before = (out / "index.html").read_bytes()
    (ws / "memory/2025-11-03.md").write_text(DAY + "\nLater @Peter fixed the [[2025-11-04]] kite.\n", "utf-8")
    assert preview_pages(last, ["memory/2025-11-03.md"], out) == ["memory/2025-11-03.html"]
    page = (out / "memory/2025-11-03.html").read_text(encoding="utf-8")
    assert "fixed the" in page and 'href="../bank/entities/peter.html"' in page
    assert 'href="../memory/2025-11-04.html"' in page  # the next day, as the full build links it
    assert (out / "index.html").read_bytes() == before  # the rest of the site waits for the full build


def test_the_full_build_after_a_preview_is_the_same_as_a_cold_one(
    built: tuple[Loaded, Path, Path], tmp_path: Path
) -> None:
    last, ws, out = built
    (ws / "memory/2025-11-03.md").write_text(DAY + "\nA new line.\n", "utf-8")
    preview_pages(last, ["memory/2025-11-03.md"], out)
    build(ws, out, search=False)
    build(ws, tmp_path / "cold", search=False, cache=False)
    for page in ("memory/2025-11-03.html", "index.html", "bank/entities/peter.html"):
        assert (out / page).read_bytes() == (tmp_path / "cold" / page).read_bytes(), page


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("bank/entities/Peter.md", "# Peter\nNow a sailor.\n"),  # entity pages gather the whole workspace
        ("memory/2025-11-05.md", "# Wednesday\nNew day.\n"),  # a new page changes the calendar and links
        ("memory/2025-11-03.md", "---\nprivate: true\n---\n" + DAY),  # now private: never rendered
        ("memwiki.toml", '[site]\ntitle = "Other"\n'),  # settings change every page
    ],
)
def test_changes_the_last_library_cannot_show_wait_for_the_full_build(
    built: tuple[Loaded, Path, Path], path: str, text: str
) -> None:
    last, ws, out = built
    before = {p: p.read_bytes() for p in out.rglob("*.html")}
    (ws / path).parent.mkdir(parents=True, exist_ok=True)
    (ws / path).write_text(text, encoding="utf-8")
    assert preview_pages(last, [path], out) == []
    assert {p: p.read_bytes() for p in out.rglob("*.html")} == before


def test_a_deleted_note_waits_for_the_full_build(built: tuple[Loaded, Path, Path]) -> None:
    last, ws, out = built
    (ws / "memory/2025-11-04.md").unlink()
    assert preview_pages(last, ["memory/2025-11-04.md", "memory/2025-11-03.md"], out) == []


@pytest.mark.slow  # 1.7 s
def test_serve_shows_the_edited_page_before_rebuilding_the_site(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    for rel, text in FILES.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text, encoding="utf-8")
    server = start(ws, "--no-reflect")
    try:
        states = server.states()
        assert next(states)["version"] == 1
        (ws / "memory/2025-11-03.md").write_text(DAY + "- W @Peter: Peter also owns a red kite.\n", "utf-8")
        assert server.process.stdout is not None
        said: list[str] = []
        while not said or not said[-1].startswith("Built "):
            said.append(server.process.stdout.readline())
        shown = next(i for i, line in enumerate(said) if line.startswith("Showed memory/2025-11-03.html in"))
        assert re.match(r"Showed memory/2025-11-03\.html in \d+\.\d\d s; rebuilding the rest", said[shown])
        assert shown < len(said) - 1  # before the site was built
        done = until(states, lambda state: state["version"] >= 3)  # the page's version, then the site's
        assert done[-1]["only"] == []
        _, html = server.get("/memory/2025-11-03.html")
        assert "Peter also owns a red kite." in html
    finally:
        server.stop()


def test_which_opinions_cite_a_note_is_not_worked_out_again_for_its_page(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A pass over every opinion's history and evidence (1.9 s on the large race corpus): the build that linked
    # the library anew worked it out, and each page of an edit made from that library takes it from there.
    ws = workspace({**FILES, "memory/2025-11-04.md": "# Tuesday\n## Retain\n- O(c=0.8) @Peter: Kites beat drones.\n"})
    result = build(ws, tmp_path / "site", search=False, cache=False)
    assert result.loaded is not None
    worked_out = spy_on(monkeypatch, citing, "add_citing", lambda _cited, _place, opinion: opinion.statement)
    for edit in range(2):
        (ws / "memory/2025-11-04.md").write_text(
            f"# Tuesday\nEdit {edit}.\n## Retain\n- O(c=0.8) @Peter: Kites beat drones.\n", "utf-8"
        )
        assert preview_pages(result.loaded, ["memory/2025-11-04.md"], tmp_path / "site") == ["memory/2025-11-04.html"]
        page = (tmp_path / "site/memory/2025-11-04.html").read_text(encoding="utf-8")
        assert f"Edit {edit}." in page and "Kites beat drones." in page
    assert worked_out == []


@pytest.mark.slow  # 1.6 s
def test_serve_started_on_a_site_already_built_shows_the_first_edit_first(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    for rel, text in FILES.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text, encoding="utf-8")
    assert run("build", str(ws), "--no-reflect").exit_code == 0
    built = (ws / ".memwiki/site/index.html").stat().st_ino
    server = start(ws, "--no-reflect")
    try:
        assert (
            ws / ".memwiki/site/index.html"
        ).stat().st_ino == built  # serve found the site up to date: it read nothing
        (ws / "memory/2025-11-03.md").write_text(DAY + "- W @Peter: Peter also owns a red kite.\n", "utf-8")
        assert server.process.stdout is not None
        said: list[str] = []
        while not said or not said[-1].startswith("Built "):
            said.append(server.process.stdout.readline())
        assert any(line.startswith("Showed memory/2025-11-03.html in") for line in said[:-1]), said
    finally:
        server.stop()
