"""The Atom feed of daily logs and the sitemap: files for feed readers and crawlers.

Links in the feed are relative: the feed's ``xml:base`` is the hosted URL when
``base_url`` is set, and each entry's content (the day's page, rendered once for
both) has ``xml:base="memory/"`` because its links are relative to that folder.
A sitemap must list absolute URLs, so it is only written when ``base_url`` is
known. Nothing depends on the clock: a feed's ``updated`` is the date of its
newest log.
"""

from __future__ import annotations

import uuid

from site_builder.core.model import Note
from site_builder.library.summaries import first_paragraph, shorten
from site_builder.site.builder import PageBuilder
from site_builder.site.page_views import FeedEntry, FeedPage, SitemapPage

FEED_ENTRIES = 50


FEED_URL = "feed.xml"


def _feed_days(builder: PageBuilder) -> list[Note]:
    return [n for n in builder.library.days if n.date][-FEED_ENTRIES:][::-1]


def feed_inputs(builder: PageBuilder) -> object:
    """What the feed is made from, besides what every page shares (the settings, what links resolve to): its days."""
    return [(n.path, n.title, n.date, builder.text_digest(n)) for n in _feed_days(builder)]


def feed_page(builder: PageBuilder) -> FeedPage:
    """The newest daily logs, newest first, each with its page's body."""
    config = builder.config
    days = _feed_days(builder)
    entries = [
        FeedEntry(
            title=_title(note),
            id=_id(config.base_url, config.title, note.url),
            href=note.url,
            date=note.date.isoformat() if note.date else "",
            summary=shorten(first_paragraph(note), 280),
            html=builder.note_html(note),
            base=note.url.rpartition("/")[0] + "/" if "/" in note.url else "",
        )
        for note in days
    ]
    return FeedPage(
        chrome=builder.chrome(FEED_URL, kind="feed", title=f"{config.title}: daily logs", section="days", listed=False),
        feed_id=_id(config.base_url, config.title, FEED_URL),
        updated=entries[0].date if entries else "1970-01-01",
        entries=entries,
    )


def sitemap_page(builder: PageBuilder, listed: list[str]) -> SitemapPage | None:
    """The listed pages' absolute URLs (``listed``: their site paths); ``None`` when ``base_url`` is unknown."""
    base = builder.config.base_url
    if not base:
        return None
    urls = sorted(f"{base}/{url}" for url in listed)
    chrome = builder.chrome("sitemap.xml", kind="sitemap", title="Sitemap", section="", listed=False)
    return SitemapPage(chrome=chrome, urls=urls)


def _title(note: Note) -> str:
    if note.date and note.title == note.date.isoformat():
        return f"{note.date:%A} {note.date.day} {note.date:%B %Y}"
    return note.title


def _id(base_url: str, title: str, url: str) -> str:
    """A permanent Atom id: the page's URL when hosted, else a UUID derived from title and path."""
    if base_url:
        return f"{base_url}/{url}"
    return uuid.uuid5(uuid.NAMESPACE_URL, f"memwiki:{title}:{url}").urn
