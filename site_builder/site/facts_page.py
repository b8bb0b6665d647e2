"""The facts page (every Retain fact by month, filtered by kind) and the facts listed on World and Experience."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from itertools import groupby

from site_builder.core.model import KIND_NAMES, Fact, fact_order
from site_builder.site.builder import PageBuilder
from site_builder.site.page_views import FactsPage
from site_builder.site.views import FactGroup, KindCount

URL = "facts.html"


def facts_page(builder: PageBuilder) -> FactsPage:
    facts = builder.library.facts
    present = {f.kind for f in facts}
    return FactsPage(
        chrome=builder.chrome(URL, kind="facts", title="Facts", section=""),
        kinds=[KindCount(k, KIND_NAMES[k], sum(1 for f in facts if f.kind == k)) for k in "WBOS" if k in present],
        groups=fact_groups(builder, facts, URL),
        total=len(facts),
    )


def fact_groups(builder: PageBuilder, facts: Iterable[Fact], url: str) -> list[FactGroup]:
    """``facts`` by the month of their log, newest day first (a day's in their order); undated facts last."""
    ordered = sorted(sorted(facts, key=fact_order), key=lambda f: f.date or dt.date.min, reverse=True)  # stable
    groups = []
    for month, members in groupby(ordered, key=lambda f: f.date.strftime("%Y-%m") if f.date else ""):
        listed = list(members)
        html = builder.fact_items(listed, url)
        if month:
            groups.append(FactGroup(dt.date.fromisoformat(f"{month}-01").strftime("%B %Y"), month, html, len(listed)))
        else:
            groups.append(FactGroup("Not dated", "undated", html, len(listed)))
    return groups
