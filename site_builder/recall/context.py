"""``memwiki context``: a ready-to-paste memory block for an agent's prompt: memwiki's own block
(``library.memory_block``) with the lines of the recall index most relevant to a query, or the block another
memory system puts in its prompt (``library.agent_view``). The block is made from ``MemorySources``: taken from a
linked library (``memwiki context``), or from the recall index (``memory_context``: ``index_facts``).
"""

from __future__ import annotations

import datetime as dt

from site_builder.core.library import Library
from site_builder.core.model import Note
from site_builder.core.tokens import estimate_tokens
from site_builder.io.reader import Workspace
from site_builder.library.agent_view import SYSTEM_NAMES, agent_block, budget_report
from site_builder.library.memory_block import MemorySources, Relevant, context_block, default_budget
from site_builder.library.subject import site_title
from site_builder.recall.hits import Hit
from site_builder.recall.index import RecallIndex, refresh_index
from site_builder.recall.query import RecallQuery
from site_builder.recall.search import search

RELEVANT = 25  # lines most relevant to the query, before the budget cuts them


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
    titled = workspace.with_config(site_title(workspace.config, notes, workspace.root.resolve().name))
    return memory_block(titled, MemorySources.of(library), budget=budget, query=query, today=today, index=index)


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
    relevant = None
    if query and hits is not None:  # core memory is already in the block: its lines are not repeated
        found = [h for h in hits if sources.core is None or h.path != sources.core.path]
        relevant = Relevant(f"Most relevant to: {query}", [_hit_line(h) for h in found], {h.source for h in found})
    block = context_block(sources, config.title, limit, relevant)
    cut = "; some lines were left out" if block.truncated else ""
    return block.text, f"memwiki context: ~{block.estimated_tokens:,} of {limit:,} tokens{cut}."


def _hit_line(hit: Hit) -> str:
    date = f"{hit.date} " if hit.date else ""
    happens = f"; {hit.happens}" if hit.happens else ""
    if hit.confidence is not None:
        points = f", {hit.history} points" if hit.history > 1 else ""
        return f"- {date}[{hit.kind}] {hit.content} (confidence {hit.confidence:.2f}{points}; {hit.source})"
    return f"- {date}[{hit.kind}] {hit.content} ({hit.source}{happens})"
