"""Page views: the view each page's template receives as ``page`` (the items they list are in ``views``; the agent
page's and a project page's, with their parts, in ``agent_views`` and ``project_views``).

Every page view holds a ``Chrome`` and names its template. Each field is documented by a ``#:`` comment on its
line, and ``tests/test_views.py`` checks that templates use exactly the documented fields.
"""

from __future__ import annotations

from dataclasses import dataclass

from site_builder.site.views import (
    BacklinkGroup,
    ClaimView,
    DaySummary,
    FactGroup,
    GraphView,
    HygieneSection,
    KindCount,
    LinkView,
    MonthView,
    OpinionView,
    PageView,
)


@dataclass(frozen=True)
class NotFoundPage(PageView):
    """``404.html``: links back into the site and nothing else."""

    template = "404.html"


@dataclass(frozen=True)
class HomePage(PageView):
    """The home page: core memory, recent days, active entities and opinions."""

    template = "home.html"
    core_title: str  #: its card's heading: the core memory's own first heading, else "Core memory"
    core_html: str  #: the core memory (MEMORY.md, memory.md, knowledge.md…) as HTML, without that heading
    core_href: str  #: link to the core memory's own page, "" without one
    core_source: str  #: the core memory's path in the workspace, "" without one
    core_rest_html: str  #: the rest of a long core memory, folded below its start; "" when it is all shown
    core_more: int  #: how many lines that rest holds
    standing: list[LinkView]  #: the files the agent loads every session: persona, user, instructions, tools…
    sections: list[LinkView]  #: the workspace's folders and its other top-level pages
    recent: list[DaySummary]  #: the newest daily logs, newest first
    active_entities: list[LinkView]  #: the most mentioned entities
    opinions: list[OpinionView]  #: the first opinions
    stats: list[LinkView]  #: counts of logs, facts, entities and opinions (hrefs from the root)


@dataclass(frozen=True)
class NotePage(PageView):
    """Core memory, SOUL.md, bank pages and daily logs: a rendered Markdown body."""

    template = "note.html"
    html: str  #: the note as HTML
    heading: str  #: the note's title as a heading, "" when its text opens with its own
    description: str  #: the ``description`` of its front matter (Claude Code, ClawXMemory), "" without one
    source: str  #: the note's path in the workspace
    date: str  #: ISO date of a daily log, "" for other notes
    prev: LinkView | None  #: the day before, on a day's page
    next: LinkView | None  #: the day after, on a day's page
    crumbs: list[LinkView]  #: the way back up: Days and the month for a day's page, else the note's folders
    tags: list[LinkView]  #: the tags of its front matter, each linking to its page
    same_day: list[LinkView]  #: the other files of the same day (sessions, dream reports), or that day's page
    entities: list[LinkView]  #: the entities the note mentions
    about: list[LinkView]  #: the entities the note is about whose pages memwiki makes (a profile's user, a project)
    kind_name: str  #: on bank/world.md and bank/experience.md the kind of fact they are named after, else ""
    kind_facts: list[FactGroup]  #: those facts from the rest of the workspace, by month, newest first
    kind_facts_older: str  #: how many older ones are only on the facts pages, e.g. "1,204 world facts"; "" if none
    backlinks: list[BacklinkGroup]  #: lines linking here, then the entities and opinions citing its facts
    folders: list[LinkView]  #: on a folder's ``index.md``, the folder's sub-folders (else none)
    files: list[LinkView]  #: and its other notes


@dataclass(frozen=True)
class TimelinePage(PageView):
    """The daily logs (with calendars and months) or one month of them."""

    template = "timeline.html"
    heatmaps: list[str]  #: inline SVG calendars, newest year first (none on month pages)
    months: list[MonthView]  #: the month archives (none on month pages)
    days: list[DaySummary]  #: the logs listed
    folders: list[LinkView]  #: sub-folders of memory/ (timeline only)
    files: list[LinkView]  #: files in memory/ without a date (timeline only)
    older: int = 0  #: days not listed on the timeline (the month pages list them)


@dataclass(frozen=True)
class FolderPage(PageView):
    """A folder of notes: its sub-folders and files."""

    template = "folder.html"
    crumbs: list[LinkView]  #: the folders above this one
    folders: list[LinkView]  #: its sub-folders, with how many files each holds
    files: list[LinkView]  #: its notes, with their date and kind
    backlinks: list[BacklinkGroup]  #: lines of notes outside the folder that link to notes in it
    readme: LinkView | None  #: its README, shown below the listing (its own page too), None without one
    readme_html: str  #: that README as HTML


@dataclass(frozen=True)
class TagPage(PageView):
    """One tag: the notes and lines that carry it."""

    template = "tag.html"
    crumbs: list[LinkView]  #: the tag index, then the tags this one is nested in (``#a`` over ``#a/b``)
    summary: str  #: how much carries it, e.g. "12 places in 3 notes"
    nested: list[LinkView]  #: the tags nested in it, each linking to its page
    groups: list[BacklinkGroup]  #: the places by note (path as the source's note): days newest first, then by path


@dataclass(frozen=True)
class TagIndexPage(PageView):
    """Every tag of the workspace, with how often it is used."""

    template = "tags.html"
    most_used: list[LinkView]  #: the most used tags, most used first
    tags: list[LinkView]  #: every tag by name (nested ones under theirs), ``note`` how often it is used


@dataclass(frozen=True)
class RecordsPage(PageView):
    """The episodes that carry one tag."""

    template = "records.html"
    crumbs: list[LinkView]  #: the folders above, then the episodes page
    html: str  #: the episodes as cards, each linking to its line
    count: int  #: how many episodes


@dataclass(frozen=True)
class EntityPage(PageView):
    """An entity: its own text (if it has a page), backlinks, facts and relations."""

    template = "entity.html"
    name: str  #: the entity's name (the page's own heading shows it otherwise)
    type: str  #: e.g. "person", "" when not given
    aliases: list[str]  #: other names
    placeholder: bool  #: mentioned but without a page of its own
    in_prose: bool  #: found named in the workspace's prose (no page of its own, and none expected)
    by: str  #: "claude" when Claude found it (``reflect.reader``) and nothing else names it so, else ""
    home: LinkView | None  #: the note about it that is no entity page (the user's profile), None without one
    opening_html: str  #: what that note says first (its description or first line) as HTML, "" without one
    mentions_chart: str  #: inline SVG of its mentions by month, "" unless they are many (``MANY_MENTIONS``)
    claims: list[ClaimView]  #: what its home page claims (a memory-wiki page), newest first as written
    html: str  #: its page as HTML
    source: str  #: its page's path in the workspace
    first_seen: str  #: ISO date of the first log that mentions it
    last_seen: str  #: ISO date of the last one
    backlinks: list[BacklinkGroup]  #: lines that mention it or link to its page: logs newest first, then other notes
    facts_html: str  #: facts about it, newest first, as list items (``partials/fact.html``)
    related: list[LinkView]  #: entities mentioned alongside it
    opinions: list[OpinionView]  #: opinions about it
    summary: str  #: reflect's summary from the page's generated block, "" without one
    summary_html: str  #: that summary as HTML
    graph: GraphView | None  #: the entity and its closest co-mentioned entities, None when it has none


@dataclass(frozen=True)
class GraphPage(PageView):
    """``graph.html``: every entity (and, on demand, day) and how they are mentioned together."""

    template = "graph.html"
    graph: GraphView  #: the whole graph
    entities: int  #: how many entities it has
    days: int  #: how many days mention an entity
    edges: int  #: how many entity–entity edges


@dataclass(frozen=True)
class EntityIndexPage(PageView):
    """All entities grouped by type."""

    template = "entities.html"
    groups: list[tuple[str, list[LinkView]]]  #: (type, its entities by name), typed groups first


@dataclass(frozen=True)
class OpinionsPage(PageView):
    """A page of opinions, then (on the first) bank/opinions.md itself, folded away (the cards show what it says)."""

    template = "opinions.html"
    opinions: list[OpinionView]  #: this page's opinions, highest confidence first
    html: str  #: bank/opinions.md as HTML, on the first page only; "" without one
    pages: list[LinkView]  #: every page of opinions, this one marked "current"; [] when there is one page
    count: str  #: how many opinions there are on all pages ("13,644 opinions"), or on this one when not the first
    first: bool  #: the first page of opinions


@dataclass(frozen=True)
class FactsPage(PageView):
    """``facts.html``: every Retain fact (or, in a heavy workspace, a year of them), newest first by month, filtered
    by kind in the page."""

    template = "facts.html"
    kinds: list[KindCount]  #: the kinds present on this page, in W, B, O, S order
    groups: list[FactGroup]  #: this page's facts by month, newest first; the undated last
    total: int  #: how many facts this page holds
    years: list[LinkView]  #: every page of facts (a year each), this one marked "current"; [] when there is one
    everything: str  #: how many facts there are on all pages (on the first; on the others: on this one)


@dataclass(frozen=True)
class HygienePage(PageView):
    """The hygiene report: findings by section."""

    template = "hygiene.html"
    sections: list[HygieneSection]  #: the sections with findings, in the report's order
    clean: list[HygieneSection]  #: the checks that found nothing
    total: int  #: how many findings in all
    shown: int  #: how many findings of a section are shown before the rest


@dataclass(frozen=True)
class HygieneSectionPage(PageView):
    """A section of the hygiene report with all its findings (one with too many for the report)."""

    template = "hygiene_section.html"
    section: HygieneSection  #: the section, every finding in it
    report: str  #: link to the whole report


@dataclass(frozen=True)
class SearchPage(PageView):
    """The search page: its filter choices are known at build time, results come from Pagefind."""

    template = "search.html"
    kinds: list[str]  #: fact kinds present, in words
    entities: list[str]  #: entity names, by name
    years: list[str]  #: years with logs, newest first
    page_kinds: list[str]  #: page kinds present, in words
    tags: list[LinkView]  #: the workspace's tags: text "#name", ``href`` the filter's value (the tag's key)


@dataclass(frozen=True)
class FeedEntry:
    """A daily log in the Atom feed."""

    title: str  #: e.g. "Thursday 27 November 2025"
    id: str  #: permanent Atom id
    href: str  #: the day's page, relative to the site root
    date: str  #: ISO date
    summary: str  #: the log's first paragraph, shortened
    html: str  #: the day's page body as HTML
    base: str  #: the folder of the day's page, which the links of ``html`` start from ("" at the site root)


@dataclass(frozen=True)
class FeedPage(PageView):
    """``feed.xml``: an Atom feed of the newest daily logs."""

    template = "feed.xml"
    feed_id: str  #: permanent Atom id of the feed
    updated: str  #: ISO date of the newest log
    entries: list[FeedEntry]  #: the newest logs, newest first


@dataclass(frozen=True)
class SitemapPage(PageView):
    """``sitemap.xml``: absolute URLs of every content page (needs ``base_url``)."""

    template = "sitemap.xml"
    urls: list[str]  #: absolute URLs, sorted
