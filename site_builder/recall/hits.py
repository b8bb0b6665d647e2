"""One recall result and how it is shown: on a terminal, as JSON, and an opinion as it stands now."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import click

from site_builder.core.model import KIND_NAMES
from site_builder.recall.index import RecallIndex


@dataclass(frozen=True)
class Hit:
    path: str
    line: int
    content: str
    date: str | None
    kind: str
    entities: tuple[str, ...]
    score: float
    occurred: str | None = None  # "start/end" (ISO dates): when the fact happens
    confidence: float | None = None  # an opinion's current confidence
    opinion: str | None = None  # the opinion an O fact states
    history: int = 0  # points in that opinion's confidence history
    also: tuple[str, ...] = ()  # citations of lines that say the same (a Retain fact and the log line it restates)

    @property
    def source(self) -> str:
        return f"{self.path}#L{self.line}"

    @property
    def occurred_span(self) -> tuple[str, str] | None:
        if not self.occurred:
            return None
        start, _, end = self.occurred.partition("/")
        return start, end or start

    @property
    def happens(self) -> str:
        """``happens 2025-11-27 to 2025-12-01``, or nothing when the fact happens on the day it was written."""
        span = self.occurred_span
        if not span or span == (self.date, self.date):
            return ""
        return f"happens {span[0]}" if span[0] == span[1] else f"happens {span[0]} to {span[1]}"

    def describe(self) -> str:
        """Kind, confidence, day and when it happens: ``opinion · confidence 0.80 (6 points) · 2025-12-10``."""
        parts = [KIND_NAMES.get(self.kind, self.kind)]
        if self.confidence is not None:
            history = f" ({self.history} points)" if self.history > 1 else ""
            parts.append(f"confidence {self.confidence:.2f}{history}")
        parts.append(self.date or "undated")
        return " · ".join([*parts, self.happens] if self.happens else parts)

    def as_text(self, rank: int) -> str:
        """Three lines for a terminal: rank and what kind of line it is; the line; its citation."""
        head = click.style(f"{rank:>2}. {self.describe()}", bold=True)
        cited = click.style(self.source, fg="cyan")
        if self.also:
            cited += " (also " + ", ".join(click.style(source, fg="cyan") for source in self.also) + ")"
        return f"{head}\n    {self.content}\n    {cited}"

    def as_json(self) -> dict[str, object]:
        span = self.occurred_span
        record: dict[str, object] = {
            "source": self.source,
            "content": self.content,
            "date": self.date,
            "kind": self.kind,
            "entities": list(self.entities),
            "score": round(self.score, 4),
            "occurred": {"start": span[0], "end": span[1]} if span else None,
            "confidence": self.confidence,
        }
        if self.also:
            record["also"] = list(self.also)
        if self.opinion is not None:
            record["opinion"] = self.opinion
            record["history"] = self.history
        return record


def current_opinion(index: RecallIndex, hit: Hit, since: str | None = None, until: str | None = None) -> Hit:
    """The opinion ``hit`` states, as it stands now (or as of ``until``): its latest statement with the confidence its
    history ends at (restatements and the points reflect recorded in ``bank/opinions.md``) and that history's size.
    With ``since``/``until`` only statements dated inside them count, as for every other line."""
    assert hit.opinion is not None
    statements = index.db.execute(
        "SELECT coalesce(date, ''), path, line, content, occurred, confidence FROM docs WHERE opinion = ?"
        " AND (?2 IS NULL OR date >= ?2) AND (?3 IS NULL OR date <= ?3)",
        (hit.opinion, since, until),
    ).fetchall()
    recorded = index.db.execute(
        "SELECT coalesce(date, ''), confidence, source FROM opinion_points WHERE opinion = ?"
        " AND (?2 IS NULL OR date IS NULL OR date <= ?2) ORDER BY rowid",
        (hit.opinion, until),
    ).fetchall()
    if not statements:
        return hit
    date, path, line, content, occurred, confidence = max(statements, key=lambda s: (s[0], s[1], s[2]))
    events = [(str(s[0]), 0, i, float(s[5])) for i, s in enumerate(statements) if s[5] is not None]
    events += [(str(p[0]), 1, i, float(p[1])) for i, p in enumerate(recorded)]
    sources = {f"{s[1]}#L{s[2]}" for s in statements} | {str(p[2]) for p in recorded}
    current = max(events)[3] if events else confidence
    return dataclasses.replace(
        hit,
        path=str(path),
        line=int(line),
        content=str(content),
        date=str(date) or None,
        occurred=str(occurred) if occurred else None,
        confidence=current,
        history=len(sources),
    )
