"""Reflect: regenerate entity pages and opinion histories from the facts (DESIGN §3).

Reads the linked library, asks a reflector (offline, or Claude) for entity
summaries and evidence verdicts, and returns the new text of every page whose
generated block changed. Only the blocks change: the person's text around
them is kept byte for byte. ``write_changes`` writes each file atomically.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Entity, Fact, Library, Opinion
from site_builder.core.names import entity_file_name
from site_builder.io.writer import OutputError, write_text_atomic
from site_builder.library.link import OPINIONS_PATH, recorded_history
from site_builder.library.opinions import VERDICTS, collect_opinions
from site_builder.parse.blocks import BlockError, replace_block
from site_builder.reflect.entity_block import reflected_summary, render_entity_block
from site_builder.reflect.offline import offline_summary, offline_verdict
from site_builder.reflect.opinion_block import render_opinion_block


@dataclass(frozen=True)
class EntityInput:
    """What a reflector needs to summarise one entity."""

    key: str
    name: str
    path: str  # the page the summary goes to
    type: str
    text: str  # the person's own page text (private parts and generated blocks removed)
    facts: list[Fact]
    opinions: list[Opinion]
    related: list[str]
    previous: str  # the summary written last time ("" if none)
    offline: str  # the offline summary, the fallback when the model fails


@dataclass(frozen=True)
class VerdictInput:
    opinion: Opinion
    facts: list[Fact]


@dataclass
class Usage:
    calls: int = 0
    cached: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


class Reflector(Protocol):
    name: str
    usage: Usage

    def summaries(self, entities: list[EntityInput], diagnostics: Diagnostics) -> dict[str, str]:
        """Entity key -> summary; a missing key means keep the previous text."""
        ...

    def verdicts(self, items: list[VerdictInput], diagnostics: Diagnostics) -> dict[tuple[str, str], str]:
        """(opinion id, fact id) -> reinforces / weakens / contradicts / irrelevant."""
        ...

    def cache_files(self) -> dict[str, bytes]:
        """Files to keep under ``.memwiki/`` between runs (a cache of answers), if any."""
        ...


class OfflineReflector:
    name = "offline"

    def __init__(self) -> None:
        self.usage = Usage()

    def summaries(self, entities: list[EntityInput], diagnostics: Diagnostics) -> dict[str, str]:
        return {e.key: e.offline for e in entities}

    def verdicts(self, items: list[VerdictInput], diagnostics: Diagnostics) -> dict[tuple[str, str], str]:
        return {(i.opinion.id, f.id): offline_verdict(i.opinion, f) for i in items for f in i.facts}

    def cache_files(self) -> dict[str, bytes]:
        return {}


@dataclass
class ReflectResult:
    changes: dict[str, tuple[str | None, str]] = field(default_factory=dict)  # path -> (old text or None, new)
    entities: int = 0
    opinions: int = 0
    usage: Usage = field(default_factory=Usage)

    @property
    def created(self) -> list[str]:
        return sorted(p for p, (old, _) in self.changes.items() if old is None)

    def diff(self) -> str:
        out: list[str] = []
        for path, (old, new) in sorted(self.changes.items()):
            before = (old or "").replace("\r\n", "\n").splitlines(keepends=True)
            after = new.replace("\r\n", "\n").splitlines(keepends=True)
            out += difflib.unified_diff(before, after, f"a/{path}" if old is not None else "/dev/null", f"b/{path}")
        return "".join(out)


def reflect(
    library: Library, reflector: Reflector, read_raw: Callable[[str], str | None], diagnostics: Diagnostics
) -> ReflectResult:
    """New text for every page whose generated block changes."""
    result = ReflectResult(usage=reflector.usage)
    verdicts = reflector.verdicts(_verdict_inputs(library), diagnostics)
    opinions = collect_opinions(library.facts, recorded_history(library.note_by_path), verdicts)
    result.opinions = len(opinions)
    if opinions:
        _change(
            result, OPINIONS_PATH, "opinions", render_opinion_block(opinions), read_raw, "# Opinions\n", diagnostics
        )
    inputs: dict[str, tuple[Entity, EntityInput]] = {}
    for entity in library.entities.values():
        if entity.note is None and not _named_as_entity(entity, library):
            continue  # only [[linked]]: more likely a typo or a missing note than a new entity
        path = entity.note.path if entity.note else entity_file_name(entity.name)
        if path is None:
            diagnostics.warn(
                "bank/entities", 0, f"'{entity.name}' is not a safe file name; no page was created for it", "reflect"
            )
            continue
        inputs[entity.key] = (entity, _entity_input(entity, path, library, opinions))
    summaries = reflector.summaries([given for _, given in inputs.values()], diagnostics)
    for entity, given in inputs.values():
        summary = summaries.get(entity.key) or given.previous or given.offline
        block = render_entity_block(entity, library, given.opinions, summary)
        _change(result, given.path, "entity", block, read_raw, f"# {entity.name}\n", diagnostics)
        result.entities += 1
    return result


def write_changes(root: Path, result: ReflectResult, diagnostics: Diagnostics) -> int:
    written = 0
    for path, (_, new) in sorted(result.changes.items()):
        try:
            write_text_atomic(root, path, new)
            written += 1
        except (OSError, OutputError) as exc:
            diagnostics.warn(path, 0, f"reflect could not write this page ({exc}); it is unchanged", "reflect")
    return written


def _change(
    result: ReflectResult,
    path: str,
    name: str,
    block: str,
    read_raw: Callable[[str], str | None],
    new_page: str,
    diagnostics: Diagnostics,
) -> None:
    old = read_raw(path)
    try:
        new = replace_block(old if old is not None else new_page, name, block)
    except BlockError as exc:
        diagnostics.warn(path, 0, f"{exc}; reflect left this page alone", "reflect")
        return
    if new != old:
        result.changes[path] = (old, new)


def _named_as_entity(entity: Entity, library: Library) -> bool:
    """True when some line names it with ``@Name`` or as a fact's entity."""
    return any(link.syntax in ("mention", "fact") for link in library.backlinks.get(entity.key, []))


def _entity_input(entity: Entity, path: str, library: Library, opinions: list[Opinion]) -> EntityInput:
    about = library.opinions_about(entity.key, opinions)
    note = entity.note
    text = "\n".join(line for line in note.body.split("\n") if line.strip()) if note else ""
    return EntityInput(
        key=entity.key,
        name=entity.name,
        path=path,
        type=entity.type,
        text=text,
        facts=library.facts_by_entity.get(entity.key, []),
        opinions=about,
        related=[library.entities[k].name for k, _ in library.related.get(entity.key, [])[:8]],
        previous=reflected_summary(note),
        offline=offline_summary(entity, library, about),
    )


def _verdict_inputs(library: Library) -> list[VerdictInput]:
    """Per opinion, the facts about its entities that have not been judged yet, oldest first."""
    items = []
    for opinion in library.opinions:
        judged = {p.fact_id for p in opinion.history if p.change in VERDICTS}
        keys = {e.key for n in opinion.entities if (e := library.resolver.entity(n))}
        candidates = {
            f.id: f
            for key in sorted(keys)
            for f in library.facts_by_entity.get(key, [])
            if f.kind in ("W", "B", "S") and f.id not in judged
        }
        newest = sorted(candidates.values(), key=lambda f: (f.date.isoformat() if f.date else "", f.path, f.line))
        if newest:
            items.append(VerdictInput(opinion, newest))
    return items
