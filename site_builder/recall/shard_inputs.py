"""What a recall shard (``recall/entities/<id>.json``) is made from, as a digest: a build keeps the last site's
shard when its digest is unchanged (``bundle.make_bundle``), so one edit makes again only the shards of the
entities it touches."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from site_builder.core.library import Library
from site_builder.core.model import Entity


def shard_inputs(library: Library) -> Callable[[Entity], str]:
    """What an entity's shard is made from, as a digest: the text of every note its facts, mentions and page come
    from, its related entities and opinions, and every entity's names (``names_digest``: how names resolve). The
    same digest makes the same shard. What every entity's digest reads is worked out once."""
    everyone = names_digest(library).encode("utf-8", "surrogateescape")
    digests = {note.path: note.digest for note in library.notes}

    def of(entity: Entity) -> str:
        paths = {fact.path for fact in library.facts_by_entity.get(entity.key, [])}
        paths.update(link.path for link in library.backlinks.get(entity.key, []))
        if entity.note is not None:
            paths.add(entity.note.path)
        digest = hashlib.blake2b(everyone, digest_size=16)
        texts = "".join(f"{path}\0{digests.get(path, '')}\n" for path in sorted(paths))
        digest.update(texts.encode("utf-8", "surrogateescape"))
        about = [opinion.id for opinion in library.opinions_about(entity.key)]
        digest.update(repr((about, library.related.get(entity.key, []))).encode("utf-8", "surrogateescape"))
        return digest.hexdigest()

    return of


@dataclass(frozen=True)
class HeldShards:
    """The last build's shards' inputs (by path) and the notes whose texts changed since, its library being this
    build's (``io.library_texts``). A shard reads no text but its entity's page (the summary): when that did not
    change, its inputs are the last ones, not worked out again."""

    inputs: dict[str, str]
    changed: set[str]

    def get(self, entity: Entity, path: str) -> str | None:
        if entity.note is not None and entity.note.path in self.changed:
            return None
        return self.inputs.get(path)


def names_digest(library: Library) -> str:
    """Every entity as shards name it, and how names resolve to them, as one digest."""
    entities = [
        (e.key, e.name, e.slug, e.type, e.aliases, e.note.path if e.note else e.home or None)
        for e in library.entities.values()
    ]
    text = repr((entities, sorted(library.resolver.aliases.items())))
    return hashlib.blake2b(text.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
