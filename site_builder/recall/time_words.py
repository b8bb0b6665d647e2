"""Time words in a recall query: "last week", "yesterday", "on 3 June, 2023", "in November", "2025".

``time_window`` turns them into a date window that recall lifts results in, and
returns the query without the time words, which would otherwise match lines
that merely say "last week" or "November" instead of lines dated then.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re

_MONTHS = {name.lower(): number for number, name in enumerate(calendar.month_name) if name}
_MONTHS |= {name.lower(): number for number, name in enumerate(calendar.month_abbr) if name}
_MONTHS["sept"] = 9
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_UNITS = {"day": 1, "week": 7, "month": 30, "year": 365}

_RELATIVE = re.compile(
    r"\b(?:(?P<day>yesterday|today|tonight|this morning)"
    r"|(?P<which>this|last|past|previous)\s+(?P<unit>day|week|month|year)"
    r"|(?:the\s+)?(?:past|last)\s+(?P<n>\d+)\s+(?P<nunit>day|week|month|year)s?"
    r"|(?P<ago>\d+|a|an|one|two|three)\s+(?P<agounit>day|week|month|year)s?\s+ago"
    r"|(?P<recent>recently|lately))\b",
    re.IGNORECASE,
)
_YEAR_AFTER = r"(?:,\s*|\s+)(?P<year>(?:19|20)\d\d)"
_ORDINAL = r"(?:st|nd|rd|th)?"
# "3 June, 2023", "8th December 2023", "June 3, 2023", "December 1,2023", "June 3" (the year may be left out)
_DAY_MONTH = re.compile(
    rf"\b(?P<day>[0-3]?\d){_ORDINAL}\s+(?:of\s+)?(?P<month>{_MONTH})\.?(?:{_YEAR_AFTER})?\b", re.IGNORECASE
)
_MONTH_DAY = re.compile(
    rf"\b(?P<month>{_MONTH})\.?\s+(?P<day>[0-3]?\d){_ORDINAL}(?!\d)(?:{_YEAR_AFTER})?\b", re.IGNORECASE
)
_MONTH_YEAR = re.compile(rf"\b(?P<month>{_MONTH})\.?(?:{_YEAR_AFTER})?\b", re.IGNORECASE)
_YEAR = re.compile(r"\b(?:in|during|of|since)\s+(?P<year>(?:19|20)\d\d)\b", re.IGNORECASE)
_ISO = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_WORD_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3}

Window = tuple[dt.date, dt.date]


def time_window(text: str, today: dt.date) -> tuple[Window | None, str]:
    """The date window a query's time words name (or None) and the query without them. A day the query names
    ("on 3 June, 2023") wins over relative words ("what did she start recently, as mentioned on 3 June, 2023")."""
    m = _ISO.search(text)
    if m:
        try:
            day = dt.date.fromisoformat(m[1])
        except ValueError:
            return None, text
        return (day, day), _without(text, m)
    days = _days(text, today)
    if days:
        rest = text
        for _, m in reversed(days):
            rest = _without(rest, m)
        return (min(day for day, _ in days), max(day for day, _ in days)), rest
    m = _RELATIVE.search(text)
    if m:
        return _relative(m, today), _without(text, m)
    m = _MONTH_YEAR.search(text)
    if m and (m["year"] or len(m["month"]) > 3):
        month = _MONTHS[m["month"].lower()]
        year = int(m["year"]) if m["year"] else (today.year if month <= today.month else today.year - 1)
        last = calendar.monthrange(year, month)[1]
        return (dt.date(year, month, 1), dt.date(year, month, last)), _without(text, m)
    m = _YEAR.search(text)
    if m:
        year = int(m["year"])
        return (dt.date(year, 1, 1), dt.date(year, 12, 31)), _without(text, m)
    return None, text


def _days(text: str, today: dt.date) -> list[tuple[dt.date, re.Match[str]]]:
    """The days a query names, in order ("between August 11 and August 15 2023": both, in 2023)."""
    found = sorted((m for pattern in (_DAY_MONTH, _MONTH_DAY) for m in pattern.finditer(text)), key=lambda m: m.start())
    matches: list[re.Match[str]] = []
    for m in found:
        if not matches or m.start() >= matches[-1].end():
            matches.append(m)
    days = []
    for i, m in enumerate(matches):
        later = next((int(n["year"]) for n in matches[i + 1 :] if n["year"]), None)
        day = _day(m, today, later)
        if day is not None:
            days.append((day, m))
    return days


def _day(m: re.Match[str], today: dt.date, later_year: int | None = None) -> dt.date | None:
    """The day of a "3 June, 2023" match; without a year, the year of a later date of the query or else its latest
    date up to today. A short month name ("may", "mar") without a year is taken as a word, not a date."""
    name = m["month"].lower()
    if not m["year"] and len(name) <= 3:
        return None
    month, number = _MONTHS[name], int(m["day"])
    if not m["year"] and later_year:
        try:
            return dt.date(later_year, month, number)
        except ValueError:
            return None
    year = int(m["year"]) if m["year"] else today.year
    try:
        day = dt.date(year, month, number)
    except ValueError:
        return None
    if not m["year"] and day > today:
        try:
            day = day.replace(year=year - 1)
        except ValueError:  # 29 February
            return None
    return day


def _without(text: str, m: re.Match[str]) -> str:
    return (text[: m.start()] + " " + text[m.end() :]).strip()


def _relative(m: re.Match[str], today: dt.date) -> Window:
    if m["day"]:
        day = today - dt.timedelta(days=1) if m["day"].lower() == "yesterday" else today
        return day, day
    if m["recent"]:
        return today - dt.timedelta(days=30), today
    if m["unit"]:
        unit = m["unit"].lower()
        if m["which"].lower() == "this":
            return _this(unit, today), today
        start = _this(unit, today)
        end = start - dt.timedelta(days=1)
        return _this(unit, end), end
    if m["n"]:
        return today - dt.timedelta(days=int(m["n"]) * _UNITS[m["nunit"].lower()]), today
    count = _WORD_NUMBERS.get(m["ago"].lower()) or int(m["ago"])
    span = _UNITS[m["agounit"].lower()]
    centre = today - dt.timedelta(days=count * span)
    return centre - dt.timedelta(days=max(1, span // 2)), centre + dt.timedelta(days=max(1, span // 2))


def _this(unit: str, day: dt.date) -> dt.date:
    """First day of the day/week/month/year that contains ``day``."""
    if unit == "week":
        return day - dt.timedelta(days=day.weekday())
    if unit == "month":
        return day.replace(day=1)
    if unit == "year":
        return day.replace(month=1, day=1)
    return day
