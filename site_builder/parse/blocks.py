"""Generated blocks: what ``memwiki reflect`` wrote into a person's page, between markers, read back.

```
<!-- memwiki:begin entity · written by `memwiki reflect`; edits inside are replaced -->
…
<!-- memwiki:end -->
```

The note parser sets the blocks aside (blank lines in the body, so line numbers
hold) and keeps what later stages need from them as typed fields: the entity
summary paragraph and the recorded opinion history. Writing them is reflect's
job (``site_builder.reflect.blocks``); the formats shared by both sides live here.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import OpinionPoint, Reflected
from site_builder.parse.lines import walk_lines

BEGIN = re.compile(r"^<!--\s*memwiki:begin(?:\s+(?P<name>[\w-]+))?\b.*-->\s*$")
END = re.compile(r"^<!--\s*memwiki:end\s*-->\s*$")
ENTITY_HEADING = "## From memory"
HISTORY_ROW = re.compile(
    r"^\|\s*(?P<date>\d{4}-\d{2}-\d{2}|—)\s*\|\s*(?P<confidence>[01](?:\.\d+)?)\s*\|\s*(?P<change>[a-z]+)\s*\|"
    r"\s*`(?P<fact>[0-9a-f]{10}(?:-\d+)?)`\s*\|\s*\[(?P<source>[^\]]+)\]"
)
OPINION_ID_LINE = re.compile(r"^Id `(?P<id>[^`]+)`")


@dataclass(frozen=True)
class Span:
    """A block's marker lines (0-based indexes into the file's lines)."""

    name: str
    begin: int
    end: int


def find_spans(lines: list[str]) -> tuple[list[Span], list[int]]:
    """Closed blocks outside code fences, and the indexes of begin markers that are never closed."""
    spans: list[Span] = []
    opened: tuple[str, int] | None = None
    unclosed: list[int] = []
    for line in walk_lines(lines, 0):
        if "memwiki:" not in line.text or line.role in ("code", "fence"):  # most lines: no marker (a block's rows)
            continue
        text = line.text.rstrip("\r")
        begin = BEGIN.match(text)
        if begin:
            if opened is not None:
                unclosed.append(opened[1])
            opened = (begin["name"] or "block", line.number)
        elif opened is not None and END.match(text):
            spans.append(Span(opened[0], opened[1], line.number))
            opened = None
    if opened is not None:
        unclosed.append(opened[1])
    return spans, unclosed


def take_blocks(body: str, path: str, start: int, diagnostics: Diagnostics) -> tuple[str, Reflected]:
    """The body with every generated block blanked (line numbers kept), and what the blocks recorded."""
    if "memwiki:begin" not in body:
        return body, Reflected()
    lines = body.split("\n")
    spans, unclosed = find_spans(lines)
    for index in unclosed:
        diagnostics.warn(
            path,
            start + index,
            "'<!-- memwiki:begin' has no '<!-- memwiki:end -->'; the marker is ignored",
            "generated",
        )
    blocks: dict[str, str] = {}
    for span in spans:
        blocks.setdefault(span.name, "\n".join(lines[span.begin + 1 : span.end]))
        lines[span.begin : span.end + 1] = [""] * (span.end + 1 - span.begin)
    reflected = Reflected(
        read_entity_summary(blocks.get("entity", "")), read_opinion_history(blocks.get("opinions", ""))
    )
    return "\n".join(lines), reflected


def read_entity_summary(text: str) -> str:
    """The summary paragraph of an ``entity`` block ("" when there is none)."""
    lines = text.split("\n")
    try:
        start = lines.index(ENTITY_HEADING) + 1
    except ValueError:
        return ""
    paragraph: list[str] = []
    for line in lines[start:]:
        if not line.strip():
            if paragraph:
                break
            continue
        if line.startswith(("#", "- ")):
            break
        paragraph.append(line.strip())
    return " ".join(paragraph)


def read_opinion_history(text: str) -> dict[str, list[OpinionPoint]]:
    """Recorded history by opinion id, from the tables of an ``opinions`` block.

    Equal dates and words are one object each (a fact bears on many opinions; there are five changes): a heavy
    workspace's history is a million rows, and the build cache pickles each object once."""
    recorded: dict[str, list[OpinionPoint]] = {}
    current: list[OpinionPoint] | None = None
    dates: dict[str, dt.date | None] = {"—": None}
    shared: dict[str, str] = {}
    for line in text.split("\n"):
        found = OPINION_ID_LINE.match(line)
        if found:
            current = recorded.setdefault(found["id"], [])
            continue
        row = HISTORY_ROW.match(line)
        if row and current is not None:
            written = row["date"]
            if written not in dates:
                try:
                    dates[written] = dt.date.fromisoformat(written)
                except ValueError:  # a hand-edited row with an impossible date: skip it
                    continue
            change, fact, source = (shared.setdefault(word, word) for word in row.group("change", "fact", "source"))
            current.append(OpinionPoint(dates[written], round(float(row["confidence"]), 2), change, fact, source))
    return recorded
