"""The Atom feed of daily logs and the sitemap: files for feed readers and crawlers.

Links in the feed are relative: the feed's ``xml:base`` is the hosted URL when
``base_url`` is set, and each entry's content (the day's page, rendered once for
both) has ``xml:base="memory/"`` because its links are relative to that folder. A sitemap must list absolute URLs, so it is only
written when ``base_url`` is known. Nothing depends on the clock: a feed's
``updated`` is the date of its newest log.
"""

from __future__ import annotations

import uuid

from site_builder.core.model import Note
from site_builder.library.summaries import first_paragraph, shorten
from site_builder.site.pages import PageBuilder
from site_builder.site.views import FeedEntry, FeedPage, PageView, SitemapPage

FEED_ENTRIES = 50
NOT_IN_SITEMAP = {"404.html", "search.html"}


def feed_page(builder: PageBuilder) -> FeedPage:
    config = builder.config
    days = [n for n in builder.library.days if n.date][-FEED_ENTRIES:][::-1]
    entries = [
        FeedEntry(
            title=_title(note),
            id=_id(config.base_url, config.title, note.url),
            href=note.url,
            date=note.date.isoformat() if note.date else "",
            summary=shorten(first_paragraph(note), 280),
            html=builder.note_html(note),
        )
        for note in days
    ]
    return FeedPage(
        **builder.base("feed.xml", "feed.xml", f"{config.title}: daily logs", "days"),  # type: ignore[arg-type]
        feed_id=_id(config.base_url, config.title, "feed.xml"),
        updated=entries[0].date if entries else "1970-01-01",
        entries=entries,
    )


def sitemap_page(builder: PageBuilder, pages: list[PageView]) -> SitemapPage | None:
    base = builder.config.base_url
    if not base:
        return None
    urls = sorted(f"{base}/{p.url}" for p in pages if p.url.endswith(".html") and p.url not in NOT_IN_SITEMAP)
    return SitemapPage(**builder.base("sitemap.xml", "sitemap.xml", "Sitemap", ""), urls=urls)  # type: ignore[arg-type]


def _title(note: Note) -> str:
    if note.date and note.title == note.date.isoformat():
        return f"{note.date:%A} {note.date.day} {note.date:%B %Y}"
    return note.title


def _id(base_url: str, title: str, url: str) -> str:
    """A permanent Atom id: the page's URL when hosted, else a UUID derived from title and path."""
    if base_url:
        return f"{base_url}/{url}"
    return uuid.uuid5(uuid.NAMESPACE_URL, f"memwiki:{title}:{url}").urn
