"""``page_jobs``: every page of the site, built by its page-kind module, in a stable order."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import NamedTuple, TypeVar

from site_builder.core.model import Fact, Note
from site_builder.core.names import TAG_INDEX_URL, opinions_page_url, tag_url
from site_builder.library.hygiene import Section
from site_builder.library.link import OPINIONS_PATH
from site_builder.site.agent_page import agent_page
from site_builder.site.builder import PageBuilder
from site_builder.site.entity_page import (
    INDEX_URL,
    entity_index_inputs,
    entity_index_page,
    entity_page,
    entity_page_inputs,
)
from site_builder.site.facts_page import fact_pages, facts_page, facts_page_inputs
from site_builder.site.feeds import FEED_URL, feed_inputs, feed_page
from site_builder.site.folder_page import folder_pages
from site_builder.site.graph_page import URL as GRAPH_URL
from site_builder.site.graph_page import graph_page, graph_page_inputs
from site_builder.site.home_page import home_page
from site_builder.site.hygiene_page import URL as HYGIENE_URL
from site_builder.site.hygiene_page import (
    hygiene_page,
    hygiene_page_inputs,
    own_page,
    section_page,
    section_page_inputs,
    section_url,
)
from site_builder.site.not_found_page import not_found_page
from site_builder.site.note_page import note_page, note_page_inputs
from site_builder.site.opinions_page import opinions_page, opinions_page_inputs
from site_builder.site.opinions_page import page_count as opinion_page_count
from site_builder.site.project_page import project_pages
from site_builder.site.records_page import tag_pages
from site_builder.site.search_page import search_page
from site_builder.site.tags_page import tag_index_inputs, tag_index_page, tag_page, tag_page_inputs
from site_builder.site.timeline_page import (
    TIMELINE_URL,
    Month,
    month_groups,
    month_page,
    month_page_inputs,
    month_url,
    timeline_page,
    timeline_page_inputs,
)
from site_builder.site.views import PageView

T = TypeVar("T")


class PageJob(NamedTuple):  # a tuple: made for every page of every build, five times faster than a frozen dataclass
    """Pages to make (``make``). A job of one page at ``url`` may also say what that page is made from
    (``inputs``: plain values, cheap to gather, that decide every byte of it), so that a rebuild can keep the page
    as the last build made it without making its view."""

    make: Callable[[], list[PageView]]
    url: str = ""
    inputs: Callable[[], object] | None = None  # None from it: this page reads more, make its view
    searchable: bool = True  # the page at ``url`` is searched (without ``url``: a page it makes may be)
    listed: bool = True  # the page at ``url`` is in the sitemap
    # Made in the build's own process once every other page is: it shows notes their pages render (the feed), which
    # a forked child's pages rendered only there until then.
    ending: bool = False


def page_jobs(builder: PageBuilder, layouts: tuple[str, ...]) -> list[PageJob]:
    """Every page of the site as work to do, in a stable order: one job per note and per entity (the bulk of the
    work, so it spreads evenly over processes), one per other page or group of pages."""
    library = builder.library
    notes = [n for n in library.notes if n.kind != "entity" and n.path != OPINIONS_PATH]
    return [
        PageJob(lambda: [home_page(builder)], searchable=False),
        PageJob(lambda: [timeline_page(builder)], TIMELINE_URL, lambda: timeline_page_inputs(builder), False),
        *(_month_job(builder, month, days) for month, days in month_groups(builder.days)),
        *(_one(note_page, note_page_inputs, builder, note, note.url) for note in notes),
        *(
            _one(opinions_page, opinions_page_inputs, builder, number, opinions_page_url(number))
            for number in range(1, opinion_page_count(builder) + 1)
        ),
        PageJob(lambda: [entity_index_page(builder)], INDEX_URL, lambda: entity_index_inputs(builder), False),
        PageJob(lambda: [graph_page(builder)], GRAPH_URL, lambda: graph_page_inputs(builder), False),
        *_facts_jobs(builder),
        *(_one(entity_page, entity_page_inputs, builder, e, e.url) for e in library.entities.values()),
        PageJob(lambda: [*folder_pages(builder), *project_pages(builder), *tag_pages(builder)]),
        *_tag_jobs(builder),
        PageJob(lambda: [agent_page(builder, layouts)], searchable=False),
        PageJob(lambda: [search_page(builder), not_found_page(builder)], searchable=False),
        PageJob(lambda: [feed_page(builder)], FEED_URL, lambda: feed_inputs(builder), False, False, ending=True),
    ]


def hygiene_jobs(builder: PageBuilder, sections: list[Section]) -> list[PageJob]:
    """The hygiene report and the pages of its biggest sections (none searched)."""
    return [
        PageJob(
            lambda: [hygiene_page(builder, sections)],
            HYGIENE_URL,
            functools.partial(_every_text, builder, functools.partial(hygiene_page_inputs, sections)),
            False,
        ),
        *(
            PageJob(
                functools.partial(_section_made, builder, s),
                section_url(s),
                functools.partial(_every_text, builder, functools.partial(section_page_inputs, s)),
                False,
            )
            for s in sections
            if own_page(s)
        ),
    ]


def _one(
    make: Callable[[PageBuilder, T], PageView],
    inputs: Callable[[PageBuilder, T], object],
    builder: PageBuilder,
    item: T,
    url: str,
) -> PageJob:
    return PageJob(functools.partial(_made, make, builder, item), url, functools.partial(inputs, builder, item))


def _every_text(builder: PageBuilder, inputs: Callable[[], object]) -> object:
    """``inputs()``, of a page that shows what every file's parse found: it reads every text."""
    builder.reads_every_text()
    return inputs()


def _made(make: Callable[[PageBuilder, T], PageView], builder: PageBuilder, item: T) -> list[PageView]:
    return [make(builder, item)]


def _facts_jobs(builder: PageBuilder) -> list[PageJob]:
    pages = fact_pages(builder.library.facts)
    return [
        PageJob(
            functools.partial(_facts_made, builder, pages, url),
            url,
            functools.partial(facts_page_inputs, pages, url),
            False,
        )
        for url in pages
    ]


def _tag_jobs(builder: PageBuilder) -> list[PageJob]:
    """The tag index and a page per tag (none when no note carries a tag)."""
    if not builder.tags:
        return []
    return [
        PageJob(lambda: [tag_index_page(builder)], TAG_INDEX_URL, lambda: tag_index_inputs(builder), False),
        *(
            PageJob(
                functools.partial(_made, tag_page, builder, use),
                tag_url(use.key),
                functools.partial(tag_page_inputs, builder, use),
                False,
            )
            for use in builder.tags.values()
        ),
    ]


def _section_made(builder: PageBuilder, section: Section) -> list[PageView]:
    return [section_page(builder, section)]


def _facts_made(builder: PageBuilder, pages: dict[str, list[Fact]], url: str) -> list[PageView]:
    return [facts_page(builder, pages, url)]


def _month_job(builder: PageBuilder, month: Month, days: list[Note]) -> PageJob:
    return PageJob(
        lambda: [month_page(builder, month, days)],
        month_url(month),
        lambda: month_page_inputs(builder, month, days),
        False,
    )
