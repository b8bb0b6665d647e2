"""``agent.html``: what the agent sees of this workspace, for each memory system that wrote it.

For every system (OpenClaw, TinyClaw, toebeans, else memwiki's own block) the
page shows the tiers — always loaded, listed by name, found by search only —
with their token counts and files, as toebeans' budget analysis and Letta's
context viewer do, and the prompt block itself as ``memwiki context --format``
prints it.
"""

from __future__ import annotations

from site_builder.recall.agent_view import agent_block, tiers
from site_builder.recall.bundle import estimate_tokens
from site_builder.recall.context import MemorySources, context_block, default_budget
from site_builder.site.builder import PageBuilder
from site_builder.site.links import href
from site_builder.site.page_views import AgentPage, AgentView, TierView
from site_builder.site.views import LinkView

URL = "agent.html"
# The layouts whose agents inject a block of their own (``memwiki context --format``); others get memwiki's.
OWN_BLOCK = ("openclaw", "tinyclaw", "toebeans")


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
    return AgentView(
        name=fmt,
        command=f"memwiki context --format {fmt}",
        tiers=[
            TierView(
                tier.name,
                f"{tier.tokens:,}",
                [LinkView(path, href(URL, note.url)) for path in tier.paths if (note := library.note(path))],
            )
            for tier in tiers(library, fmt)
        ],
        block=text,
        block_tokens=f"{estimate_tokens(text):,}",
    )
