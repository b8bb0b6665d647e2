"""Questions about time: the lines written in the time a query names, and the lines that say when.

A query that names a time ("in March 2024", "on 3 June, 2023") asks about what
was written then, often in other words than the question's: "what did Nate
change in April 2022?" is answered by "Dyed my hair last week!", written in
April. Lines dated then are lifted (``search.TIME_LIFT``), but a lift leaves a
line near nothing when only a name matched, so each line dated in the window
also gets a share (``TIME_SUPPORT``) of the best score of the query: it ranks
after the lines that match the question well and before those of other times
that match as little. A query that names one day ("on 2026-05-12") asks for that day's lines: they get a larger
share (``DAY_SUPPORT``; LoCoMo R@10 82.7 → 82.8, the real questions' temporal ones 20 → 21 of 24).

A question that asks when, how long or how many is answered by a time or a
number: "When did Anna start pottery?" by "I signed up for a pottery class
yesterday!" rather than by "Pottery is so calming". Lines that say when or how
much (a time word, a weekday or month, a year, a number) get ``SAYS_WHEN_LIFT``
on such questions. The question words are read in the other languages memory is
written in too ("¿Cuándo…?", "Wie lange…?", "什么时候…？").

Measured on the LoCoMo dev conversations, evidence recall at 10: the time
support +0.4 to +0.6 on each half of them, the lift for lines that say when
+0.2 to +0.3 more on each half (temporal questions +1.3).
"""

from __future__ import annotations

import re

from site_builder.recall.evidence import Row

TIME_SUPPORT = 0.2  # share of the query's best score that a line dated in the time it names gets on top of its own
DAY_SUPPORT = 0.4  # the share when the time is one day ("What happened to Komodo on 2026-05-12?"): that day's lines
SAYS_WHEN_LIFT = 1.2  # a line that says when or how much, on a question that asks it

_AUXILIARY = "did|does|do|was|were|is|are|will|would|has|have|had|can|could"
_ASKS_WHEN = re.compile(  # "When ...?" and "... when did ...?", not "how did she feel when he left?"
    rf"^\W*when\b|\bwhen\s+(?:{_AUXILIARY})\b|\bhow\s+(?:long|many|much|often)\b"
    r"|\b(?:what|which)\s+(?:year|month|day|date|time)\b"
    # the same in the other languages memory is written in: Spanish, Portuguese, Italian, French, German, Chinese
    r"|^\W*(?:cuando|quando|quand|wann)\b|\b(?:cuándo|cuánt[oa]s?|quant[oa]s?|quanti|quante|combien|wie\s+(?:lange|viele?|oft))\b"
    r"|\b(?:qu[eé]|que|quel(?:le)?s?|welche[rsmn]?)\s+(?:año|dia|día|fecha|hora|ano|data|jour|date|heure|jahr|tag|datum)\b"
    r"|什么时候|何时|哪天|哪一天|多久|多长时间|多少|几[点天年月号次个]",
    re.IGNORECASE,
)
_MONTHS = "january|february|march|april|june|july|august|september|october|november|december"  # "may" is a verb too
_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_SAYS_WHEN = re.compile(  # searched in casefolded text: 3.5 times faster than with re.IGNORECASE
    rf"\b(?:yesterday|today|tonight|tomorrow|ago|last|next|week|weekend|month|year|years|{_WEEKDAYS}|{_MONTHS}"
    r"|\d+|one|two|three|four|five|six|seven|eight|nine|ten|once|twice|couple|few|several)\b"
)


def asks_when(question: str) -> bool:
    """Does the question ask for a time or an amount ("when", "how long", "how many", "which year")?"""
    return _ASKS_WHEN.search(question) is not None


def says_when(text: str) -> bool:
    """Does the line state a time or an amount ("last Friday", "two weeks ago", "in 2019", "3 years")?"""
    return _SAYS_WHEN.search(text.casefold()) is not None


def with_time_support(scored: list[tuple[float, Row]], days: tuple[str, str] | None) -> list[tuple[float, Row]]:
    """Each line dated inside ``days`` (ISO dates, both included) with a share of the best score added."""
    if days is None or not scored:
        return scored
    share = DAY_SUPPORT if days[0] == days[1] else TIME_SUPPORT
    support = share * max(score for score, _ in scored)
    return [(score + support if row[3] and days[0] <= row[3] <= days[1] else score, row) for score, row in scored]
