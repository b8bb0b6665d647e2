"""The five memory tools: their JSON schemas and their answers, without the MCP SDK.

Shapes follow OpenClaw's memory-core where it has the tool (``memory_search``
results ``{path, startLine, endLine, score, snippet, citation}``, ``memory_get``
``{path, text}``) and add what memwiki knows: the day, when a fact happens, its
kind, entities and an opinion's current confidence. Every bad argument raises
``ToolError`` with a stable ``code`` and a message that says how to fix it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from site_builder.core.names import entity_key
from site_builder.mcp import schemas
from site_builder.mcp.live import LiveWorkspace
from site_builder.mcp.read_memory import check_path, read_lines, wanted
from site_builder.mcp.remember import commit_append, fact_bullet, plan_append
from site_builder.recall.hits import Hit
from site_builder.recall.index import RecallIndex
from site_builder.recall.query import QueryError, make_query
from site_builder.recall.scripts import fold_accents
from site_builder.recall.search import search

SNIPPET_CHARS = 700


class ToolError(ValueError):
    """A call the tool cannot answer: ``code`` for programs, the message for the model."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclasses.dataclass(frozen=True)
class ToolSpec:
    name: str
    title: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]
    read_only: bool


TOOLS = (
    ToolSpec("memory_search", "Search memory", schemas.SEARCH_DOC, schemas.SEARCH_IN, schemas.SEARCH_OUT, True),
    ToolSpec("memory_get", "Read a memory file", schemas.GET_DOC, schemas.GET_IN, schemas.GET_OUT, True),
    ToolSpec("memory_entity", "About one entity", schemas.ENTITY_DOC, schemas.ENTITY_IN, schemas.ENTITY_OUT, True),
    ToolSpec(
        "memory_context",
        "Memory block for a prompt",
        schemas.CONTEXT_DOC,
        schemas.CONTEXT_IN,
        schemas.CONTEXT_OUT,
        True,
    ),
    ToolSpec(
        "memory_remember", "Remember a fact", schemas.REMEMBER_DOC, schemas.REMEMBER_IN, schemas.REMEMBER_OUT, False
    ),
)


class MemoryTools:
    """Answers the tools for one workspace; ``allow_write`` enables ``memory_remember``."""

    def __init__(self, live: LiveWorkspace, *, allow_write: bool, now: dt.date | None = None) -> None:
        self.live = live
        self.allow_write = allow_write
        self.now = now
        self.specs = {spec.name: spec for spec in TOOLS if allow_write or spec.read_only}
        self._validators = {name: Draft202012Validator(spec.input_schema) for name, spec in self.specs.items()}

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The tool's structured answer; ``ToolError`` for bad arguments; ``KeyError`` for an unknown tool."""
        if name not in self.specs and name in {spec.name for spec in TOOLS}:
            raise ToolError("read_only", f"{name} is off: start the server with `memwiki mcp --allow-write` to use it")
        spec = self.specs[name]
        errors = sorted(self._validators[name].iter_errors(arguments), key=lambda e: list(e.path))
        if errors:
            raise ToolError("invalid_arguments", "; ".join(dict.fromkeys(_explain(e) for e in errors)))
        try:
            answer: dict[str, Any] = getattr(self, spec.name)(**{_python(k): v for k, v in arguments.items()})
        except (QueryError, ValueError) as exc:
            if isinstance(exc, ToolError):
                raise
            raise ToolError(getattr(exc, "code", "invalid_query"), str(exc)) from None
        return answer

    def today(self) -> dt.date:
        return self.now or dt.date.today()

    def memory_search(
        self,
        query: str,
        max_results: int = 10,
        since: str | None = None,
        until: str | None = None,
        entity: str | None = None,
        kind: str | None = None,
    ) -> dict[str, Any]:
        options = {"since": since, "until": until, "entity": entity, "kind": kind}
        recall = make_query(query, k=max_results, today=self.today(), **options)
        hits = self.live.answer(lambda index: search(index, recall))
        return {"query": query, "results": [_search_result(hit) for hit in hits]}

    def memory_get(self, path: str, from_: int | None = None, lines: int | None = None) -> dict[str, Any]:
        want = wanted(path, from_, lines)
        rel = check_path(want.path, self.live.workspace)
        return read_lines(self.live.workspace, rel, want.start, want.count)

    def memory_entity(self, name: str) -> dict[str, Any]:
        library = self.live.entity_library(name.strip())  # only the notes that can matter, not the whole workspace
        entity = library.resolver.entity(name.strip())
        if entity is None and (key := self.live.answer(lambda index: _profile_name(index, name))):
            library = self.live.entity_library(key)  # "user": the person the user's profile names
            entity = library.resolver.entity(key)
        if entity is None:
            raise ToolError("unknown_entity", f"no entity is called '{name[:200]}' (by page name or alias)")
        from site_builder.recall.bundle import opinion_json  # and the renderer: only this tool
        from site_builder.recall.entity_shard import entity_shard

        shard = entity_shard(library, entity)
        shard["opinions"] = [opinion_json(opinion) for opinion in library.opinions_about(entity.key)]
        return shard

    def memory_context(self, query: str = "", budget: int | None = None) -> dict[str, Any]:
        from site_builder.recall.context import memory_block  # and the bundle's renderer: only this tool

        sources, index = self.live.memory_sources()  # from the index: no note but the core memory is parsed
        text, summary = memory_block(
            self.live.titled(), sources, budget=budget, query=query.strip(), today=self.today(), index=index
        )
        return {"text": text, "summary": summary}

    def memory_remember(
        self, kind: str, content: str, entities: list[str] | None = None, confidence: float | None = None
    ) -> dict[str, Any]:
        bullet = fact_bullet(kind, content, entities or [], confidence)
        append = plan_append(self.live.workspace.root, dt.date.today(), bullet)
        commit_append(append)
        return {"citation": append.citation, "path": append.path, "line": append.line, "bullet": append.bullet}


def _profile_name(index: RecallIndex, name: str) -> str | None:
    """The entity key a name stands for in the recall index when pages do not know it ("user": the name the user's
    profile gives, ``library.subject``); None when it stands for nothing else."""
    key = fold_accents(entity_key(name)).removeprefix("the-")
    return found if (found := index.aliases().get(key)) and found != key else None


def _search_result(hit: Hit) -> dict[str, Any]:
    span = hit.occurred_span
    snippet = hit.content if len(hit.content) <= SNIPPET_CHARS else hit.content[: SNIPPET_CHARS - 1] + "…"
    result: dict[str, Any] = {
        "path": hit.path,
        "startLine": hit.line,
        "endLine": hit.line,
        "score": round(hit.score, 4),
        "snippet": snippet,
        "citation": hit.source,
        "date": hit.date,
        "occurred": {"start": span[0], "end": span[1]} if span else None,
        "kind": hit.kind,
        "entities": list(hit.entities),
        "confidence": hit.confidence,
    }
    if hit.opinion is not None:
        result["opinion"] = {"id": hit.opinion, "history": hit.history}
    if hit.also:
        result["also"] = list(hit.also)
    return result


def _python(argument: str) -> str:
    return {"maxResults": "max_results", "from": "from_"}.get(argument, argument)


def _explain(error: ValidationError) -> str:
    """One short line per schema error; never echoes the rejected value (it may be megabytes)."""
    where = "/".join(str(p) for p in error.path) or "arguments"
    schema = error.schema if isinstance(error.schema, dict) else {}
    value = error.validator_value
    messages = {
        "additionalProperties": lambda: f"unknown argument(s): {', '.join(sorted(_extra(error)))[:300]}",
        "required": lambda: f"missing required argument '{error.message.split(chr(39))[1]}'",
        "type": lambda: f"{where} must be of type {value}",
        "maxLength": lambda: f"{where} is longer than {value:,} characters",
        "minLength": lambda: f"{where} must not be empty",
        "maximum": lambda: f"{where} must be at most {value}",
        "minimum": lambda: f"{where} must be at least {value}",
        "enum": lambda: f"{where} must be one of {', '.join(map(str, schema.get('enum', [])))}",
        "maxItems": lambda: f"{where} has more than {value} items",
        "pattern": lambda: f"{where} is not well formed ({schema.get('description', value)})",
    }
    explain = messages.get(str(error.validator))
    return explain() if explain else f"{where}: invalid ({error.validator})"


def _extra(error: ValidationError) -> list[str]:
    allowed = set(error.schema.get("properties", {})) if isinstance(error.schema, dict) else set()
    return [str(key)[:60] for key in error.instance if key not in allowed] if isinstance(error.instance, dict) else []
