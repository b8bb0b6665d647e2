"""``@mentions`` and Obsidian ``[[wikilinks]]`` inside a line of Markdown."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

# A handle may hold dots, dashes and underscores inside (``@i.am.teke``, ``@kit_fox``); a dot or dash at its end is
# punctuation. One followed by ``/`` is an npm scope (``@aws-sdk/client-s3``), one right after a word character an
# e-mail address and one followed by ``@`` a fediverse address: none of them is a mention.
MENTION = (
    r"(?<![\w@./\\+\-])@(?P<mention_name>[^\W\d_]\w*(?:[.\-]+\w+)*)"
    r"(?![\w@/]|[.\-]+[\w/@])"
)
# ``@`` words that are never names: JSON-LD keys, chat-wide pings, and the word "@mention" itself.
NOT_NAMES = frozenset(
    {"type", "context", "id", "graph", "vocab", "everyone", "here", "channel", "mention", "mentions", "mentioned"}
)
# Chat directives written like wikilinks (OpenClaw reply tags): ``[[reply_to_current]]`` (``[[replytocurrent]]`` once
# Markdown ate its underscores), ``[[reply_to:123]]``; and ``[[…]]`` without a single letter (``[[1]]``, ``[[--]]``)
# unless it names a day (``[[2025-11-03]]``, Obsidian's daily notes).
DAY_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# A name with a character no file may have in Obsidian (``[[tts:voiceId=…]]``, ``[[YYYY-MM-DD <title>]]``) is no
# link either.
DIRECTIVE = re.compile(
    r"^(?:reply_?to_?current|reply_?to\s*:.*|audio_as_voice)$|^(?!\d{4}-\d{2}-\d{2}(?:\.md)?$)[\W\d_]*$"
    r"|[\\:*?\"<>|]",
    re.IGNORECASE,
)
WIKILINK = (
    r"\[\[(?P<wl_target>[^\[\]|#\n]*)(?:#(?P<wl_heading>[^\[\]|\n]*))?"
    r"(?:\|(?P<wl_label>[^\[\]\n]*))?\]\]"
)
_MENTION_RE = re.compile(MENTION)
WIKILINK_RE = re.compile(WIKILINK)
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
# An HTML comment is hidden text: nothing in it names anyone (one that runs on is masked to the end of the line).
_COMMENT = re.compile(r"<!--.*?(?:-->|$)")
BLOCK_ID = re.compile(r"\s\^(?P<block_id>[A-Za-z0-9][A-Za-z0-9\-]*)\s*$")


@dataclass(frozen=True)
class LinkRef:
    target: str
    syntax: Literal["mention", "wikilink"]
    heading: str | None
    label: str | None


def find_links(line: str) -> list[LinkRef]:
    """Mentions and wikilinks in one line, ignoring inline code spans and HTML comments."""
    text = _COMMENT.sub(lambda m: " " * len(m[0]), _CODE_SPAN.sub(lambda m: " " * len(m[0]), line))
    found: list[tuple[int, LinkRef]] = []
    for m in WIKILINK_RE.finditer(text):
        target = wikilink_part(m["wl_target"])
        if DIRECTIVE.search(target) and not m["wl_heading"]:
            continue
        heading = wikilink_part(m["wl_heading"]) or None
        label = (m["wl_label"] or "").strip() or None
        found.append((m.start(), LinkRef(target, "wikilink", heading, label)))
    masked = WIKILINK_RE.sub(lambda m: " " * len(m[0]), text)
    for m in _MENTION_RE.finditer(masked):
        if m["mention_name"].casefold() in NOT_NAMES:
            continue
        found.append((m.start(), LinkRef(m["mention_name"], "mention", None, None)))
    return [ref for _, ref in sorted(found, key=lambda item: item[0])]


def wikilink_part(text: str | None) -> str:
    """A wikilink's target or heading as written, without the ``\\`` that escapes its ``|`` inside a table
    (``[[Anna\\|her]]``)."""
    return (text or "").strip().removesuffix("\\").rstrip()


def plain_sentence(line: str) -> str:
    """The readable text of a source line: list marker, heading marks and block id removed."""
    text = _LIST_MARK.sub("", line, count=1)
    text = _HEADING_MARK.sub("", text, count=1)
    text = _QUOTE_MARK.sub("", text, count=1)
    return BLOCK_ID.sub("", text).strip()


_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
_HEADING_MARK = re.compile(r"^\s*#{1,6}\s+")
_QUOTE_MARK = re.compile(r"^\s*>\s?")
