"""``recall/entities/<id>.json``: everything recall knows of one entity (its shard), and a fact as every recall
output cites it (``fact_json``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from site_builder.core.library import Library
from site_builder.core.model import Entity, Fact
from site_builder.core.names import source_url
from site_builder.library.summaries import entity_summary

ENTITY_SCHEMA = "memwiki/recall-entity@1"


def fact_json(fact: Fact) -> dict[str, Any]:
    """A fact as every recall output cites it."""
    return {
        "id": fact.id,
        "kind": fact.kind,
        "content": fact.content,
        "entities": list(fact.entities),
        "date": fact.date.isoformat() if fact.date else None,
        "occurred": {"start": fact.occurred[0].isoformat(), "end": fact.occurred[1].isoformat()}
        if fact.occurred
        else None,
        "confidence": fact.confidence,
        "source": fact.source,
        "url": source_url(fact.source),
    }


def entity_shard(
    library: Library, entity: Entity, as_json: Callable[[Fact], dict[str, Any]] = fact_json
) -> dict[str, Any]:
    """Everything recall knows of one entity; its facts as ``as_json`` gives them (``fact_json``'s shape)."""
    facts = library.facts_by_entity.get(entity.key, [])
    seen = library.seen(entity.key)
    mentions = []
    for link in library.backlinks.get(entity.key, []):
        note = library.note(link.path)
        source = f"{link.path}#L{link.line}"
        mentions.append(
            {
                "source": source,
                "date": note.date.isoformat() if note and note.date else None,
                "sentence": link.sentence,
                "url": source_url(source),
            }
        )
    return {
        "schema": ENTITY_SCHEMA,
        "id": entity.slug,
        "name": entity.name,
        "type": entity.type or None,
        "aliases": list(entity.aliases),
        "summary": entity_summary(entity, facts),
        "source": entity.note.path if entity.note else (entity.home or None),  # its page, or its profile
        "url": entity.url,
        "first_seen": seen[0].isoformat() if seen else None,
        "last_seen": seen[-1].isoformat() if seen else None,
        "facts": [as_json(f) for f in facts],
        "opinions": [o.id for o in library.opinions_about(entity.key)],
        "related": [
            {"id": library.entities[k].slug, "name": library.entities[k].name, "co_mentions": n}
            for k, n in library.related.get(entity.key, [])
        ],
        "mentions": mentions,
    }
