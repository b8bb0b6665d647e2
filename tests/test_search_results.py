"""What search shows of a result: a title that tells pages of one name apart, excerpts as the text reads (no period
after a heading, a fact's subjects apart), and from disk, at once, what search needs."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from site_builder.site.pagefind import search_record
from tests.conftest import MakeWorkspace, run, serving, write_workspace

WORKSPACE = {
    "memory.md": "# Core memory\n\nI work for Peter.\n",
    "projects/openclaw/INDEX.md": "# INDEX\n\nThe claw fork.\n\n## Project details\n\nBuilt with lobsters in mind.\n",
    "projects/harbor/INDEX.md": "# INDEX\n\nThe harbor parser and its lobsters.\n",
    "memory/dreaming/rem/2026-04-17.md": "# REM Sleep\n\nDreamt of lobsters.\n",
    "memory/dreaming/rem/2026-04-18.md": "# REM Sleep\n\nDreamt of lobsters again.\n",
    "memory/2026-04-18.md": "# 2026-04-18\n\nA calm day.\n\n## Retain\n- W @Tidewater @Peter: Peter's contract started.\n",
}


def search_title(page: str) -> str | None:
    """The title a built page tells Pagefind, if it tells one (else Pagefind takes its first heading)."""
    found = re.search(r'<span data-pagefind-meta="title">([^<]*)</span>', page)
    return html.unescape(found[1]) if found else None


def built(workspace: MakeWorkspace, tmp_path: Path, *options: str) -> Path:
    out = tmp_path / "site"
    result = run("build", str(workspace(WORKSPACE)), "-o", str(out), *options)
    assert result.exit_code == 0, result.output
    return out


def test_pages_that_share_a_title_are_searched_by_their_title_and_folder(
    workspace: MakeWorkspace, tmp_path: Path
) -> None:
    out = built(workspace, tmp_path, "--no-search")

    def page(path: str) -> str:
        return (out / path).read_text(encoding="utf-8")

    assert search_title(page("projects/openclaw/INDEX.html")) == "INDEX — projects/openclaw"
    assert search_title(page("projects/harbor/INDEX.html")) == "INDEX — projects/harbor"
    # Two of one folder: the file tells them apart.
    assert search_title(page("memory/dreaming/rem/2026-04-17.html")) == "REM Sleep — memory/dreaming/rem/2026-04-17.md"
    # A title no other page shows is left to Pagefind, as before: the page's heading.
    assert search_title(page("memory.html")) is None
    assert search_title(page("memory/2026-04-18.html")) is None
    assert search_title(page("bank/entities/peter.html")) is None


def test_an_entity_keeps_its_name_and_the_note_of_that_title_says_its_folder(
    workspace: MakeWorkspace, tmp_path: Path
) -> None:
    ws = workspace(
        {
            "bank/entities/Tidewater.md": "# Tidewater\n\nA client.\n",
            "memory/tidewater.md": "# Tidewater\n\nNotes on the client.\n",
        }
    )
    out = tmp_path / "site"
    assert run("build", str(ws), "-o", str(out), "--no-search").exit_code == 0
    assert search_title((out / "memory/tidewater.html").read_text(encoding="utf-8")) == "Tidewater — memory"
    assert search_title((out / "bank/entities/tidewater.html").read_text(encoding="utf-8")) is None


def test_a_rebuild_names_the_folder_once_another_page_takes_the_title_and_not_once_it_is_retitled(
    workspace: MakeWorkspace, tmp_path: Path
) -> None:
    ws = workspace(
        {
            "projects/openclaw/INDEX.md": "# INDEX\n\nThe claw fork.\n",
            "projects/harbor/INDEX.md": "# Harbor\n\nThe harbor parser.\n",
            "memory.md": "# Core memory\n",
        }
    )
    out = tmp_path / "site"
    shown = out / "projects/openclaw/INDEX.html"
    assert run("build", str(ws), "-o", str(out), "--no-search").exit_code == 0
    assert search_title(shown.read_text(encoding="utf-8")) is None
    for heading, title in (("# INDEX", "INDEX — projects/openclaw"), ("# Harbor", None)):  # the other page only
        write_workspace(ws, {"projects/harbor/INDEX.md": heading + "\n\nThe harbor parser.\n"})
        assert run("build", str(ws), "-o", str(out), "--no-search").exit_code == 0
        assert search_title(shown.read_text(encoding="utf-8")) == title


def test_a_facts_subjects_are_words_apart_in_what_search_reads(workspace: MakeWorkspace, tmp_path: Path) -> None:
    out = built(workspace, tmp_path, "--no-search")
    record = search_record((out / "memory/2026-04-18.html").read_text(encoding="utf-8"))
    assert record is not None
    text = " ".join(re.sub(r"<[^>]+>", "", record).split())
    assert "@Tidewater @Peter Peter's contract started." in text


# -- in a browser, over the index Pagefind made ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The workspace above built with search, served at http://127.0.0.1:PORT/."""
    top = tmp_path_factory.mktemp("search")
    result = run("build", str(write_workspace(top / "ws", WORKSPACE)), "-o", str(top / "site"))
    assert result.exit_code == 0, result.output
    with serving(top / "site") as url:
        yield url


def live_results(page: Any, query: str) -> list[str]:
    page.locator("#site-search-q").press_sequentially(query, delay=20)
    page.locator(".live-results [role=option]").first.wait_for()
    page.wait_for_timeout(300)  # every page found has shown its lines (no timing is measured)
    texts: list[str] = page.eval_on_selector_all(".live-results [role=option]", "els => els.map(e => e.innerText)")
    return texts


@pytest.mark.browser
def test_results_of_one_title_say_their_folder_in_the_dropdown_and_on_the_search_page(page: Any, site: str) -> None:
    page.goto(site + "index.html")
    shown = "\n".join(live_results(page, "lobsters"))
    assert "INDEX — projects/openclaw" in shown and "INDEX — projects/harbor" in shown
    page.goto(site + "search.html?q=lobsters")
    page.locator(".search-result").nth(3).wait_for()
    titles = page.eval_on_selector_all(".search-result h2", "els => els.map(e => e.innerText)")
    assert sorted(titles) == [
        "INDEX — projects/harbor",
        "INDEX — projects/openclaw",
        "REM Sleep — memory/dreaming/rem/2026-04-17.md",
        "REM Sleep — memory/dreaming/rem/2026-04-18.md",
    ]


@pytest.mark.browser
def test_a_heading_in_an_excerpt_reads_as_written_without_a_period(page: Any, site: str) -> None:
    page.goto(site + "search.html?q=details")
    line = page.locator(".search-result .search-lines a").first
    line.wait_for()
    assert line.inner_text() == "Project details"


@pytest.mark.browser
def test_a_facts_subjects_are_apart_in_its_excerpt(page: Any, site: str) -> None:
    page.goto(site + "index.html")
    fact = next(line for line in live_results(page, "contract") if "contract started" in line)
    assert fact.startswith("@Tidewater @Peter Peter's contract started.")


@pytest.mark.browser
def test_from_disk_the_search_box_says_at_once_what_search_needs(page: Any, site: str, tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert run("build", str(write_workspace(tmp_path / "ws", WORKSPACE)), "-o", str(out)).exit_code == 0
    page.goto((out / "index.html").as_uri())
    box = page.locator("#site-search-q")
    box.focus()
    note = page.locator(".live-note")
    note.wait_for(state="visible")
    assert "memwiki serve" in note.inner_text() and "host the folder" in note.inner_text()
    box.press_sequentially("lobsters", delay=10)
    assert note.is_visible()
    box.press("Escape")
    assert note.is_hidden()
    box.press("Enter")  # the search page says the same
    page.wait_for_url("**/search.html?q=lobsters")
    assert "memwiki serve" in page.inner_text(".search-status")
