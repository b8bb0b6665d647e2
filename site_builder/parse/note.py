"""Parse one workspace file into a ``Note``: front matter, headings, Retain facts, links, reflect's blocks.

Line numbers always refer to the file as written, so a citation
``memory/2025-11-27.md#L12`` names the line a person sees in an editor. Every
problem found is kept on the note (``Note.problems``) with its file and line,
so a note can be parsed again on its own without losing or repeating them.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Fact, Heading, Link, Note
from site_builder.core.names import heading_slug
from site_builder.io.reader import SourceFile
from site_builder.parse.blocks import take_blocks
from site_builder.parse.credentials import redact
from site_builder.parse.dates import find_occurred
from site_builder.parse.front_matter import hide_private_blocks, is_private, split_front_matter
from site_builder.parse.lines import walk_lines
from site_builder.parse.link_syntax import LinkRef, find_links, plain_sentence
from site_builder.parse.retain import BULLET, LOOKS_LIKE_FACT, FactSyntaxError, parse_fact_line

DAILY_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}$")
ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")


def parse_note(source: SourceFile) -> Note:
    """Parse a source file; every problem becomes one of the note's ``problems`` with file:line."""
    path = source.path
    diagnostics = Diagnostics(list(source.problems))
    text, secrets = redact(source.text)
    for secret in secrets:
        diagnostics.warn(
            path,
            secret.line,
            f"looks like a credential ({secret.kind}); it is redacted from every output, but remove it from the workspace",
            "credential",
        )
    meta, body, body_start = split_front_matter(text, path, diagnostics)
    body = hide_private_blocks(body, path, body_start, diagnostics)
    body, reflected = take_blocks(body, path, body_start, diagnostics)
    stem = path.rsplit("/", 1)[-1].removesuffix(".md")
    kind, date = source.kind, None
    if kind == "daily":
        date = _daily_date(stem, path, diagnostics)
        if date is None:
            kind = "page"
    note = Note(
        path=path,
        kind=kind,
        title=stem,
        body=body,
        body_start=body_start,
        meta=meta,
        date=date,
        private=is_private(meta, path, diagnostics),
        reflected=reflected,
        problems=diagnostics.items,
        digest=source.digest,
    )
    _scan_body(note, diagnostics)
    note.title = _title(note)
    return note


def _daily_date(stem: str, path: str, diagnostics: Diagnostics) -> dt.date | None:
    if not DAILY_NAME.match(stem):
        diagnostics.warn(path, 1, "daily log names must be YYYY-MM-DD.md; rendered as a plain page", "date")
        return None
    try:
        return dt.date.fromisoformat(stem)
    except ValueError:
        diagnostics.warn(path, 1, f"{stem} is not a real date; rendered as a plain page", "date")
        return None


def _title(note: Note) -> str:
    title = note.meta.get("title")
    if isinstance(title, str) and title.strip():
        return title.strip()
    if note.kind == "daily" and note.date:
        return note.date.isoformat()
    for heading in note.headings:
        if heading.level == 1:
            return heading.text
    return {"core": "Core memory", "soul": "Soul"}.get(note.kind, note.stem)


def _scan_body(note: Note, diagnostics: Diagnostics) -> None:
    """One pass over the lines outside code: headings, Retain facts and links."""
    retain_level = 0
    seen_ids: dict[str, int] = {}
    facts_everywhere = note.kind in ("bank", "entity")
    for line in walk_lines(note.body.split("\n"), note.body_start):
        if line.role in ("fence", "code"):
            continue
        text, number = line.text, line.number
        hm = ATX_HEADING.match(text)
        if hm:
            level, title = len(hm[1]), (hm[2] or "").strip()
            note.headings.append(Heading(level, title, heading_slug(title), number))
            if retain_level and level <= retain_level:
                retain_level = 0
            if title.casefold() == "retain":
                retain_level = level
        elif BULLET.match(text) and (retain_level or (facts_everywhere and LOOKS_LIKE_FACT.match(text))):
            found = _parse_fact(note, text, number, seen_ids, diagnostics)
            if found:
                fact, refs = found
                note.facts.append(fact)
                note.links.extend(Link(note.path, number, name, "fact", fact.content) for name in fact.entities)
                note.links.extend(_links(note.path, fact.content, number, refs))
                continue
        note.links.extend(_links(note.path, text, number, find_links(text)))


def _links(path: str, line: str, number: int, refs: list[LinkRef]) -> list[Link]:
    sentence = plain_sentence(line)
    return [Link(path, number, ref.target, ref.syntax, sentence, ref.heading, ref.label) for ref in refs]


def _parse_fact(
    note: Note, line: str, number: int, seen_ids: dict[str, int], diagnostics: Diagnostics
) -> tuple[Fact, list[LinkRef]] | None:
    """The fact on a Retain line and the links in its text, or None (with a warning) when it does not parse."""
    try:
        parsed = parse_fact_line(line)
    except FactSyntaxError as exc:
        if note.kind == "daily" or LOOKS_LIKE_FACT.match(line):
            diagnostics.warn(note.path, number, f"{exc}; shown as plain text", "malformed-fact")
        return None
    occurred, problems = find_occurred(parsed.content, note.date)
    for problem in problems:
        diagnostics.warn(note.path, number, f"date {problem.text!r} {problem.reason}", "date")
    anchor = note.date.isoformat() if note.date else note.path
    base = hashlib.sha1(f"{anchor}|{parsed.kind}|{parsed.content}".encode()).hexdigest()[:10]
    seen_ids[base] = seen_ids.get(base, 0) + 1
    fact_id = base if seen_ids[base] == 1 else f"{base}-{seen_ids[base]}"
    if seen_ids[base] > 1:
        diagnostics.warn(note.path, number, "the same fact appears twice in this file", "duplicate-fact")
    refs = find_links(parsed.content)
    fact = Fact(
        id=fact_id,
        kind=parsed.kind,
        content=parsed.content,
        entities=parsed.entities,
        path=note.path,
        line=number,
        date=note.date,
        occurred=occurred,
        confidence=parsed.confidence,
        block_id=parsed.block_id,
        mentions=tuple(ref.target for ref in refs),
    )
    return fact, refs
