"""Template contexts: the read-only views each page template receives as ``page``.

Templates never see the model. Every page view carries the fields of
``PageView``; the subclasses add what their template shows. ``tests/
test_views.py`` checks that templates use only documented fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class LinkView:
    """A link with optional secondary text, e.g. an entity and its mention count."""

    text: str
    href: str
    note: str = ""
    css: str = ""


@dataclass(frozen=True)
class FactView:
    """One Retain fact as shown in lists: kind badge, text, date and citation."""

    id: str
    kind: str
    kind_name: str
    html: str
    date: str
    occurred: str
    source: str
    href: str
    confidence: str
    entities: list[LinkView]


@dataclass(frozen=True)
class BacklinkLine:
    """A line that links to an entity: the sentence (HTML) and its line anchor."""

    html: str
    href: str
    line: int


@dataclass(frozen=True)
class BacklinkGroup:
    """Backlinks from one source note, with the note's date when it is a log."""

    source: LinkView
    date: str
    lines: list[BacklinkLine]


@dataclass(frozen=True)
class EvidenceView:
    stance: str
    fact: FactView


@dataclass(frozen=True)
class HistoryPoint:
    date: str
    value: str
    href: str


@dataclass(frozen=True)
class OpinionView:
    """An opinion card: statement, confidence, chart and evidence."""

    id: str
    statement_html: str
    confidence: float
    confidence_text: str
    changed: str
    chart_svg: str
    entities: list[LinkView]
    history: list[HistoryPoint]
    evidence: list[EvidenceView]
    origin_href: str


@dataclass(frozen=True)
class DaySummary:
    """A daily log in a list: date, first words and how many facts it retains."""

    title: str
    href: str
    date: str
    weekday: str
    summary: str
    fact_count: int


@dataclass(frozen=True)
class MonthView:
    label: str
    href: str
    count: int


@dataclass(frozen=True)
class HygieneItem:
    where: str
    href: str
    message: str


@dataclass(frozen=True)
class HygieneSection:
    title: str
    explanation: str
    items: list[HygieneItem]


@dataclass(frozen=True)
class PageView:
    """Fields every page has. ``root`` prefixes links so the site works from any path."""

    template: str
    title: str
    url: str
    root: str
    site_title: str
    section: str
    base_url: str = ""  # absolute URL of the hosted site, "" when unknown
    description: str = ""
    nav: list[LinkView] = field(default_factory=list)
    pagefind_meta: dict[str, str] = field(default_factory=dict)
    pagefind_filters: dict[str, list[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class HomePage(PageView):
    core_html: str = ""
    recent: list[DaySummary] = field(default_factory=list)
    active_entities: list[LinkView] = field(default_factory=list)
    opinions: list[OpinionView] = field(default_factory=list)
    stats: list[LinkView] = field(default_factory=list)


@dataclass(frozen=True)
class NotePage(PageView):
    """Core memory, SOUL.md, bank pages and daily logs: a rendered Markdown body."""

    html: str = ""
    source: str = ""
    date: str = ""
    prev: LinkView | None = None
    next: LinkView | None = None
    up: LinkView | None = None
    entities: list[LinkView] = field(default_factory=list)


@dataclass(frozen=True)
class TimelinePage(PageView):
    heatmaps: list[str] = field(default_factory=list)
    months: list[MonthView] = field(default_factory=list)
    days: list[DaySummary] = field(default_factory=list)


@dataclass(frozen=True)
class EntityPage(PageView):
    """An entity: its own text (if it has a page), backlinks, facts and relations."""

    name: str = ""
    type: str = ""
    aliases: list[str] = field(default_factory=list)
    placeholder: bool = False
    html: str = ""
    source: str = ""
    first_seen: str = ""
    last_seen: str = ""
    backlinks: list[BacklinkGroup] = field(default_factory=list)
    facts: list[FactView] = field(default_factory=list)
    related: list[LinkView] = field(default_factory=list)
    opinions: list[OpinionView] = field(default_factory=list)
    summary: str = ""  # reflect's summary from the page's generated block
    summary_html: str = ""


@dataclass(frozen=True)
class EntityIndexPage(PageView):
    groups: list[tuple[str, list[LinkView]]] = field(default_factory=list)


@dataclass(frozen=True)
class OpinionsPage(PageView):
    opinions: list[OpinionView] = field(default_factory=list)
    html: str = ""
    source: str = ""


@dataclass(frozen=True)
class HygienePage(PageView):
    sections: list[HygieneSection] = field(default_factory=list)
    total: int = 0


@dataclass(frozen=True)
class SearchPage(PageView):
    """The search page: its filter choices are known at build time, results come from Pagefind."""

    kinds: list[str] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    years: list[str] = field(default_factory=list)
    page_kinds: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class FeedEntry:
    title: str
    id: str
    href: str
    date: str
    summary: str
    html: str


@dataclass(frozen=True)
class FeedPage(PageView):
    """``feed.xml``: an Atom feed of the newest daily logs."""

    feed_id: str = ""
    updated: str = ""
    entries: list[FeedEntry] = field(default_factory=list)


@dataclass(frozen=True)
class SitemapPage(PageView):
    """``sitemap.xml``: absolute URLs of every content page (needs ``base_url``)."""

    urls: list[str] = field(default_factory=list)
