"""What search shows of a result: a title that tells pages of one name apart, excerpts as the text reads (no period
after a heading, a fact's subjects apart), and from disk, at once, what search needs."""

from __future__ import annotations

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


def built(workspace: MakeWorkspace, tmp_path: Path, *options: str) -> Path:
    out = tmp_path / "site"
    result = run("build", str(workspace(WORKSPACE)), "-o", str(out), *options)
    assert result.exit_code == 0, result.output
    return out


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
