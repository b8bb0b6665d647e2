"""Accessibility: axe-core (``axe-playwright-python``) in Chromium on every page kind of the example, light and dark.

No serious or critical violation is allowed; the test prints every violation it finds, whatever its impact.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from site_builder.build import build
from tests.conftest import EXAMPLE, serving

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGE_KINDS = {
    "home": "index.html",
    "day": "memory/2025-11-28.html",
    "days": "memory/index.html",
    "month": "memory/2025-11.html",
    "core memory": "memory.html",
    "persona": "SOUL.html",
    "bank page": "bank/world.html",
    "entity": "bank/entities/anna.html",
    "entity with code": "bank/entities/tidewater.html",  # a code block wider than a phone: it scrolls
    "day with a table": "memory/2025-09-15.html",
    "entity without a page": "bank/entities/rui.html",
    "entities": "bank/entities/index.html",
    "opinions": "bank/opinions.html",
    "agent": "agent.html",
    "hygiene": "hygiene.html",
    "search": "search.html?q=kitchen",
    "not found": "404.html",
}
BLOCKING = ("serious", "critical")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    top = tmp_path_factory.mktemp("host")
    build(EXAMPLE, top / "wiki")
    with serving(top) as url:
        yield url + "wiki/"


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violations_on_any_page_kind(browser: Any, site: str, scheme: str, width: int) -> None:
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900 if width > 400 else 844})
    page = context.new_page()
    blocking: list[str] = []
    try:
        for kind, path in PAGE_KINDS.items():
            page.goto(site + path)
            if path.startswith("search.html"):
                page.wait_for_selector(".search-result")
            found = axe.run(page).response["violations"]
            for violation in found:
                nodes = [n["target"] for n in violation["nodes"]][:3]
                line = f"{scheme} {width}px {kind} ({path}): {violation['impact']} {violation['id']}: {nodes}"
                print(line)
                if violation["impact"] in BLOCKING:
                    blocking.append(line)
            print(f"{scheme} {width}px {kind}: {len(found)} violation(s)")
    finally:
        context.close()
    assert blocking == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_violations_with_live_search_preview_and_phone_menu_open(
    browser: Any, site: str, scheme: str
) -> None:
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    states: dict[str, list[dict[str, Any]]] = {}
    try:
        page.goto(site + "bank/entities/anna.html")
        page.locator("#site-search-q").press_sequentially("kitchen", delay=20)
        page.locator(".live-results [role=option]").first.wait_for()
        page.keyboard.press("ArrowDown")
        states["live search"] = axe.run(page).response["violations"]
        page.keyboard.press("Escape")
        page.locator(".prose a.wikilink").first.hover()
        page.locator("#link-preview").wait_for(state="visible")
        states["preview"] = axe.run(page).response["violations"]
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(site + "memory/2025-11-28.html")
        page.click(".menu-toggle")
        page.locator("#site-nav").wait_for(state="visible")
        states["phone menu"] = axe.run(page).response["violations"]
    finally:
        context.close()
    blocking = []
    for state, found in states.items():
        for violation in found:
            line = f"{scheme} {state}: {violation['impact']} {violation['id']}: {violation['help']}"
            print(line)
            if violation["impact"] in BLOCKING:
                blocking.append(line)
        print(f"{scheme} {state}: {len(found)} violation(s)")
    assert blocking == []


PAGED_KINDS = {  # kind: (path, what only the paged view has)
    "opinions, first page": ("opinions/bank/opinions.html", "nav.pager"),
    "opinions, second page": ("opinions/bank/opinions-2.html", "nav.pager"),
    "facts, newest year": ("facts/facts.html", "nav.pager"),
    "facts, an older year": ("facts/facts-2024.html", "nav.pager"),
    "hygiene with a section of its own": ("hygiene/hygiene.html", "a[href='hygiene-malformed-bullets.html']"),
    "a hygiene section's own page": ("hygiene/hygiene-malformed-bullets.html", "main a[href='hygiene.html']"),
}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_violations_on_the_pages_of_a_heavy_workspace(browser: Any, tmp_path: Path, scheme: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    from tests.test_paging import facts_workspace, make, many_findings

    for name, made in (("opinions", make), ("facts", facts_workspace), ("hygiene", many_findings)):
        build(made(tmp_path / f"ws-{name}"), tmp_path / "host" / name)
    axe = Axe()
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    blocking: list[str] = []
    try:
        with serving(tmp_path / "host") as url:
            for kind, (path, paged) in PAGED_KINDS.items():
                page.goto(url + path)
                assert page.locator(paged).count() > 0, kind
                for violation in axe.run(page).response["violations"]:
                    line = f"{scheme} {kind} ({path}): {violation['impact']} {violation['id']}"
                    print(line)
                    if violation["impact"] in BLOCKING:
                        blocking.append(line)
    finally:
        context.close()
    assert blocking == []
