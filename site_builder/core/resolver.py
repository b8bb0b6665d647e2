"""How a written name finds what it names: an entity (by its key or an alias) or a note (as Obsidian finds it:
``core.note_paths``)."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from site_builder.core.names import entity_key
from site_builder.core.note_paths import NotePaths, about_folder, note_paths

if TYPE_CHECKING:
    from site_builder.core.model import Entity


@dataclass
class Resolver:
    """Maps a written name to an entity (through keys and aliases) or a note path."""

    entities: dict[str, Entity] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()  # the path of every note a link may open, entity pages too
    # name as written -> its entity: linking and every page look the same few thousand names up again and again
    _found: dict[str, Entity | None] = field(default_factory=dict, init=False, repr=False, compare=False)

    def entity(self, name: str) -> Entity | None:
        try:
            return self._found[name]
        except KeyError:
            key = entity_key(name)
            found = self._found[name] = self.entities.get(self.aliases.get(key, key)) or self.entity_at(name)
            return found

    def add_entity(self, entity: Entity) -> None:
        """An entity without a page of its own: named often enough, in a link or in prose, or by a profile (linking
        makes them as it meets their names)."""
        self.entities[entity.key] = entity
        self._found.clear()  # a name that found nothing may find it now
        self.__dict__.pop("entity_pages", None)  # and a path its home

    def add_aliases(self, key: str, names: list[str]) -> None:
        """More names of the entity at ``key`` (the prose's ``Oscar Serra`` of the page ``Oscar.md``)."""
        entity = self.entities[key]
        fresh = tuple(name for name in names if name not in entity.aliases)
        self.entities[key] = dataclasses.replace(entity, aliases=(*entity.aliases, *fresh))
        for name in fresh:
            self.aliases.setdefault(entity_key(name), key)
        self._found.clear()

    def note_path(self, name: str, from_path: str = "") -> str | None:
        """The note (not an entity's page) ``[[name]]`` opens from the note at ``from_path``, as Obsidian finds it."""
        path = self.paths.wikilink(name, from_path)
        return path if path is not None and path not in self.entity_pages else None

    def file_path(self, target: str, from_path: str) -> str | None:
        """The note (an entity's page too) ``[text](target)`` opens from the note at ``from_path``."""
        return self.paths.markdown(target, from_path)

    def entity_at(self, name: str, from_path: str = "") -> Entity | None:
        """The entity whose page ``[[name]]`` opens by path (``[[entities/anna]]``, ``[[../people/anna]]``)."""
        if "/" not in name:
            return None
        key = self.entity_pages.get(self.paths.wikilink(name, from_path) or "")
        return self.entities.get(key) if key else None

    @functools.cached_property
    def paths(self) -> NotePaths:
        return note_paths(self.notes)

    @functools.cached_property
    def entity_pages(self) -> dict[str, str]:
        """Entity page (or home: a profile, a declared page) path -> its entity's key (made when first asked)."""
        # a page about its folder's thing (``projects/atlas/index.md``) stays the page a link to it opens
        pages = {
            entity.home: key for key, entity in self.entities.items() if entity.home and not about_folder(entity.home)
        }
        return pages | {entity.note.path: key for key, entity in self.entities.items() if entity.note is not None}
