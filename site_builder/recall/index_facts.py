"""Every Retain fact of the public notes, kept whole in the recall index (table ``facts``).

The memory block (``memwiki context``, ``memory_context``) shows every opinion
and the newest facts. Linking the whole workspace for that parses every file;
instead the index keeps each fact as the parser made it, so the block is made
from a few queries: the ``O`` facts (and the facts an opinion's recorded
history cites) for the opinions, and the other facts newest first, read only as
far as the token budget goes.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Iterable, Iterator
from typing import Any

from site_builder.core.model import Fact

COLUMNS = "path, line, id, kind, content, entities, date, occurred, confidence, block_id, mentions"
FactRow = tuple[str, int, str, str, str, str, str | None, str | None, float | None, str | None, str]
BATCH = 200


def fact_row(fact: Fact) -> FactRow:
    """A fact as one row of ``facts`` (in ``COLUMNS`` order)."""
    occurred = f"{fact.occurred[0].isoformat()}/{fact.occurred[1].isoformat()}" if fact.occurred else None
    return (
        fact.path,
        fact.line,
        fact.id,
        fact.kind,
        fact.content,
        json.dumps(fact.entities, ensure_ascii=False),
        fact.date.isoformat() if fact.date else None,
        occurred,
        fact.confidence,
        fact.block_id,
        json.dumps(fact.mentions, ensure_ascii=False),
    )


def fact_of(row: tuple[Any, ...]) -> Fact:
    """The fact a row of ``facts`` holds, equal to the one the parser made."""
    path, line, fact_id, kind, content, entities, date, occurred, confidence, block_id, mentions = row
    span = None
    if occurred:
        start, _, end = str(occurred).partition("/")
        span = (dt.date.fromisoformat(start), dt.date.fromisoformat(end))
    return Fact(
        id=str(fact_id),
        kind=str(kind),
        content=str(content),
        entities=tuple(json.loads(str(entities))),
        path=str(path),
        line=int(line),
        date=dt.date.fromisoformat(str(date)) if date else None,
        occurred=span,
        confidence=None if confidence is None else float(confidence),
        block_id=None if block_id is None else str(block_id),
        mentions=tuple(json.loads(str(mentions))),
    )


def opinion_facts(db: sqlite3.Connection, cited: Iterable[str]) -> list[Fact]:
    """Every ``O`` fact and every fact whose id is in ``cited``, in the library's order (by file, then line)."""
    ids = json.dumps(sorted(set(cited)))
    rows = db.execute(
        f"SELECT {COLUMNS} FROM facts WHERE kind = 'O'"  # noqa: S608 - a constant
        f" UNION SELECT {COLUMNS} FROM facts WHERE id IN (SELECT value FROM json_each(?))"
        " ORDER BY path, line",
        (ids,),
    )
    return [fact_of(row) for row in rows]


def newest_facts(db: sqlite3.Connection) -> Iterator[Fact]:
    """Facts other than opinions in ``recent_first`` order (dated newest first, then undated in page order), read in
    batches as far as the caller goes."""
    for sql in (
        f"SELECT {COLUMNS} FROM facts WHERE kind != 'O' AND date IS NOT NULL ORDER BY date DESC, path DESC, line DESC",  # noqa: S608
        f"SELECT {COLUMNS} FROM facts WHERE kind != 'O' AND date IS NULL ORDER BY path, line",  # noqa: S608
    ):
        cursor = db.execute(sql)
        while batch := cursor.fetchmany(BATCH):
            yield from (fact_of(row) for row in batch)


def latest_day(db: sqlite3.Connection) -> dt.date | None:
    """The newest date of a public note (a day's page), or None when no note is dated."""
    (day,) = db.execute("SELECT max(day) FROM files").fetchone()
    return dt.date.fromisoformat(str(day)) if day else None
