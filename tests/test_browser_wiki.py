"""The wiki in a real browser: live search, hover previews, contents, backlinks, the phone header.

The example is served on loopback under a sub-path (``/wiki/``), as GitHub Pages would.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from site_builder.build import build
from tests.conftest import EXAMPLE, serving, write_workspace

pytestmark = pytest.mark.browser  # every test here drives Chromium


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The example built with search, served at http://127.0.0.1:PORT/wiki/."""
    top = tmp_path_factory.mktemp("host")
    build(EXAMPLE, top / "wiki")
    with serving(top) as url:
        yield url + "wiki/"


def luminance(rgb: str) -> float:
    r, g, b = (int(v) / 255 for v in re.findall(r"\d+", rgb)[:3])
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(fg: str, bg: str) -> float:
    high, low = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_live_search_shows_the_matching_lines_while_typing_and_keys_move_through_them(page: Any, site: str) -> None:
    page.goto(site + "bank/entities/index.html")
    page.locator("#site-search-q").press_sequentially("worktop", delay=30)  # typed, never submitted
    panel = page.locator(".live-results")
    panel.wait_for(state="visible")
    first = panel.locator("[role=option]").first
    assert "worktop" in first.locator("mark").first.inner_text()
    assert first.inner_text().startswith("for cabinets, worktop and plumbing")  # the line, not the page
    assert "Monday 8 September 2025" in first.inner_text() and "daily log" in first.inner_text()
    assert re.search(r"/wiki/memory/2025-09-08\.html#L4$", first.get_attribute("href") or "")
    box = page.locator("#site-search-q")
    assert box.get_attribute("aria-expanded") == "true"
    see_all = panel.locator(".live-all")
    assert (see_all.get_attribute("href") or "").endswith("/wiki/search.html?q=worktop")

    box.press("ArrowDown")
    assert box.get_attribute("aria-activedescendant") == first.get_attribute("id")
    assert first.get_attribute("aria-selected") == "true"
    box.press("ArrowUp")  # back to the box, then round to the last line
    assert box.get_attribute("aria-activedescendant") is None
    box.press("ArrowUp")
    last = panel.locator("[role=option]").last
    assert box.get_attribute("aria-activedescendant") == last.get_attribute("id")
    box.press("Tab")  # "see all results" comes next in Tab order
    assert page.evaluate("document.activeElement.className") == "live-all"
    box.focus()
    box.press("Escape")
    assert panel.is_hidden() and box.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.id") == "site-search-q"
    box.press("Escape")  # a second Escape leaves the box
    assert page.evaluate("document.activeElement.id") != "site-search-q"

    box.focus()
    box.fill("")
    box.press_sequentially("tiles", delay=30)
    fact = panel.locator("[role=option]", has=page.locator("abbr.kind.k-W")).first
    fact.wait_for()
    assert "world fact" in fact.inner_text()
    href = fact.get_attribute("href") or ""
    while box.get_attribute("aria-activedescendant") != fact.get_attribute("id"):
        box.press("ArrowDown")
    box.press("Enter")
    page.wait_for_url("**" + href.split("/wiki/")[1])
    line = href.split("#")[1]
    assert "tile" in page.evaluate(f"document.getElementById('{line}').parentElement.textContent")


def test_the_search_index_starts_opening_when_the_search_box_gets_focus(page: Any, site: str) -> None:
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(site + "bank/entities/index.html")
    page.wait_for_load_state("load")
    assert not [url for url in asked if "/pagefind/" in url]  # a page that is only read loads no index
    page.locator("#site-search-q").focus()
    loaded = "name => performance.getEntriesByType('resource').some(e => e.name.includes(name))"
    page.wait_for_function(loaded, arg="/pagefind-entry.json", timeout=5000)  # its parts, before a word is typed
    assert page.locator("#site-search-q").input_value() == ""
    page.goto(site + "search.html")  # the search page opens it at once
    page.wait_for_function(loaded, arg="/pagefind-entry.json", timeout=5000)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_search_highlights_are_readable_in_both_themes(browser: Any, site: str, scheme: str) -> None:
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    try:
        page.goto(site + "index.html")
        page.locator("#site-search-q").press_sequentially("marrakech", delay=20)
        mark = page.locator(".live-results mark").first
        mark.wait_for()
        fg, bg = mark.evaluate("m => [getComputedStyle(m).color, getComputedStyle(m).backgroundColor]")
        ratio = contrast(fg, bg)
        print(f"{scheme}: highlight {fg} on {bg}: {ratio:.1f}:1")
        assert ratio >= 4.5
        page.goto(site + "search.html?q=marrakech")
        mark = page.locator(".search-results mark").first
        mark.wait_for()
        fg, bg = mark.evaluate("m => [getComputedStyle(m).color, getComputedStyle(m).backgroundColor]")
        assert contrast(fg, bg) >= 4.5
    finally:
        context.close()


def test_search_page_lists_each_pages_matching_lines(page: Any, site: str) -> None:
    page.goto(site + "search.html?q=worktop")
    line = page.locator(".search-result .search-lines a").first
    line.wait_for()
    assert "worktop" in line.locator("mark").inner_text()
    assert re.search(r"2025-09-08\.html#L4$", line.get_attribute("href") or "")


def test_hover_and_focus_preview_a_cited_line_and_escape_hides_it(page: Any, site: str) -> None:
    page.goto(site + "bank/entities/anna.html")
    cite = page.locator(".backlinks a.cite").first
    href = cite.get_attribute("href") or ""
    cite.hover()
    preview = page.locator("#link-preview")
    preview.wait_for(state="visible")
    day = page.request.get(page.url.rsplit("/", 1)[0] + "/" + href.split("#")[0]).text()
    assert "line " + href.split("#L")[1] in preview.inner_text()
    assert "Anna" in preview.locator(".preview-text").inner_text()
    assert preview.locator(".preview-title").inner_text() in day
    page.mouse.move(0, 0)
    preview.wait_for(state="hidden")

    # From the keyboard: focus shows the start of the linked page; Escape hides it.
    link = page.locator(".prose a.wikilink", has_text="Kitchen Renovation").first
    link.focus()
    preview.wait_for(state="visible")
    assert link.get_attribute("aria-describedby") == "link-preview"
    assert "Kitchen Renovation" in preview.locator(".preview-title").inner_text()
    assert "Obras Tavares" in preview.locator(".preview-text").inner_text()
    page.keyboard.press("Escape")
    preview.wait_for(state="hidden")
    assert link.get_attribute("aria-describedby") is None


def test_preview_stays_a_plain_link_from_disk(page: Any, tmp_path: Path) -> None:
    build(EXAMPLE, tmp_path / "site", search=False)
    page.goto((tmp_path / "site" / "bank/entities/anna.html").as_uri())
    page.locator(".prose a.wikilink").first.hover()
    page.wait_for_timeout(700)
    assert page.locator("#link-preview").count() == 0


LONG_DAY = "# Long day\n\n" + "".join(
    f"## Part {n}\n\n" + "".join(f"Line {i} of part {n}, with @Peter now and then.\n\n" for i in range(30))
    for n in range(1, 7)
)


def test_contents_of_a_long_page_stay_in_view_and_mark_the_current_section(page: Any, tmp_path: Path) -> None:
    write_workspace(tmp_path / "ws", {"memory/2025-11-03.md": LONG_DAY, "bank/entities/Peter.md": "# Peter\n"})
    build(tmp_path / "ws", tmp_path / "wiki", search=False)
    page.set_viewport_size({"width": 1280, "height": 900})
    with serving(tmp_path) as url:
        page.goto(url + "wiki/memory/2025-11-03.html")
        toc = page.locator("nav.toc")
        assert toc.is_visible()
        assert toc.locator("a").all_inner_texts() == [f"Part {n}" for n in range(1, 7)]
        assert page.evaluate("document.documentElement.scrollHeight") > 4 * 900  # a long page
        page.evaluate("document.getElementById('part-4').scrollIntoView()")
        page.wait_for_function("() => document.querySelector('nav.toc a[aria-current]')?.textContent === 'Part 4'")
        box = toc.bounding_box()
        assert box is not None and 0 <= box["y"] < 900  # sticky: still on screen deep in the page
        toc.locator("a", has_text="Part 2").click()
        page.wait_for_function("() => document.querySelector('nav.toc a[aria-current]')?.textContent === 'Part 2'")
        assert page.url.endswith("#part-2")


def test_a_day_says_who_links_to_it_and_which_entities_it_mentions(page: Any, site: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site + "memory/2025-11-28.html")
    side = page.locator(".page-side")
    backlinks = side.locator(".backlinks")
    assert backlinks.locator("h3 a", has_text="Anna").count() == 1
    assert side.locator(".mentioned .chip", has_text="Anna").count() == 1
    main_box, side_box = page.locator("article.note").bounding_box(), side.bounding_box()
    assert main_box and side_box and side_box["x"] > main_box["x"] + main_box["width"]  # beside the text
    group = backlinks.locator(".backlink-group", has=page.locator("h3 a", has_text="Anna"))
    line = group.locator("li").first
    said = line.inner_text().split(" ", 1)[1]  # after the line number
    assert "brass lamps" in said
    line.locator("a.cite").click()
    page.wait_for_url(re.compile(r"/wiki/bank/entities/anna\.html#t-\w+$"))  # the fact in Anna's timeline
    target = page.url.split("#")[1]
    assert said in page.evaluate(f"document.getElementById('{target}').textContent")


PHONE_PAGES = [
    "index.html",
    "memory/2025-11-28.html",
    "memory/index.html",
    "bank/entities/anna.html",
    "bank/opinions.html",
    "search.html",
    "hygiene.html",
]


def test_phone_header_is_one_compact_row_with_a_menu(browser: Any, site: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        for path in PHONE_PAGES:
            page.goto(site + path)
            height = page.evaluate("document.querySelector('.site-header').getBoundingClientRect().height")
            width = page.evaluate("document.documentElement.scrollWidth")
            print(f"{path}: header {height:.0f} px, page width {width} px")
            assert height <= 64, path
            assert width <= 390, path  # no horizontal scroll
        menu = page.locator(".menu-toggle")
        nav = page.locator("#site-nav")
        assert nav.is_hidden() and menu.get_attribute("aria-expanded") == "false"
        for control in (menu, page.locator(".theme-toggle"), page.locator("#site-search-q"), page.locator(".brand")):
            box = control.bounding_box()
            assert box and box["width"] >= 44 and box["height"] >= 44, control
        menu.tap()
        assert nav.is_visible() and menu.get_attribute("aria-expanded") == "true"
        for link in nav.locator("a").all():
            box = link.bounding_box()
            assert box and box["height"] >= 44
        page.keyboard.press("Escape")
        assert nav.is_hidden()
        page.evaluate("window.scrollTo(0, 1500)")
        assert page.evaluate("document.querySelector('.site-header').getBoundingClientRect().top") == 0  # sticky
    finally:
        context.close()


def test_live_search_marks_the_words_found_inside_chinese_text(page: Any, tmp_path: Path) -> None:
    day = "# 2026-02-07\n\n馆长通过 WhatsApp 激活了我。\n\n今天学会了整理记忆。\n"
    write_workspace(tmp_path / "ws", {"memory/2026-02-07.md": day})
    build(tmp_path / "ws", tmp_path / "wiki")
    with serving(tmp_path) as url:
        page.goto(url + "wiki/index.html")
        page.locator("#site-search-q").press_sequentially("馆长", delay=30)
        option = page.locator(".live-results [role=option]").first
        option.wait_for()
        assert option.locator("mark").all_inner_texts() == ["馆长"]  # the query, not the whole phrase around it
        assert "WhatsApp" in option.inner_text()
        assert (option.get_attribute("href") or "").endswith("/wiki/memory/2026-02-07.html#L3")


def test_on_a_phone_the_contents_of_a_long_page_come_first_folded(browser: Any, tmp_path: Path) -> None:
    write_workspace(tmp_path / "ws", {"memory/2025-11-03.md": LONG_DAY, "bank/entities/Peter.md": "# Peter\n"})
    build(tmp_path / "ws", tmp_path / "wiki", search=False)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        with serving(tmp_path) as url:
            page.goto(url + "wiki/memory/2025-11-03.html")
            toc = page.locator("nav.toc")
            article = page.locator("article.note").bounding_box()
            box = toc.bounding_box()
            assert box and article and box["y"] < article["y"]  # above the text
            assert toc.locator("a").first.is_hidden()  # folded
            page.click("nav.toc summary")
            toc.locator("a", has_text="Part 5").click()
            page.wait_for_url("**#part-5")
    finally:
        context.close()


@pytest.mark.parametrize("height", [900, 560])
def test_see_all_results_stays_in_view_at_any_window_height(browser: Any, site: str, height: int) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": height})
    try:
        page.goto(site + "index.html")
        page.locator("#site-search-q").press_sequentially("peter", delay=30)
        panel = page.locator(".live-results")
        panel.wait_for(state="visible")
        page.wait_for_function("() => document.querySelectorAll('.live-results [role=option]').length >= 8")
        box = page.evaluate(
            """() => { const p = document.querySelector('.live-results').getBoundingClientRect(),
                        a = document.querySelector('.live-all').getBoundingClientRect();
                       return {panel: p.bottom, all: a.bottom, top: a.top, window: innerHeight,
                               scrolls: document.querySelector('.live-results').scrollHeight > p.height}; }"""
        )
        assert box["scrolls"]  # more lines than fit: the list scrolls
        assert box["all"] <= box["panel"] + 1 and box["panel"] <= box["window"]  # the link is inside what is seen
    finally:
        page.close()
