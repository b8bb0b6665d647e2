"""A heavy workspace's long lists on pages: opinions about two hundred cards at a time (cut where their ids say),
facts a year at a time; every item once, in order, linked right, and a small workspace keeps one page."""

from __future__ import annotations

import re
import shutil
import zlib
from pathlib import Path

import pytest

import site_builder.site.pages as pages_module
from site_builder.library.hygiene import Section
from site_builder.library.opinion_pages import CARDS_AT_LEAST, CARDS_AT_MOST, CUT_ONE_IN
from site_builder.site.builder import PageBuilder
from site_builder.site.facts_page import ONE_PAGE_UP_TO
from site_builder.site.hygiene_page import OWN_PAGE_FROM, SHOWN, section_page
from site_builder.site.note_page import KIND_FACTS_SHOWN
from site_builder.site.page_views import HygieneSectionPage
from site_builder.site.pagefind import search_record
from tests.conftest import output_bytes, run, write_workspace

COUNT = CARDS_AT_MOST + 50  # two pages at least
LOW = "o-0000"  # the lowest confidence: the last card, on the last page


def confidence(n: int) -> str:
    return "0.01" if n == 0 else f"{0.05 + 0.9 * n / COUNT:.2f}"


def opinions_file() -> str:
    lines = ["# Opinions", "", "Beliefs, kept by hand.", ""]
    for n in range(COUNT):
        lines.append(f"- O(c={confidence(n)}) @Anna: Anna holds belief number {n} about the harbour. ^o-{n:04d}")
    return "\n".join(lines) + "\n"


def make(root: Path) -> Path:
    return write_workspace(
        root,
        {
            "bank/entities/Anna.md": "# Anna\n\nCeramicist in Lisbon.\n",
            "bank/opinions.md": opinions_file(),
            # restates the opinion of lowest confidence: this day's page cites its card
            "memory/2025-11-20.md": "# 20 Nov\n\nA day.\n\n## Retain\n"
            "- O(c=0.02) @Anna: Anna holds belief number 0 about the harbour. ^o-0000\n",
            "memory/2025-11-26.md": "# 26 Nov\n\nAnother day.\n",
        },
    )


def build(ws: Path, out: Path) -> None:
    result = run("build", str(ws), "-o", str(out), "--no-reflect", "--no-search")
    assert result.exit_code == 0, result.output


def cards(html: str) -> list[str]:
    return re.findall(r'<article class="opinion" id="op-([^"]+)"', html)


def opinion_pages(out: Path) -> list[str]:
    """The pages of opinions, in order."""
    count = len(list((out / "bank").glob("opinions*.html")))
    return [(out / "bank" / (f"opinions-{n}.html" if n > 1 else "opinions.html")).read_text("utf-8") for n in
            range(1, count + 1)]  # fmt: skip


def test_opinions_are_paged_every_card_once_highest_confidence_first(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(make(tmp_path / "ws"), out)
    pages = opinion_pages(out)
    assert len(pages) >= 2
    every = [card for html in pages for card in cards(html)]
    ranked = sorted(range(COUNT), key=lambda n: (-float(confidence(n)), n))
    assert every == [f"o-{n:04d}" for n in ranked]  # each once, highest confidence first
    assert all(CARDS_AT_LEAST <= len(cards(html)) <= CARDS_AT_MOST for html in pages[:-1])
    assert 1 <= len(cards(pages[-1])) <= CARDS_AT_MOST
    # every page says where the others are, the current one marked
    urls = ["../bank/opinions.html"] + [f"../bank/opinions-{n}.html" for n in range(2, len(pages) + 1)]
    for html, current in zip(pages, urls, strict=True):
        pager = re.findall(r'<nav class="pager" aria-label="([^"]+)"[^>]*>(.*?)</nav>', html)
        assert [label for label, _ in pager] == ["Opinion pages", "Opinion pages, after the list"]
        assert re.findall(r'href="([^"]+)"', pager[0][1]) == urls
        assert f'href="{current}" title="confidence' in pager[0][1]
        assert re.search(rf'href="{current}" title="[^"]*" class="current" aria-current="page"', pager[0][1])
    assert f"{COUNT} opinions, highest confidence first, on {len(pages)} pages." in pages[0]
    assert f"Opinions, page 2 of {len(pages)}" in pages[1]
    assert f"{len(cards(pages[1]))} opinions on this page" in pages[1]
    # the file itself, and its line anchors (where citations of bank/opinions.md lead), on the first page only
    assert "Beliefs, kept by hand." in pages[0] and 'id="L5"' in pages[0]
    assert "Beliefs, kept by hand." not in pages[1]


def add_opinion_and_build(ws: Path, out: Path, confidence: str) -> tuple[list[str], list[str]]:
    """The pages of opinions before and after an opinion is added to a day (a rebuild that relinks)."""
    build(ws, out)
    before = opinion_pages(out)
    with (ws / "memory/2025-11-26.md").open("a", encoding="utf-8") as day:
        day.write(f"\n## Retain\n- O(c={confidence}) @Anna: Anna thinks the quay floods in spring.\n")
    build(ws, out)
    return before, opinion_pages(out)


def assert_warm_is_cold(ws: Path, warm: Path, tmp_path: Path) -> None:
    cold = tmp_path / "cold-ws" / ws.name  # of the same name: a site is titled by its folder
    shutil.copytree(ws, cold, ignore=shutil.ignore_patterns(".memwiki"))
    build(cold, tmp_path / "cold")
    assert output_bytes(warm) == output_bytes(tmp_path / "cold")


@pytest.mark.slow  # 0.7 s
def test_an_opinion_added_changes_its_own_page_and_the_count_on_the_first(tmp_path: Path) -> None:
    ws = make(tmp_path / "ws")
    before, after = add_opinion_and_build(ws, tmp_path / "warm", "0.60")
    landed = [n for n, html in enumerate(after) if "the quay floods" in html]
    assert len(landed) == 1 and 0 < landed[0] < len(after) - 1 and len(after) == len(before)
    changed = [n for n, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
    assert changed == [0, landed[0]]  # its page, and the first (the count); not those after it
    assert f"{COUNT + 1} opinions, highest confidence first" in after[0]
    assert search_record(after[0]) == search_record(before[0])  # the count is not searched: its part is kept
    assert_warm_is_cold(ws, tmp_path / "warm", tmp_path)


@pytest.mark.slow  # 0.9 s
def test_an_opinion_added_above_all_others_changes_every_pages_links(tmp_path: Path) -> None:
    ws = make(tmp_path / "ws")
    before, after = add_opinion_and_build(ws, tmp_path / "warm", "0.99")
    assert "the quay floods" in after[0] and len(after) == len(before)
    assert all(old != new for old, new in zip(before, after, strict=True))  # the first page's link says 0.99
    assert all('href="../bank/opinions.html" title="confidence 0.99 to' in html for html in after)
    assert_warm_is_cold(ws, tmp_path / "warm", tmp_path)


@pytest.mark.slow  # 0.9 s
def test_a_card_pushed_onto_the_next_page_is_linked_there_by_the_day_citing_it(tmp_path: Path) -> None:
    """The first page is full (ids that never end a page): an opinion added above all others pushes its last card
    onto the second page, and the day that cites that card, unchanged, links there after a rebuild."""
    ids = [i for i in (f"k{n:04d}" for n in range(1000)) if zlib.crc32(i.encode()) % CUT_ONE_IN][: CARDS_AT_MOST + 20]
    last = ids[CARDS_AT_MOST - 1]  # the last card of the first page
    beliefs = "".join(f"- O(c=0.5) @Anna: Anna holds belief {i}. ^{i}\n" for i in ids)
    ws = write_workspace(
        tmp_path / "ws",
        {
            "bank/opinions.md": f"# Opinions\n\n{beliefs}",
            "memory/2025-11-20.md": f"# 20 Nov\n\n## Retain\n- O(c=0.5) @Anna: Anna holds belief {last}. ^{last}\n",
            "memory/2025-11-26.md": "# 26 Nov\n\nA day.\n",
        },
    )
    before, after = add_opinion_and_build(ws, tmp_path / "warm", "0.99")
    assert f'id="op-{last}"' in before[0] and f'id="op-{last}"' in after[1]
    day = (tmp_path / "warm/memory/2025-11-20.html").read_text(encoding="utf-8")
    assert f'href="../bank/opinions-2.html#op-{last}"' in day
    assert_warm_is_cold(ws, tmp_path / "warm", tmp_path)


def test_a_note_citing_an_opinion_links_to_the_page_its_card_is_on(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(make(tmp_path / "ws"), out)
    last = len(opinion_pages(out))
    day = (out / "memory/2025-11-20.html").read_text(encoding="utf-8")
    assert f'href="../bank/opinions-{last}.html#op-{LOW}"' in day
    assert f'id="op-{LOW}"' in (out / f"bank/opinions-{last}.html").read_text(encoding="utf-8")


def test_a_workspace_with_few_opinions_keeps_one_page_without_a_pager(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"bank/opinions.md": "# Opinions\n\n- O(c=0.6) @Anna: Anna likes tea.\n"})
    out = tmp_path / "site"
    build(ws, out)
    html = (out / "bank/opinions.html").read_text(encoding="utf-8")
    assert len(cards(html)) == 1 and "pager" not in html
    assert not (out / "bank/opinions-2.html").exists()


@pytest.mark.slow  # 0.8 s
def test_a_card_moving_to_the_other_page_rebuilds_warm_as_cold(tmp_path: Path) -> None:
    ws = make(tmp_path / "ws")
    build(ws, tmp_path / "warm")
    # a later day restates it higher: the day that cited it, unchanged, must now link to the first page
    (ws / "memory/2025-12-30.md").write_text(
        "# 30 Dec\n\n## Retain\n- O(c=0.99) @Anna: Anna holds belief number 0 about the harbour. ^o-0000\n",
        encoding="utf-8",
    )
    build(ws, tmp_path / "warm")
    cold = tmp_path / "cold-ws" / ws.name  # of the same name: a site is titled by its folder
    shutil.copytree(ws, cold, ignore=shutil.ignore_patterns(".memwiki"))
    build(cold, tmp_path / "cold")
    first = (tmp_path / "warm/bank/opinions.html").read_text(encoding="utf-8")
    assert LOW in cards(first)  # it moved: now among the highest
    day = (tmp_path / "warm/memory/2025-11-20.html").read_text(encoding="utf-8")
    assert f'href="../bank/opinions.html#op-{LOW}"' in day
    assert output_bytes(tmp_path / "warm") == output_bytes(tmp_path / "cold")


def facts_workspace(root: Path) -> Path:
    """More facts than one page holds: three years of days, and undated ones in bank/world.md."""
    per_day = ONE_PAGE_UP_TO // 90 + 1
    files = {"bank/world.md": "# World\n\n- W @Anna: Anna lives in Lisbon.\n- W @Anna: Anna works with clay.\n"}
    for year in (2023, 2024, 2025):
        for n in range(30):
            facts = "".join(f"- W @Anna: Fact {k} of day {n} in {year}.\n" for k in range(per_day))
            files[f"memory/{year}-03-{n % 28 + 1:02d}.md" if n < 28 else f"memory/{year}-04-0{n - 27}.md"] = (
                f"# Day {n}\n\n## Retain\n{facts}"
            )
    return write_workspace(root, files)


def fact_ids(html: str) -> list[str]:
    return re.findall(r'<li class="fact-item[^"]*" id="t-([^"]+)"', html)


@pytest.mark.slow  # 1.0 s
def test_facts_are_a_year_to_a_page_every_fact_once(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(facts_workspace(tmp_path / "ws"), out)
    pages = {name: (out / name).read_text(encoding="utf-8") for name in (
        "facts.html", "facts-2024.html", "facts-2023.html", "facts-undated.html"
    )}  # fmt: skip
    assert sorted(p.name for p in out.glob("facts*.html")) == sorted(pages)
    per_page = {name: fact_ids(html) for name, html in pages.items()}
    everything = [i for ids in per_page.values() for i in ids]
    assert len(everything) == len(set(everything)) == 3 * 30 * (ONE_PAGE_UP_TO // 90 + 1) + 2
    assert len(per_page["facts-undated.html"]) == 2
    assert "in 2025." in pages["facts.html"] and "in 2024." not in pages["facts.html"]  # the newest year first
    assert "<title>Facts, 2024" in pages["facts-2024.html"] and "<title>Facts, not dated" in pages["facts-undated.html"]
    for name, html in pages.items():
        pager = re.search(r'<nav class="pager" aria-label="Years of facts">(.*?)</nav>', html)
        assert pager is not None, name
        assert re.findall(r">([^<]+)</a>", pager[1]) == ["2025", "2024", "2023", "Not dated"]
        assert re.search(rf'href="{name}"( title="[\d,]+ facts")? class="current" aria-current="page"', pager[1])
        counts = re.findall(r'title="([\d,]+) facts"', pager[1])  # every year's count: on the first page only
        assert counts == ([f"{len(per_page[p]):,}" for p in ("facts.html", "facts-2024.html", "facts-2023.html")] + ["2"]
                          if name == "facts.html" else [])  # fmt: skip
        total = len(everything) if name == "facts.html" else len(per_page[name])
        assert f"{total:,} Retain facts, newest first, a year to a page" in html


@pytest.mark.slow  # 2.0 s
def test_a_fact_more_makes_its_years_page_and_the_first_again_not_every_years(tmp_path: Path) -> None:
    ws, out = facts_workspace(tmp_path / "ws"), tmp_path / "site"
    build(ws, out)
    inodes = {p.name: p.stat().st_ino for p in out.glob("facts*.html")}
    day = ws / "memory/2024-03-02.md"
    day.write_text(day.read_text(encoding="utf-8") + "- W @Anna: One fact more.\n", encoding="utf-8")
    build(ws, out)
    again = {p.name for p in out.glob("facts*.html") if p.stat().st_ino != inodes[p.name]}
    assert again == {"facts.html", "facts-2024.html"}  # the year's facts, and every year's count
    assert "One fact more." in (out / "facts-2024.html").read_text(encoding="utf-8")
    assert f"{len(fact_ids((out / 'facts-2024.html').read_text(encoding='utf-8'))):,} facts" in (
        out / "facts.html"
    ).read_text(encoding="utf-8")


def test_a_workspace_with_few_facts_keeps_one_facts_page(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws", {"memory/2025-11-26.md": "# 26 Nov\n\n## Retain\n- W @Anna: Anna likes tea.\n"}
    )
    out = tmp_path / "site"
    build(ws, out)
    assert [p.name for p in out.glob("facts*.html")] == ["facts.html"]
    assert "pager" not in (out / "facts.html").read_text(encoding="utf-8")


@pytest.mark.slow  # 1.5 s
def test_world_shows_its_newest_facts_and_leads_to_the_facts_pages_for_the_rest(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(facts_workspace(tmp_path / "ws"), out)
    world = (out / "bank/world.html").read_text(encoding="utf-8")
    shown = fact_ids(world)
    assert len(shown) == KIND_FACTS_SHOWN
    facts_in_days = 3 * 30 * (ONE_PAGE_UP_TO // 90 + 1)
    assert f"the {facts_in_days - KIND_FACTS_SHOWN:,} world facts before them are on the" in world
    assert 'href="../facts.html">facts pages</a>' in world
    assert set(shown) <= set(fact_ids((out / "facts.html").read_text(encoding="utf-8")))  # the newest: all of 2025


FINDINGS = 2 * OWN_PAGE_FROM + 5  # over a thousand: its count is written 1,005


def many_findings(root: Path) -> Path:
    """A Retain section of bullets that are no facts: more malformed bullets than the report holds."""
    bullets = "".join(f"- item {n} without a kind\n" for n in range(FINDINGS))
    return write_workspace(root, {"memory/2025-11-26.md": f"# 26 Nov\n\n## Retain\n{bullets}"})


def test_a_section_with_many_findings_has_its_own_page_and_the_report_stays_small(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws, out = many_findings(tmp_path / "ws"), tmp_path / "site"
    build(ws, out)
    report = (out / "hygiene.html").read_text(encoding="utf-8")
    own = (out / "hygiene-malformed-bullets.html").read_text(encoding="utf-8")
    count = FINDINGS
    assert report.count("<code>memory/2025-11-26.md:") == SHOWN
    assert f'<a href="hygiene-malformed-bullets.html">All {count:,} findings of this sort</a>' in report
    assert f'Malformed bullets <span class="muted">({count:,})</span>' in report
    assert own.count("<code>memory/2025-11-26.md:") == count
    assert 'href="memory/2025-11-26.html#L5"' in own and 'href="hygiene.html">hygiene report</a>' in own
    # a finding of another sort: the report is made again, the big section's page is kept as it was
    made: list[str] = []

    def spy(builder: PageBuilder, section: Section) -> HygieneSectionPage:
        made.append(section.title)
        return section_page(builder, section)

    monkeypatch.setattr(pages_module, "section_page", spy)
    (ws / "memory/2025-11-27.md").write_text("# 27 Nov\n\nSee [the plan](missing-plan.md).\n", encoding="utf-8")
    build(ws, out)
    assert made == []
    assert "missing-plan.md" in (out / "hygiene.html").read_text(encoding="utf-8")
    assert (out / "hygiene-malformed-bullets.html").read_text(encoding="utf-8").count(
        "<code>memory/2025-11-26.md:"
    ) == count
