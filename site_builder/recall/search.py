"""Answer a recall query from the index: ranked, dated lines with citations.

Ranking: FTS5 BM25 with Porter stemming over the line itself, its neighbours
(lower weight; a Retain fact has none, ``index_rows``) and the CJK pairs of
its text, over the candidate lines ``candidates.py`` finds. A line whose entities the query names (or their
aliases) is found too. Its entities add to its BM25 only when the query names an entity
by its page or an alias and few lines are about it (``NAMED_SHARE``): then a
line that calls Margaret "Maggie" ranks with the lines that say "Margaret",
above the lines beside them. An entity most lines are about (the user, the two
people of a conversation) adds nothing: being about it is what the entity lift
counts (counting it twice ranked worse on LoCoMo), and a line that only its
entities match ranks by the support of its note. Lines about an
entity the query names (by page name, alias or ``@mention``; a line of
dialogue is about its speaker, ``dialogue.py``; a line of an entity's page or of the
user's profile is about the entity or the user, ``subject.py``) are lifted, and so are lines
dated inside a time the query names ("last week", "on 3 June, 2023"), which also get a share
of the query's best score, and, on a question that asks when, how long or how
many, lines that say when or how much (``when_asked.py``); on a question that
asks for a place or a title, the lines that name one get a share of the best
score too, also found beyond the candidates among the lines naming the people
the question names (``answer_types.py``). Each line also gets
a share of the best score in its note (the day's log that answers the question
best holds its other parts too), and the line after a question a little more
than the question scores. A Retain fact and the log line it restates are
one result (``evidence.py``), and a second hop follows the entities of the best
results (``expand.py``). A query that is only a time ("what happened last
week") lists that time's lines, newest first. An opinion restated on many days
is one result: its latest statement, its current confidence and how many points
its history has.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools

from site_builder.recall.acronyms import acronyms_written
from site_builder.recall.answer_types import ANSWER_SUPPORT, Names, asked_for
from site_builder.recall.asked_label import LABEL_SUPPORT, asked_label
from site_builder.recall.asks_about import DEFINES_SUPPORT, asked_about, opening_with
from site_builder.recall.candidates import (
    NAMED_WEIGHTS,
    WEIGHTS,
    Plan,
    candidates,
    in_each_column,
    lines_about,
    lines_naming,
    lines_opening_with,
    phrase,
    restricted,
    share_about,
    sql,
)
from site_builder.recall.dialogue import about, with_answers
from site_builder.recall.entity_naming import (
    entity_names,
    known_anywhere,
    mentioned_in_rows,
    query_entities,
    resolve_entity,
)
from site_builder.recall.evidence import Evidence, Row, one_per_evidence, words
from site_builder.recall.expand import HUB_SHARE, Hop, second_hop
from site_builder.recall.hits import Hit, current_opinion
from site_builder.recall.index import RecallIndex
from site_builder.recall.index_mentions import tagged_places
from site_builder.recall.query import MAX_QUERY_CHARS, QueryError, RecallQuery, terms_of
from site_builder.recall.scripts import fold_accents, has_cjk
from site_builder.recall.time_words import time_window
from site_builder.recall.when_asked import SAYS_WHEN_LIFT, asks_when, says_when, with_time_support

NAMED_SHARE = 0.25  # an entity that more than this share of all lines is about is not "few lines"
ENTITY_LIFT = 1.25
TIME_LIFT = 1.5
NOTE_SUPPORT = 0.2  # share of the best score in a line's note that the line gets on top of its own

__all__ = ["Hit", "QueryError", "RecallQuery", "answer_json", "search"]


def search(index: RecallIndex, query: RecallQuery) -> list[Hit]:
    """Top ``k`` hits for the query, best first; raises ``QueryError`` for unusable queries."""
    if not query.text.strip():
        raise QueryError("empty query")
    query = dataclasses.replace(query, text=query.text[:MAX_QUERY_CHARS])  # longer text is cut, not read whole
    window, text = time_window(query.text, query.today) if query.today else (None, query.text)
    about = asked_about(text)  # "What do we know about X?": searched as X (``asks_about``)
    text = about or text
    terms = terms_of(text)
    if not terms and window is None:
        raise QueryError("the query has only stop words; add a word that names what you look for")
    terms += [initials for initials in acronyms_written(index, text) if initials not in terms]
    plan = _plan(index, query, terms, window)
    rows = candidates(index, plan, query) if terms else index.db.execute(*sql(plan, query, False)).fetchall()
    if about:
        have = {(row[0], row[1]) for row in rows}
        rows += [row for row in lines_opening_with(index, plan, query, about) if (row[0], row[1]) not in have]
    plan = dataclasses.replace(plan, lifted=plan.lifted | mentioned_in_rows(rows, terms))
    asked = asked_for(query.text) if terms else None
    if asked:
        named = plan.lifted | known_anywhere(index, terms, plan.lifted)
        rows = _with_lines_naming_what_is_asked(rows, lines_naming(index, plan, query, named), asked)
    if plan.entity_names:
        rows = [
            row
            for row in rows
            if plan.entity_names & {fold_accents(k) for k in row[5].split()} or (row[0], row[1]) in plan.tagged
        ]
    days = (window[0].isoformat(), window[1].isoformat()) if window else None
    scored = [(_score(row, plan, days), row) for row in rows]
    if terms:
        scored = _with_support(with_time_support(scored, days), asked, ANSWER_SUPPORT)
        scored = with_answers(_with_note_support(_with_support(scored, asked_label(query.text), LABEL_SUPPORT)))
        if about:
            scored = _with_definition_support(scored, opening_with(about))
        scored.sort(key=lambda sr: (-sr[0], sr[1][0], sr[1][1]))
        found = one_per_evidence(scored)
        if not query.entity:
            hop = Hop(words(text), plan.lifted, lines_about(index, plan, query), share_about(index, HUB_SHARE))
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


def _plan(index: RecallIndex, query: RecallQuery, terms: list[str], window: tuple[dt.date, dt.date] | None) -> Plan:
    """The FTS5 expression and SQL conditions of a query: its words, the entities it names, its filters."""
    named = query_entities(index, terms)
    lifted = frozenset(name for key in named for name in entity_names(index, key))
    words = [f"cjk : {phrase(t)}" if has_cjk(t) else in_each_column(phrase(t)) for t in terms]
    plain = tuple(map(phrase, terms)) if not any(has_cjk(t) for t in terms) else ()
    # The query's own words already match the entities column; its other names (aliases) are looked up there too.
    asked = {fold_accents(t) for t in terms} | {f"{a}-{b}" for a, b in itertools.pairwise(terms)}
    aliases = [f"entities : {phrase(name.replace('-', ' '))}" for name in sorted(lifted - asked)]
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
        only = "entities : (" + " OR ".join(phrase(name.replace("-", " ")) for name in sorted(names)) + ")"
    return Plan(
        restricted(match, only),
        () if aliases else plain,
        only,
        where,
        params,
        names,
        lifted | names,
        asks_when(query.text),
        NAMED_WEIGHTS if any(share_about(index, NAMED_SHARE)(key) <= NAMED_SHARE for key in named) else WEIGHTS,
        tagged_places(index, names) if names else frozenset(),
    )


def _score(row: Row, plan: Plan, days: tuple[str, str] | None) -> float:
    """BM25 (higher is better) by the line's prior (``index_rows``: curated memory over logs; not when the query
    names a time, whose logs are what it asks for), lifted for entities the query names, lines in its time and, when
    it asks when, lines that say when (``when_asked``)."""
    prior = float(row[9])
    score = -float(row[10]) * (min(prior, 1.0) if days else prior)
    if plan.lifted and about(row, plan.lifted):
        score *= ENTITY_LIFT
    if days and row[3] and days[0] <= row[3] <= days[1]:
        score *= TIME_LIFT
    if plan.asks_when and says_when(row[2]):
        score *= SAYS_WHEN_LIFT
    return score


def _with_lines_naming_what_is_asked(rows: list[Row], naming: list[Row], asked: Names) -> list[Row]:
    """The candidates and the lines naming the question's people that name what it asks for (``answer_types``)."""
    have = {(row[0], row[1]) for row in rows}
    return rows + [row for row in naming if (row[0], row[1]) not in have and asked(row)]


def _with_support(scored: list[tuple[float, Row]], test: Names | None, share: float) -> list[tuple[float, Row]]:
    """Each line that ``test`` finds gives what the question asks for (a place or a title, ``answer_types``; the
    attribute it labels, ``asked_label``) with ``share`` of the best score added."""
    if not test or not scored:
        return scored
    support = share * max(score for score, _ in scored)
    return [(score + support if test(row) else score, row) for score, row in scored]


def _with_definition_support(scored: list[tuple[float, Row]], opens: Names) -> list[tuple[float, Row]]:
    """Each line that opens with the name a question asks about (``asks_about``) with a share of the best score,
    by its prior: where curated memory says what the thing is comes first."""
    if not scored:
        return scored
    support = DEFINES_SUPPORT * max(score for score, _ in scored)
    return [(score + support * float(row[9]) if opens(row) else score, row) for score, row in scored]


def _with_note_support(scored: list[tuple[float, Row]]) -> list[tuple[float, Row]]:
    """Each line's score plus a share of the best score in its note: a line of the day (or page) that answers the
    question best is more likely part of the answer than an equally matching line of a day about something else."""
    best: dict[str, float] = {}
    for score, row in scored:
        best[row[0]] = max(best.get(row[0], score), score)
    return [(score + NOTE_SUPPORT * best[row[0]], row) for score, row in scored]


def _hit(found: Evidence) -> Hit:
    path, line, content, date, kind, entities, occurred, confidence, opinion, *_ = found.row
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
