"""The markers ``site.markdown`` threads through mistune: a private-use character pair around each line's number
(``L``), a fact's badge (``F``), a block id (``B``) and OpenClaw's dreaming blocks (``D``/``E``), placed where each
line's content starts (after list markers, heading hashes, table pipes), so that rendering keeps them where they
belong and they are swapped for HTML afterwards.
"""

from __future__ import annotations

import html
import re

from site_builder.core.model import Fact
from site_builder.parse.lines import DREAM_MARK, walk_lines
from site_builder.parse.link_syntax import BLOCK_ID

OPEN, CLOSE = "\ue000", "\ue001"
MARK = re.compile(f"{OPEN}([LFB])([^{CLOSE}]*){CLOSE}")
PRIVATE_USE = re.compile("[\ue000-\ue003]")
_HEADING_START = re.compile(r"^( {0,3}#{1,6}[ \t]+)")
_ITEM_START = re.compile(r"^([ \t]*(?:>[ \t]?)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])(?:[ \t]+\[[ xX]\])?[ \t]+)?)")
_NO_CONTENT = re.compile(
    r"^[ \t]*(?:=+|-+|(?:[*_-][ \t]*){3,}|\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?)[ \t]*$"
    r"|^[ \t]*\[[^\]]+\]:"
)


DREAM_PARAGRAPH = re.compile(f"<p>{OPEN}([DE])(\\w*){CLOSE}</p>\n?")


def collapse_dreams(body: str) -> str:
    """OpenClaw's dreaming blocks as ``<details>``, closed by default; unmatched markers are balanced. The dream
    diary (``DREAMS.md``'s ``diary`` block) is what that file is for: it stays open."""
    open_blocks: list[str] = []

    def swap(m: re.Match[str]) -> str:
        if m[1] == "D":
            if m[2] == "diary":
                open_blocks.append("</section>\n")
                return '<section class="dream-diary" aria-label="Dream diary">\n'
            open_blocks.append("</details>\n")
            return f'<details class="dreaming"><summary>Dreaming ({html.escape(m[2])}): machine notes</summary>\n'
        return open_blocks.pop() if open_blocks else ""

    body = DREAM_PARAGRAPH.sub(swap, body)
    return body + "".join(reversed(open_blocks))


def annotate_lines(body: str, first: int, facts: dict[int, Fact]) -> tuple[str, list[Fact]]:
    """Insert line-number markers into the Markdown; facts become badge markers."""
    out: list[str] = []
    badges: list[Fact] = []
    pending: list[int] = []
    for walked in walk_lines(PRIVATE_USE.sub("", body).split("\n"), first):
        line, number = walked.text, walked.number
        if walked.role == "comment":
            dream = DREAM_MARK.search(line)
            out.extend(["", f"{OPEN}{'D' if dream[2] == 'start' else 'E'}{dream[1]}{CLOSE}", ""] if dream else [""])
            continue
        if walked.role == "fence":
            pending.append(number)
            out.append(line)
            continue
        if walked.role == "code":
            indent = len(line) - len(line.lstrip())
            out.append(line[:indent] + _mark([*pending, number]) + line[indent:])
            pending = []
            continue
        if not line.strip():
            out.append(line)
            continue
        item = _ITEM_START.match(line)
        if _NO_CONTENT.match(line) and not (item and item[0].strip()):
            pending.append(number)
            out.append(line)
            continue
        marks = _mark([*pending, number])
        pending = []
        fact = facts.get(number)
        if fact is not None:
            lead = line[: len(line) - len(line.lstrip())]
            badges.append(fact)
            out.append(f"{lead}- {marks}{OPEN}F{len(badges) - 1}{CLOSE} {_escape_md_start(fact.content)}")
            continue
        block = BLOCK_ID.search(line)
        if block:
            line = BLOCK_ID.sub("", line) + f" {OPEN}B{block['block_id']}{CLOSE}"
        out.append(_insert(line, marks))
    if pending:
        out.append("")
        out.append(_mark(pending))
    return "\n".join(out), badges


def _mark(numbers: list[int]) -> str:
    return f"{OPEN}L{','.join(map(str, numbers))}{CLOSE}"


def _insert(line: str, marks: str) -> str:
    hm = _HEADING_START.match(line)
    if hm:
        return line[: hm.end()] + marks + line[hm.end() :]
    if line.lstrip().startswith("|"):
        at = line.index("|") + 1
        return line[:at] + marks + line[at:]
    im = _ITEM_START.match(line)
    at = im.end() if im else 0
    rest = line[at:]
    lead = len(rest) - len(rest.lstrip())
    return line[: at + lead] + marks + rest[lead:]


def _escape_md_start(text: str) -> str:
    """Keep fact text from being read as a heading or list when it starts with one."""
    return re.sub(r"^([#>]|\d+[.)])", r"\\\1", text)
