"""Parse one workspace file into a ``Note``: front matter, headings, Retain facts, links, reflect's blocks.

Line numbers always refer to the file as written, so a citation
``memory/2025-11-27.md#L12`` names the line a person sees in an editor. Every
problem found is kept on the note (``Note.problems``) with its file and line,
so a note can be parsed again on its own without losing or repeating them.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Fact, Heading, Link, Note
from site_builder.core.names import heading_slug
from site_builder.io.sources import SourceFile
from site_builder.parse.blocks import HISTORY_ROW, find_spans, take_blocks
from site_builder.parse.claims import read_claims
from site_builder.parse.credential_context import Finding
from site_builder.parse.credentials import redact
from site_builder.parse.dates import date_in_path, find_occurred
from site_builder.parse.file_links import file_links
from site_builder.parse.front_matter import (
    field_lines,
    front_matter_end,
    hide_private_blocks,
    is_private,
    split_front_matter,
)
from site_builder.parse.lines import DREAM_MARK, walk_lines
from site_builder.parse.link_syntax import LinkRef, find_links, plain_sentence
from site_builder.parse.records import record_date, records_markdown
from site_builder.parse.retain import (
    BARE_FACT,
    BULLET,
    LOOKS_LIKE_FACT,
    RETAIN_HEADING,
    FactSyntaxError,
    parse_fact_line,
)
from site_builder.parse.tags import front_matter_tags, inline_tags, record_tags

RECORD_KINDS = ("reflections", "episodes", "skills")  # TinyClaw's JSON files, read as Markdown
UNDATED = (
    "core",
    "soul",
    "standing",
    "entity",
    "bank",
    "reflections",
    "episodes",
    "skills",
    "skill",
    "project",
    "feedback",
)  # kinds whose file name says no day
ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")


def parse_note(source: SourceFile) -> Note:
    """Parse a source file; every problem becomes one of the note's ``problems`` with file:line."""
    path = source.path
    assert source.text is not None, f"{path} was not read: only its stamps were looked at"
    diagnostics = Diagnostics(list(source.problems))
    text, secrets = redact_but_history(source.text)
    for secret in secrets:
        diagnostics.warn(path, secret.line, secret.describe(), "credential")
    records: dict[int, dict[str, Any]] = {}
    if source.kind in RECORD_KINDS:
        text, records = records_markdown(source.kind, path, text, diagnostics)
    meta, body, body_start = split_front_matter(text, path, diagnostics)
    body, reflected = take_blocks(
        body, path, body_start, diagnostics
    )  # first: a marker inside a block is not the person's
    body = hide_private_blocks(body, path, body_start, diagnostics)
    stem = path.rsplit("/", 1)[-1].removesuffix(".md").removesuffix(".jsonl")
    kind, date = source.kind, None
    if kind not in UNDATED:
        date, not_a_day = date_in_path(path)
        if not_a_day:
            diagnostics.warn(path, 1, f"{not_a_day} in the file name is not a real date; not on the calendar", "name")
            kind = "page" if kind == "daily" else kind
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
        filled_lines=sum(map(bool, map(str.strip, body.split("\n")))),
    )
    if meta:
        note.fields = field_lines(text, body_start)
    if "claims" in meta:
        note.claims = read_claims(meta, path, note.fields.get("claims", 1), diagnostics)
    if "tags" in meta or "tag" in meta:
        note.tags = front_matter_tags(meta, note.fields, path, diagnostics)
    _scan_body(note, diagnostics)
    if records:
        note.records = records
        note.tags.extend(record_tags(records))
        note.facts = [f._replace(date=record_date(records[f.line])) if f.line in records else f for f in note.facts]
    note.title = _title(note)
    return note


def _title(note: Note) -> str:
    title = note.meta.get("title")
    if isinstance(title, str) and title.strip():
        return title.strip()
    if note.kind == "daily" and note.date:
        return note.date.isoformat()
    for heading in note.headings:
        if heading.level == 1:
            return heading.text
    named = note.meta.get("name") or note.meta.get("project_name")  # Claude Code, ClawXMemory
    if isinstance(named, str) and named.strip():
        return named.strip()
    fixed = {"core": "Core memory", "soul": "Soul", "reflections": "Reflections", "episodes": "Episodes"}
    return fixed.get(note.kind, note.stem)


def redact_but_history(text: str) -> tuple[str, list[Finding]]:
    """``redact``, with the history tables of reflect's ``opinions`` block left out of the scan when their citations
    hold nothing secret-looking. memwiki wrote those lines from facts already redacted where they are stated, the
    parser blanks the block and reads nothing from it but dates, confidences, fact ids and citations, and on a
    heavy workspace it is most of the text (60 MB on the medium race corpus: 11 s of scanning)."""
    if "memwiki:begin opinions" not in text:
        return redact(text)
    lines = text.split("\n")
    spans, _ = find_spans(lines)
    front = front_matter_end(lines)
    front = -1 if front is None else front
    history = [i for s in spans if s.name == "opinions" and s.begin > front for i in range(s.begin + 1, s.end)]
    cited = "\n".join(m["source"] for i in history if (m := HISTORY_ROW.match(lines[i])))
    if not history or redact(cited)[1]:
        return redact(text)  # a citation that looks secret: the whole text is scanned (and redacted) as it is
    kept = {i: lines[i] for i in history}
    for i in history:
        lines[i] = ""
    scanned, found = redact("\n".join(lines))
    out = scanned.split("\n")  # redaction keeps every line break
    for i, line in kept.items():
        out[i] = line
    return "\n".join(out), found


def _scan_body(note: Note, diagnostics: Diagnostics) -> None:
    """One pass over the lines outside code: headings, Retain facts and links.

    A Retain section runs to the next heading of its level or higher; under a
    deeper heading inside it only lines that look like facts are read as facts.
    """
    retain_level, sub_section = 0, False
    seen_ids: dict[str, int] = {}
    facts_everywhere = note.kind in ("bank", "entity", *RECORD_KINDS)
    for line in walk_lines(note.body.split("\n"), note.body_start):
        if line.role in ("fence", "code") or not line.text:
            continue  # an empty line (a generated block is blanked into many) holds nothing
        text, number = line.text, line.number
        if line.role == "comment":
            _dream_mark(note, text, number)
        else:  # a comment is not shown: a tag in it would lead nowhere
            note.tags.extend(inline_tags(text, number))
        note.file_links.extend((number, target) for target in file_links(text))
        hm = ATX_HEADING.match(text)
        if hm:
            level, title = len(hm[1]), (hm[2] or "").strip()
            note.headings.append(Heading(level, title, heading_slug(title), number))
            sub_section = bool(retain_level) and level > retain_level
            if retain_level and level <= retain_level:
                retain_level = 0
            if RETAIN_HEADING.match(title):
                retain_level = level
            continue
        if _fact_line(text, bool(retain_level) and not sub_section, retain_level > 0 or facts_everywhere):
            bare = not BULLET.match(text)
            found = _parse_fact(note, f"- {text.lstrip()}" if bare else text, number, seen_ids, diagnostics, bare)
            if found:
                fact, refs = found
                note.facts.append(fact)
                note.links.extend(Link(note.path, number, name, "fact", fact.content) for name in fact.entities)
                note.links.extend(_links(note.path, fact.content, number, refs))
                continue
        note.links.extend(_links(note.path, text, number, find_links(text)))


def _dream_mark(note: Note, text: str, number: int) -> None:
    """Open or close an OpenClaw dreaming block (an open one runs to the end of the note)."""
    m = DREAM_MARK.search(text)
    if m and m[2] == "start":
        note.dreaming.append((number, note.body_start + note.body.count("\n")))
    elif m and note.dreaming and note.dreaming[-1][1] >= number:
        note.dreaming[-1] = (note.dreaming[-1][0], number)


def _fact_line(text: str, every_bullet: bool, fact_like: bool) -> bool:
    """Is this line read as a Retain fact: any bullet of a Retain section, or a line that looks like one."""
    if BULLET.match(text):
        return every_bullet or (fact_like and bool(LOOKS_LIKE_FACT.match(text)))
    return fact_like and bool(BARE_FACT.match(text))


def _links(path: str, line: str, number: int, refs: list[LinkRef]) -> list[Link]:
    sentence = plain_sentence(line)
    return [Link(path, number, ref.target, ref.syntax, sentence, ref.heading, ref.label) for ref in refs]


def _parse_fact(
    note: Note, line: str, number: int, seen_ids: dict[str, int], diagnostics: Diagnostics, bare: bool = False
) -> tuple[Fact, list[LinkRef]] | None:
    """The fact on a Retain line and the links in its text, or None (with a warning) when it does not parse."""
    try:
        parsed = parse_fact_line(line)
    except FactSyntaxError as exc:
        if not bare:
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
