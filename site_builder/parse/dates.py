"""Dates and date ranges written inside fact text ("Nov 27–Dec 1, 2025").

``find_occurred`` returns the first span a fact refers to. A year left out is
taken as the one that puts the date nearest the log's own date.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

_MONTH_NAMES = [
    "jan",
    "feb",
    "mar",
    "apr",
    "may",
    "jun",
    "jul",
    "aug",
    "sep",
    "oct",
    "nov",
    "dec",
]
_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_DASH = r"\s*(?:–|—|-|to|until|through|thru)\s*"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(\d{4}))"

_ISO_RANGE = re.compile(rf"\b(\d{{4}})-(\d{{2}})-(\d{{2}})(?:{_DASH}|\.\.)(\d{{4}})-(\d{{2}})-(\d{{2}})\b")
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MD_RANGE = re.compile(rf"\b({_MONTH})\s+{_DAY}{_DASH}(?:({_MONTH})\s+)?{_DAY}\b{_YEAR}?", re.IGNORECASE)
_MD = re.compile(rf"\b({_MONTH})\s+{_DAY}\b{_YEAR}?", re.IGNORECASE)
_DM = re.compile(rf"\b{_DAY}\s+({_MONTH})(?:\s+(\d{{4}}))?\b", re.IGNORECASE)
_MY = re.compile(rf"\b({_MONTH})\s+(\d{{4}})\b", re.IGNORECASE)


@dataclass(frozen=True)
class DateProblem:
    text: str
    reason: str


def _month(name: str) -> int:
    return _MONTH_NAMES.index(name.lower()[:3]) + 1


def _nearest_year(month: int, day: int, reference: dt.date | None) -> int | None:
    if reference is None:
        return None
    best = reference.year
    best_gap = None
    for year in (reference.year - 1, reference.year, reference.year + 1):
        try:
            gap = abs((dt.date(year, month, day) - reference).days)
        except ValueError:
            continue
        if best_gap is None or gap < best_gap:
            best, best_gap = year, gap
    return best


def _make(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def find_occurred(text: str, reference: dt.date | None) -> tuple[tuple[dt.date, dt.date] | None, list[DateProblem]]:
    """The first date or range in ``text`` as (start, end), plus impossible dates found."""
    problems: list[DateProblem] = []
    for finder in (_iso_range, _iso, _month_day_range, _month_day, _day_month, _month_year):
        span, bad = finder(text, reference)
        problems += bad
        if span:
            return span, problems
    return None, problems


def _iso_range(text: str, ref: dt.date | None) -> tuple[tuple[dt.date, dt.date] | None, list[DateProblem]]:
    m = _ISO_RANGE.search(text)
    if not m:
        return None, []
    a = _make(int(m[1]), int(m[2]), int(m[3]))
    b = _make(int(m[4]), int(m[5]), int(m[6]))
    if a is None or b is None:
        return None, [DateProblem(m[0], "is not a real date")]
    return (min(a, b), max(a, b)), []


def _iso(text: str, ref: dt.date | None) -> tuple[tuple[dt.date, dt.date] | None, list[DateProblem]]:
    for m in _ISO.finditer(text):
        day = _make(int(m[1]), int(m[2]), int(m[3]))
        if day is None:
            return None, [DateProblem(m[0], "is not a real date")]
        return (day, day), []
    return None, []


def _month_day_range(text: str, ref: dt.date | None) -> tuple[tuple[dt.date, dt.date] | None, list[DateProblem]]:
    m = _MD_RANGE.search(text)
    if not m:
        return None, []
    m1, d1, m2, d2, year = _month(m[1]), int(m[2]), m[3], int(m[4]), m[5]
    m2n = _month(m2) if m2 else m1
    y2 = int(year) if year else _nearest_year(m2n, min(d2, 28), ref)
    if y2 is None:
        return None, []
    y1 = y2 - 1 if m2n < m1 else y2
    a, b = _make(y1, m1, d1), _make(y2, m2n, d2)
    if a is None or b is None:
        return None, [DateProblem(m[0], "is not a real date")]
    return (a, b), []


def _month_day(text: str, ref: dt.date | None) -> tuple[tuple[dt.date, dt.date] | None, list[DateProblem]]:
    m = _MD.search(text)
    if not m:
        return None, []
    if int(m[2]) > 31:
        return None, []
    return _one_day(m[0], _month(m[1]), int(m[2]), m[3], ref)


def _day_month(text: str, ref: dt.date | None) -> tuple[tuple[dt.date, dt.date] | None, list[DateProblem]]:
    m = _DM.search(text)
    if not m:
        return None, []
    return _one_day(m[0], _month(m[2]), int(m[1]), m[3], ref)


def _one_day(
    written: str, month: int, day: int, year_text: str | None, ref: dt.date | None
) -> tuple[tuple[dt.date, dt.date] | None, list[DateProblem]]:
    """One day named by month and day, in the written year or the one nearest ``ref``."""
    year = int(year_text) if year_text else _nearest_year(month, min(day, 28), ref)
    if year is None:
        return None, []
    date = _make(year, month, day)
    if date is None:
        return None, [DateProblem(written, "is not a real date")]
    return (date, date), []


def _month_year(text: str, ref: dt.date | None) -> tuple[tuple[dt.date, dt.date] | None, list[DateProblem]]:
    m = _MY.search(text)
    if not m:
        return None, []
    month, year = _month(m[1]), int(m[2])
    start = dt.date(year, month, 1)
    end = (dt.date(year + month // 12, month % 12 + 1, 1)) - dt.timedelta(days=1)
    return (start, end), []


_PATH_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")


def date_in_path(path: str) -> tuple[dt.date | None, str]:
    """The day a file belongs to, from a date in its name or else its folders (``memory/daily/2026-02-03.md``,
    ``nightshift-2026-02-03.md``, ``2026-02-03-1430.md``); a date that is no real day comes back as its text."""
    parts = path.removesuffix(".md").split("/")
    for part in reversed(parts):
        m = _PATH_DATE.search(part)
        if m:
            date = _make(int(m[1]), int(m[2]), int(m[3]))
            return (date, "") if date else (None, m[0])
    return None, ""
