"""Questions about a time: the lines written in the time a query names.

A query that names a time ("in March 2024", "on 3 June, 2023") asks about what
was written then, often in other words than the question's: "what did Nate
change in April 2022?" is answered by "Dyed my hair last week!", written in
April. Lines dated then are lifted (``search.TIME_LIFT``), but a lift leaves a
line near nothing when only a name matched, so each line dated in the window
also gets a share (``TIME_SUPPORT``) of the best score of the query: it ranks
after the lines that match the question well and before those of other times
that match as little.

Measured on the LoCoMo dev conversations, evidence recall at 10: +0.4 to +0.6
on each half of them.
"""

from __future__ import annotations

from site_builder.recall.evidence import Row

TIME_SUPPORT = 0.2  # share of the query's best score that a line dated in the time it names gets on top of its own


def with_time_support(scored: list[tuple[float, Row]], days: tuple[str, str] | None) -> list[tuple[float, Row]]:
    """Each line dated inside ``days`` (ISO dates, both included) with a share of the best score added."""
    if days is None or not scored:
        return scored
    support = TIME_SUPPORT * max(score for score, _ in scored)
    return [(score + support if row[3] and days[0] <= row[3] <= days[1] else score, row) for score, row in scored]
