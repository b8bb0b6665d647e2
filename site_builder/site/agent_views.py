"""The agent page's view and its parts: per memory system, what its agent sees of the workspace, tier by tier, and
each tier's files as a bar against the context window (``agent_page``, ``agent_bars``).

Each field is documented by a ``#:`` comment on its line, as in ``page_views`` (``tests/test_views.py`` checks them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from site_builder.site.views import LinkView, PageView


@dataclass(frozen=True)
class SegmentView:
    """One file's part of a tier's bar (or the rest of a tier's files together), placed against the context window."""

    link: LinkView  #: the file (or "312 other files", leading nowhere: href "")
    tokens: str  #: its estimated size, "1,234"
    share: str  #: its part of the context window, "0.6 %" ("<0.1 %" for a sliver)
    x: str  #: where it starts on the bar, "12.345%"
    width: str  #: how long it is on the bar, "0.617%"
    tone: int  #: its colour, 1 to ``TONES``, in turn
    mark: str = ""  #: how OpenClaw cuts it, when it does: "OpenClaw keeps 19,857 of its 31,204 characters…"
    middle: str = ""  #: the middle of the segment, where its mark points, "13.1%"
    lost: str = ""  #: the first line the prompt loses of the file, when OpenClaw cuts it (a link)
    lost_part: tuple[str, str] = ("", "")  #: where the part the prompt loses lies on the bar: x and width


@dataclass(frozen=True)
class BarView:
    """A tier's files as one stacked bar against the model's context window."""

    caption: str  #: "Always loaded: ~12,345 tokens, 6.2 % of a 200,000-token context window"
    segments: list[SegmentView]  #: its files in tier order, the smallest past ``BAR_FILES`` as one segment
    marked: list[SegmentView]  #: the segments of the files OpenClaw cuts, which carry a mark
    window_end: str = ""  #: where the context window ends on the bar when the tier overflows it, "27.1%"; else ""


@dataclass(frozen=True)
class TierView:
    """A part of the workspace by how the agent gets it: always loaded, listed by name, or found by search only."""

    name: str  #: e.g. "Always loaded"
    tokens: str  #: its estimated size in tokens, "1,234"
    count: int  #: how many files it has
    files: list[LinkView]  #: its files; only those of the workspace's top folder when it lists ``folders``
    folders: list[LinkView] = field(default_factory=list)  #: its folders, when it has too many files to list
    bar: BarView | None = None  #: its files against the context window (None for an empty tier)


@dataclass(frozen=True)
class AgentView:
    """What one memory system's agent sees of the workspace."""

    name: str  #: the system, e.g. "openclaw"
    command: str  #: the command that prints its block
    tiers: list[TierView]  #: always loaded, listed, searchable only
    block: str  #: the prompt block it injects, as text
    block_tokens: str  #: the block's estimated size in tokens
    limits: str = ""  #: where the bootstrap limits the marks apply come from (OpenClaw only), as a sentence


@dataclass(frozen=True)
class AgentPage(PageView):
    """What the agent sees: per memory system the workspace present, its tiers and its prompt block."""

    template = "agent.html"
    agents: list[AgentView]  #: one per layout the workspace has (memwiki's own when none of them has a block)
