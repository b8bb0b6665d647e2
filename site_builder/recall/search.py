"""Answer a recall query from the index: ranked, dated lines with citations.

Ranking: FTS5 BM25 with Porter stemming over the line itself, its neighbours
(lower weight) and its entities; then Retain facts get a small lift over raw
log lines, lines about an entity the query names are lifted further, and so
are lines dated inside a time the query names ("last week", "in November").
A query that is only a time ("what happened last week") lists that time's
lines, newest first.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

import click

from site_builder.core.names import entity_key
from site_builder.core.stop_words import STOP_WORDS
from site_builder.recall.index import RecallIndex
from site_builder.recall.time_words import time_window

WEIGHTS = (1.0, 0.5, 0.5)  # content, neighbouring lines, entities
FACT_LIFT = 1.1
ENTITY_LIFT = 1.25
TIME_LIFT = 1.5
CANDIDATES = 400


class QueryError(ValueError):
    """The query or one of its filters cannot be used; the message says why."""


@dataclass(frozen=True)
class RecallQuery:
    text: str
    k: int = 25
    since: dt.date | None = None
    until: dt.date | None = None
    entity: str | None = None
    kind: str | None = None
    today: dt.date | None = None  # enables time words in the query ("last week")


@dataclass(frozen=True)
class Hit:
    path: str
    line: int
    content: str
    date: str | None
    kind: str
    entities: tuple[str, ...]
    score: float

    @property
    def source(self) -> str:
        return f"{self.path}#L{self.line}"

    def as_text(self, rank: int) -> str:
        """Two lines for a terminal: rank, kind, date and the line; then its citation."""
        head = click.style(f"{rank:>2}. [{self.kind}] {self.date or ''}", bold=True)
        return f"{head} {self.content}\n    {click.style(self.source, fg='cyan')}"

    def as_json(self) -> dict[str, object]:
        return {
            "source": self.source,
            "content": self.content,
            "date": self.date,
            "kind": self.kind,
            "entities": list(self.entities),
            "score": round(self.score, 4),
        }


def parse_when(value: str, today: dt.date) -> dt.date:
    """``30d``, ``2w``, ``6m``, ``1y`` back from today, or an ISO date ``2025-11-27``."""
    m = re.fullmatch(r"\s*(\d+)\s*([dwmy])\s*", value)
    if m:
        days = int(m[1]) * {"d": 1, "w": 7, "m": 30, "y": 365}[m[2]]
        return today - dt.timedelta(days=days)
    try:
        return dt.date.fromisoformat(value.strip())
    except ValueError:
        raise QueryError(f"'{value}' is not a date (use YYYY-MM-DD) or a span like 30d, 2w, 6m, 1y") from None


def make_query(
    text: str, *, k: int, since: str | None, until: str | None, entity: str | None, kind: str | None, today: dt.date
) -> RecallQuery:
    """A query from command-line options; dates may be spans back from ``today`` (``30d``)."""
    return RecallQuery(
        text=text,
        k=k,
        since=parse_when(since, today) if since else None,
        until=parse_when(until, today) if until else None,
        entity=entity or None,
        kind=kind,
        today=today,
    )


def terms_of(text: str) -> list[str]:
    words = re.findall(r"\w+", text.casefold())
    return list(dict.fromkeys(w for w in words if (w not in STOP_WORDS and len(w) > 1) or w.isdigit()))


def resolve_entity(index: RecallIndex, name: str) -> str:
    key = entity_key(name)
    row = index.db.execute("SELECT key FROM aliases WHERE alias = ? LIMIT 1", (key,)).fetchone()
    if row:
        return str(row[0])
    known = index.db.execute(
        "SELECT 1 FROM docs_fts WHERE entities MATCH ? LIMIT 1", (_phrase(key.replace("-", " ")),)
    ).fetchone()
    if not known:
        raise QueryError(f"unknown entity '{name}': no page, alias or mention matches it")
    return key


def search(index: RecallIndex, query: RecallQuery) -> list[Hit]:
    """Top ``k`` hits for the query, best first; raises ``QueryError`` for unusable queries."""
    if not query.text.strip():
        raise QueryError("empty query")
    window, text = time_window(query.text, query.today) if query.today else (None, query.text)
    terms = terms_of(text)
    if not terms and window is None:
        raise QueryError("the query has only stop words; add a word that names what you look for")
    where, params, entity_keys = _conditions(index, query, terms, window)
    entity_keys |= _query_entities(index, terms)
    if terms:
        rank = f"bm25(docs_fts, {WEIGHTS[0]}, {WEIGHTS[1]}, {WEIGHTS[2]})"
        order = "rank"
    else:  # a time alone: newest first, facts before raw lines
        rank = "-1.0 - (d.kind IN ('W','B','O','S'))"
        order = "d.date DESC, rank, d.path, d.line"
    sql = f"""
        SELECT d.path, d.line, d.content, d.date, d.kind, d.entities, {rank} AS rank
        FROM docs_fts JOIN docs d ON d.id = docs_fts.rowid
        WHERE {" AND ".join(where)}
        ORDER BY {order} LIMIT {max(CANDIDATES, query.k)}
    """  # noqa: S608 - only constants are formatted in; values are bound
    hits = []
    for path, line, content, date, kind, entities, rank_value in index.db.execute(sql, params):
        keys = tuple(entities.split())
        score = -float(rank_value)
        if kind in ("W", "B", "O", "S"):
            score *= FACT_LIFT
        if entity_keys and entity_keys & set(keys):
            score *= ENTITY_LIFT
        if window and date and window[0].isoformat() <= date <= window[1].isoformat():
            score *= TIME_LIFT
        hits.append(Hit(path, line, content, date, kind, keys, score))
    if not terms:  # keep the date order; scores only break ties within a day
        hits.sort(key=lambda h: (h.path, h.line))
        hits.sort(key=lambda h: (h.date or "", h.score), reverse=True)
        return hits[: query.k]
    hits.sort(key=lambda h: (-h.score, h.path, h.line))
    return hits[: query.k]


def _conditions(
    index: RecallIndex, query: RecallQuery, terms: list[str], window: tuple[dt.date, dt.date] | None
) -> tuple[list[str], list[str], set[str]]:
    """SQL conditions and their values for the query's words or time and its filters, and the entity asked for."""
    where: list[str] = []
    params: list[str] = []
    if terms:
        where.append("docs_fts MATCH ?")
        params.append(" OR ".join(_phrase(t) for t in terms))
    elif window:
        where.append("d.date BETWEEN ? AND ?")
        params += [window[0].isoformat(), window[1].isoformat()]
    for condition, value in (("d.date >= ?", query.since), ("d.date <= ?", query.until)):
        if value:
            where.append(condition)
            params.append(value.isoformat())
    if query.kind:
        where.append("d.kind = ?")
        params.append(query.kind)
    entity_keys = set()
    if query.entity:
        key = resolve_entity(index, query.entity)
        where.append("(' ' || d.entities || ' ') LIKE ?")
        params.append(f"% {key} %")
        entity_keys.add(key)
    return where, params, entity_keys


def answer_json(index: RecallIndex, query: RecallQuery) -> dict[str, object]:
    """``{"query", "results"}`` for one query of a batch; an unusable query answers with an ``error``."""
    record: dict[str, object] = {"query": query.text}
    try:
        record["results"] = [hit.as_json() for hit in search(index, query)]
    except QueryError as exc:
        record["results"] = []
        record["error"] = str(exc)
    return record


def _query_entities(index: RecallIndex, terms: list[str]) -> set[str]:
    found = set()
    for term in terms:
        row = index.db.execute("SELECT key FROM aliases WHERE alias = ? LIMIT 1", (term,)).fetchone()
        if row:
            found.add(str(row[0]))
    return found


def _phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'
