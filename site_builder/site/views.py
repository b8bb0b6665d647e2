"""Template contexts: the read-only views templates receive.

Templates never see the model. Every page view (``page_views``) holds a
``Chrome`` (what ``base.html`` shows around the content) and names its
template; the views here are the items those pages list, the chrome and the
``PageView`` they share. Each field is documented by a ``#:``
comment on its line, and ``tests/test_views.py`` checks that templates use
exactly the documented fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class LinkView:
    """A link with optional secondary text, e.g. an entity and its mention count."""

    text: str  #: what the link says
    href: str  #: where it leads, relative to the page
    note: str = ""  #: muted text after the link, e.g. "3 mentions"
    css: str = ""  #: CSS class, "missing" for an entity without a page


@dataclass(frozen=True)
class ClaimView:
    """A claim a page makes (``core.model.Claim``) as its entity's page shows it."""

    text_html: str  #: the statement as HTML
    status: str  #: as written: supported, contested, superseded…; "" when none is given
    confidence: str  #: "0.80", "" when none is given
    evidence: list[LinkView]  #: the cited lines, each a link
    doubted: bool  #: contested or superseded: shown struck through or marked


@dataclass(frozen=True)
class NavLink:
    """An entry of the main navigation."""

    text: str  #: the section's name
    href: str  #: the section's page, relative to the page (absolute on the 404 page)
    current: bool  #: the page belongs to this section


@dataclass(frozen=True)
class FactView:
    """One Retain fact as shown in lists: kind badge, text, date and citation."""

    id: str  #: the fact's id, anchor of its list item
    kind: str  #: W, B, O or S
    kind_name: str  #: the kind in words, e.g. "world"
    html: str  #: the fact's text as HTML
    date: str  #: ISO date of the log that states it, "" outside logs
    occurred: str  #: when it happens ("2025-11-27" or a range), "" when not said
    source: str  #: the note and line that state it, cited when there is no date
    href: str  #: link to that line
    confidence: str  #: "0.80", "" when not given
    by: str = ""  #: "claude" when Claude read it from the note's prose (``reflect.reader``), else ""


@dataclass(frozen=True)
class BacklinkGroup:
    """Backlinks from one source note."""

    source: LinkView  #: the note that links here
    items_html: str  #: its lines that do, as list items (``backlink_item``)
    count: int  #: how many lines


@dataclass(frozen=True)
class FactGroup:
    """The facts of one month, or the undated ones."""

    label: str  #: e.g. "November 2025", or "Not dated"
    id: str  #: its anchor, e.g. "2025-11"
    facts_html: str  #: its facts, newest first, as list items (``partials/fact.html``)
    count: int  #: how many facts


@dataclass(frozen=True)
class KindCount:
    """A kind of fact and how many there are, for the facts page's filter."""

    kind: str  #: W, B, O or S
    name: str  #: the kind in words
    count: int  #: how many facts of the kind


@dataclass(frozen=True)
class EvidenceView:
    """A fact for or against an opinion."""

    stance: str  #: "supports" or "contradicts", also a CSS class
    fact: FactView  #: the fact


@dataclass(frozen=True)
class OpinionView:
    """An opinion card: statement, confidence, chart and evidence."""

    id: str  #: the opinion's id, anchor of its card
    statement_html: str  #: the statement as HTML
    confidence_text: str  #: current confidence, "0.80"
    changed: str  #: ISO date of the last change, "" when never changed
    chart_svg: str  #: inline SVG of the confidence history, "" unless it has two dated points or more
    entities: list[LinkView]  #: the entities it is about
    evidence: list[EvidenceView]  #: facts for and against it
    origin_href: str  #: link to where it was first stated
    by: str = ""  #: "claude" when Claude read it from the note's prose (``reflect.reader``), else ""


@dataclass(frozen=True)
class DaySummary:
    """A daily log in a list: date, first words and how many facts it retains."""

    href: str  #: link to the day's page
    date: str  #: ISO date
    weekday: str  #: e.g. "Monday"
    summary_html: str  #: the log's first line of prose, as HTML
    fact_count: int  #: how many Retain facts it has


@dataclass(frozen=True)
class MonthView:
    """A month in the archive list."""

    label: str  #: e.g. "November 2025"
    href: str  #: link to the month's page
    count: int  #: how many logs it has


@dataclass(frozen=True)
class HygieneItem:
    """One finding of the hygiene report."""

    where: str  #: "path:line" or "path"
    href: str  #: link to the place, "" when it has no page
    message: str  #: what is wrong


@dataclass(frozen=True)
class HygieneSection:
    """A group of findings of one sort."""

    title: str  #: the section's heading
    explanation: str  #: why these findings matter
    items: list[HygieneItem]  #: the findings (on the report, only the first of a section with a page of its own)
    count: int  #: how many findings of this sort there are
    page_href: str  #: the section's own page, holding all its findings; "" when the report holds them all


@dataclass(frozen=True)
class GraphView:
    """A graph drawn by ``_theme/graph.js`` from its JSON: the whole co-mention graph, or an entity's neighbourhood.

    ``data`` is ``{"nodes": [{"name", "href", "mentions", "group"}], "edges": [[a, b, weight]], "focus": i}``:
    ``href`` relative to the page, ``group`` an entity's type (``"entity"`` untyped, ``"missing"`` without a page)
    or ``"day"``, edges index ``nodes``, ``focus`` the node the graph is about (-1: none).
    """

    data: str  #: the graph as JSON, safe inside ``<script type="application/json">``
    label: str  #: what it shows in words, e.g. "Anna and 8 related entities"
    full: bool  #: the whole graph with its tools (search, days, zoom); False: a small graph in a page


@dataclass(frozen=True)
class Chrome:
    """What ``base.html`` shows around every page's content."""

    kind: str  #: the page's kind, its body's CSS class ``page-<kind>``
    title: str  #: the page's title; the home page's is the site title
    url: str  #: the page's path in the site, e.g. ``memory/2025-11-27.html``
    root: str  #: prefix that leads back to the site root, so the site works from any path
    site_title: str  #: the site's title from memwiki.toml
    lang: str  #: the site's language (``site.language``), its ``<html lang>``
    base_url: str  #: absolute URL of the hosted site, "" when unknown
    css: str  #: site path of the workspace's stylesheet (``[site] css``), linked last; "" when none
    listed: bool  #: a content page: canonical link and sitemap entry (not search or 404)
    searchable: bool  #: Pagefind indexes the page's main content
    nav: list[NavLink]  #: the main navigation
    pagefind_meta: dict[str, str]  #: Pagefind metadata: the page's kind and date
    pagefind_filters: dict[str, list[str]]  #: Pagefind filter values: page kind, fact kinds, year, entities


@dataclass(frozen=True)
class PageView:
    """A page: its chrome; subclasses name their template and add their content."""

    template: ClassVar[str]
    chrome: Chrome  #: title, navigation and search data around the content
