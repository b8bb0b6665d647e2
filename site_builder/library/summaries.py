"""One-line summaries of notes and entities, shared by the site and recall."""

from __future__ import annotations

import re

from site_builder.core.library import Library
from site_builder.core.model import Entity, Fact, Note
from site_builder.parse.link_syntax import WIKILINK_RE, plain_sentence

NOT_PROSE = ("#", "```", "~~~", "|", "<!--", "---", ">")
# A line that records a value, not what happened: a short label and one token ("**Session Key**: agent:main:…",
# "Agent ID: `vader`", "Duration: 42m", "Queue file: /var/spool/x.json"), a line no summary should stand for.
METADATA = re.compile(
    r"^\W*[^\W\d][\w .'/-]{0,30}?\**\s*[:：]\s*\**\s*"
    r"(?:`[^`]*`|[^\s`]+|\d[\d\s:./T+-]*(?:[A-Z]{2,4}(?:[+-]\d{1,2}(?::?\d\d)?)?)?)\s*$"  # a word, or a time
)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9@\[])")


def plain(line: str) -> str:
    """A Markdown line as plain text: list marks, emphasis and link syntax dropped."""
    return WIKILINK_RE.sub(lambda m: m["wl_label"] or m["wl_target"], plain_sentence(line))


def description(library: Library, note: Note) -> str:
    """What the note is, in a line: its front matter's ``description`` (Claude Code, ClawXMemory), or for a
    TinyClaw skill the line ``skills/index.json`` gives it."""
    described = note.meta.get("description")
    if isinstance(described, str) and described.strip():
        return described.strip()
    if note.kind == "skill":
        folder = note.path.rpartition("/")[0]
        for index in (n for n in library.notes if n.kind == "skills" and n.path.rpartition("/")[0] == folder):
            found = next((r["description"] for r in index.records.values() if r.get("id") == note.stem), "")
            if found:
                return str(found)
    return ""


def says_something(line: str) -> bool:
    """Is the line prose a summary may stand on: not a heading, table, fence, comment or quote, nor a line that only
    records a value (``METADATA``)?"""
    return bool(plain(line)) and not line.lstrip().startswith(NOT_PROSE) and not METADATA.match(plain_sentence(line))


def first_line(note: Note, limit: int = 180) -> str:
    """The first line of prose in a note (``says_something``), shortened to ``limit`` characters."""
    for line in note.body.split("\n"):
        if says_something(line):
            return shorten(plain(line), limit)
    return ""


def first_line_markdown(note: Note, limit: int = 180) -> str:
    """The first line of prose as Markdown (list mark and heading marks dropped), shortened to ``limit`` characters
    without leaving a ``**``, a backtick or a ``[[`` open, so it renders as the line does in the note."""
    for line in note.body.split("\n"):
        if says_something(line):
            text = plain_sentence(line)
            if len(text) <= limit:
                return text
            cut = text[: limit - 1].rsplit(" ", 1)[0] if " " in text[: limit - 1] else text[: limit - 1]
            if cut.count("[[") > cut.count("]]"):
                cut = cut[: cut.rfind("[[")]
            for mark in ("**", "`"):
                if cut.count(mark) % 2:
                    cut = cut[: cut.rfind(mark)] + cut[cut.rfind(mark) + len(mark) :]
            return cut.rstrip() + "…"
    return ""


def first_paragraph(note: Note) -> str:
    """The first paragraph of prose (not a heading, list, table or comment), joined into one line."""
    paragraph: list[str] = []
    for line in note.body.split("\n"):
        stripped = line.strip()
        if not stripped:
            if paragraph:
                break
            continue
        if stripped.startswith(NOT_PROSE) or re.match(r"([-*+]|\d+[.)])\s", stripped):
            if paragraph:
                break
            continue
        paragraph.append(plain(stripped))
    return " ".join(p for p in paragraph if p)


def entity_summary(entity: Entity, facts: list[Fact], limit: int = 160) -> str:
    """One line about an entity: front matter ``summary``, else its page's first sentences, else its latest fact."""
    note = entity.note
    if note is not None:
        given = note.meta.get("summary") or note.meta.get("description")
        if isinstance(given, str) and given.strip():
            return shorten(" ".join(given.split()), limit)
        paragraph = first_paragraph(note)
        if paragraph:
            return shorten(first_sentences(paragraph, limit), limit)
    dated = [f for f in facts if f.kind != "O"] or facts
    if dated:
        latest = max(dated, key=lambda f: (f.date.isoformat() if f.date else "", f.path, f.line))
        return shorten(latest.content, limit)
    return ""


def first_sentences(text: str, limit: int) -> str:
    """As many whole sentences of ``text`` as fit in ``limit`` characters (at least one)."""
    out = ""
    for sentence in SENTENCE_END.split(text):
        candidate = f"{out} {sentence}".strip()
        if out and len(candidate) > limit:
            break
        out = candidate
    return out


def shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
