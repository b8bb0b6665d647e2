"""``memwiki context``: a ready-to-paste memory block for an agent's prompt.

Filled in order until the token budget is spent: core memory, opinions (the
most recently changed first), the lines most relevant to a query, then the
most recent facts. Every fact line ends with its citation. The block is made
from ``MemorySources``: taken from a linked library (``memwiki context``, the
agent page), or from the recall index (``memory_context``: ``index_facts``).
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import operator
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from site_builder.core.model import Fact, Library, Note, Opinion
from site_builder.io.reader import Workspace
from site_builder.recall.agent_view import SYSTEM_NAMES, agent_block, budget_report
from site_builder.recall.bundle import estimate_tokens
from site_builder.recall.hits import Hit
from site_builder.recall.index import RecallIndex, refresh_index
from site_builder.recall.query import RecallQuery
from site_builder.recall.recency import newest_day_first, recent_first_as_read
from site_builder.recall.search import search

RELEVANT = 25  # lines most relevant to the query, before the budget cuts them


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


@dataclass(frozen=True)
class ContextBlock:
    text: str
    estimated_tokens: int
    truncated: bool


class _Lines:
    def __init__(self, budget: int, closing: str) -> None:
        self.lines: list[str] = []
        self.budget = budget
        self.used = estimate_tokens(closing + "\n")
        self.truncated = False

    def add(self, line: str) -> bool:
        cost = estimate_tokens(line + "\n")
        if self.used + cost > self.budget:
            self.truncated = True
            return False
        self.lines.append(line)
        self.used += cost
        return True

    def section(self, title: str, lines: Iterable[str]) -> None:
        """A heading and as many of ``lines`` as fit (read no further than that); no heading if none fits."""
        more = iter(lines)
        first = next(more, None)
        if first is None:
            return
        if self.truncated or not self.add(f"\n## {title}"):
            self.truncated = True
            return
        for line in itertools.chain([first], more):
            if not self.add(line):
                return


def context_for(
    workspace: Workspace,
    notes: list[Note],
    library: Library,
    *,
    budget: int | None,
    query: str,
    fmt: str,
    report: bool,
    today: dt.date | None = None,
) -> tuple[str, str]:
    """``memwiki context``: the block (or the tier report) and the line about it for the terminal."""
    if report:
        return budget_report(library, fmt), f"memwiki context: tiers of {SYSTEM_NAMES.get(fmt, fmt)} agent."
    if fmt != "memwiki":
        text = agent_block(library, fmt, query)
        return text, f"memwiki context: {fmt} block, ~{estimate_tokens(text):,} tokens."
    index = refresh_index(workspace, notes) if query else None
    return memory_block(workspace, MemorySources.of(library), budget=budget, query=query, today=today, index=index)


def memory_block(
    workspace: Workspace,
    sources: MemorySources,
    *,
    budget: int | None,
    query: str,
    today: dt.date | None,
    index: RecallIndex | None,
) -> tuple[str, str]:
    """memwiki's own block from ``sources`` (with the lines of ``index`` most relevant to ``query``) and the line
    about it for the terminal."""
    config = workspace.config
    hits = None
    if query and index is not None:
        hits = search(index, RecallQuery(text=query, k=RELEVANT, today=today or dt.date.today()))
    limit = budget or default_budget(sources.core, config.recall_max_tokens)
    block = context_block(sources, config.title, limit, query, hits)
    cut = "; some lines were left out" if block.truncated else ""
    return block.text, f"memwiki context: ~{block.estimated_tokens:,} of {limit:,} tokens{cut}."


def default_budget(core: Note | None, rest: int) -> int:
    """The whole core memory (the agent loads it whole every session) plus ``rest`` tokens for everything else."""
    return rest + (estimate_tokens(core.body) if core else 0)


def context_block(
    sources: MemorySources, title: str, budget: int, query: str = "", hits: list[Hit] | None = None
) -> ContextBlock:
    latest = sources.latest_day.isoformat() if sources.latest_day else "none"
    opening = f'<memory source="memwiki" title="{_attr(title)}" latest_day="{latest}">'
    closing = "</memory>"
    out = _Lines(budget, closing)
    out.add(opening)
    core = sources.core
    if core is not None:
        out.section(f"Core memory ({core.path})", [line.rstrip() for line in core.body.strip().split("\n")])
    out.section("Opinions", (_opinion_line(o) for o in recently_changed_first(sources.opinions)))
    cited: set[str] = set()
    if query and hits is not None:
        # Core memory is already in the block; do not repeat its lines.
        relevant = [h for h in hits if core is None or h.path != core.path]
        cited = {h.source for h in relevant}
        out.section(f"Most relevant to: {query}", [_hit_line(h) for h in relevant])
    recent = (f for f in sources.recent if f.source not in cited and f.kind != "O")
    out.section("Recent facts", (_fact_line(f) for f in recent))
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


def _hit_line(hit: Hit) -> str:
    date = f"{hit.date} " if hit.date else ""
    happens = f"; {hit.happens}" if hit.happens else ""
    if hit.confidence is not None:
        points = f", {hit.history} points" if hit.history > 1 else ""
        return f"- {date}[{hit.kind}] {hit.content} (confidence {hit.confidence:.2f}{points}; {hit.source})"
    return f"- {date}[{hit.kind}] {hit.content} ({hit.source}{happens})"


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
