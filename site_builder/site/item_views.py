"""The item views several pages show, made from the model for the page at a URL: a fact (and the list items of many,
each rendered once through its partial), an opinion's card with its chart and evidence, a day's summary."""

from __future__ import annotations

from collections.abc import Iterable

from site_builder.core.model import KIND_NAMES, Fact, Note, Opinion
from site_builder.core.names import href, root_of, source_url
from site_builder.library.summaries import first_line_markdown
from site_builder.site.builder import ROOT_MARK, PageBuilder
from site_builder.site.charts import ChartPoint, confidence_chart
from site_builder.site.environment import FACT_ITEM, render_part
from site_builder.site.links import SiteLinker
from site_builder.site.views import DaySummary, EvidenceView, FactView, LinkView, OpinionView


def fact_items(builder: PageBuilder, facts: Iterable[Fact], url: str) -> str:
    """``facts`` as the list items of the page at ``url``. Each fact is rendered once through its partial,
    whatever page lists it first, with ``ROOT_MARK`` where the way back to the site root goes."""
    items = builder.fact_item_html
    html = []
    for fact in facts:
        item = items.get(id(fact))
        if item is None:
            item = items[id(fact)] = render_part(FACT_ITEM, fact_view(builder, fact, url, ROOT_MARK))
        html.append(item)
    return "".join(html).replace(ROOT_MARK, root_of(url))


def _entity_chips(builder: PageBuilder, names: Iterable[str], url: str) -> list[LinkView]:
    """``@name`` links to entities, marked when the entity has no page."""
    linker = SiteLinker(builder.library, url)
    chips = []
    for name in names:
        to = linker.entity(name)
        chips.append(LinkView("@" + name, to.href, css="missing" if to.missing else ""))
    return chips


def fact_view(builder: PageBuilder, fact: Fact, url: str, root: str) -> FactView:
    """``fact`` for the page at ``url``, with ``root`` (the page's, or ``ROOT_MARK``) before its links."""
    occurred = ""
    if fact.occurred:
        start, end = fact.occurred
        occurred = start.isoformat() if start == end else f"{start.isoformat()} – {end.isoformat()}"
    return FactView(
        id=fact.id,
        kind=fact.kind,
        kind_name=KIND_NAMES[fact.kind],
        html=builder.inline_marked(fact.content, url).replace(ROOT_MARK, root),
        date=fact.date.isoformat() if fact.date else "",
        occurred=occurred,
        source=fact.source,
        href=root + source_url(fact.source),
        confidence=f"{fact.confidence:.2f}" if fact.confidence is not None else "",
        by=fact.by,
    )


def opinion_view(builder: PageBuilder, opinion: Opinion, url: str) -> OpinionView:
    """An opinion's card for the page at ``url``: its statement, confidence over time, entities and evidence."""
    points = [
        ChartPoint(p.date, p.confidence, href(url, source_url(p.source)), f"{p.change}: {p.text}")
        for p in opinion.history
        if p.date
    ]
    return OpinionView(
        id=opinion.id,
        statement_html=builder.inline(opinion.statement, url),
        confidence_text=f"{opinion.confidence:.2f}",
        changed=opinion.changed.isoformat() if opinion.changed else "",
        # One point is no history: the confidence line and "first stated" say all a lone dot would.
        chart_svg=confidence_chart(points, f"Confidence over time: {opinion.statement}") if len(points) > 1 else "",
        entities=_entity_chips(builder, opinion.entities, url),
        evidence=[EvidenceView(e.stance, fact_view(builder, e.fact, url, root_of(url))) for e in opinion.evidence],
        origin_href=href(url, source_url(opinion.origin.source)),
        by=opinion.origin.by,
    )


def day_summary(builder: PageBuilder, note: Note, url: str) -> DaySummary:
    """A dated note as the timeline and the home page list it: its date, first line and how many facts."""
    assert note.date is not None
    return DaySummary(
        href=href(url, note.url),
        date=note.date.isoformat(),
        weekday=note.date.strftime("%A"),
        summary_html=builder.inline(first_line_markdown(note), url),
        fact_count=len(note.facts),
    )
