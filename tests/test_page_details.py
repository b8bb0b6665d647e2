"""What pages say and where their links lead: headings, counts, the facts World and Experience are named after,
the navigation's current entry, the opinions and hygiene pages, Markdown in summaries and readable charts."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from site_builder.build import build
from site_builder.library.summaries import first_line_markdown
from site_builder.load import load
from tests.conftest import EXAMPLE, serving, write_workspace

WORKSPACE = {
    "memory.md": "# What I keep\n\nI help @Ann.\n",
    "bank/world.md": "# World\n\n- W @Ann: Ann lives in Porto.\n",
    "bank/experience.md": "# Experience\n\nWhat I did.\n",
    "bank/opinions.md": "# Opinions\n\nMy own words.\n\n- O(c=0.7) @Ann: Ann likes tea. ^tea\n",
    "bank/entities/Ann.md": "# Ann\n\nA friend.\n",
    "bank/entities/Bo.md": "# Bo\n",
    "bank/entities/Cy.md": "# Cy\n\nNobody links here.\n",
    "memory/2025-03-01.md": "# Day\n\n- **Ann:** called about the `kiln` and @Bo.\n\n## Retain\n"
    "- W @Ann: The kiln is in Porto.\n- B @Ann: I booked the kiln.\n",
    "memory/2025-04-02.md": "# Day\n\nQuiet.\n\n## Retain\n- W @Ann: Ann sells bowls.\n- O(c=0.8) @Ann: Ann likes tea. ^tea\n",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("details")
    build(write_workspace(root / "ws", WORKSPACE), root / "site", search=False)
    return root / "site"


def read(site: Path, page: str) -> str:
    return (site / page).read_text(encoding="utf-8")


def current_nav(html: str) -> list[str]:
    return re.findall(r'<a href="[^"]*" aria-current="page">([^<]+)</a>', html)


def test_home_shows_the_core_memory_heading_once_and_counts_in_words(site: Path) -> None:
    home = read(site, "index.html")
    assert '<h2 id="core-h">What I keep</h2>' in home and '<h1 id="what-i-keep"' not in home
    assert home.count("What I keep") == 2  # the card's heading and the "Loaded every session" list
    assert '>Bo</a> <span class="muted">1 mention</span>' in home and "1 mentions" not in home
    assert '<a href="facts.html">6 facts</a>' in home and '<a href="bank/opinions.html">1 opinion</a>' in home


def test_a_long_core_memory_shows_its_start_on_home_and_folds_the_rest(tmp_path: Path) -> None:
    sections = "".join(
        f"## Topic {i}\n\n| key | value |\n|---|---|\n| t{i} | v{i} |\n\n- note {i}\n\n" for i in range(30)
    )
    ws = write_workspace(
        tmp_path / "ws", {"MEMORY.md": "# Vader's memory\n\n" + sections, "memory/2026-05-01.md": "# D\n"}
    )
    build(ws, tmp_path / "site", search=False)
    home = read(tmp_path / "site", "index.html")
    start, rest = home.split('<details class="core-rest">')
    shown = re.findall(r">Topic (\d+)<", start)
    assert len(shown) >= 3 and "Topic 29" not in start
    assert re.findall(r" t(\d+)</td>", start) == shown  # cut at a blank line: no table is cut
    assert re.search(r"Show the rest <span class=\"muted\">\(\d+ more lines\)", rest)
    assert ">Topic 29<" in rest and 'id="L' + str(2 + 8 * 29 + 1) + '"' in rest  # the whole of it, lines as in the file
    assert home.count('id="L11"') == 1  # each line once: the start and the rest do not overlap


def test_the_facts_link_leads_to_every_fact_by_month_with_a_filter_per_kind(site: Path) -> None:
    facts = read(site, "facts.html")
    assert [m for m in re.findall(r'<h2 id="fm-([^"]+)"', facts)] == ["2025-04", "2025-03", "undated"]
    assert re.findall(r'<label class="chip" for="ff-(\w+)">', facts) == ["all", "W", "B", "O"]
    assert facts.index("Ann sells bowls") < facts.index("The kiln is in Porto") < facts.index("I booked the kiln")
    assert 'href="memory/2025-03-01.html#L7"' in facts


def test_world_and_experience_list_the_facts_they_are_named_after_and_only_they_are_current(site: Path) -> None:
    world, experience = read(site, "bank/world.html"), read(site, "bank/experience.html")
    listed = world[world.index('id="kind-facts-h"') :]
    listed = listed[: listed.index('class="side-box backlinks"')]  # not the side column: it cites the page's own
    assert "The kiln is in Porto" in listed and "Ann sells bowls" in listed
    assert "I booked the kiln" not in listed and "Ann lives in Porto" not in listed  # stated on the page itself
    assert 'href="../memory/2025-04-02.html#L6"' in listed  # each cites its line
    experience_listed = experience[experience.index('id="kind-facts-h"') :]
    assert "I booked the kiln" in experience_listed[: experience_listed.index('class="side-box backlinks"')]
    assert current_nav(world) == ["World"] and current_nav(experience) == ["Experience"]
    assert current_nav(read(site, "memory/2025-03-01.html")) == ["Days"]
    assert current_nav(read(site, "index.html")) == []


def test_opinions_page_folds_the_file_away_below_the_cards(site: Path) -> None:
    page = read(site, "bank/opinions.html")
    cards, _, rest = page.partition('<details class="source-page">')
    assert 'class="opinion"' in cards and "My own words." not in cards
    assert "My own words." in rest  # still on the site, and line anchors still land (app.js opens the details)


def test_hygiene_shows_findings_first_and_folds_the_checks_that_found_nothing(site: Path) -> None:
    page = read(site, "hygiene.html")
    assert "None." not in page
    assert re.findall(r'<h2 id="hygiene-\d+">([^<]+) <span', page) == ["Orphan entities"]  # the one finding, first
    assert "bank/entities/Cy.md" in page[: page.index('<details class="hygiene-clean">')]
    assert re.search(r"<summary>5 checks found nothing: Broken links, Placeholder entities, ", page)
    assert page.index("<p>1 finding.") > 0


def test_day_summaries_render_their_markdown(site: Path) -> None:
    days = read(site, "memory/index.html")
    assert "<strong>Ann:</strong> called about the <code>kiln</code>" in days and "**" not in days


def test_the_timeline_lists_the_latest_hundred_days_and_the_months_lead_to_the_rest(tmp_path: Path) -> None:
    start = dt.date(2025, 1, 1)
    days = {f"memory/{start + dt.timedelta(d):%Y-%m-%d}.md": f"# Day\n\nLog line {d}.\n" for d in range(130)}
    build(write_workspace(tmp_path / "ws", days), tmp_path / "site", search=False)
    timeline = read(tmp_path / "site", "memory/index.html")
    assert timeline.count('class="weekday"') == 100
    assert "Log line 129." in timeline and "Log line 29." not in timeline  # the newest first, the oldest left out
    assert "30 older days: in the calendars and the months above." in timeline
    assert 'href="../memory/2025-01-01.html"' in timeline  # in the calendar of 2025
    assert "Log line 0." in read(tmp_path / "site", "memory/2025-01.html")


def test_a_shortened_summary_leaves_no_markup_open(tmp_path: Path) -> None:
    note = load(write_workspace(tmp_path, {"memory/2025-01-01.md": "**Bold** " + "word " * 30 + "**tail bold**\n"}))
    line = first_line_markdown(note.library.notes[0], limit=60)
    assert line.endswith("…") and line.count("**") % 2 == 0
    cut = load(write_workspace(tmp_path / "b", {"memory/2025-01-01.md": "A " * 20 + "**open bold " + "x " * 40}))
    assert first_line_markdown(cut.library.notes[0], limit=60).count("**") == 0


# -- in Chromium ------------------------------------------------------------------------------------------------

AXIS_PIXELS = """() => [...document.querySelectorAll('svg.confidence .axis')].map(text => {
  const scale = text.ownerSVGElement.getScreenCTM().a;
  return parseFloat(getComputedStyle(text).fontSize) * scale;
})"""


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    top = tmp_path_factory.mktemp("host")
    build(EXAMPLE, top / "wiki", search=False)
    with serving(top) as url:
        yield url + "wiki/"


@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 390])
def test_chart_labels_are_readable_and_each_point_has_a_tooltip(page: Any, example: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 844})
    page.goto(example + "bank/opinions.html")
    sizes = page.evaluate(AXIS_PIXELS)
    assert sizes and min(sizes) >= 12, sizes
    point = page.locator("svg.confidence a.point-link").first
    assert re.match(r"\d{4}-\d\d-\d\d: \d\.\d\d — ", point.locator("title").text_content() or "")
    tip = point.locator(".tip")
    assert not tip.is_visible()
    point.focus()  # keyboard: the tip shows on focus, not only on hover
    assert tip.is_visible() and re.match(r"\d{4}-\d\d-\d\d · \d\.\d\d$", tip.text_content() or "")


HEATMAP_PIXELS = """() => {
  const text = document.querySelector('svg.heatmap .axis'), scale = text.ownerSVGElement.getScreenCTM().a;
  const frame = document.querySelector('.heatmap-figure');
  return [parseFloat(getComputedStyle(text).fontSize) * scale, frame.scrollWidth > frame.clientWidth,
          document.documentElement.scrollWidth <= window.innerWidth, frame.scrollLeft];
}"""


@pytest.mark.browser
def test_the_calendar_keeps_readable_labels_on_a_phone(page: Any, example: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(example + "memory/index.html")
    size, scrolls_inside, page_fits, _ = page.evaluate(HEATMAP_PIXELS)
    assert size >= 12 and scrolls_inside and page_fits
    december = page.locator("svg.heatmap text", has_text="Dec").first.bounding_box()
    assert december is not None and 0 <= december["x"] <= 390  # the newest months are in view


def test_a_long_hygiene_section_shows_its_first_findings_and_folds_the_rest(tmp_path: Path) -> None:
    days = {f"memory/2025-01-{d:02d}.md": f"# Day\n\n[[Nowhere{d}/x]]\n" for d in range(1, 16)}
    orphan = {"bank/entities/Zed.md": "# Zed\n"}
    build(write_workspace(tmp_path / "ws", days | orphan), tmp_path / "site", search=False)
    page = read(tmp_path / "site", "hygiene.html")
    section = page[page.index(">Broken links <") :]
    shown, _, folded = section.partition('<details class="hygiene-more"><summary>3 more</summary>')
    assert shown.count("<li>") == 12 and folded[: folded.index("</details>")].count("<li>") == 3
    assert '<a href="#hygiene-1">Broken links</a>' in page  # the report's sections, linked at its top


def test_a_heading_written_again_gets_an_id_of_its_own_and_links_open_the_first(tmp_path: Path) -> None:
    report = "# Dreams\n\n## Night one\n\n### Light Sleep\n\nCalm.\n\n## Night two\n\n### Light Sleep\n\nRestless.\n"
    files = {
        "MEMORY.md": "# Memory\n\n- See [[dreams#Light Sleep]].\n",
        "dreams.md": report + "\n### Light Sleep 1\n\nA heading of that very name.\n",
    }
    ws = write_workspace(tmp_path / "ws", files)
    build(ws, tmp_path / "site", search=False)
    page = (tmp_path / "site" / "dreams.html").read_text(encoding="utf-8")
    ids = re.findall(r'<h3 id="([^"]+)">', page)
    assert ids == ["light-sleep", "light-sleep-2", "light-sleep-1"]  # "Light Sleep 1" keeps its own
    assert 'href="dreams.html#light-sleep"' in (tmp_path / "site" / "MEMORY.html").read_text(encoding="utf-8")
    assert page.count('id="light-sleep"') == 1
