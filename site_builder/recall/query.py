"""A recall query: its words, its filters and the day that relative times count from.

``--since`` and ``--until`` take what a query understands: an ISO date, a span
back from today (``30d``, ``2w``, ``6m``, ``1y``) or time words ("yesterday",
"last week", "in November 2025"). ``--since`` takes the first day they name,
``--until`` the last. "Today" is the real day unless ``--now`` says otherwise
(an archived workspace).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from site_builder.recall.query_language import stop_words_of
from site_builder.recall.scripts import query_grams, without_cjk
from site_builder.recall.time_words import time_window

DEFAULT_K = 10
MAX_QUERY_CHARS = 2000  # longer text is not a question; it is cut, not searched whole


class QueryError(ValueError):
    """The query or one of its filters cannot be used; the message says why."""


@dataclass(frozen=True)
class RecallQuery:
    text: str
    k: int = DEFAULT_K
    since: dt.date | None = None
    until: dt.date | None = None
    entity: str | None = None
    kind: str | None = None
    today: dt.date | None = None  # enables time words in the query ("last week")


def parse_when(value: str, today: dt.date, *, end: bool = False) -> dt.date:
    """``30d``/``2w``/``6m``/``1y`` back from today, an ISO date, or time words; the last day of them when ``end``."""
    m = re.fullmatch(r"\s*(\d+)\s*([dwmy])\s*", value)
    if m:
        days = int(m[1]) * {"d": 1, "w": 7, "m": 30, "y": 365}[m[2]]
        return today - dt.timedelta(days=days)
    try:
        return dt.date.fromisoformat(value.strip())
    except ValueError:
        pass
    window, rest = time_window(value, today)
    if window is not None and not re.sub(r"\b(?:in|on|during|since|until|the)\b", "", rest, flags=re.I).strip():
        return window[1] if end else window[0]
    raise QueryError(
        f"'{value}' is not a date: use YYYY-MM-DD, a span like 30d, 2w, 6m, 1y, or words like 'yesterday', "
        "'last week', 'in November 2025'"
    )


def parse_now(value: str | None) -> dt.date:
    """The day relative times count from: ``--now`` (YYYY-MM-DD) or the real today."""
    if not value:
        return dt.date.today()
    try:
        return dt.date.fromisoformat(value.strip())
    except ValueError:
        raise QueryError(f"--now '{value}' is not a date (use YYYY-MM-DD)") from None


def make_query(
    text: str, *, k: int, since: str | None, until: str | None, entity: str | None, kind: str | None, today: dt.date
) -> RecallQuery:
    """A query from command-line (or tool) options; dates may be spans or time words relative to ``today``."""
    start = parse_when(since, today) if since else None
    stop = parse_when(until, today, end=True) if until else None
    if start and stop and start > stop:
        raise QueryError(f"--since {start.isoformat()} is after --until {stop.isoformat()}")
    return RecallQuery(text=text, k=k, since=start, until=stop, entity=entity or None, kind=kind, today=today)


def terms_of(text: str) -> list[str]:
    """The words a query is searched by: spaced words (no stop words of English or of the query's own language,
    ``query_language``) and the CJK pairs of unspaced text."""
    words = spaced_words(text)
    stop = stop_words_of(words)
    latin = [w for w in words if (w not in stop and len(w) > 1) or w.isdigit()]
    return list(dict.fromkeys([*latin, *query_grams(text[:MAX_QUERY_CHARS])]))


def spaced_words(text: str) -> list[str]:
    """The query's words outside CJK runs, casefolded, in order (of its first ``MAX_QUERY_CHARS``)."""
    return re.findall(r"\w+", without_cjk(text[:MAX_QUERY_CHARS]).casefold())
