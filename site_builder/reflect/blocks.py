"""Writing generated blocks: swap the lines between memwiki's markers, or append a new block.

Everything outside the markers belongs to a person and is kept byte for byte:
``replace_block`` works on the file's exact text (any newline style, BOM kept).
The marker format is read back by ``site_builder.parse.blocks``.
"""

from __future__ import annotations

from site_builder.parse.blocks import find_spans
from site_builder.parse.lines import FENCE, printable, walk_lines

END_MARKER = "<!-- memwiki:end -->"


def begin_marker(name: str) -> str:
    return f"<!-- memwiki:begin {name} · written by `memwiki reflect`; edits inside are replaced -->"


class BlockError(ValueError):
    """The file's markers are ambiguous; memwiki will not guess where a person's text ends."""


def replace_block(text: str, name: str, body: str) -> str:
    """``text`` with block ``name`` holding ``body`` (its control characters shown as U+FFFD: a NUL would make the
    page unreadable); a missing block is appended at the end."""
    body = printable(body)
    lines = text.split("\n")
    spans, unclosed = find_spans(lines)
    if unclosed:
        raise BlockError(f"line {unclosed[0] + 1}: '<!-- memwiki:begin' has no matching '<!-- memwiki:end -->'")
    mine = [s for s in spans if s.name == name]
    if len(mine) > 1:
        raise BlockError(f"line {mine[1].begin + 1}: a second '{name}' block; keep one")
    crlf = "\r\n" in text
    new = body.rstrip("\n").split("\n") if body.strip() else []
    if mine:
        span = mine[0]
        inner = [line + "\r" for line in new] if crlf else new
        return "\n".join([*lines[: span.begin + 1], *inner, *lines[span.end :]])
    newline = "\r\n" if crlf else "\n"
    block = newline.join([begin_marker(name), *new, END_MARKER]) + newline
    if not text:
        return block
    fence = _open_fence(lines)
    if fence:  # the page ends inside a code fence (which ends the file anyway): close it, or the block is code
        text += (newline if not text.endswith("\n") else "") + fence + newline
    separator = (
        "" if text.endswith("\n\n") or text.endswith("\r\n\r\n") else (newline if text.endswith("\n") else newline * 2)
    )
    return text + separator + block


def _open_fence(lines: list[str]) -> str:
    """The fence a page's last line is inside of (``````` `` or ``~~~``), or "" when it ends outside code."""
    fence = ""
    for line in walk_lines(lines, 0):
        if line.role == "fence":
            opened = FENCE.match(line.text.removesuffix("\r"))
            fence = "" if fence or opened is None else opened[1]
    return fence


def source_link(from_path: str, source: str) -> str:
    """A relative Markdown link from one workspace page to a citation ``memory/2025-11-27.md#L12``."""
    return "../" * from_path.count("/") + source
