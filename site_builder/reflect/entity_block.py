"""The ``entity`` block reflect keeps in ``bank/entities/<Name>.md``.

A summary paragraph, the entity's facts grouped by kind in date order with
citations, opinions about it, related entities and first/last seen. The
person's own text around the block is never touched.
"""

from __future__ import annotations

from site_builder.core.library import Library
from site_builder.core.model import Entity, Opinion
from site_builder.parse.blocks import ENTITY_HEADING
from site_builder.reflect.blocks import source_link

KIND_TITLES = {"W": "World", "B": "Experience", "S": "Observations"}


def render_entity_block(entity: Entity, library: Library, opinions: list[Opinion], summary: str) -> str:
    path = entity.note.path if entity.note else f"bank/entities/{entity.name}.md"
    facts = library.facts_by_entity.get(entity.key, [])
    lines = [ENTITY_HEADING, "", " ".join(summary.split()) or f"Nothing is known about {entity.name} yet."]
    for kind in "WBS":  # opinions are listed once, below, with their current confidence
        chosen = [f for f in facts if f.kind == kind]
        if not chosen:
            continue
        lines += ["", f"### {KIND_TITLES[kind]}", ""]
        for fact in chosen:
            date = fact.date.isoformat() if fact.date else "undated"
            conf = f" (c={fact.confidence:.2f})" if fact.confidence is not None else ""
            lines.append(f"- {date} · {fact.content}{conf} ([{fact.source}]({source_link(path, fact.source)}))")
    if opinions:
        lines += ["", "### Opinions", ""]
        for opinion in opinions:
            source = opinion.origin.source
            changed = f", last changed {opinion.changed.isoformat()}" if opinion.changed else ""
            lines.append(
                f"- **{opinion.confidence:.2f}** {opinion.statement} (confidence{changed}; "
                f"[{source}]({source_link(path, source)}))"
            )
    related = library.related.get(entity.key, [])[:8]
    if related:
        names = ", ".join(f"[[{library.entities[k].name}]] ({n})" for k, n in related)
        lines += ["", f"Related: {names}"]
    seen = library.seen(entity.key)
    if seen:
        lines += ["", f"First seen {seen[0].isoformat()} · last seen {seen[-1].isoformat()} · {len(facts)} fact(s)"]
    return "\n".join(lines) + "\n"
