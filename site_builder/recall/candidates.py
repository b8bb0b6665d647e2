"""The lines a recall query's words match, as SQL over the FTS5 index: the query's plan (its FTS5 expression, its
filters, BM25's column weights), the candidates BM25 ranks first, and the lines about an entity.

Each query word is looked up in the line and in its neighbours apart (``WORD_COLUMNS``), so BM25 weighs it (its
IDF) by the lines that hold it themselves: counted over whole rows, a word on every sixth line would be beside
half of all lines and weigh nothing. A line's entities weigh nothing in BM25 (``WEIGHTS``) unless the query names
an entity few lines are about (``NAMED_WEIGHTS``; ``search.py`` says when).

A query whose every word is common (in the text of at least a quarter of all
lines: BM25 weighs such a word at most log 3, a word on one line in ten
thousand about 9) would score most of the index to rank lines that differ
little; its candidates are the lines holding every word in their own text,
else anywhere, which are the lines BM25 ranks first (the words weigh about the
same), and all matching lines only when those are too few.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass

from site_builder.recall.evidence import Row
from site_builder.recall.expand import LinesAbout
from site_builder.recall.index import RecallIndex
from site_builder.recall.query import RecallQuery
from site_builder.recall.scripts import has_cjk

HEADING_WEIGHT = 1.0
WEIGHTS = (1.0, 0.75, 0.0, 1.0, HEADING_WEIGHT)  # content, neighbours, entities (see the module's note), CJK, headings
NAMED_WEIGHTS = (1.0, 0.75, 1.0, 1.0, HEADING_WEIGHT)  # when the query names an entity few lines are about (see below)
WORD_COLUMNS = ("content", "context", "entities", "heading")  # a query word is looked up in each apart (see above)
CANDIDATES = 400
COMMON_SHARE = 0.25  # a word in the text of this share of all lines or more is common (see the module's note)
HOP_SCAN = 300  # the newest lines about an entity the second hop reads
OPENING_SCAN = 300  # the lines opening with the name a question asks about that are read (``lines_opening_with``)
NAMING_SCAN = 2000  # the lines naming the question's people that are read for what it asks (``answer_types``)


@dataclass(frozen=True)
class Plan:
    """A query as SQL over the index (made by ``search``): its FTS5 expression, its filters, BM25's weights."""

    match: str  # the FTS5 expression ("" for a time alone)
    words: tuple[str, ...]  # the phrases of the query's words when they are all the expression asks (no CJK, no alias)
    only: str  # the FTS5 condition of ``--entity`` ("" without it)
    where: list[str]
    params: list[str]
    entity_names: frozenset[str]  # folded keys of the entity asked for and its aliases (the filter)
    lifted: frozenset[str]  # folded keys of entities the query names, with their aliases
    asks_when: bool  # the query asks for a time or an amount ("when", "how long", "how many")
    weights: tuple[float, ...] = WEIGHTS  # BM25's weight of each column
    tagged: frozenset[tuple[str, int]] = frozenset()  # lines naming the ``--entity`` in plain text (``index_mentions``)


def restricted(match: str, only: str) -> str:
    """``match`` within the lines ``only`` (``--entity``) allows."""
    if not only:
        return match
    return f"({match}) AND {only}" if match else only


def candidates(index: RecallIndex, plan: Plan, query: RecallQuery) -> list[Row]:
    """The lines a query's words match, best by BM25 first. When every word is common, the lines holding every
    word in their own text, else anywhere, as long as there are enough of them (see the module's note)."""
    if plan.words and all_common(index, plan.words):
        enough = max(CANDIDATES, query.k * 4)
        in_content = " AND ".join(f"content : {phrase}" for phrase in plan.words)
        anywhere = " AND ".join(f"({in_each_column(phrase)})" for phrase in plan.words)
        for narrowed in (in_content, anywhere):
            rows: list[Row] = index.db.execute(
                *sql(dataclasses.replace(plan, match=restricted(narrowed, plan.only)), query, True)
            ).fetchall()
            if len(rows) >= enough:
                return rows
    return index.db.execute(*sql(plan, query, True)).fetchall()


def all_common(index: RecallIndex, phrases: tuple[str, ...]) -> bool:
    """Is each phrase in the text of at least ``COMMON_SHARE`` of all lines (where BM25 weighs it little)?"""
    lines = index.count()
    if lines < 2 * CANDIDATES:  # too few lines for narrowing to matter
        return False
    common = math.ceil(COMMON_SHARE * lines)
    for phrase in phrases:
        (hits,) = index.db.execute(
            "SELECT count(*) FROM (SELECT 1 FROM docs_fts WHERE docs_fts MATCH ? LIMIT ?)",
            (f"content : {phrase}", common),
        ).fetchone()
        if hits < common:
            return False
    return True


def lines_about(index: RecallIndex, plan: Plan, query: RecallQuery) -> LinesAbout:
    """The newest ``HOP_SCAN`` lines about an entity, within the query's filters."""

    def rows(key: str) -> list[Row]:
        about = dataclasses.replace(plan, match=f"entities : {phrase(key.replace('-', ' '))}")
        return index.db.execute(*sql(about, query, ranked=False, limit=HOP_SCAN)).fetchall()

    return rows


def lines_naming(index: RecallIndex, plan: Plan, query: RecallQuery, names: frozenset[str]) -> list[Row]:
    """The lines (best by BM25 first, at most ``NAMING_SCAN``) that name one of these entities (folded keys) in their
    text or entities, within the query's filters."""
    if not names:
        return []
    said = " OR ".join(
        f"{column} : {phrase(name.replace('-', ' '))}" for name in sorted(names) for column in ("content", "entities")
    )
    naming = dataclasses.replace(plan, match=restricted(said, plan.only))
    rows: list[Row] = index.db.execute(*sql(naming, query, ranked=True, limit=NAMING_SCAN)).fetchall()
    return rows


def lines_opening_with(index: RecallIndex, plan: Plan, query: RecallQuery, name: str) -> list[Row]:
    """The lines (at most ``OPENING_SCAN``) whose text opens with ``name``, curated memory first, within the query's
    filters: where memory says what the thing a question asks about is (``asks_about``)."""
    words = " ".join(word for word in name.casefold().split() if word)
    if not words or any(has_cjk(word) for word in words.split()):
        return []
    opening = dataclasses.replace(plan, match=restricted(f"content : ^{phrase(words)}", plan.only))
    text, params = sql(opening, query, ranked=True, limit=OPENING_SCAN)
    rows: list[Row] = index.db.execute(text, params).fetchall()
    rows.sort(key=lambda row: -row[9])  # the prior: curated memory first (stable: by BM25 within)
    return rows


def share_about(index: RecallIndex, upto: float) -> Callable[[str], float]:
    """The share of all lines that are about an entity (counted up to just past ``upto``)."""
    total: list[int] = []  # counted on the first call: most queries follow no entity

    def share(key: str) -> float:
        if not total:
            total.append(max(1, index.count()))
        about = f"entities : {phrase(key.replace('-', ' '))}"
        (count,) = index.db.execute(
            "SELECT count(*) FROM (SELECT 1 FROM docs_fts WHERE docs_fts MATCH ? LIMIT ?)",
            (about, int(upto * total[0]) + 1),
        ).fetchone()
        return int(count) / total[0]

    return share


def sql(plan: Plan, query: RecallQuery, ranked: bool, limit: int = 0) -> tuple[str, list[str]]:
    where = list(plan.where)
    params = list(plan.params)
    if plan.match:
        where.insert(0, "docs_fts MATCH ?")
        params.insert(0, plan.match)
    if ranked:
        rank = f"bm25(docs_fts, {', '.join(str(w) for w in plan.weights)})"
        order = "rank"
    else:  # a time alone: newest first, facts before raw lines
        rank = "-1.0 - (d.kind IN ('W','B','O','S'))"
        order = "d.date DESC, rank, d.path, d.line"
    columns = "d.path, d.line, d.content, d.date, d.kind, d.entities, d.occurred, d.confidence, d.opinion, d.prior"
    limit = limit or max(CANDIDATES, query.k * 4)
    if ranked and not plan.where:  # rank the FTS rows alone; join only the candidates (not every matching line)
        sql = f"""
            SELECT {columns}, f.rank FROM (
                SELECT rowid, {rank} AS rank FROM docs_fts WHERE docs_fts MATCH ? ORDER BY rank LIMIT {limit}
            ) f JOIN docs d ON d.id = f.rowid ORDER BY f.rank
        """  # noqa: S608 - only constants are formatted in; values are bound
        return sql, params
    sql = f"""
        SELECT {columns}, {rank} AS rank
        FROM docs_fts JOIN docs d ON d.id = docs_fts.rowid
        WHERE {" AND ".join(where) or "1"}
        ORDER BY {order} LIMIT {limit}
    """  # noqa: S608 - only constants are formatted in; values are bound
    return sql, params


def in_each_column(phrase: str) -> str:
    """The FTS5 expression of a phrase in any of ``WORD_COLUMNS``, one column filter each: BM25 weighs each by the
    lines that hold the phrase in that column."""
    return " OR ".join(f"{column} : {phrase}" for column in WORD_COLUMNS)


def phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'
