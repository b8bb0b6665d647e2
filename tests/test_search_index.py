"""The search index: lean search records, the cached index, and words inside Chinese text."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from site_builder.build import build
from site_builder.site import search_parts, search_placing
from site_builder.site.language import text_language
from site_builder.site.pagefind import search_record
from site_builder.site.search_parts import record_digest, split_parts
from tests.conftest import MakeWorkspace, serving, spy_on

DAY = """# 2025-11-20

Met @Anna at the harbour; she fixed the worktop.

## Retain
- W @Anna: Anna repairs kitchen worktops.
"""

PAGE = """<!doctype html>
<html lang="en" data-root="../">
<head><title>Thursday · Memory</title></head>
<body><header class="site-header"><nav>Home Days</nav></header>
<div hidden class="search-data"><span data-pagefind-meta="date">2025-11-20</span>
<span data-pagefind-filter="year">2025</span></div>
<main id="main" tabindex="-1" data-pagefind-body>
<nav class="crumbs" data-pagefind-ignore><a href="x">memory</a></nav>
<div class="prose"><p><span class="ln" id="L3"></span>Met Anna <span class="fact" data-pagefind-ignore>W</span>here.</p>
<section data-pagefind-ignore><h2>Backlinks</h2><section><p>nested backlink text</p></section><p>more</p></section>
<figure><svg viewBox="0 0 1 1"><text>0.5</text></svg><figcaption>Chart</figcaption></figure>
<p><span class="ln" id="L4"></span>After the backlinks.</p></div>
</main>
<footer data-pagefind-ignore>footer</footer>
</body></html>
"""


def test_search_record_keeps_what_pagefind_reads_and_drops_what_it_skips() -> None:
    record = search_record(PAGE)
    assert record is not None
    assert '<html lang="en" data-root="../">' in record and "<title>Thursday · Memory</title>" in record
    assert '<span data-pagefind-filter="year">2025</span>' in record  # filters and meta stay
    assert '<span class="ln" id="L3"></span>Met Anna' in record  # line anchors stay
    assert '<span class="fact" data-pagefind-ignore>W</span>' in record  # inline ignored text is Pagefind's to skip
    assert "After the backlinks." in record and "<figcaption>Chart</figcaption>" in record
    for gone in ("nested backlink text", "more</p>", "crumbs", "<svg", "site-header", "footer"):
        assert gone not in record, gone


def test_a_page_that_is_not_searched_has_no_record() -> None:
    assert search_record(PAGE.replace(" data-pagefind-body", "")) is None


def test_language_follows_the_letters_of_the_text() -> None:
    chinese = '<p class="prose"><span class="ln" id="L1"></span>今天写了一个爬虫，用来抓取机器人的新闻。</p>'
    assert text_language([chinese] * 3) == "zh"
    assert text_language(["ひらがなとカタカナの文章です。東京へ行きました。"]) == "ja"
    assert text_language(["- Met Anna at the harbour; she said 你好 and we talked for a long while."]) == "en"
    assert text_language(["<p>Met Anna at the harbour and talked about the worktop for a while.</p>"]) == "en"
    assert text_language(["", "2026-01-02 12:00"]) == "en"  # no letters at all: not Chinese


@pytest.mark.parametrize(
    ("toml", "lang", "indexed"), [("", "zh", "zh"), ("[site]\nlanguage = 'zh-Hant'\n", "zh-Hant", "zh")]
)
def test_every_page_and_the_index_have_the_sites_language(
    workspace: MakeWorkspace, tmp_path: Path, toml: str, lang: str, indexed: str
) -> None:
    ws = workspace({"memwiki.toml": toml, "memory/2026-03-01.md": "# 2026-03-01\n\n今天写了一个爬虫，用来抓取新闻。\n"})
    out = tmp_path / "site"
    build(ws, out)
    for page in ("index.html", "memory/2026-03-01.html", "search.html", "404.html"):
        assert f'<html lang="{lang}" ' in (out / page).read_text(encoding="utf-8"), page
    assert json.loads((out / "pagefind/parts.json").read_text(encoding="utf-8"))["language"] == indexed


def test_a_workspace_in_german_is_indexed_in_german_when_its_settings_say_so(
    workspace: MakeWorkspace, tmp_path: Path
) -> None:
    ws = workspace(
        {
            "memwiki.toml": "[site]\nlanguage = 'de'\n",
            "memory/2026-03-01.md": "# 1. März\n\nWir haben Häuser besichtigt.\n",
        }
    )
    out = tmp_path / "site"
    build(ws, out)
    assert '<html lang="de" ' in (out / "memory/2026-03-01.html").read_text(encoding="utf-8")
    assert json.loads((out / "pagefind/parts.json").read_text(encoding="utf-8"))["language"] == "de"


@pytest.mark.slow  # 0.7 s
def test_an_unchanged_set_of_searchable_pages_reuses_the_last_index(workspace: MakeWorkspace, tmp_path: Path) -> None:
    ws = workspace({"memory/2025-11-20.md": DAY, "memwiki.toml": "[site]\nrecent_days = 7\n"})
    out = tmp_path / "site"
    first = build(ws, out)
    assert first.search is not None and not first.search.reused and first.search.pages > 0
    index = sorted(p.relative_to(out).as_posix() for p in (out / "pagefind").rglob("*") if p.is_file())
    # Only the home page changes: no searchable page does, so Pagefind does not run again.
    (ws / "memwiki.toml").write_text("[site]\nrecent_days = 3\n", encoding="utf-8")
    second = build(ws, out)
    assert second.search is not None and second.search.reused
    assert sorted(p.relative_to(out).as_posix() for p in (out / "pagefind").rglob("*") if p.is_file()) == index
    # A daily log changes: its page is searched, so its part of the index is made again.
    (ws / "memory" / "2025-11-20.md").write_text(DAY + "\nA new line about the lighthouse.\n", encoding="utf-8")
    third = build(ws, out)
    assert third.search is not None and not third.search.reused
    without_cache = build(ws, tmp_path / "fresh", cache=False)
    assert without_cache.search is not None and not without_cache.search.reused
    assert index_of(out) == index_of(tmp_path / "fresh")


def test_a_pagefind_named_in_the_environment_is_the_one_that_runs(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = workspace({"memory/2025-11-20.md": DAY})
    named = tmp_path / "my-pagefind"
    named.write_text("#!/bin/sh\necho 'the Pagefind this machine was told to use' >&2\nexit 3\n", encoding="utf-8")
    named.chmod(0o755)
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(named))
    result = build(ws, tmp_path / "site")
    assert result.written and (tmp_path / "site/memory/2025-11-20.html").is_file()  # the site, without its index
    said = [item.message for item in result.diagnostics.items]
    assert any("the Pagefind this machine was told to use" in message for message in said), said


def test_a_pagefind_that_fails_once_the_kept_parts_are_placed_leaves_no_index_without_its_list(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pagefind.service import get_executable

    ws = workspace({"memory/2024-06-10.md": "# 2024-06-10\n\nThe tomatoes came up red.\n", "memory/2025-11-20.md": DAY})
    stop = tmp_path / "stop"
    named = tmp_path / "my-pagefind"
    named.write_text(
        f"#!/bin/sh\nif [ -e '{stop}' ]; then echo 'Pagefind stopped' >&2; exit 3; fi\nexec '{get_executable()}' \"$@\"\n",
        encoding="utf-8",
    )
    named.chmod(0o755)
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(named))
    out = tmp_path / "site"
    first = build(ws, out)
    assert first.search is not None and (first.search.parts, first.search.indexed) == (3, 3)  # 2024, 2025, undated
    stop.touch()  # 2024's part and the undated one are kept: placed before Pagefind fails on 2025's
    (ws / "memory/2025-11-20.md").write_text(DAY + "\nA new line about the lighthouse.\n", encoding="utf-8")
    second = build(ws, out)
    assert any("Pagefind stopped" in item.message for item in second.diagnostics.items)
    assert "A new line about the lighthouse." in (out / "memory/2025-11-20.html").read_text(encoding="utf-8")
    assert not (out / "pagefind").exists()  # no part of an index the browser could not list


def parts_of(site: Path) -> dict[str, Any]:
    listed: dict[str, Any] = json.loads((site / "pagefind" / "parts.json").read_text(encoding="utf-8"))
    return listed


@pytest.mark.slow  # 1.6 s
def test_the_index_comes_in_parts_by_year_and_an_edit_makes_only_its_part_again(
    workspace: MakeWorkspace, tmp_path: Path
) -> None:
    ws = workspace(
        {
            "memory/2023-05-02.md": "# 2023-05-02\n\nPlanted the tomatoes with @Anna.\n",
            "memory/2024-06-10.md": "# 2024-06-10\n\nThe tomatoes came up red.\n",
            "memory/2025-11-20.md": DAY,
            "bank/entities/Anna.md": "# Anna\n\nCarpenter by the harbour.\n",
        }
    )
    out = tmp_path / "site"
    first = build(ws, out)
    assert first.search is not None and (first.search.parts, first.search.indexed) == (4, 4)
    # A part per year, and one for the undated pages.
    listed = {"language": "en", "wasm": "en", "parts": ["2023", "2024", "2025", "pages"], "undated": ["pages"]}
    assert parts_of(out) == listed
    # Pagefind's script and WebAssembly once for all parts, its script exporting the class each part is opened with.
    assert "export { PagefindInstance as MemwikiPart }" in (out / "pagefind" / "pagefind.js").read_text()
    assert (out / "pagefind" / "wasm.en.pagefind").is_file()
    for part in ("2023", "2024", "2025", "pages"):
        assert (out / "pagefind" / part / "pagefind-entry.json").is_file()
        assert (
            not list((out / "pagefind" / part).glob("wasm.*"))
            and not (out / "pagefind" / part / "pagefind.js").exists()
        )
        for unused in ("pagefind-ui.js", "pagefind-worker.js"):  # memwiki's own search page, on the page itself
            assert not (out / "pagefind" / part / unused).exists()
    # Each page is in the part of its year; the entity and the other undated pages are in "pages".
    fragments = {part: len(list((out / "pagefind" / part / "fragment").iterdir())) for part in parts_of(out)["parts"]}
    assert fragments["2023"] == fragments["2024"] == fragments["2025"] == 1 and fragments["pages"] >= 1
    before = {part: index_of(out / "pagefind" / part) for part in parts_of(out)["parts"]}

    (ws / "memory/2024-06-10.md").write_text("# 2024-06-10\n\nThe tomatoes came up red and sweet.\n")
    second = build(ws, out)
    assert second.search is not None and (second.search.parts, second.search.indexed) == (4, 1)
    after = {part: index_of(out / "pagefind" / part) for part in parts_of(out)["parts"]}
    assert [part for part in after if after[part] != before[part]] == ["2024"]
    assert index_of(out) == index_of(cold(ws, tmp_path / "cold-1"))

    # A day of a new year makes a new part; a year without pages left has none.
    (ws / "memory/2023-05-02.md").unlink()
    (ws / "memory/2026-01-05.md").write_text("# 2026-01-05\n\nPruned the apple tree.\n")
    third = build(ws, out)
    assert parts_of(out)["parts"] == ["2024", "2025", "2026", "pages"]
    assert not (out / "pagefind" / "2023").exists()
    assert sorted(p.name for p in (ws / ".memwiki/cache/search").iterdir() if p.is_dir()) == sorted(
        parts_of(out)["parts"]
    )
    assert third.search is not None and third.search.indexed >= 1
    assert index_of(out) == index_of(cold(ws, tmp_path / "cold-2"))


def cold(ws: Path, site: Path) -> Path:
    assert build(ws, site, cache=False).search is not None
    return site


def index_of(site: Path) -> list[str]:
    """The index's pages and words in each part: its fragment and word-chunk files, named by their content
    (Pagefind's filter and meta files are named differently by each run, even of the same pages)."""
    files = (site / "pagefind").rglob("*") if (site / "pagefind").is_dir() else site.rglob("*")
    return sorted(p.relative_to(site).as_posix() for p in files if p.suffix in (".pf_fragment", ".pf_index"))


def placed(site: Path) -> dict[str, bytes]:
    """Every file of the site's index, by its path."""
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in (site / "pagefind").rglob("*") if p.is_file()}


@pytest.mark.slow  # 0.8 s
def test_without_a_cp_that_links_the_index_is_placed_all_the_same(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parts are hard-linked into the site by ``cp -al`` where it can, else one by one: the same files."""
    ws = workspace({"memory/2024-06-10.md": "# 2024-06-10\n\nThe tomatoes came up red.\n", "memory/2025-11-20.md": DAY})
    out = tmp_path / "site"
    build(ws, out)
    with_cp = placed(out)
    assert any(path.startswith("pagefind/2024/fragment/") for path in with_cp)
    assert not any(path.endswith("/pagefind.js") for path in with_cp if path.count("/") > 1)  # placed once, at the top
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "cp").write_text("#!/bin/sh\necho 'cp: hard links are not allowed here' >&2\nexit 1\n", encoding="utf-8")
    (tools / "cp").chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    (ws / "memory/2025-11-20.md").write_text(DAY + "\nA new line about the lighthouse.\n", encoding="utf-8")
    again = build(ws, out)  # 2024's part and the undated one come from the cache, 2025's from Pagefind
    assert again.search is not None and (again.search.parts, again.search.indexed) == (3, 1)
    fresh = build(ws, tmp_path / "fresh", cache=False)
    assert fresh.search is not None and index_of(out) == index_of(tmp_path / "fresh")
    assert {p for p in placed(out) if p.startswith("pagefind/2024/")} == {
        p for p in with_cp if p.startswith("pagefind/2024/")
    }
    assert not list((out / "pagefind").glob(".parts-*"))


@pytest.mark.slow  # 1.0 s
def test_kept_pages_keep_their_search_records_whatever_happened_to_them(
    workspace: MakeWorkspace, tmp_path: Path
) -> None:
    """A page taken from the last site brings its search record; where that record is not known (the last build
    did not search) or is gone, the page is made again: the index is always the one a cold build makes."""
    ws = workspace(
        {
            "memory/2025-11-20.md": DAY,
            "memory/2025-11-21.md": "# 2025-11-21\n\nThe lighthouse keeper waved.\n",
            "bank/entities/Anna.md": "# Anna\n\nCarpenter by the harbour.\n",
        }
    )
    out = tmp_path / "site"

    def cold() -> list[str]:
        fresh = tmp_path / f"cold-{len(list(tmp_path.iterdir()))}"
        assert build(ws, fresh, cache=False).search is not None
        return index_of(fresh)

    assert build(ws, out, search=False).search is None
    assert not (out / "pagefind").exists()
    first = build(ws, out)  # every page kept from the unsearched site, yet every searchable page has its record
    assert first.search is not None and first.search.pages == 4  # two days, Anna, the world facts
    assert len([p for p in index_of(out) if p.endswith(".pf_fragment")]) == 4
    assert index_of(out) == cold()
    (ws / "memory/2025-11-21.md").write_text("# 2025-11-21\n\nThe lighthouse keeper waved twice.\n")
    records = ws / ".memwiki/cache/search-records"
    assert len(list(records.glob("*.html"))) == 4  # one per searchable page, by its digest
    for record in records.glob("*.html"):
        record.unlink()  # the kept records are gone: their pages are made again
    second = build(ws, out)
    assert second.search is not None and second.search.pages == first.search.pages
    assert index_of(out) == cold()
    kept = list(records.iterdir())  # the records of this site only: the edited day's last record is gone
    assert len(kept) == 4 and sum("lighthouse keeper waved twice" in r.read_text() for r in kept) == 1


@pytest.mark.browser
def test_words_inside_chinese_text_are_found(page: Any, workspace: MakeWorkspace, tmp_path: Path) -> None:
    ws = workspace(
        {
            "memory/2026-03-01.md": "# 2026-03-01\n\n今天写了一个爬虫，用来抓取新闻网站的标题。\n",
            "memory/2026-03-02.md": "# 2026-03-02\n\n我们讨论了机器人项目的进度和下一步计划。\n",
            "memory/2026-03-03.md": "# 2026-03-03\n\n下午去公园散步，天气很好。\n",
        }
    )
    build(ws, tmp_path / "host" / "wiki")
    assert list((tmp_path / "host" / "wiki" / "pagefind").glob("all/*.zh_*.pf_meta")), "indexed as Chinese"
    with serving(tmp_path / "host") as url:
        for word, day in (("爬虫", "2026-03-01"), ("机器人", "2026-03-02")):
            page.goto(f"{url}wiki/search.html?q={word}")
            page.wait_for_selector(".search-result")
            assert page.inner_text(".search-status") == "1 page found."
            assert f"memory/{day}.html" in (page.locator(".search-result a").first.get_attribute("href") or "")


def test_the_record_store_keeps_only_the_records_of_the_last_site(workspace: MakeWorkspace, tmp_path: Path) -> None:
    ws = workspace({"memory/2025-11-20.md": DAY})
    old = ws / ".memwiki/cache/records/memory/2025-11-20.html"  # records as memwiki kept them before the store
    old.parent.mkdir(parents=True)
    old.write_text("<html></html>", encoding="utf-8")
    first = build(ws, tmp_path / "site")
    store = ws / ".memwiki/cache/search-records"
    assert first.search is not None and not old.parent.exists()
    records = sorted(p.name for p in store.iterdir())
    (store / ".0123abcd.999").write_bytes(b"half written by a killed build")
    (ws / "memory/2025-11-20.md").write_text(DAY + "\nA line the search finds.\n", encoding="utf-8")
    second = build(ws, tmp_path / "site")
    assert second.search is not None and second.search.pages == first.search.pages
    now = sorted(p.name for p in store.iterdir())
    assert len(now) == len(records) == first.search.pages and now != records
    assert all(name.endswith(".html") and not name.startswith(".") for name in now)


def test_a_build_without_cache_leaves_no_records_behind(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    ws = workspace({"memory/2025-11-20.md": DAY})
    result = build(ws, tmp_path / "site", cache=False)
    assert result.search is not None and result.search.pages > 0
    assert list(scratch.iterdir()) == []
    assert not (ws / ".memwiki/cache/search-records").exists()


YEARS = {
    "memory/2023-03-01.md": "# 2023-03-01\n\nWe kept working late; @Anna worked the night shift.\n",
    "memory/2024-02-01.md": "# 2024-02-01\n\nFitted the new kitchen worktops with @Anna.\n",
    "memory/2024-02-02.md": "# 2024-02-02\n\nAnna was happy with the result.\n",
    "memory/2025-01-10.md": "# 2025-01-10\n\nSuch happiness in the garden this morning.\n",
    "memory/2025-01-11.md": "# 2025-01-11\n\nWork on the shed roof.\n",
    "bank/entities/Anna.md": "# Anna\n\nCarpenter by the harbour; she loves her work.\n",
}


def found_days(page: Any) -> list[str]:
    page.wait_for_function(  # the count is said first, then the pages are shown (ten at a time)
        "() => { const said = /^(\\d+) pages? found/.exec(document.querySelector('.search-status').textContent);"
        " return said && document.querySelectorAll('.search-result').length === Math.min(10, +said[1]); }"
    )
    links = page.locator(".search-result h2 a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    return [re.sub(r"\.html(#.*)?$", "", link).rsplit("/", 1)[-1] for link in links]


@pytest.mark.slow  # 1.3 s
def test_many_undated_pages_come_in_parts_and_an_entity_edit_makes_only_its_part_again(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_parts, "UNDATED_PART_PAGES", 3)
    names = ["Anna", "Bruno", "Chen", "Dara", "Emil", "Farah", "Gus", "Hana", "Igor", "Jun", "Kai", "Lena"]
    files = {f"bank/entities/{name}.md": f"# {name}\n\n{name} lives by the harbour.\n" for name in names}
    ws = workspace({"memory/2025-11-20.md": DAY, **files})
    out = tmp_path / "site"
    build(ws, out)
    listed = parts_of(out)
    undated = [part for part in listed["parts"] if part != "2025"]
    assert len(undated) >= 4 and all(re.fullmatch(r"pages-\d\d", part) for part in undated)
    assert listed["undated"] == undated and listed["parts"][0] == "2025"  # the years first
    before = {part: index_of(out / "pagefind" / part) for part in listed["parts"]}
    (ws / "bank/entities/Farah.md").write_text("# Farah\n\nFarah lives by the harbour and sails.\n")
    again = build(ws, out)
    assert again.search is not None and again.search.indexed == 1
    after = {part: index_of(out / "pagefind" / part) for part in parts_of(out)["parts"]}
    assert len([part for part in after if after[part] != before[part]]) == 1
    assert index_of(out) == index_of(cold(ws, tmp_path / "cold"))


def test_undated_pages_keep_their_part_whatever_else_comes() -> None:
    records = {f"bank/entities/e{n}.html": f"pages-2-d{n}" for n in range(700)}
    parts = split_parts(records, "en")
    assert list(parts) == ["pages-01", "pages-02", "pages-03", "pages-04"]  # 700 pages: four parts
    assert {path for part in parts.values() for path in part} == set(records)
    more = split_parts({**records, "bank/entities/new.html": "pages-2-x"}, "en")
    assert all(set(parts[part]) <= set(more[part]) for part in parts)  # a page more moves no other page
    assert list(split_parts(dict(list(records.items())[:300]), "en")) == ["pages"]


@pytest.mark.browser
@pytest.mark.parametrize("undated_part_pages", [300, 1])
def test_search_over_the_parts_finds_what_one_index_would(
    page: Any, workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, undated_part_pages: int
) -> None:
    """Each year is a part of its own, searched on its own: a part without the word must not add the pages its
    own index falls back to (worked, working, work for "worktops"), while every part that has the word, or a word
    of the same stem, adds its pages; a date order runs across the parts, the undated pages (in parts of their own
    too) last."""
    monkeypatch.setattr(search_parts, "UNDATED_PART_PAGES", undated_part_pages)
    ws = workspace(YEARS)
    build(ws, tmp_path / "host" / "wiki")
    listed = parts_of(tmp_path / "host" / "wiki")
    assert listed["parts"] == ["2023", "2024", "2025", *listed["undated"]]
    assert (
        listed["undated"] == ["pages"] if undated_part_pages > 1 else re.fullmatch(r"pages-\d\d", listed["undated"][0])
    )
    with serving(tmp_path / "host") as url:
        page.goto(f"{url}wiki/search.html?q=worktops")
        assert found_days(page) == ["2024-02-01"]
        page.goto(f"{url}wiki/search.html?q=anna+worktops")  # each word of a query on its own
        assert found_days(page) == ["2024-02-01"]
        page.goto(f"{url}wiki/search.html?q=worktops&entity=Anna")
        assert found_days(page) == ["2024-02-01"]
        page.goto(f"{url}wiki/search.html?q=workt")  # a word being typed
        assert found_days(page) == ["2024-02-01"]
        page.goto(f"{url}wiki/search.html?q=happiness")  # happy and happiness: one stem, two years
        assert sorted(found_days(page)) == ["2024-02-02", "2025-01-10"]
        page.goto(f"{url}wiki/search.html?q=work&sort=newest")  # worktops too: it starts with "work"
        assert found_days(page) == ["2025-01-11", "2024-02-01", "2023-03-01", "anna"]
        page.goto(f"{url}wiki/search.html?q=work&sort=oldest")
        assert found_days(page) == ["2023-03-01", "2024-02-01", "2025-01-11", "anna"]
        page.goto(f"{url}wiki/search.html?q=work&entity=Anna")
        assert sorted(found_days(page)) == ["2023-03-01", "2024-02-01", "anna"]
        page.goto(f"{url}wiki/search.html?q=zebra")
        page.wait_for_function("() => document.querySelector('.search-status').textContent === 'Nothing found.'")


@pytest.mark.browser
def test_a_date_order_orders_the_days_of_one_year_too(page: Any, workspace: MakeWorkspace, tmp_path: Path) -> None:
    """Sorted by date, a part's results come in no order, each scored by its place in it: the merge orders them."""
    days = ["2021-06-02", "2021-01-11", "2021-09-07", "2021-03-03"]
    ws = workspace({f"memory/{day}.md": f"# {day}\n\nFarah walked to the harbour.\n" for day in days})
    build(ws, tmp_path / "host" / "wiki")
    with serving(tmp_path / "host") as url:
        page.goto(f"{url}wiki/search.html?q=harbour&sort=newest")
        assert found_days(page) == sorted(days, reverse=True)
        page.goto(f"{url}wiki/search.html?q=harbour&sort=oldest")
        assert found_days(page) == sorted(days)


@pytest.mark.browser
def test_a_name_finds_the_facts_about_it_as_well_as_the_lines_naming_it(
    page: Any, workspace: MakeWorkspace, tmp_path: Path
) -> None:
    ws = workspace(
        {
            "memory/2025-03-01.md": "# 2025-03-01\n\n## Retain\n- W @Farah: Sailed to the island at dawn.\n",
            "memory/2025-03-02.md": "# 2025-03-02\n\nLunch with Farah by the harbour.\n",
            "memory/2025-03-03.md": "# 2025-03-03\n\nNothing about anyone.\n",
        }
    )
    build(ws, tmp_path / "host" / "wiki")
    with serving(tmp_path / "host") as url:
        page.goto(f"{url}wiki/search.html?q=farah&sort=oldest")
        assert found_days(page)[:2] == ["2025-03-01", "2025-03-02"]


SEARCH_DATA = '<div hidden class="search-data"><span data-pagefind-sort="date">{date}</span></div>'


def test_parts_are_the_years_oldest_first_and_the_undated_pages() -> None:
    digests = {f"memory/{y}-0{m}-01.html": f"{y}-0{m}-9-d{m}" for y in range(2014, 2026) for m in (1, 2)}
    digests |= {"bank/entities/anna.html": "pages-9-d"}
    parts = split_parts(digests, "en")
    assert list(parts) == [*map(str, range(2014, 2026)), "pages"]
    assert parts["2014"] == {"memory/2014-01-01.html": "2014-01-9-d1", "memory/2014-02-01.html": "2014-02-9-d2"}
    assert list(parts["pages"]) == ["bank/entities/anna.html"]
    assert list(split_parts({"a.html": "pages-1-d"}, "en")) == ["pages"]
    assert list(split_parts(digests, "zh")) == ["all"]  # text without spaces: one index


def test_a_year_of_many_pages_is_two_parts_by_half_year() -> None:
    """A year of a daily log every day is two parts (an edit re-indexes half a year); a year of fewer pages one."""
    every_day = {f"memory/2024-{d:%m-%d}.html": f"2024-{d:%m}-9-d{d:%j}" for d in _days(2024)}
    some_days = {f"memory/2025-{m:02}-01.html": f"2025-{m:02}-9-d{m}" for m in range(1, 13)}
    parts = split_parts({**some_days, **every_day, "bank/entities/anna.html": "pages-9-d"}, "en")
    assert list(parts) == ["2024-1", "2024-2", "2025", "pages"]  # in date order, the undated pages last
    assert len(parts["2024-1"]) == 182 and len(parts["2024-2"]) == 184 and parts["2025"] == some_days
    assert all(path < "memory/2024-07" for path in parts["2024-1"])


def test_a_half_year_of_long_logs_is_a_part_a_month() -> None:
    """Pagefind's time follows the text: a few months of long daily logs are a part a month, so an edit of today's
    log re-indexes this month's, not every log; a half year of short ones stays one part."""
    size = search_parts.PART_KB // 40  # forty such logs fill a part
    long_days = {f"memory/2026-{m:02}-{d:02}.html": f"2026-{m:02}-{size}-d{m}{d}" for m in (1, 2, 3) for d in (1, 15)}
    long_days |= {f"memory/2026-03-{d:02}.html": f"2026-03-{size}-d{d}" for d in range(2, 14)}
    long_days |= {
        f"memory/2026-{m:02}-{d:02}.html": f"2026-{m:02}-{size}-d{m}{d}" for m in (4, 5) for d in range(1, 29)
    }
    short_days = {f"memory/2026-{m:02}-01.html": f"2026-{m:02}-9-d{m}" for m in range(7, 13)}
    parts = split_parts({**long_days, **short_days}, "en")
    assert list(parts) == ["2026-01", "2026-02", "2026-03", "2026-04", "2026-05", "2026-2"]
    assert len(parts["2026-03"]) == 14 and parts["2026-2"] == short_days
    assert all(path.startswith("memory/2026-04-") for path in parts["2026-04"])


def _days(year: int) -> list[dt.date]:
    first = dt.date(year, 1, 1)
    return [first + dt.timedelta(days=n) for n in range((dt.date(year + 1, 1, 1) - first).days)]


def test_a_records_name_says_its_month_and_size() -> None:
    """The part a record goes in is read from its name: no record is opened again to find its date or size."""
    dated = search_record(f"<title>A</title>{SEARCH_DATA.format(date='2019-03-04')}<main data-pagefind-body>x</main>")
    undated = search_record("<title>B</title><main data-pagefind-body>x</main>")
    assert dated is not None and undated is not None
    assert record_digest(dated).startswith("2019-03-1-") and record_digest(undated).startswith("pages-1-")
    assert record_digest(dated.replace("2019-03-04", "2019-07-01")).startswith("2019-07-1-")
    assert record_digest(dated.replace(">x<", f">{'x' * 5_000}<")).startswith("2019-03-6-")
    assert record_digest(dated) != record_digest(dated.replace(">x<", ">y<"))


@pytest.mark.slow  # 0.9 s
def test_a_rebuild_writes_nothing_of_the_last_sites_index_in_place(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The staged site starts with the last site's index (its files hard links to the site being replaced and to
    the cache): a part it still has stays as it is, and what changes is written anew, never through such a link."""
    ws = workspace({"memory/2024-06-10.md": "# 2024-06-10\n\nThe tomatoes came up red.\n", "memory/2025-11-20.md": DAY})
    out = tmp_path / "site"
    build(ws, out)
    listed = (out / "pagefind" / "parts.json").read_bytes()
    os.link(out / "pagefind" / "parts.json", tmp_path / "parts-then.json")
    kept = (out / "pagefind" / "2024" / "pagefind-entry.json").stat().st_ino
    (ws / "memory/2026-01-05.md").write_text("# 2026-01-05\n\nPruned the apple tree.\n", encoding="utf-8")
    linked = spy_on(monkeypatch, search_placing, "_linked_by_cp", lambda parts, target: sorted(parts))
    again = build(ws, out)
    assert linked == [["2026"]]  # the parts the site has already stay
    assert again.search is not None and again.search.indexed == 1  # 2026
    assert parts_of(out)["parts"] == ["2024", "2025", "2026", "pages"]
    assert (tmp_path / "parts-then.json").read_bytes() == listed  # the last site's list, as it was
    assert (out / "pagefind" / "2024" / "pagefind-entry.json").stat().st_ino == kept
    assert index_of(out) == index_of(cold(ws, tmp_path / "cold"))
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")] == []  # the old site and parts gone


@pytest.mark.slow  # 0.8 s
def test_a_file_removed_by_hand_from_the_sites_index_is_there_again_after_the_next_build(
    workspace: MakeWorkspace, tmp_path: Path
) -> None:
    """The last site's index is taken as it stands only when that site is as the last build left it (as many
    files): a file removed from it by hand is placed again with its part, though the part did not change."""
    ws = workspace({"memory/2024-06-10.md": "# 2024-06-10\n\nThe tomatoes came up red.\n", "memory/2025-11-20.md": DAY})
    out = tmp_path / "site"
    build(ws, out)
    gone = next((out / "pagefind" / "2024" / "fragment").iterdir())
    gone.unlink()
    (ws / "memory/2025-11-20.md").write_text(DAY + "\nA new line about the lighthouse.\n", encoding="utf-8")
    again = build(ws, out)
    assert again.search is not None and again.search.indexed == 1  # 2025's part: 2024's comes from the cache
    assert gone.is_file()
    assert index_of(out) == index_of(cold(ws, tmp_path / "cold"))
