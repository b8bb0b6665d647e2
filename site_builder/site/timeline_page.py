"""The daily-log timeline (calendars, months, every day) and one page per month."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from itertools import groupby

from site_builder.core.model import Note
from site_builder.core.names import href
from site_builder.site.builder import PageBuilder
from site_builder.site.charts import HeatDay, heatmap
from site_builder.site.folder_page import folder_listing
from site_builder.site.item_views import day_summary
from site_builder.site.page_views import TimelinePage
from site_builder.site.views import MonthView


@dataclass(frozen=True)
class Month:
    """A month with daily logs: ``key`` is ``YYYY-MM``, ``label`` e.g. "November 2025"."""

    key: str
    label: str
    count: int


TIMELINE_URL = "memory/index.html"
# The timeline lists the latest days this many; the calendars and the month pages lead to every other one (a
# ten-year workspace's timeline would otherwise list thousands, made again whenever a day changes).
TIMELINE_DAYS = 100


def timeline_page_inputs(builder: PageBuilder) -> object:
    """What the timeline is made from, besides what every page shares: the days, and the other files and folders
    of ``memory/``."""
    return [(n.path, builder.text_digest(n), n.date) for n in builder.days], folder_listing(
        builder, "memory", TIMELINE_URL, dated=False
    )


def timeline_page(builder: PageBuilder) -> TimelinePage:
    url = TIMELINE_URL
    folders, files = folder_listing(builder, "memory", url, dated=False)
    return TimelinePage(
        chrome=builder.chrome(url, kind="timeline", title="Daily logs", section="days"),
        heatmaps=heatmaps(builder.days, url),
        months=[MonthView(m.label, href(url, month_url(m)), m.count) for m in months(builder.days)],
        days=[day_summary(builder, n, url) for n in reversed(builder.days[-TIMELINE_DAYS:])],
        folders=folders,
        files=files,
        older=max(0, len(builder.days) - TIMELINE_DAYS),
    )


def month_page(builder: PageBuilder, month: Month, days: list[Note]) -> TimelinePage:
    """The page of one ``month`` and its ``days``."""
    url = month_url(month)
    return TimelinePage(
        chrome=builder.chrome(url, kind="timeline", title=month.label, section="days"),
        heatmaps=[],
        months=[],
        days=[day_summary(builder, n, url) for n in days],
        folders=[],
        files=[],
    )


def month_page_inputs(builder: PageBuilder, month: Month, days: list[Note]) -> object:
    """What a month's page is made from, besides what every page shares: the month and its days (their texts, none
    of the linked library: held after a relink that leaves them)."""
    builder.reads_linked()
    return month, [(n.path, builder.text_digest(n), n.date) for n in days]


def month_url(month: Month) -> str:
    return f"memory/{month.key}.html"


def months(days: list[Note]) -> list[Month]:
    """The months with logs, newest first."""
    return [month for month, _ in month_groups(days)]


def month_groups(days: list[Note]) -> list[tuple[Month, list[Note]]]:
    """The months with logs, newest first, each with its logs (``days``: the logs in order)."""
    out = []
    for _, group in groupby(days, key=lambda n: (n.date.year, n.date.month) if n.date else None):
        notes = list(group)
        first = notes[0].date
        assert first is not None
        out.append((Month(first.strftime("%Y-%m"), first.strftime("%B %Y"), len(notes)), notes))
    return out[::-1]


def heatmaps(days: list[Note], url: str) -> list[str]:
    """One calendar per year, newest year first; a day's count is its non-blank lines (``Note.filled_lines``)."""
    by_year: dict[int, dict[dt.date, HeatDay]] = defaultdict(dict)
    for note in days:
        assert note.date is not None
        by_year[note.date.year][note.date] = HeatDay(note.date, note.filled_lines, href(url, note.url))
    return [heatmap(year, year_days) for year, year_days in sorted(by_year.items(), reverse=True)]
