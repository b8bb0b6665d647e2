"""The example site in a real browser (the harness is in tests/conftest.py).

The site is served on loopback under a sub-path (``/wiki/``), as GitHub Pages would.
"""

from __future__ import annotations

import re
import shutil
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


def target_id(page: Any) -> str:
    return str(page.evaluate("document.querySelector(':target') && document.querySelector(':target').id"))


LINE_ON_SCREEN = """line => {
  const anchor = document.getElementById(line), box = anchor.getBoundingClientRect();
  return {top: box.top, bottom: box.bottom, height: window.innerHeight,
          background: getComputedStyle(anchor.parentElement).backgroundColor};
}"""


def test_home_to_entity_to_the_exact_backlinked_line(page: Any, site: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 300})  # shorter than a daily log: its lines need scrolling to
    page.goto(site + "index.html")
    assert page.title() == "Wren's memory"
    page.click("nav.site-nav >> text=Entities")
    page.locator("main").get_by_role("link", name="Anna", exact=True).click()
    assert page.url.endswith("/wiki/bank/entities/anna.html")
    link = page.locator(".backlink-group a.cite").first
    href = link.get_attribute("href")
    line = href.split("#")[1]
    link.click()
    page.wait_for_url(re.compile(rf"/wiki/memory/.*\.html#{line}$"))
    assert target_id(page) == line
    shown = page.evaluate(LINE_ON_SCREEN, line)
    assert shown["top"] >= 0 and shown["bottom"] <= shown["height"], shown  # scrolled to the line...
    assert shown["background"] not in ("rgba(0, 0, 0, 0)", "transparent"), shown  # ...which is highlighted
    assert "Anna" in page.evaluate(f"document.getElementById('{line}').parentElement.textContent")


def test_search_finds_a_word_of_one_daily_log_and_opens_its_line(page: Any, site: str) -> None:
    page.goto(site + "memory/index.html")
    page.fill("#site-search-q", "worktop")
    page.press("#site-search-q", "Enter")
    page.wait_for_selector(".search-result")
    assert page.inner_text(".search-status") == "1 page found."
    hit = page.locator(".search-result a").first
    assert hit.inner_text() == "Monday 8 September 2025"
    assert re.search(r"/wiki/memory/2025-09-08\.html#L\d+$", hit.get_attribute("href") or "")
    hit.click()
    page.wait_for_url(re.compile(r"2025-09-08\.html#L\d+$"))
    line = target_id(page)
    assert "worktop" in page.evaluate(f"document.getElementById('{line}').parentElement.textContent")


def test_filter_by_entity_narrows_the_results(page: Any, site: str) -> None:
    page.goto(site + "search.html?q=marrakech")
    page.wait_for_selector(".search-result")
    page.wait_for_function("() => /found/.test(document.querySelector('.search-status').textContent)")
    everything = int(page.inner_text(".search-status").split()[0])
    page.select_option("select[name=entity]", "Sofia")
    page.wait_for_function("() => location.search.includes('entity=Sofia')")
    page.wait_for_function(
        f"() => /^\\d+ pages? found/.test(document.querySelector('.search-status').textContent)"
        f" && !document.querySelector('.search-status').textContent.startsWith('{everything} ')"
    )
    narrowed = int(page.inner_text(".search-status").split()[0])
    assert 0 < narrowed < everything
    for href in page.locator(".search-result a").evaluate_all("links => links.map(a => a.href)"):
        html = page.request.get(href.split("#")[0]).text()
        assert '<span data-pagefind-filter="entity">Sofia</span>' in html


def test_dark_mode_toggle_sticks(page: Any, site: str) -> None:
    page.goto(site + "index.html")
    light = page.evaluate("getComputedStyle(document.body).backgroundColor")
    page.click(".theme-toggle")
    assert page.get_attribute("html", "data-theme") == "dark"
    assert page.get_attribute(".theme-toggle", "aria-pressed") == "true"
    dark = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert dark != light
    page.goto(site + "bank/opinions.html")
    assert page.get_attribute("html", "data-theme") == "dark"


def test_search_from_disk_explains_what_to_do(page: Any, site: str, tmp_path: Path) -> None:
    build(EXAMPLE, tmp_path / "site", search=False)
    page.goto((tmp_path / "site" / "search.html").as_uri() + "?q=lamps")
    status = page.inner_text(".search-status")
    assert "memwiki serve" in status and "opened from disk" in status


def test_one_query_downloads_little(page: Any, site: str) -> None:
    sizes: dict[str, int] = {}
    page.on("response", lambda r: sizes.__setitem__(r.url, len(r.body())) if "/pagefind/" in r.url else None)
    page.goto(site + "search.html")
    page.wait_for_load_state("networkidle")
    before = sum(sizes.values())
    page.fill("#search-q", "marrakech")
    page.wait_for_selector(".search-result")
    page.wait_for_load_state("networkidle")
    query_bytes = sum(sizes.values()) - before
    print(f"example: {sum(sizes.values())} bytes of search files for the first query ({query_bytes} after load)")
    assert 0 < sum(sizes.values()) < 600_000


@pytest.mark.slow
def test_serve_reloads_the_open_page_and_shows_build_errors(page: Any, tmp_path: Path) -> None:
    from tests.conftest import write_workspace
    from tests.test_serve import DAY, start

    ws = write_workspace(tmp_path / "ws", {"memory/2025-11-03.md": DAY, "bank/entities/Peter.md": "# Peter\n"})
    server = start(ws, "--strict", "--no-reflect")
    try:
        page.goto(f"http://127.0.0.1:{server.port}/memory/2025-11-03.html")
        page.wait_for_timeout(300)
        (ws / "memory/2025-11-03.md").write_text(DAY + "- W @Peter: Peter flies a yellow kite.\n", encoding="utf-8")
        page.wait_for_function("() => document.body.textContent.includes('yellow kite')")
        (ws / "memory/2025-11-03.md").write_text(DAY + "- Q @Peter broken\n", encoding="utf-8")
        overlay = page.locator(".memwiki-live.error")
        overlay.wait_for()
        assert "memory/2025-11-03.md:6" in overlay.inner_text()
        assert "yellow kite" in page.content()  # the last good page stays on screen
        (ws / "memory/2025-11-03.md").write_text(DAY, encoding="utf-8")
        page.wait_for_function("() => !document.body.textContent.includes('yellow kite')")
        assert page.locator(".memwiki-live.error").count() == 0
    finally:
        page.goto("about:blank")  # the reload may still be fetching the page's icon: not from a server going away
        server.stop()


def test_reflections_filter_by_type_without_script_and_keyboard(page: Any, tmp_path: Path) -> None:
    shutil.copytree(EXAMPLE.parent / "tests/fixtures/layouts/tinyclaw", tmp_path / "ws")
    build(tmp_path / "ws", tmp_path / "wiki", search=False)
    with serving(tmp_path) as url:
        page.goto(url + "wiki/memory/reflections.jsonl.html")
        visible = "() => [...document.querySelectorAll('.record')].filter(r => r.offsetParent).map(r => r.id)"
        assert page.evaluate(visible) == ["L1", "L2", "L3", "L4"]
        page.click("label[for=rf-failure]")
        assert page.evaluate(visible) == ["L1", "L4"]
        page.keyboard.press("ArrowRight")  # radio buttons: the arrow moves to the next type
        assert page.evaluate(visible) == ["L2"]
        page.click("label[for=rf-all]")
        assert len(page.evaluate(visible)) == 4


def test_a_days_other_files_open_in_place(page: Any, tmp_path: Path) -> None:
    write_workspace(
        tmp_path / "ws",
        {
            "MEMORY.md": "# Memory\n\n- Tim likes short answers.\n",
            "memory/2026-01-16.md": "# 2026-01-16\n\nFixed the queue worker.\n",
            "memory/2026-01-16-1430.md": "# Session: 2026-01-16 14:30:00 UTC\n\nuser: the queue is stuck\n\n[home](../MEMORY.md)\n",
            "memory/dreaming/rem/2026-01-16.md": "# REM\n\nQueue stalls follow deploys.\n",
        },
    )
    build(tmp_path / "ws", tmp_path / "wiki", search=False)
    with serving(tmp_path) as url:
        page.goto(url + "wiki/memory/2026-01-16.html")
        files = page.locator("details.same-day-file")
        assert files.count() == 2
        session = files.filter(has_text="Session")
        session.locator("summary").click(position={"x": 2, "y": 2})
        page.wait_for_function("() => /the queue is stuck/.test(document.querySelector('.same-day-body').textContent)")
        body = session.locator(".same-day-body")
        assert body.locator("[id]").count() == 0  # the session's own page keeps its anchors
        assert (body.locator("a").first.get_attribute("href") or "").endswith("/wiki/MEMORY.html")
        dream = files.filter(has_text="REM")
        dream.locator("summary").click(position={"x": 2, "y": 2})
        page.wait_for_function("() => /follow deploys/.test(document.body.textContent)")


def test_a_table_cell_never_breaks_a_word_on_a_phone(page: Any, tmp_path: Path) -> None:
    rows = "".join(
        f"| {label} | `{label.lower()}-{n}.servers.example.org` (Technitium, zone example.org) |\n"
        for n, label in enumerate(["Service", "Username", "Hostname", "Decommissioned"])
    )
    write_workspace(
        tmp_path / "ws",
        {"MEMORY.md": "# Memory\n\n- Hi.\n", "memory/hosts.md": f"# Hosts\n\n| Field | Value |\n|---|---|\n{rows}"},
    )
    build(tmp_path / "ws", tmp_path / "wiki", search=False)
    page.set_viewport_size({"width": 390, "height": 800})
    with serving(tmp_path) as url:
        page.goto(url + "wiki/memory/hosts.html")
        lines_per_label = page.evaluate(
            """() => [...document.querySelectorAll('main td:first-child')].map(cell => {
                 const range = document.createRange(); range.selectNodeContents(cell);
                 return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; })"""
        )
        assert lines_per_label == [1, 1, 1, 1]  # "Usernam|e" was two lines
        table = page.evaluate(
            "() => { const t = document.querySelector('main table'); return [t.scrollWidth, t.clientWidth]; }"
        )
        assert table[0] > table[1]  # the wide table scrolls instead


BAR_ON_SCREEN = """() => {
  const bar = document.querySelector('svg.ctx-bar').getBoundingClientRect();
  const memory = [...document.querySelectorAll('.ctx-seg.cut')].map(g => g.querySelector('rect').getBoundingClientRect());
  const mark = document.querySelector('svg.ctx-mark path').getBoundingClientRect();
  return {bar: [bar.left, bar.width, bar.height], memory: memory.map(r => [r.left, r.width]),
          mark: [mark.left + mark.width / 2, mark.bottom, mark.width], page: document.documentElement.scrollWidth,
          view: window.innerWidth, fill: getComputedStyle(document.querySelector('.ctx-mark path')).fill};
}"""


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (390, "dark")])
def test_the_agent_bar_shows_and_marks_the_memory_openclaw_cuts(
    browser: Any, tmp_path: Path, width: int, scheme: str
) -> None:
    from axe_playwright_python.sync_playwright import Axe

    line = "- The agent noted what it learned about the deploy and the people on the project today.\n"
    files = {
        "AGENTS.md": "# Agents\n\nRead MEMORY.md.\n",
        "SOUL.md": "# Soul\n",
        "MEMORY.md": "# Memory\n\n" + line * 360,
    }
    write_workspace(tmp_path / "ws", {**files, "memory/2026-03-01.md": "# Day\n\n- Deployed.\n"})
    build(tmp_path / "ws", tmp_path / "wiki", search=False)
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        page.goto((tmp_path / "wiki" / "agent.html").as_uri())
        shown = page.evaluate(BAR_ON_SCREEN)
        assert shown["bar"][1] > width * 0.6 and shown["bar"][2] >= 30, shown  # the bar spans the card
        assert shown["page"] <= shown["view"], shown  # nothing wider than the phone
        [(left, segment_width)] = shown["memory"]
        assert segment_width > 0 and left <= shown["mark"][0] <= left + segment_width, shown  # the mark over MEMORY.md
        assert shown["mark"][2] >= 10 and shown["fill"] not in ("none", "rgba(0, 0, 0, 0)"), shown
        assert page.locator(".ctx-cuts li").inner_text().startswith("▼ MEMORY.md: 31,689 characters, over the 20,000")
        assert "MEMORY.md: ~7,923 tokens" in page.locator(".ctx-seg.cut title").text_content()
        violations = Axe().run(page).response["violations"]
        assert violations == [], [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations]
    finally:
        context.close()
