"""Answer a recall query from the index: ranked, dated lines with citations.

Ranking: FTS5 BM25 with Porter stemming over the line itself, its neighbours
(lower weight; a Retain fact has none, ``index_rows``) and the CJK pairs of
its text. Each query word is looked up in the line and in its neighbours apart,
so BM25 weighs it (its IDF) by the lines that hold it themselves: counted over
whole rows, a word on every sixth line would be beside half of all lines and
weigh nothing. A line whose entities the query names (or their aliases) is
found too. Its entities add to its BM25 only when the query names an entity
by its page or an alias and few lines are about it (``NAMED_SHARE``): then a
line that calls Margaret "Maggie" ranks with the lines that say "Margaret",
above the lines beside them. An entity most lines are about (the user, the two
people of a conversation) adds nothing: being about it is what the entity lift
counts (counting it twice ranked worse on LoCoMo), and a line that only its
entities match ranks by the support of its note. Lines about an
entity the query names (by page name, alias or ``@mention``; a line of
dialogue is about its speaker, ``dialogue.py``) are lifted, and so are lines
dated inside a time the query names ("last week", "on 3 June, 2023"), which also get a share
of the query's best score, and, on a question that asks when, how long or how
many, lines that say when or how much (``when_asked.py``). Each line also gets
a share of the best score in its note (the day's log that answers the question
best holds its other parts too), and the line after a question a little more
than the question scores. A Retain fact and the log line it restates are
one result (``evidence.py``), and a second hop follows the entities of the best
results (``expand.py``). A query that is only a time ("what happened last
week") lists that time's lines, newest first. An opinion restated on many days
is one result: its latest statement, its current confidence and how many points
its history has.

A query whose every word is common (in the text of at least a quarter of all
lines: BM25 weighs such a word at most log 3, a word on one line in ten
thousand about 9) would score most of the index to rank lines that differ
little; its candidates are the lines holding every word in their own text,
else anywhere, which are the lines BM25 ranks first (the words weigh about the
same), and all matching lines only when those are too few.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from site_builder.core.names import entity_key
from site_builder.recall.dialogue import about, with_answers
from site_builder.recall.evidence import Evidence, Row, one_per_evidence, words
from site_builder.recall.expand import HUB_SHARE, Hop, LinesAbout, second_hop
from site_builder.recall.hits import Hit, current_opinion
from site_builder.recall.index import RecallIndex
from site_builder.recall.query import QueryError, RecallQuery, terms_of
from site_builder.recall.scripts import fold_accents, has_cjk
from site_builder.recall.time_words import time_window
from site_builder.recall.when_asked import SAYS_WHEN_LIFT, asks_when, says_when, with_time_support

WEIGHTS = (1.0, 0.75, 0.0, 1.0)  # content, neighbouring lines, entities (see the module's note), CJK pairs
NAMED_WEIGHTS = (1.0, 0.75, 1.0, 1.0)  # when the query names an entity few lines are about (see the module's note)
NAMED_SHARE = 0.25  # an entity that more than this share of all lines is about is not "few lines"
WORD_COLUMNS = ("content", "context", "entities")  # a query word is looked up in each apart (see the module's note)
ENTITY_LIFT = 1.25
TIME_LIFT = 1.5
NOTE_SUPPORT = 0.2  # share of the best score in a line's note that the line gets on top of its own
CANDIDATES = 400
COMMON_SHARE = 0.25  # a word in the text of this share of all lines or more is common (see the module's note)
HOP_SCAN = 300  # the newest lines about an entity the second hop reads

__all__ = ["Hit", "QueryError", "RecallQuery", "answer_json", "entity_names", "resolve_entity", "search"]


@dataclass(frozen=True)
class _Plan:
    match: str  # the FTS5 expression ("" for a time alone)
    words: tuple[str, ...]  # the phrases of the query's words when they are all the expression asks (no CJK, no alias)
    only: str  # the FTS5 condition of ``--entity`` ("" without it)
    where: list[str]
    params: list[str]
    entity_names: frozenset[str]  # folded keys of the entity asked for and its aliases (the filter)
    lifted: frozenset[str]  # folded keys of entities the query names, with their aliases
    asks_when: bool  # the query asks for a time or an amount ("when", "how long", "how many")
    weights: tuple[float, ...] = WEIGHTS  # BM25's weight of each column


def alias_map(index: RecallIndex) -> Mapping[str, str]:
    """Every page name and alias (accents folded) → the entity key it stands for (looked up name by name)."""
    return index.aliases()


def resolve_entity(index: RecallIndex, name: str) -> str:
    """The entity key a name or alias stands for; ``QueryError`` when nothing in the workspace is called that."""
    key = fold_accents(entity_key(name))
    if key in (aliases := alias_map(index)):
        return aliases[key]
    phrase = _phrase(key.replace("-", " "))
    if not index.db.execute(
        "SELECT 1 FROM docs_fts WHERE docs_fts MATCH ? LIMIT 1", (f"entities : {phrase}",)
    ).fetchone():
        raise QueryError(f"unknown entity '{name}': no page, alias or mention matches it")
    return key


def entity_names(index: RecallIndex, key: str) -> frozenset[str]:
    """The key and every alias of one entity, accents folded: the names its lines may carry."""
    rows = index.db.execute("SELECT alias FROM aliases WHERE key = ?", (key,))
    return frozenset({fold_accents(key), *(fold_accents(str(alias)) for (alias,) in rows)})


def search(index: RecallIndex, query: RecallQuery) -> list[Hit]:
    """Top ``k`` hits for the query, best first; raises ``QueryError`` for unusable queries."""
    if not query.text.strip():
        raise QueryError("empty query")
    window, text = time_window(query.text, query.today) if query.today else (None, query.text)
    terms = terms_of(text)
    if not terms and window is None:
        raise QueryError("the query has only stop words; add a word that names what you look for")
    plan = _plan(index, query, terms, window)
    rows = _candidates(index, plan, query) if terms else index.db.execute(*_sql(plan, query, False)).fetchall()
    plan = dataclasses.replace(plan, lifted=plan.lifted | _mentioned(rows, terms))
    if plan.entity_names:
        rows = [row for row in rows if plan.entity_names & {fold_accents(k) for k in row[5].split()}]
    days = (window[0].isoformat(), window[1].isoformat()) if window else None
    scored = [(_score(row, plan, days), row) for row in rows]
    if terms:
        scored = with_answers(_with_note_support(with_time_support(scored, days)))
        scored.sort(key=lambda sr: (-sr[0], sr[1][0], sr[1][1]))
        found = one_per_evidence(scored)
        if not query.entity:
            hop = Hop(words(text), plan.lifted, _lines_about(index, plan, query), _share_about(index, HUB_SHARE))
            found = second_hop(found, hop)
        return _one_per_opinion(index, found, query)
    # A time alone: keep the date order (scores only break ties within a day); the time filters, so an opinion
    # counts only its statements inside it.
    assert window is not None
    scored.sort(key=lambda sr: (sr[1][0], sr[1][1]))
    scored.sort(key=lambda sr: (sr[1][3] or "", sr[0]), reverse=True)
    inside = dataclasses.replace(
        query, since=max(filter(None, (query.since, window[0]))), until=min(filter(None, (query.until, window[1])))
    )
    return _one_per_opinion(index, [Evidence(score, row) for score, row in scored], inside)


def _plan(index: RecallIndex, query: RecallQuery, terms: list[str], window: tuple[dt.date, dt.date] | None) -> _Plan:
    """The FTS5 expression and SQL conditions of a query: its words, the entities it names, its filters."""
    named = _query_entities(index, terms)
    lifted = frozenset(name for key in named for name in entity_names(index, key))
    words = [f"cjk : {_phrase(t)}" if has_cjk(t) else _in_each_column(_phrase(t)) for t in terms]
    plain = tuple(map(_phrase, terms)) if not any(has_cjk(t) for t in terms) else ()
    # The query's own words already match the entities column; its other names (aliases) are looked up there too.
    asked = {fold_accents(t) for t in terms} | {f"{a}-{b}" for a, b in itertools.pairwise(terms)}
    aliases = [f"entities : {_phrase(name.replace('-', ' '))}" for name in sorted(lifted - asked)]
    match = " OR ".join(words + aliases)
    where: list[str] = []
    params: list[str] = []
    if not terms and window:
        where.append("d.date BETWEEN ? AND ?")
        params += [window[0].isoformat(), window[1].isoformat()]
    for condition, value in (("d.date >= ?", query.since), ("d.date <= ?", query.until)):
        if value:
            where.append(condition)
            params.append(value.isoformat())
    if query.kind:
        where.append("d.kind = ?")
        params.append(query.kind)
    names: frozenset[str] = frozenset()
    only = ""
    if query.entity:
        names = entity_names(index, resolve_entity(index, query.entity))
        only = "entities : (" + " OR ".join(_phrase(name.replace("-", " ")) for name in sorted(names)) + ")"
    return _Plan(
        _restricted(match, only),
        () if aliases else plain,
        only,
        where,
        params,
        names,
        lifted | names,
        asks_when(query.text),
        NAMED_WEIGHTS if any(_share_about(index, NAMED_SHARE)(key) <= NAMED_SHARE for key in named) else WEIGHTS,
    )


def _restricted(match: str, only: str) -> str:
    """``match`` within the lines ``only`` (``--entity``) allows."""
    if not only:
        return match
    return f"({match}) AND {only}" if match else only


def _candidates(index: RecallIndex, plan: _Plan, query: RecallQuery) -> list[Row]:
    """The lines a query's words match, best by BM25 first. When every word is common, the lines holding every
    word in their own text, else anywhere, as long as there are enough of them (see the module's note)."""
    if plan.words and _all_common(index, plan.words):
        enough = max(CANDIDATES, query.k * 4)
        in_content = " AND ".join(f"content : {phrase}" for phrase in plan.words)
        anywhere = " AND ".join(f"({_in_each_column(phrase)})" for phrase in plan.words)
        for narrowed in (in_content, anywhere):
            rows: list[Row] = index.db.execute(
                *_sql(dataclasses.replace(plan, match=_restricted(narrowed, plan.only)), query, True)
            ).fetchall()
            if len(rows) >= enough:
                return rows
    return index.db.execute(*_sql(plan, query, True)).fetchall()


def _all_common(index: RecallIndex, phrases: tuple[str, ...]) -> bool:
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


def _lines_about(index: RecallIndex, plan: _Plan, query: RecallQuery) -> LinesAbout:
    """The newest ``HOP_SCAN`` lines about an entity, within the query's filters."""

    def rows(key: str) -> list[Row]:
        about = dataclasses.replace(plan, match=f"entities : {_phrase(key.replace('-', ' '))}")
        return index.db.execute(*_sql(about, query, ranked=False, limit=HOP_SCAN)).fetchall()

    return rows


def _share_about(index: RecallIndex, upto: float) -> Callable[[str], float]:
    """The share of all lines that are about an entity (counted up to just past ``upto``)."""
    total: list[int] = []  # counted on the first call: most queries follow no entity

    def share(key: str) -> float:
        if not total:
            total.append(max(1, index.count()))
        about = f"entities : {_phrase(key.replace('-', ' '))}"
        (count,) = index.db.execute(
            "SELECT count(*) FROM (SELECT 1 FROM docs_fts WHERE docs_fts MATCH ? LIMIT ?)",
            (about, int(upto * total[0]) + 1),
        ).fetchone()
        return int(count) / total[0]

    return share


def _sql(plan: _Plan, query: RecallQuery, ranked: bool, limit: int = 0) -> tuple[str, list[str]]:
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
    columns = "d.path, d.line, d.content, d.date, d.kind, d.entities, d.occurred, d.confidence, d.opinion"
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


def _score(row: Row, plan: _Plan, days: tuple[str, str] | None) -> float:
    """BM25 (higher is better) lifted for entities the query names, lines in its time and, when it asks when, lines
    that say when (``when_asked``)."""
    score = -float(row[9])
    if plan.lifted and about(row, plan.lifted):
        score *= ENTITY_LIFT
    if days and row[3] and days[0] <= row[3] <= days[1]:
        score *= TIME_LIFT
    if plan.asks_when and says_when(row[2]):
        score *= SAYS_WHEN_LIFT
    return score


def _with_note_support(scored: list[tuple[float, Row]]) -> list[tuple[float, Row]]:
    """Each line's score plus a share of the best score in its note: a line of the day (or page) that answers the
    question best is more likely part of the answer than an equally matching line of a day about something else."""
    best: dict[str, float] = {}
    for score, row in scored:
        best[row[0]] = max(best.get(row[0], score), score)
    return [(score + NOTE_SUPPORT * best[row[0]], row) for score, row in scored]


def _hit(found: Evidence) -> Hit:
    path, line, content, date, kind, entities, occurred, confidence, opinion, _ = found.row
    also = tuple(f"{row[0]}#L{row[1]}" for row in found.also)
    return Hit(
        path, line, content, date, kind, tuple(entities.split()), found.score, occurred, confidence, opinion, also=also
    )


def _one_per_opinion(index: RecallIndex, found: list[Evidence], query: RecallQuery) -> list[Hit]:
    """The first ``k`` hits, each opinion once: its best-placed statement shows the opinion as it stands now."""
    seen: set[str] = set()
    since, until = (day.isoformat() if day else None for day in (query.since, query.until))
    out = []
    for evidence in found:
        hit = _hit(evidence)
        if hit.opinion is None:
            out.append(hit)
        elif hit.opinion not in seen:
            seen.add(hit.opinion)
            out.append(current_opinion(index, hit, since, until))
        if len(out) == query.k:
            break
    return out


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
    """Entities the query names by a page name or alias: one word, or two words in a row ("anna kowalski")."""
    aliases = alias_map(index)
    return {aliases[name] for name in _names(terms) if name in aliases}


def _mentioned(rows: list[Row], terms: list[str]) -> frozenset[str]:
    """Entities without a page that the query names and some of its candidate lines mention (``@Anna``)."""
    mentioned = {fold_accents(key) for row in rows for key in row[5].split()}
    return frozenset(name for name in _names(terms) if name in mentioned)


def _names(terms: list[str]) -> list[str]:
    return [fold_accents(name) for name in [*terms, *(f"{a}-{b}" for a, b in itertools.pairwise(terms))]]


def _in_each_column(phrase: str) -> str:
    """The FTS5 expression of a phrase in any of ``WORD_COLUMNS``, one column filter each: BM25 weighs each by the
    lines that hold the phrase in that column."""
    return " OR ".join(f"{column} : {phrase}" for column in WORD_COLUMNS)


def _phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'
