"""Tags: front-matter ``tags:`` and ``#tags`` in the text get a page each, an index, chips and a search filter."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from site_builder.build import build as build_site
from tests.conftest import MakeWorkspace, run, serving, write_workspace

NOTES = {
    "MEMORY.md": "# Memory\n\nI track #Project/memwiki and #health.\n",
    "memory/2026-03-01.md": (
        "# 1 March\n\n"
        "- Ran 5 km #health\n"
        "- Fixed the parser #project/memwiki, not C# or F#\n"
        "- Issue #123, colour #a1b2c3 and #fff, see http://x.org/#frag and [the top](#top)\n"
        "- `#code` stays code\n"
        "\n```\n#fenced\n```\n"
    ),
    "memory/2026-03-02.md": "# 2 March\n\n- A walk by the sea #Health\n",
    "notes/reading.md": "---\ntags: [books, Project/memwiki]\n---\n# Reading\n\nA list of books.\n",
    "notes/ideas.md": "---\ntags: ideas, later\n---\n# Ideas\n\nNothing yet.\n",
    # An entity page: entities are not looked for in prose, so an edit that changes no link keeps the library.
    "bank/entities/Sea.md": "# Sea\n\nSalt water.\n",
}


def build(ws: Path, out: Path, *extra: str) -> str:
    result = run("build", str(ws), "-o", str(out), "--no-reflect", "--no-search", *extra)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def site(workspace: MakeWorkspace, tmp_path: Path) -> Path:
    build(workspace(NOTES), tmp_path / "site")
    return tmp_path / "site"


def test_every_tag_has_a_page_and_the_index_counts_them(site: Path) -> None:
    pages = sorted(p.relative_to(site / "tags").as_posix() for p in (site / "tags").rglob("*.html"))
    assert pages == ["books.html", "health.html", "ideas.html", "index.html", "later.html", "project/memwiki.html"]
    index = (site / "tags/index.html").read_text()
    assert '<a href="../tags/health.html">#health</a> <span class="muted">3 notes</span>' in index
    # case does not make another tag; the spelling written most often is the one shown
    assert "#Health" not in index and '<a href="../tags/project/memwiki.html">#Project/memwiki</a>' in index


def test_a_tag_page_lists_each_line_carrying_it_linked_to_its_anchor(site: Path) -> None:
    health = (site / "tags/health.html").read_text()
    assert '<a class="cite" href="../memory/2026-03-01.html#L3" aria-label="line 3">L3</a>' in health
    assert '<a class="cite" href="../memory/2026-03-02.html#L3" aria-label="line 3">L3</a>' in health
    assert '<a class="cite" href="../MEMORY.html#L3" aria-label="line 3">L3</a>' in health
    # days newest first, then the other notes
    assert health.index("2026-03-02.html") < health.index("2026-03-01.html") < health.index("MEMORY.html")
    nested = (site / "tags/project/memwiki.html").read_text()
    assert 'href="../../notes/reading.html">tags</a> <span class="muted">in its front matter' in nested


def test_inline_tags_link_from_the_text_and_look_alikes_stay_text(site: Path) -> None:
    day = (site / "memory/2026-03-01.html").read_text()
    assert 'href="../tags/health.html" title="Tag #health">#health</a>' in day
    assert 'href="../tags/project/memwiki.html" title="Tag #project/memwiki">#project/memwiki</a>' in day
    for text in ("C#", "F#", "#123", "#a1b2c3", "#fff", "#code", "#fenced"):
        assert text in day
    assert not (site / "tags/code.html").exists() and not (site / "tags/fenced.html").exists()
    assert not (site / "tags/frag.html").exists() and not (site / "tags/top.html").exists()


def test_front_matter_tags_are_chips_near_the_title_and_a_search_filter(site: Path) -> None:
    reading = (site / "notes/reading.html").read_text()
    assert '<a class="chip tag" href="../tags/books.html">#books</a>' in reading
    assert '<a class="chip tag" href="../tags/project/memwiki.html">#Project/memwiki</a>' in reading
    assert '<span data-pagefind-filter="tag">project/memwiki</span>' in reading
    ideas = (site / "notes/ideas.html").read_text()
    assert '<span data-pagefind-filter="tag">later</span>' in ideas
    search = (site / "search.html").read_text()
    assert '<select name="tag"><option value="">any</option><option value="books">#books</option>' in search


def test_a_workspace_without_tags_has_no_tag_pages_nor_filter(workspace: MakeWorkspace, tmp_path: Path) -> None:
    build(workspace({"MEMORY.md": "# Memory\n\nNo tags, only C# and issue #4.\n"}), tmp_path / "site")
    assert not (tmp_path / "site/tags").exists()
    assert 'name="tag"' not in (tmp_path / "site/search.html").read_text()


@pytest.mark.parametrize(
    ("front", "warning"),
    [
        ("tags: 42", "notes/x.md:2: warning: tags: 42 is not a list of tags nor a text of them; ignored"),
        ("tags: [a, [b]]", "notes/x.md:2: warning: tags: ['b'] is not a tag (letters, digits, _ - /); left out"),
        ("title: X\ntag: '#'", "notes/x.md:3: warning: tag: '#' is not a tag (letters, digits, _ - /); left out"),
    ],
)
def test_a_wrong_tags_value_is_a_warning_at_its_line(
    workspace: MakeWorkspace, tmp_path: Path, front: str, warning: str
) -> None:
    ws = workspace({"MEMORY.md": "# Memory\n", "notes/x.md": f"---\n{front}\n---\n# X\n\nText with #ok.\n"})
    output = build(ws, tmp_path / "site")
    assert warning in output
    assert (tmp_path / "site/tags/ok.html").exists()  # the rest of the note is kept
    assert output.count("warning:") == 1
    assert "Traceback" not in output


def append(rel: str, text: str) -> Callable[[Path], object]:
    return lambda ws: (ws / rel).write_text((ws / rel).read_text(encoding="utf-8") + text, encoding="utf-8")


def replace(rel: str, old: str, new: str) -> Callable[[Path], object]:
    def edit(ws: Path) -> None:
        text = (ws / rel).read_text(encoding="utf-8")
        assert old in text
        (ws / rel).write_text(text.replace(old, new), encoding="utf-8")

    return edit


EDITS: dict[str, Callable[[Path], object]] = {
    "a tag added to a line": replace("memory/2026-03-02.md", "by the sea", "by the #sea"),
    "a tag added on a new line": append("memory/2026-03-02.md", "- Slept well #health\n"),
    "a tag removed": replace("memory/2026-03-02.md", " #Health", ""),
    "a tagged line's text": replace("memory/2026-03-02.md", "A walk", "A long walk"),
    "a spelling that now wins": append("memory/2026-03-02.md", "- #Health again #Health\n"),
    "a front-matter tag": replace("notes/ideas.md", "ideas, later", "ideas"),
    "the last use of a tag": replace("notes/reading.md", "books, ", ""),
    "a note title on a tag page": replace("memory/2026-03-02.md", "# 2 March", "# Second of March"),
}


@pytest.mark.slow  # 2.0 s
@pytest.mark.parametrize("edit", EDITS)
def test_a_cached_rebuild_after_a_tag_edit_is_the_uncached_build(
    workspace: MakeWorkspace, tmp_path: Path, edit: str
) -> None:
    ws = workspace(NOTES)
    warm = tmp_path / "warm"
    build(ws, warm)
    EDITS[edit](ws)
    build(ws, warm)
    cold = tmp_path / "cold"
    build(ws, cold, "--no-cache")
    assert site_bytes(warm) == site_bytes(cold)
    shutil.rmtree(cold)


def site_bytes(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.mark.browser
def test_the_search_page_filters_by_tag(page: Any, tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", NOTES)
    build_site(ws, tmp_path / "host/wiki")
    with serving(tmp_path / "host") as url:
        page.goto(url + "wiki/search.html")
        page.select_option("select[name=tag]", "health")
        page.wait_for_function("() => location.search.includes('tag=health')")
        page.wait_for_function("() => /^3 pages? found/.test(document.querySelector('.search-status').textContent)")
        page.wait_for_function("() => document.querySelectorAll('.search-result').length === 3")
        found = page.locator(".search-result a").evaluate_all("links => links.map(a => a.href.split('#')[0])")
        assert sorted(href.rsplit("/wiki/", 1)[1] for href in set(found)) == [
            "MEMORY.html",
            "memory/2026-03-01.html",
            "memory/2026-03-02.html",
        ]
