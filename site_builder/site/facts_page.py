"""The facts pages (every Retain fact by month, filtered by kind) and the facts listed on World and Experience.

Up to ``ONE_PAGE_UP_TO`` facts are one page, ``facts.html``. A heavy workspace holds far more (tens of MB on one
page, which no browser opens well): then each year is a page, the newest at ``facts.html``, the others at
``facts-YEAR.html`` (and ``facts-undated.html``), with a pager between them.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from itertools import groupby

from site_builder.core.model import KIND_NAMES, Fact, fact_order
from site_builder.core.names import href
from site_builder.site.builder import PageBuilder, counted
from site_builder.site.item_views import fact_items
from site_builder.site.page_inputs import fact_inputs
from site_builder.site.page_views import FactsPage
from site_builder.site.views import FactGroup, KindCount, LinkView

URL = "facts.html"
ONE_PAGE_UP_TO = 3000  # facts; a year of a heavy workspace's facts is then a page of a few MB
UNDATED = "undated"


def fact_pages(facts: list[Fact]) -> dict[str, list[Fact]]:
    """Page URL -> its facts, in the order of the pages: newest year first, the undated last."""
    if len(facts) <= ONE_PAGE_UP_TO:
        return {URL: facts}
    by_year: defaultdict[int, list[Fact]] = defaultdict(list)  # 0: undated
    for fact in facts:
        by_year[fact.date.year if fact.date else 0].append(fact)
    years = sorted((y for y in by_year if y), reverse=True) + ([0] if 0 in by_year else [])
    return {(URL if n == 0 else f"facts-{year or UNDATED}.html"): by_year[year] for n, year in enumerate(years)}


def facts_page_inputs(pages: dict[str, list[Fact]], url: str) -> object:
    """What a facts page is made from, besides what every page shares: its facts and the other pages (how many facts
    each holds: on the first page only, so that a fact more of a year makes only that year's page and the first
    again, not every year's)."""
    others = [(u, _year(f), len(f) if url == URL else 0) for u, f in pages.items()] if len(pages) > 1 else None
    return [fact_inputs(f) for f in pages[url]], others


def facts_page(builder: PageBuilder, pages: dict[str, list[Fact]], url: str) -> FactsPage:
    facts = pages[url]
    present = {f.kind for f in facts}
    paged = len(pages) > 1
    return FactsPage(
        chrome=builder.chrome(
            url, kind="facts", title=f"Facts, {_year(facts).lower()}" if paged and url != URL else "Facts", section=""
        ),
        kinds=[KindCount(k, KIND_NAMES[k], sum(1 for f in facts if f.kind == k)) for k in "WBOS" if k in present],
        groups=fact_groups(builder, facts, url),
        total=len(facts),
        years=[
            LinkView(
                _year(f), href(url, u), counted(len(f), "fact") if url == URL else "", "current" if u == url else ""
            )
            for u, f in pages.items()
        ]
        if paged
        else [],
        everything=counted(len(builder.library.facts if url == URL else facts), "Retain fact"),
    )


def _year(facts: list[Fact]) -> str:
    """What a page of facts holds, in a word: its year, or "Not dated"."""
    return str(facts[0].date.year) if facts[0].date else "Not dated"


def fact_groups(builder: PageBuilder, facts: Iterable[Fact], url: str) -> list[FactGroup]:
    """``facts`` by the month of their log, newest day first (a day's in their order); undated facts last."""
    ordered = sorted(sorted(facts, key=fact_order), key=lambda f: f.date or dt.date.min, reverse=True)  # stable
    groups = []
    for month, members in groupby(ordered, key=lambda f: f.date.strftime("%Y-%m") if f.date else ""):
        listed = list(members)
        html = fact_items(builder, listed, url)
        if month:
            groups.append(FactGroup(dt.date.fromisoformat(f"{month}-01").strftime("%B %Y"), month, html, len(listed)))
        else:
            groups.append(FactGroup("Not dated", "undated", html, len(listed)))
    return groups
