"""memwiki's own memory block for an agent's prompt, made from the library: core memory, opinions (the most
recently changed first), the lines a caller found relevant (``recall.context`` adds those of a query), then the
most recent facts, until the token budget is spent. Every fact line ends with its citation. The agent page shows
it; ``memwiki context`` and MCP's ``memory_context`` print it.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import operator
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from site_builder.core.library import Library
from site_builder.core.model import Fact, Note, Opinion
from site_builder.core.tokens import estimate_tokens
from site_builder.library.recency import newest_day_first, recent_first_as_read


@dataclass(frozen=True)
class MemorySources:
    """What the block is made of."""

    core: Note | None  # the core memory (``Library.core``)
    opinions: list[Opinion]
    latest_day: dt.date | None  # the newest day with a page
    recent: Iterable[Fact]  # every fact, newest first (``recent_first_as_read``); read as far as the budget goes

    @classmethod
    def of(cls, library: Library) -> MemorySources:
        days = library.days
        latest = days[-1].date if days else None
        return cls(library.core, library.opinions, latest, recent_first_as_read(library.facts))


CUT_NOTE_TOKENS = 40  # kept free for the line that says what of the core memory was left out


@dataclass(frozen=True)
class ContextBlock:
    text: str
    estimated_tokens: int
    truncated: bool


@dataclass(frozen=True)
class Relevant:
    """The lines a caller found relevant, and under which title: they come after the opinions, and the recent
    facts they cite are not repeated."""

    title: str
    lines: list[str]
    cited: set[str]


class _Lines:
    def __init__(self, budget: int, closing: str) -> None:
        self.lines: list[str] = []
        self.budget = budget
        self.used = estimate_tokens(closing + "\n")
        self.truncated = False  # something was left out
        self.full = False  # the budget is spent: no section after the one that ran out

    def add(self, line: str) -> bool:
        cost = estimate_tokens(line + "\n")
        if self.used + cost > self.budget:
            self.truncated = True
            return False
        self.lines.append(line)
        self.used += cost
        return True

    def section(self, title: str, lines: Iterable[str], upto: int | None = None) -> int:
        """A heading and as many of ``lines`` as fit (read no further than that; ``upto``: spend no more than this
        many tokens on the block so far, and leave the rest to the sections after it); no heading if none fits.
        Returns how many lines it took."""
        more = iter(lines)
        first = next(more, None)
        if first is None or self.full:
            self.truncated |= first is not None
            return 0
        budget = self.budget
        self.budget = min(budget, upto) if upto is not None else budget
        taken = 0
        ran_out = not self.add(f"\n## {title}")
        if not ran_out:
            for line in itertools.chain([first], more):
                if not self.add(line):
                    ran_out = True
                    break
                taken += 1
        self.full = ran_out and upto is None
        self.budget = budget
        return taken


def default_budget(core: Note | None, rest: int) -> int:
    """The whole core memory (the agent loads it whole every session) plus ``rest`` tokens for everything else."""
    return rest + (estimate_tokens(core.body) if core else 0)


def context_block(sources: MemorySources, title: str, budget: int, relevant: Relevant | None = None) -> ContextBlock:
    """The block within ``budget`` tokens. When the core memory does not fit, a query's lines come first (in up to
    half of what is left: the core memory, cut, follows) and the block ends saying what of the core memory it left
    out."""
    latest = sources.latest_day.isoformat() if sources.latest_day else "none"
    opening = f'<memory source="memwiki" title="{_attr(title)}" latest_day="{latest}">'
    closing = "</memory>"
    out = _Lines(budget, closing)
    out.add(opening)
    core = sources.core
    core_lines = [line.rstrip() for line in core.body.strip().split("\n")] if core is not None else []
    tight = sum(estimate_tokens(line + "\n") for line in core_lines) > budget - out.used
    if tight:
        out.budget -= CUT_NOTE_TOKENS
    cited: set[str] = set()
    if relevant is not None and tight:
        cited = relevant.cited
        out.section(relevant.title, relevant.lines, upto=out.used + (out.budget - out.used) // 2)
    kept = out.section(f"Core memory ({core.path})", core_lines) if core is not None else 0
    if relevant is not None and not tight:  # what the query asks comes before what the block always holds
        cited = relevant.cited
        out.section(relevant.title, relevant.lines)
    out.section("Opinions", (_opinion_line(o) for o in recently_changed_first(sources.opinions)))
    recent = (f for f in sources.recent if f.source not in cited and f.kind != "O")
    out.section("Recent facts", (_fact_line(f) for f in recent))
    if core is not None and kept < len(core_lines):
        left = len(core_lines) - kept
        out.lines.append(
            f"\n(Left out for the budget: the last {left} of {len(core_lines)} lines of {core.path}; "
            "ask memwiki recall for them.)"
        )
    text = "\n".join([*out.lines, closing]) + "\n"
    return ContextBlock(text, estimate_tokens(text), out.truncated)


def recently_changed_first(opinions: list[Opinion]) -> Iterator[Opinion]:
    """The opinions most recently changed first (the surest first on one day, then by id; never changed last),
    worked out as far as they are read (``newest_day_first``)."""
    surest_first = functools.partial(sorted, key=_surest_first)
    return newest_day_first(opinions, operator.attrgetter("changed"), surest_first, surest_first)


def _surest_first(opinion: Opinion) -> tuple[float, str]:
    return -opinion.confidence, opinion.id


def _opinion_line(opinion: Opinion) -> str:
    changed = f", changed {opinion.changed.isoformat()}" if opinion.changed else ""
    return f"- {opinion.statement} (confidence {opinion.confidence:.2f}{changed}; {opinion.origin.source})"


def _fact_line(fact: Fact) -> str:
    date = f"{fact.date.isoformat()} " if fact.date else ""
    return f"- {date}[{fact.kind}] {fact.content} ({fact.source})"


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
