"""Claude as the deeper reader: the entities, dated facts and opinions a note written in prose holds, each citing
its line, asked of Claude through one forced tool call (``record_findings``) and checked against the note.

Which notes: the public ones written in prose (no Retain fact of their own, no entity page, nothing under
``bank/``), the most recent first. What Claude answers is checked item by item: an item that cites a line the note
does not have, or names an entity its line does not mention, is dropped with a warning at file:line, and the rest
is kept. What is kept becomes the note's ``found`` entities and facts marked ``by="claude"``; linking merges them
with the offline findings (``library.found_entities.add_found_by_claude``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
from typing import TYPE_CHECKING, Any, TypeGuard

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Fact, Found, Note
from site_builder.reflect.reflector import MalformedAnswer

if TYPE_CHECKING:  # the SDK is imported only when Claude is asked for (``reflect.choose``)
    from anthropic.types import ToolParam

PROMPT_VERSION = "1"  # a new prompt or tool: every note is read again
READ_STAGE = "claude-read"  # the memo store's stage of Claude's answers, by note digest, prompt version and model
CLAUDE = "claude"
NOT_READ = ("entity", "bank")  # note kinds reflect itself writes or that are entity pages already
MAX_LINE_CHARS = 2_000  # a longer line is cut in the prompt
SYSTEM = (
    "You read one note from an AI assistant's long-term memory and record what it says about named things: "
    "people, agents, companies, products, places, projects and services. Record an entity only if the line you cite "
    "writes its name or one of its aliases. Record dated facts (what happened or holds, with the date when the note "
    "gives one, as YYYY-MM-DD) and opinions (beliefs or preferences, with your confidence from 0 to 1). Cite the "
    "number of the line each item comes from, as numbered in the note. Record nothing the note does not say."
)
_ITEM = {"type": "object"}
READ_TOOL: ToolParam = {
    "name": "record_findings",
    "description": "Record the entities, facts and opinions the note states, each with the line it comes from.",
    "input_schema": {
        "type": "object",
        "properties": {
            "entities": {"type": "array", "items": {**_ITEM, "properties": {
                "name": {"type": "string"}, "type": {"type": "string"},
                "aliases": {"type": "array", "items": {"type": "string"}}, "line": {"type": "integer"},
            }, "required": ["name", "type", "line"]}},
            "facts": {"type": "array", "items": {**_ITEM, "properties": {
                "entity": {"type": "string"}, "text": {"type": "string"},
                "date": {"type": "string", "description": "YYYY-MM-DD, when the note says"}, "line": {"type": "integer"},
            }, "required": ["entity", "text", "line"]}},
            "opinions": {"type": "array", "items": {**_ITEM, "properties": {
                "entity": {"type": "string"}, "text": {"type": "string"},
                "confidence": {"type": "number", "minimum": 0, "maximum": 1}, "line": {"type": "integer"},
            }, "required": ["entity", "text", "confidence", "line"]}},
        },
        "required": ["entities", "facts", "opinions"],
    },
}  # fmt: skip


def prose_notes(notes: list[Note]) -> list[Note]:
    """The notes Claude reads, the most recent first (dated ones by date, then the rest by path)."""
    prose = [
        note
        for note in notes
        if not note.private and not note.facts and note.kind not in NOT_READ and not note.path.startswith("bank/")
        and note.body.strip()
    ]  # fmt: skip
    dated = sorted((note for note in prose if note.date), key=lambda note: (note.date, note.path), reverse=True)
    return dated + sorted((note for note in prose if not note.date), key=lambda note: note.path)


def read_prompt(note: Note) -> str:
    """The note as Claude is given it: its path, its date and its lines, each after its number."""
    lines = [f"Note: {note.path}" + (f" (dated {note.date.isoformat()})" if note.date else ""), "<note>"]
    for number, line in enumerate(note.body.split("\n"), start=note.body_start):
        lines.append(f"{number}: {line[:MAX_LINE_CHARS]}")
    return "\n".join([*lines, "</note>"])


def check_findings(answer: dict[str, Any]) -> None:
    """The shape the tool asks for: three lists of objects (each item is checked against the note later)."""
    for name in ("entities", "facts", "opinions"):
        items = answer.get(name, [])
        if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
            raise MalformedAnswer(f"'{name}' is not a list of objects")


def with_findings(note: Note, answer: dict[str, Any], diagnostics: Diagnostics) -> Note:
    """The note with what Claude found in it that its lines bear out; each item they do not, a warning."""
    if answer.get("refused"):
        diagnostics.warn(
            note.path, 0, "reflect: Claude refused to read this note; its offline findings stand", "reflect"
        )
        return note
    if "malformed" in answer:
        message = f"reflect: Claude's answer for this note is {answer['malformed']}; its offline findings stand"
        diagnostics.warn(note.path, 0, message, "reflect")
        return note
    found = _entities(note, answer.get("entities", []), diagnostics)
    names = {name.casefold(): entity.name for entity in found for name in (entity.name, *entity.aliases)}
    facts = [
        fact
        for kind, items in (("W", answer.get("facts", [])), ("O", answer.get("opinions", [])))
        for item in items
        if (fact := _fact(note, kind, item, names, diagnostics)) is not None
    ]
    if not found and not facts:
        return note
    return dataclasses.replace(note, found=tuple(found), facts=[*note.facts, *_numbered(facts)])


def _entities(note: Note, items: list[dict[str, Any]], diagnostics: Diagnostics) -> list[Found]:
    found: dict[str, Found] = {}
    for item in items:
        name, kind, aliases = item.get("name"), item.get("type", ""), item.get("aliases", [])
        if not _text(name) or not isinstance(kind, str) or not isinstance(aliases, list):
            diagnostics.warn(
                note.path, 0, f"reflect: Claude named an entity without a name or type: {item!r}", "reflect"
            )
            continue
        line = _line(note, item, diagnostics)
        if line is None:
            continue
        aliases = tuple(alias.strip() for alias in aliases if _text(alias) and alias.strip() != name.strip())
        if not _named_in(note.line_text(line), (name, *aliases)):
            message = f"reflect: Claude named '{name}' here, but this line does not; dropped"
            diagnostics.warn(note.path, line, message, "reflect")
            continue
        found.setdefault(name.strip().casefold(), Found(name.strip(), kind.strip().lower(), aliases, line))
    return list(found.values())


def _fact(note: Note, kind: str, item: dict[str, Any], names: dict[str, str], diagnostics: Diagnostics) -> Fact | None:
    """One fact or opinion Claude read, when it is about an entity it found and its line is the note's."""
    what = "fact" if kind == "W" else "opinion"
    entity, text, confidence = item.get("entity"), item.get("text"), item.get("confidence")
    if not _text(entity) or not _text(text):
        diagnostics.warn(note.path, 0, f"reflect: Claude gave a {what} without its entity or text; dropped", "reflect")
        return None
    line = _line(note, item, diagnostics)
    if line is None:
        return None
    name = names.get(entity.strip().casefold())
    if name is None and _named_in(note.line_text(line), (entity,)):
        name = entity.strip()  # an entity this line names that Claude did not list (one the offline reader knows)
    if name is None:
        message = f"reflect: Claude's {what} is about '{entity}', which this line does not name; dropped"
        diagnostics.warn(note.path, line, message, "reflect")
        return None
    certainty = float(confidence) if _number(confidence) and 0 <= confidence <= 1 else None
    if kind == "O" and certainty is None:
        message = f"reflect: Claude's opinion has confidence {confidence!r}, not a number from 0 to 1; dropped"
        diagnostics.warn(note.path, line, message, "reflect")
        return None
    day = _day(note, line, item.get("date"), diagnostics) if kind == "W" else None
    return Fact(
        "", kind, text.strip(), (name,), note.path, line, note.date or day, (day, day) if day else None,
        certainty if kind == "O" else None, by=CLAUDE,
    )  # fmt: skip


def _numbered(facts: list[Fact]) -> list[Fact]:
    """Each fact with its id: from its note, line, kind and text (a second one alike gets ``-2``)."""
    seen: dict[str, int] = {}
    out = []
    for fact in facts:
        base = hashlib.sha1(f"{CLAUDE}|{fact.path}|{fact.line}|{fact.kind}|{fact.content}".encode()).hexdigest()[:10]
        seen[base] = seen.get(base, 0) + 1
        out.append(fact._replace(id=base if seen[base] == 1 else f"{base}-{seen[base]}"))
    return out


def _line(note: Note, item: dict[str, Any], diagnostics: Diagnostics) -> int | None:
    """The line the item cites, when the note has it; else a warning."""
    line = item.get("line")
    last = note.body_start + note.body.count("\n")
    if isinstance(line, int) and not isinstance(line, bool) and note.body_start <= line <= last:
        return line
    message = f"reflect: Claude cited line {line!r}, which this note does not have (lines {note.body_start}-{last})"
    diagnostics.warn(note.path, 0, f"{message}; dropped", "reflect")
    return None


def _day(note: Note, line: int, given: object, diagnostics: Diagnostics) -> dt.date | None:
    if given is None or given == "":
        return None
    try:
        return dt.date.fromisoformat(str(given))
    except ValueError:
        diagnostics.warn(
            note.path, line, f"reflect: Claude dated a fact {given!r}, not YYYY-MM-DD; kept undated", "reflect"
        )
        return None


def _named_in(text: str, names: tuple[str, ...]) -> bool:
    folded = text.casefold()
    return any(name.strip() and name.strip().casefold() in folded for name in names)


def _text(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and bool(value.strip())


def _number(value: object) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool)
