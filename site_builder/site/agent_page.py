"""``agent.html``: what the agent sees of this workspace, for each memory system that wrote it.

For every system (OpenClaw, TinyClaw, toebeans, else memwiki's own block) the
page shows the tiers — always loaded, listed by name, found by search only —
with their token counts and files, as toebeans' budget analysis and Letta's
context viewer do, and the prompt block itself as ``memwiki context --format``
prints it.
"""

from __future__ import annotations

from site_builder.core.model import Note
from site_builder.core.names import OWN_INDEX, href
from site_builder.core.tokens import estimate_tokens, tokens_of
from site_builder.library.agent_view import Tier, agent_block, tiers
from site_builder.library.memory_block import MemorySources, context_block, default_budget
from site_builder.library.openclaw_bootstrap import Injected, injected
from site_builder.site.agent_bars import LIMITS, WITHIN_LIMITS, tier_bar
from site_builder.site.agent_views import AgentPage, AgentView, TierView
from site_builder.site.builder import PageBuilder
from site_builder.site.entity_page import INDEX_URL
from site_builder.site.views import LinkView

URL = "agent.html"
# The layouts whose agents inject a block of their own (``memwiki context --format``); others get memwiki's.
OWN_BLOCK = ("openclaw", "tinyclaw", "toebeans")
# A tier of more files than this lists its folders (files and tokens each, leading to the folder's page), not its
# files: ten years of daily logs are thousands of links that no one reads (and 700 kB of page).
TIER_FILES_LISTED = 200


def agent_page(builder: PageBuilder, layouts: tuple[str, ...]) -> AgentPage:
    formats = [name for name in layouts if name in OWN_BLOCK] or ["memwiki"]
    return AgentPage(
        chrome=builder.chrome(URL, kind="agent", title="What the agent sees", section="agent"),
        agents=[_agent(builder, fmt) for fmt in formats],
    )


def _agent(builder: PageBuilder, fmt: str) -> AgentView:
    library = builder.library
    if fmt == "memwiki":
        budget = default_budget(library.core, builder.config.recall_max_tokens)
        block = context_block(MemorySources.of(library), builder.config.title, budget)
        text = block.text
    else:
        text = agent_block(library, fmt)
    cuts = {cut.path: cut for cut in injected(library)} if fmt == "openclaw" else {}
    return AgentView(
        name=fmt,
        command=f"memwiki context --format {fmt}",
        tiers=[_tier_view(builder, tier, cuts) for tier in tiers(library, fmt)],
        block=text,
        block_tokens=f"{estimate_tokens(text):,}",
        limits=("" if fmt != "openclaw" else LIMITS if any(cut.cut for cut in cuts.values()) else WITHIN_LIMITS),
    )


def _tier_view(builder: PageBuilder, tier: Tier, cuts: dict[str, Injected]) -> TierView:
    """A tier with its bar and its files, or its folders when it has more than ``TIER_FILES_LISTED`` files."""
    notes = [note for path in tier.paths if (note := builder.library.note(path))]
    bar = tier_bar(URL, tier, notes, builder.config.context_tokens, cuts)
    if len(notes) <= TIER_FILES_LISTED:
        files = [LinkView(n.path, href(URL, n.url)) for n in notes]
        return TierView(tier.name, f"{tier.tokens:,}", len(notes), files, bar=bar)
    by_folder: dict[str, list[Note]] = {}
    for note in notes:
        by_folder.setdefault(note.path.rpartition("/")[0], []).append(note)
    files = [LinkView(n.path, href(URL, n.url)) for n in by_folder.pop("", [])]  # the workspace's own files
    folders = [
        LinkView(f"{folder}/", href(URL, _folder_url(builder, folder)), _size(in_folder, tier.loaded == "listed"))
        for folder, in_folder in sorted(by_folder.items())
    ]
    return TierView(tier.name, f"{tier.tokens:,}", len(notes), files, folders, bar)


def _folder_url(builder: PageBuilder, folder: str) -> str:
    """The page that lists a folder: its own (a folder page, the timeline, a project), else the entity index (a
    folder of entity pages only)."""
    return f"{folder}/index.html" if folder in builder.folders or folder in OWN_INDEX else INDEX_URL


def _size(notes: list[Note], by_name: bool) -> str:
    """``1,234 files, ~56,789 tokens``: what a folder brings to a tier (its paths, for a tier listed by name)."""
    tokens = sum(estimate_tokens(n.path) if by_name else tokens_of(n.chars) for n in notes)
    return f"{len(notes):,} file{'' if len(notes) == 1 else 's'}, ~{tokens:,} tokens"
