"""The directories ``recall.json`` lists after the opinions: who and what the entities are (one line each, the
most mentioned first), then the workspace's other files by name, each with what it is about."""

from __future__ import annotations

from typing import Any

from site_builder.core.library import Library
from site_builder.core.model import Entity
from site_builder.library.summaries import entity_summary, first_line


def entity_directory(library: Library) -> list[Entity]:
    """The entities in the directory's order: the most mentioned first."""
    mentioned = library.backlinks
    return sorted(
        library.entities.values(),
        key=lambda e: (-len(library.facts_by_entity.get(e.key, [])) - len(mentioned.get(e.key, [])), e.name.casefold()),
    )


def directory_line(library: Library, entity: Entity) -> dict[str, Any]:
    """An entity's line in the directory: who or what it is and when it was seen."""
    facts = library.facts_by_entity.get(entity.key, [])
    seen = library.seen(entity.key)
    return {
        "id": entity.slug,
        "name": entity.name,
        "type": entity.type or None,
        "summary": entity_summary(entity, facts),
        "facts": len(facts),
        "first_seen": seen[0].isoformat() if seen else None,
        "last_seen": seen[-1].isoformat() if seen else None,
        "url": entity.url,
    }


# The notes an agent reads by name, in the order it would want them: what it loads every session, then what it
# works on, then its own rules and skills, then every other page. Logs, entities and the core are listed elsewhere.
FILE_KINDS = ("soul", "standing", "project", "feedback", "skills", "skill", "reflections", "episodes", "bank", "page")


def file_directory(library: Library) -> list[dict[str, Any]]:
    """One line per note that is neither a log, an entity nor the core memory: where it is, what kind it is and
    what it is about (its ``description``, else its first line)."""
    rank = {kind: i for i, kind in enumerate(FILE_KINDS)}
    notes = sorted((n for n in library.notes if n.kind in rank), key=lambda n: (rank[n.kind], n.path))
    rows = []
    for note in notes:
        described = note.meta.get("description")
        about = described.strip() if isinstance(described, str) and described.strip() else first_line(note, 160)
        rows.append({"source": note.path, "kind": note.kind, "title": note.title, "about": about, "url": note.url})
    return rows
