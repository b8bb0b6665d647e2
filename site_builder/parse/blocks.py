"""Generated blocks: text memwiki writes into a person's page, between markers.

```
<!-- memwiki:begin entity · written by `memwiki reflect`; edits inside are replaced -->
…
<!-- memwiki:end -->
```

Everything outside the markers belongs to a person and is kept byte for byte:
``replace_block`` works on the file's exact text (any newline style, BOM kept)
and only swaps the lines between the markers, or appends a new block at the end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BEGIN = re.compile(r"^<!--\s*memwiki:begin(?:\s+(?P<name>[\w-]+))?\b.*-->\s*$")
END = re.compile(r"^<!--\s*memwiki:end\s*-->\s*$")
FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
END_MARKER = "<!-- memwiki:end -->"


def begin_marker(name: str) -> str:
    return f"<!-- memwiki:begin {name} · written by `memwiki reflect`; edits inside are replaced -->"


@dataclass(frozen=True)
class Span:
    """A block's marker lines (0-based indexes into the file's lines)."""

    name: str
    begin: int
    end: int


def find_spans(lines: list[str]) -> tuple[list[Span], list[int]]:
    """Closed blocks outside code fences, and the indexes of begin markers that are never closed."""
    spans: list[Span] = []
    fence: str | None = None
    opened: tuple[str, int] | None = None
    unclosed: list[int] = []
    for index, raw in enumerate(lines):
        line = raw.rstrip("\r")
        fm = FENCE.match(line)
        if fence:
            if fm and fm[1][0] == fence[0] and len(fm[1]) >= len(fence):
                fence = None
            continue
        if fm and opened is None:
            fence = fm[1]
            continue
        begin = BEGIN.match(line)
        if begin:
            if opened is not None:
                unclosed.append(opened[1])
            opened = (begin["name"] or "block", index)
        elif END.match(line) and opened is not None:
            spans.append(Span(opened[0], opened[1], index))
            opened = None
    if opened is not None:
        unclosed.append(opened[1])
    return spans, unclosed


class BlockError(ValueError):
    """The file's markers are ambiguous; memwiki will not guess where a person's text ends."""


def replace_block(text: str, name: str, body: str) -> str:
    """``text`` with block ``name`` holding ``body``; a missing block is appended at the end."""
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
    separator = (
        "" if text.endswith("\n\n") or text.endswith("\r\n\r\n") else (newline if text.endswith("\n") else newline * 2)
    )
    return text + separator + block


def block_text(text: str, name: str) -> str | None:
    """The body of block ``name`` (newlines normalised), or None when there is none."""
    lines = text.replace("\r\n", "\n").split("\n")
    spans, _ = find_spans(lines)
    for span in spans:
        if span.name == name:
            return "\n".join(lines[span.begin + 1 : span.end])
    return None


def source_link(from_path: str, source: str) -> str:
    """A relative Markdown link from one workspace page to a citation ``memory/2025-11-27.md#L12``."""
    return "../" * from_path.count("/") + source
