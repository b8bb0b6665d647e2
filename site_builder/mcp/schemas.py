"""JSON schemas and descriptions of the memory tools: what an agent sees in ``tools/list``."""

from __future__ import annotations

from typing import Any

from site_builder.mcp.read_memory import MAX_LINES
from site_builder.mcp.remember import MAX_CONTENT, MAX_ENTITIES
from site_builder.recall.query import MAX_QUERY_CHARS

KINDS = ["W", "B", "O", "S", "log", "page"]
_WHEN = (
    "YYYY-MM-DD, a span back from today (30d, 2w, 6m, 1y) or time words ('yesterday', 'last week', 'in November 2025')"
)
_DATE = {"type": ["string", "null"], "pattern": r"^\d{4}-\d{2}-\d{2}$"}
_SPAN = {
    "type": ["object", "null"],
    "properties": {"start": {"type": "string"}, "end": {"type": "string"}},
    "required": ["start", "end"],
}
_FACT = {
    "type": "object",
    "required": ["id", "kind", "content", "entities", "date", "source"],
    "properties": {
        "id": {"type": "string"},
        "kind": {"enum": ["W", "B", "O", "S"]},
        "content": {"type": "string"},
        "entities": {"type": "array", "items": {"type": "string"}},
        "date": _DATE,
        "occurred": _SPAN,
        "confidence": {"type": ["number", "null"]},
        "source": {"type": "string"},
    },
}


def _object(properties: dict[str, Any], required: list[str], *, closed: bool = True) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties, "required": required}
    if closed:
        schema["additionalProperties"] = False
    return schema


SEARCH_DOC = (
    "Search the agent's long-term memory (daily logs, Retain facts, bank and entity pages) for lines about a "
    "question. Returns ranked lines, each with a citation (path#Lline) to quote, the day it was written, when the "
    "fact happens, its kind (W world, B experience, O opinion, S observation, log, page), its entities and, for an "
    "opinion, its current confidence and history size. Time words in the query ('last week') narrow by date."
)
SEARCH_IN = _object(
    {
        "query": {"type": "string", "minLength": 1, "maxLength": MAX_QUERY_CHARS, "description": "What to look for."},
        "maxResults": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
        "since": {"type": "string", "minLength": 1, "maxLength": 100, "description": f"Only lines on/after: {_WHEN}."},
        "until": {"type": "string", "minLength": 1, "maxLength": 100, "description": f"Only lines on/before: {_WHEN}."},
        "entity": {"type": "string", "minLength": 1, "maxLength": 200, "description": "Only lines about this entity."},
        "kind": {"type": "string", "enum": KINDS, "description": "Only this kind of line."},
    },
    ["query"],
)
SEARCH_OUT = _object(
    {
        "query": {"type": "string"},
        "results": {
            "type": "array",
            "items": _object(
                {
                    "path": {"type": "string"},
                    "startLine": {"type": "integer"},
                    "endLine": {"type": "integer"},
                    "score": {"type": "number"},
                    "snippet": {"type": "string"},
                    "citation": {"type": "string"},
                    "date": _DATE,
                    "occurred": _SPAN,
                    "kind": {"enum": KINDS},
                    "entities": {"type": "array", "items": {"type": "string"}},
                    "confidence": {"type": ["number", "null"]},
                    "opinion": _object({"id": {"type": "string"}, "history": {"type": "integer"}}, ["id", "history"]),
                    "also": {"type": "array", "items": {"type": "string"}},
                },
                [
                    "path",
                    "startLine",
                    "endLine",
                    "score",
                    "snippet",
                    "citation",
                    "date",
                    "occurred",
                    "kind",
                    "entities",
                    "confidence",
                ],
            ),
        },
    },
    ["query", "results"],
)

GET_DOC = (
    "Read lines of one memory file by its workspace-relative path (as cited by memory_search, e.g. "
    "'memory/2025-11-27.md'; a citation 'memory/2025-11-27.md#L12-L14' reads those lines). Private text is "
    f"withheld and credentials are redacted. At most {MAX_LINES} lines per call."
)
GET_IN = _object(
    {
        "path": {"type": "string", "minLength": 1, "maxLength": 1000},
        "from": {"type": "integer", "minimum": 1, "description": "First line (1-based); default 1."},
        "lines": {"type": "integer", "minimum": 1, "maximum": MAX_LINES, "description": "How many lines."},
    },
    ["path"],
)
GET_OUT = _object(
    {
        "path": {"type": "string"},
        "from": {"type": "integer"},
        "to": {"type": "integer"},
        "totalLines": {"type": "integer"},
        "truncated": {"type": "boolean"},
        "text": {"type": "string"},
    },
    ["path", "text", "from", "to", "totalLines", "truncated"],
)

ENTITY_DOC = (
    "Everything memory holds about one person, place, project or thing, by name or alias: summary, aliases, every "
    "fact with its citation, opinions with confidence history, related entities and every mention."
)
ENTITY_IN = _object({"name": {"type": "string", "minLength": 1, "maxLength": 200}}, ["name"])
ENTITY_OUT = _object(
    {
        "id": {"type": "string"},
        "name": {"type": "string"},
        "aliases": {"type": "array", "items": {"type": "string"}},
        "summary": {"type": "string"},
        "facts": {"type": "array", "items": _FACT},
        "opinions": {"type": "array", "items": {"type": "object", "required": ["id", "statement", "confidence"]}},
        "related": {"type": "array"},
        "mentions": {"type": "array"},
    },
    ["id", "name", "aliases", "summary", "facts", "opinions", "related", "mentions"],
    closed=False,
)

CONTEXT_DOC = (
    "A ready-to-read <memory> block: core memory, opinions with confidence, the lines most relevant to the query, "
    "then recent facts, within a token budget."
)
CONTEXT_IN = _object(
    {
        "query": {"type": "string", "maxLength": MAX_QUERY_CHARS, "description": "The task at hand (optional)."},
        "budget": {"type": "integer", "minimum": 50, "maximum": 200_000, "description": "Token budget."},
    },
    [],
)
CONTEXT_OUT = _object({"text": {"type": "string"}, "summary": {"type": "string"}}, ["text", "summary"])

REMEMBER_DOC = (
    "Write one fact to long-term memory: a Retain bullet appended to today's daily log (memory/YYYY-MM-DD.md). "
    "kind: W world fact, B something you (the agent) did, O opinion (with confidence 0..1), S observation. "
    "content: one self-contained sentence. Returns the citation of the new line."
)
REMEMBER_IN = _object(
    {
        "kind": {"type": "string", "enum": ["W", "B", "O", "S"]},
        "content": {"type": "string", "minLength": 1, "maxLength": MAX_CONTENT},
        "entities": {
            "type": "array",
            "maxItems": MAX_ENTITIES,
            "items": {"type": "string", "minLength": 1, "maxLength": 100},
            "description": "Who or what the fact is about (names without @).",
        },
        "confidence": {"type": "number", "minimum": 0, "maximum": 1, "description": "Opinions only."},
    },
    ["kind", "content"],
)
REMEMBER_OUT = _object(
    {
        "citation": {"type": "string"},
        "path": {"type": "string"},
        "line": {"type": "integer"},
        "bullet": {"type": "string"},
    },
    ["citation", "path", "line", "bullet"],
)
