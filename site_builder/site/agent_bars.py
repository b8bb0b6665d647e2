"""The agent page's bars: each tier's files stacked against the model's context window, and OpenClaw's cuts marked.

A tier is one bar as long as the context window (``[agent] context_tokens``), or as the tier when the tier is larger,
with a line where the window ends. Each file is a segment of its estimated tokens; past ``BAR_FILES`` files the
smallest are one segment. For OpenClaw, a bootstrap file its prompt cuts (``library.openclaw_bootstrap``) carries a
mark and a sentence saying what the prompt keeps of it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from site_builder.core.model import Note
from site_builder.core.names import href, source_url
from site_builder.core.tokens import estimate_tokens, tokens_of
from site_builder.library.agent_view import Tier
from site_builder.library.openclaw_bootstrap import (
    MAX_CHARS,
    OPENCLAW_VERSION,
    SOURCE,
    TOTAL_MAX_CHARS,
    Injected,
)
from site_builder.site.agent_views import BarView, SegmentView
from site_builder.site.views import LinkView

BAR_FILES = 12  # segments a bar shows at most; the smallest files past them are one "other files" segment
TONES = 6  # colours the segments take in turn (``.tone-1`` … ``.tone-6`` in the theme)
_DEFAULTS = (
    f"OpenClaw's default limits ({MAX_CHARS:,} characters a file, {TOTAL_MAX_CHARS:,} for all of them: "
    f"agents.defaults.bootstrapMaxChars and bootstrapTotalMaxChars, in OpenClaw's {SOURCE}, {OPENCLAW_VERSION})"
)
LIMITS = (
    f"Marks (▼): the bootstrap files OpenClaw cuts at {_DEFAULTS}; the pale part of a marked file is what the "
    "prompt loses. An openclaw.json that sets other limits changes this."
)
WITHIN_LIMITS = f"No bootstrap file is cut at {_DEFAULTS}. An openclaw.json that sets other limits changes this."


@dataclass(frozen=True)
class _Axis:
    """A bar's scale: the context window, and the tokens the whole bar stands for (the window, or a larger tier)."""

    window: int
    length: int

    def at(self, tokens: float) -> str:
        return f"{100 * tokens / self.length:.3f}%"


def tier_bar(page_url: str, tier: Tier, notes: list[Note], window: int, cuts: dict[str, Injected]) -> BarView | None:
    """The bar of ``tier`` (its ``notes``) against a context ``window`` of tokens; None for a tier of no tokens."""
    if not tier.tokens:
        return None
    order = {path: i for i, path in enumerate(cuts)}  # bootstrap files first, as OpenClaw injects them
    notes = sorted(notes, key=lambda n: order.get(n.path, len(order)))
    sizes = [(n, estimate_tokens(n.path) if tier.loaded == "listed" else tokens_of(n.chars)) for n in notes]
    axis = _Axis(window, max(window, tier.tokens))
    segments: list[SegmentView] = []
    start = 0
    for note, tokens in _shown(sizes, cuts):
        segment = _segment(axis, tokens, start, len(segments))
        if note is None:
            segments.append(segment(LinkView(_others(sizes, len(segments)), "")))
        else:
            segments.append(
                _marked(segment(LinkView(note.path, href(page_url, note.url))), cuts.get(note.path), page_url)
            )
        start += tokens
    marked = [s for s in segments if s.mark]
    return BarView(_caption(tier, window), segments, marked, axis.at(window) if axis.length > window else "")


def _shown(sizes: list[tuple[Note, int]], cuts: dict[str, Injected]) -> list[tuple[Note | None, int]]:
    """The files a bar shows, in tier order: all, or the largest and every cut one, then the rest as one (None)."""
    if len(sizes) <= BAR_FILES:
        return list(sizes)
    ranked = sorted(range(len(sizes)), key=lambda i: (sizes[i][0].path not in cuts, -sizes[i][1], i))
    keep = set(ranked[: BAR_FILES - 1])
    rest = sum(tokens for i, (_, tokens) in enumerate(sizes) if i not in keep)
    return [sizes[i] for i in sorted(keep)] + [(None, rest)]


def _others(sizes: list[tuple[Note, int]], shown: int) -> str:
    count = len(sizes) - shown
    return f"{count:,} other file{'' if count == 1 else 's'}"


def _segment(axis: _Axis, tokens: int, start: int, index: int) -> Callable[[LinkView], SegmentView]:
    """The segment of ``tokens`` from ``start`` on the bar, the ``index``-th, for the file a link names."""
    return lambda link: SegmentView(
        link=link,
        tokens=f"{tokens:,}",
        share=_share(tokens, axis.window),
        x=axis.at(start),
        width=axis.at(tokens),
        tone=1 + index % TONES,
        middle=axis.at(start + tokens / 2),
    )


def _marked(segment: SegmentView, cut: Injected | None, page_url: str) -> SegmentView:
    """The segment with OpenClaw's cut of its file, if it cuts it: the sentence, and a link to the first line lost."""
    if cut is None or not cut.cut:
        return segment
    lost = href(page_url, source_url(f"{cut.path}#L{cut.head_lines + 1}"))
    return dataclasses.replace(segment, mark=_mark(cut), lost=lost, lost_part=_lost_part(segment, cut))


def _lost_part(segment: SegmentView, cut: Injected) -> tuple[str, str]:
    """Where on the bar the part of a cut file the prompt loses lies (its middle, or all of it): x and width."""
    x, width = float(segment.x.rstrip("%")), float(segment.width.rstrip("%"))
    start, lost = cut.head / max(cut.chars, 1), (cut.chars - cut.head - cut.tail) / max(cut.chars, 1)
    return f"{x + width * start:.3f}%", f"{width * lost:.3f}%"


def _share(tokens: int, window: int) -> str:
    percent = 100 * tokens / window
    return "<0.1 %" if 0 < percent < 0.05 else f"{percent:,.1f} %"


def _caption(tier: Tier, window: int) -> str:
    if tier.tokens > window:
        times = f"{tier.tokens / window:,.1f} times a {window:,}-token context window (the line marks its end)"
        return f"{tier.name}: ~{tier.tokens:,} tokens, {times}"
    return f"{tier.name}: ~{tier.tokens:,} tokens, {_share(tier.tokens, window)} of a {window:,}-token context window"


def _mark(cut: Injected) -> str:
    """What OpenClaw's prompt keeps of a file it cuts, and which limit cuts it."""
    size = f"{cut.chars:,} characters"
    if cut.cause == "skipped":
        return f"{size}, past the {TOTAL_MAX_CHARS:,}-character limit of all bootstrap files: none of it is loaded"
    over = f"over the {MAX_CHARS:,}-character limit per file"
    past = f"past the {TOTAL_MAX_CHARS:,}-character limit of all bootstrap files ({cut.limit:,} were left)"
    why = over if cut.cause == "per-file" else f"{over} and {past}" if cut.chars > MAX_CHARS else past
    digest = " and, between them, a digest of its rule lines" if cut.path.endswith("AGENTS.md") else ""
    tail = f" and the last {cut.tail:,} (from line {cut.tail_line})" if cut.tail else ""
    lost = cut.chars - cut.head - cut.tail
    kept = f"the first {cut.head:,} characters (to line {cut.head_lines}){tail}{digest}"
    return f"{size}, {why}: OpenClaw's prompt keeps {kept}, {lost:,} characters lost"
