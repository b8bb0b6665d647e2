"""Why a recall query found nothing, in one sentence that says what to try.

"No matching lines" leaves an agent (or a person) guessing: was the name unknown, the time wrong, or the words?
A query that names a time ("last week") on an archived workspace whose newest log is a year old finds nothing
because nothing is dated then: the answer says which days memory has and suggests ``--now``. An entity that
is known but has no line the query's words match is not "unknown": the answer says how many lines are about it.
"""

from __future__ import annotations

import datetime as dt

from site_builder.recall.candidates import phrase
from site_builder.recall.entity_naming import entity_names, resolve_entity
from site_builder.recall.index import RecallIndex
from site_builder.recall.query import QueryError, RecallQuery
from site_builder.recall.time_words import time_window


def why_nothing(index: RecallIndex, query: RecallQuery) -> str:
    """What an empty answer to ``query`` means, and what to try."""
    if index.is_empty():
        return "The workspace has no lines to search yet."
    window = time_window(query.text, query.today)[0] if query.today else None
    since = max(filter(None, (query.since, window[0] if window else None)), default=None)
    until = min(filter(None, (query.until, window[1] if window else None)), default=None)
    if since or until:
        first, last = index.db.execute("SELECT min(date), max(date) FROM docs WHERE date IS NOT NULL").fetchone()
        if first is None:
            return "No line has a date (memory keeps no dated logs): ask without a time, --since or --until."
        if not _dated_between(index, since, until):
            return (
                f"No line is dated {_span(since, until)}; memory's lines are dated from {first} to {last}. "
                f"Count times like 'last week' from its newest day with --now {last}, or give --since/--until."
            )
    if query.entity:
        try:
            key = resolve_entity(index, query.entity)
        except QueryError as exc:
            return str(exc)[:1].upper() + str(exc)[1:] + "."
        about = _lines_about(index, key)
        if not about:
            return f"'{query.entity}' is known, but no line is about it yet."
        return (
            f"None of the {about} lines about '{query.entity}' matches '{query.text}': try other words, "
            f"or the entity's own name ('{query.entity}') to list them."
        )
    return f"No line matches '{query.text}': try fewer or other words."


def _dated_between(index: RecallIndex, since: dt.date | None, until: dt.date | None) -> bool:
    low = since.isoformat() if since else "0000-00-00"
    high = until.isoformat() if until else "9999-99-99"
    row = index.db.execute("SELECT 1 FROM docs WHERE date BETWEEN ? AND ? LIMIT 1", (low, high)).fetchone()
    return row is not None


def _span(since: dt.date | None, until: dt.date | None) -> str:
    if since and until:
        return f"on {since}" if since == until else f"from {since} to {until}"
    return f"on or after {since}" if since else f"on or before {until}"


def _lines_about(index: RecallIndex, key: str) -> int:
    """How many lines are about the entity (any of its names)."""
    names = " OR ".join(phrase(name.replace("-", " ")) for name in sorted(entity_names(index, key)))
    row = index.db.execute("SELECT count(*) FROM docs_fts WHERE docs_fts MATCH ?", (f"entities : ({names})",))
    return int(row.fetchone()[0])
