"""The workspace's facts and opinions newest first: recall.json's facts, and the context block's facts and opinions
(read only as far as its budget goes)."""

from __future__ import annotations

import datetime as dt
import operator
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import TypeVar

from site_builder.core.model import Fact

T = TypeVar("T")

_WHEN_AND_WHERE = operator.attrgetter("date", "path", "line")
_DATE = operator.attrgetter("date")


def recent_first(facts: list[Fact]) -> list[Fact]:
    """Dated facts newest first, then undated (bank page) facts in page order."""
    dated = sorted((f for f in facts if f.date), key=_WHEN_AND_WHERE, reverse=True)
    return dated + [f for f in facts if not f.date]


def recent_first_as_read(facts: list[Fact]) -> Iterator[Fact]:
    """``recent_first``, worked out as far as it is read (``newest_day_first``)."""
    return newest_day_first(facts, _DATE, lambda day: sorted(day, key=_WHEN_AND_WHERE, reverse=True), list)


def newest_day_first(
    items: list[T],
    day_of: Callable[[T], dt.date | None],
    in_a_day: Callable[[list[T]], list[T]],
    undated: Callable[[list[T]], list[T]],
) -> Iterator[T]:
    """``items`` by their day, newest first, then those without one; grouped by day in one pass, each day put in
    order (``in_a_day``) only when it is reached: a context block reads a few dozen of a workspace's hundred
    thousand facts."""
    by_day: defaultdict[dt.date, list[T]] = defaultdict(list)
    without = []
    for item in items:
        day = day_of(item)
        if day:
            by_day[day].append(item)
        else:
            without.append(item)
    for day in sorted(by_day, reverse=True):
        yield from in_a_day(by_day[day])
    yield from undated(without)
