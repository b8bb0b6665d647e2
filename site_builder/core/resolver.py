"""How a written name finds what it names: an entity (by its key or an alias) or a note (by its name or path)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from site_builder.core.names import entity_key

if TYPE_CHECKING:
    from site_builder.core.model import Entity


@dataclass
class Resolver:
    """Maps a written name to an entity (through keys and aliases) or a note path."""

    entities: dict[str, Entity] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    # name as written -> its entity: linking and every page look the same few thousand names up again and again
    _found: dict[str, Entity | None] = field(default_factory=dict, init=False, repr=False, compare=False)

    def entity(self, name: str) -> Entity | None:
        try:
            return self._found[name]
        except KeyError:
            key = entity_key(name)
            found = self._found[name] = self.entities.get(self.aliases.get(key, key))
            return found

    def add_placeholder(self, entity: Entity) -> None:
        """An entity without a page, named often enough (linking makes them as it meets their names)."""
        self.entities[entity.key] = entity
        self._found.clear()  # a name that found nothing may find it now

    def note_path(self, name: str) -> str | None:
        """The note a wikilink names: by its name, or by its path (``[[dir/page]]``, with or without ``.md``)."""
        if "/" in name:
            path = name.strip("/").removesuffix(".md") + ".md"
            return path if path in self.note_paths else None
        return self.notes.get(entity_key(name.removesuffix(".md")))

    @functools.cached_property
    def note_paths(self) -> frozenset[str]:
        """The paths ``notes`` leads to, looked up as written (made once: not a walk of every note per link)."""
        return frozenset(self.notes.values())
