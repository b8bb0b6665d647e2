"""The entities notes name without a page of their own, made entities of the resolver while linking
(``library.link``): the user and the agent their profiles name (``library.subject``), and the names found in the
prose (``library.prose_entities``), with the lines that name each entity; and those Claude found (``Note.found``).
"""

from __future__ import annotations

import re

from site_builder.core.model import Entity, Link, Note
from site_builder.core.names import entity_key, slugify
from site_builder.core.resolver import Resolver
from site_builder.library.folder_things import folder_things
from site_builder.library.prose_entities import homes, prose_entities, reads_prose
from site_builder.library.prose_mentions import prose_mentions
from site_builder.library.prose_scan import ProseScan
from site_builder.library.subject import profile_entities


def add_profiles(notes: list[Note], resolver: Resolver) -> None:
    """The user and the agent their profiles name, and the things kept as a folder each (``folder_things``), as
    entities, unless a page already is theirs (by a name)."""
    for entity in [*profile_entities(notes), *folder_things(notes)]:
        if any(resolver.entity(name) for name in (entity.name, *entity.aliases)):
            continue
        for name in (entity.name, *entity.aliases):  # the user keyed by what to call them is found by full name too
            resolver.aliases.setdefault(entity_key(name), entity.key)
        resolver.add_entity(entity)


def add_prose_entities(notes: list[Note], resolver: Resolver) -> ProseScan | None:
    """The entities the notes name in prose, made entities of the resolver, and what the pass over the prose
    found; None where the workspace keeps entity pages of its own (its entities are those)."""
    if not reads_prose(notes):
        return None

    def known(name: str) -> str | None:
        entity = resolver.entity(name)
        return entity.key if entity is not None else None

    def kept(key: str) -> tuple[str, tuple[str, ...]]:
        entity = resolver.entities[key]
        return (entity.note.path if entity.note is not None else entity.home), (entity.name, *entity.aliases)

    for key, page in [(key, entity.note) for key, entity in resolver.entities.items() if entity.note is not None]:
        resolver.add_aliases(key, _title_names(page.title, key))  # a page's title is its entity's name too
    found = prose_entities(notes, known, homes(notes), kept)
    for key, names in found.known_as.items():
        resolver.add_aliases(key, names)
    for entity in found.entities:
        resolver.add_entity(
            Entity(entity.key, entity.name, slugify(entity.name), aliases=entity.aliases, prose=True, home=entity.home)
        )
        for alias in entity.aliases:
            resolver.aliases.setdefault(entity_key(alias), entity.key)
    return found.scan


def add_found_by_claude(notes: list[Note], resolver: Resolver) -> None:
    """The entities Claude found in the notes' prose (``Note.found``, from ``reflect.reader``): one it names as an
    entity already known (by name or alias) adds its other names to that one; else it is a new entity, marked
    Claude's, with a generated page. The first note that names it (in path order) gives its type."""
    for note in notes:
        for found in note.found:
            names = (found.name, *found.aliases)
            known = next((entity for name in names if (entity := resolver.entity(name)) is not None), None)
            if known is None:
                key = entity_key(found.name)
                aliases = tuple(alias for alias in found.aliases if entity_key(alias) != key)
                known = Entity(
                    key, found.name, slugify(found.name), aliases=aliases, type=found.type, prose=True, by="claude"
                )
                resolver.add_entity(known)
            for alias in names:
                if entity_key(alias) != known.key:
                    resolver.aliases.setdefault(entity_key(alias), known.key)


def prose_mentions_of(scan: ProseScan | None, notes: list[Note], resolver: Resolver) -> dict[str, list[Link]]:
    """The lines naming each entity in plain text, where the prose was read (``add_prose_entities``)."""
    if scan is None:
        return {}
    names = {name: key for key, entity in resolver.entities.items() for name in (entity.name, *entity.aliases)}
    return prose_mentions(scan, notes, names)


def _title_names(title: str, key: str) -> list[str]:
    """The names an entity page's title gives its entity besides its file's: ``Oscar Serra`` (``Oscar.md``),
    ``Aleksandra Marchenko`` and ``Sasha`` of ``Aleksandra (Sasha) Marchenko`` (``Sasha.md``)."""
    inside = [found.strip() for found in _BRACKETED.findall(title)]
    whole = " ".join(_BRACKETED.sub(" ", title).split())
    return [name for name in (whole, *inside) if name and len(name) <= 60 and entity_key(name) != key]


_BRACKETED = re.compile(r"\(([^()]{1,40})\)")
