"""Parse one workspace file into a ``Note``: front matter, headings, facts, links.

Line numbers always refer to the file as written, so a citation
``memory/2025-11-27.md#L12`` names the line a person sees in an editor.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from typing import Any

import yaml

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Fact, Heading, Link, Note, NoteKind
from site_builder.core.names import heading_slug
from site_builder.io.reader import SourceFile
from site_builder.parse.blocks import FENCE, find_spans
from site_builder.parse.credentials import redact
from site_builder.parse.dates import find_occurred
from site_builder.parse.link_syntax import find_links, plain_sentence
from site_builder.parse.retain import BULLET, LOOKS_LIKE_FACT, FactSyntaxError, parse_fact_line

DAILY_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}$")
ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
PRIVATE_OPEN = re.compile(r"<!--\s*private\s*-->", re.IGNORECASE)
PRIVATE_CLOSE = re.compile(r"<!--\s*/private\s*-->", re.IGNORECASE)


def note_kind(path: str) -> NoteKind:
    if path == "memory.md":
        return "core"
    if path == "SOUL.md":
        return "soul"
    if path.startswith("bank/entities/"):
        return "entity"
    if path.startswith("bank/"):
        return "bank"
    return "daily"


def parse_note(source: SourceFile, diagnostics: Diagnostics) -> Note:
    """Parse a source file; every problem becomes a diagnostic with file:line."""
    path = source.path
    kind = note_kind(path)
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
    body, generated = take_generated_blocks(body, path, body_start, diagnostics)
    stem = path.rsplit("/", 1)[-1].removesuffix(".md")
    date = None
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
        private=_private(meta, path, diagnostics),
        generated=generated,
    )
    _scan_body(note, diagnostics)
    note.title = _title(note)
    return note


def split_front_matter(text: str, path: str, diagnostics: Diagnostics) -> tuple[dict[str, Any], str, int]:
    """Return (front matter, body, line number of the body's first line)."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return {}, text, 1
    for index in range(1, len(lines)):
        if lines[index].strip() in ("---", "..."):
            raw = "\n".join(lines[1:index])
            body = "\n".join(lines[index + 1 :])
            return _load_yaml(raw, path, diagnostics), body, index + 2
    diagnostics.warn(path, 1, "front matter starts with '---' but is never closed; read as text", "front-matter")
    return {}, text, 1


def _load_yaml(raw: str, path: str, diagnostics: Diagnostics) -> dict[str, Any]:
    try:
        data = yaml.safe_load(raw)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        problem = getattr(exc, "problem", None) or "syntax error"
        diagnostics.warn(path, line, f"front matter is not valid YAML ({problem}); ignored", "front-matter")
        return {}
    if data is None:
        return {}
    if not isinstance(data, dict):
        diagnostics.warn(path, 2, "front matter must be a mapping of keys to values; ignored", "front-matter")
        return {}
    return {str(k): v for k, v in data.items()}


def hide_private_blocks(body: str, path: str, start: int, diagnostics: Diagnostics) -> str:
    """Blank out every ``<!-- private -->`` ... ``<!-- /private -->`` span, keeping line numbers.

    Spans may sit inside one line or run over many; text around them stays.
    """
    if not PRIVATE_OPEN.search(body):
        return body
    out: list[str] = []
    pos = 0
    while (opened := PRIVATE_OPEN.search(body, pos)) is not None:
        out.append(body[pos : opened.start()])
        closed = PRIVATE_CLOSE.search(body, opened.end())
        end = closed.end() if closed else len(body)
        out.append("\n" * body.count("\n", opened.start(), end))
        if closed is None:
            line = start + body.count("\n", 0, opened.start())
            diagnostics.warn(path, line, "<!-- private --> is never closed; the rest of the file is hidden", "private")
        pos = end
    out.append(body[pos:])
    return "".join(out)


def _daily_date(stem: str, path: str, diagnostics: Diagnostics) -> dt.date | None:
    if not DAILY_NAME.match(stem):
        diagnostics.warn(path, 1, "daily log names must be YYYY-MM-DD.md; rendered as a plain page", "date")
        return None
    try:
        return dt.date.fromisoformat(stem)
    except ValueError:
        diagnostics.warn(path, 1, f"{stem} is not a real date; rendered as a plain page", "date")
        return None


def _private(meta: dict[str, Any], path: str, diagnostics: Diagnostics) -> bool:
    """``private: true``; any other value than true/false is taken as private (and reported), never as public."""
    value = meta.get("private", False)
    if isinstance(value, bool):
        return value
    diagnostics.warn(path, 2, f"private: {value!r} is not true or false; the page is kept private", "front-matter")
    return True


def take_generated_blocks(body: str, path: str, start: int, diagnostics: Diagnostics) -> tuple[str, dict[str, str]]:
    """Set aside what ``memwiki reflect`` wrote between markers, blanking it in the body (line numbers kept).

    The rest of memwiki reads the person's text only; the blocks' content is
    kept by name (``entity``, ``opinions``) for what is derived from it.
    """
    if "memwiki:begin" not in body:
        return body, {}
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
        for index in range(span.begin, span.end + 1):
            lines[index] = ""
    return "\n".join(lines), blocks


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
    """One pass over the lines: headings, Retain facts and links, skipping code."""
    fence: str | None = None
    retain_level = 0
    seen_ids: dict[str, int] = {}
    facts_everywhere = note.kind in ("bank", "entity")
    for offset, line in enumerate(note.body.split("\n")):
        number = note.body_start + offset
        fm = FENCE.match(line)
        if fence:
            if fm and fm[1][0] == fence[0] and len(fm[1]) >= len(fence):
                fence = None
            continue
        if fm:
            fence = fm[1]
            continue
        hm = ATX_HEADING.match(line)
        if hm:
            level, text = len(hm[1]), (hm[2] or "").strip()
            note.headings.append(Heading(level, text, heading_slug(text), number))
            if retain_level and level <= retain_level:
                retain_level = 0
            if text.casefold() == "retain":
                retain_level = level
        elif BULLET.match(line) and (retain_level or (facts_everywhere and LOOKS_LIKE_FACT.match(line))):
            fact = _parse_fact(note, line, number, seen_ids, diagnostics)
            if fact:
                note.facts.append(fact)
                note.links.extend(Link(note.path, number, name, "fact", fact.content) for name in fact.entities)
                note.links.extend(_links(note.path, fact.content, number))
                continue
        note.links.extend(_links(note.path, line, number))


def _links(path: str, line: str, number: int) -> list[Link]:
    sentence = plain_sentence(line)
    return [
        Link(path, number, ref.target, ref.syntax, sentence, ref.heading, ref.label)  # type: ignore[arg-type]
        for ref in find_links(line)
    ]


def _parse_fact(note: Note, line: str, number: int, seen_ids: dict[str, int], diagnostics: Diagnostics) -> Fact | None:
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
    return Fact(
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
    )
