"""The lines that name an entity in plain text (the library's unlinked mentions: ``library.prose_mentions``)
tagged with it in the recall index, so that ``--entity``, the lift of an entity a query names and MCP's search find
them as they find a line that links the entity (``@santaclawd``), and the names of entities found in prose resolve.
A tag does not make a line rank as about the entity (its own entities do): a name written in passing is no more.

A file's rows are made from the file alone (``index_rows``), and which words name an entity depends on the whole
workspace: the build adds these tags after each refresh, from its linked library, and records them
(``mention_tags``), so that the next build changes only the lines whose tags changed. A file that ``memwiki
recall`` indexes again by itself loses its tags until the next build; a first index that ``memwiki recall`` makes
before any build is tagged as a build tags it (``publish.first_index``)."""

from __future__ import annotations

from collections import defaultdict

from site_builder.core.library import Library
from site_builder.core.names import entity_key
from site_builder.recall.index import RecallIndex
from site_builder.recall.scripts import fold_accents

PROSE_ALIASES = ""  # the ``path`` of the aliases of entities found in prose: no file's own, replaced every build

Place = tuple[str, int]


def tag_mentions(index: RecallIndex, library: Library) -> None:
    """Tag each line the library finds naming an entity in plain text with that entity, in the words of the line's
    entities that search matches (``docs_fts``; the line's own entities, ``docs``, which rank it as about the entity,
    stay as the file says), and record the names of the entities found in prose: what the last build did, replaced."""
    wanted = _mention_tags(library)
    db = index.db
    with db:
        had: dict[Place, str] = {(path, line): keys for path, line, keys in db.execute("SELECT * FROM mention_tags")}
        changed = {place for place in wanted.keys() | had.keys() if wanted.get(place, "") != had.get(place, "")}
        by_path: dict[str, set[int]] = defaultdict(set)
        for path, line in changed:
            by_path[path].add(line)
        updates = [
            (f"{entities} {wanted.get((path, line), '')}".strip(), row_id)
            for path, lines in by_path.items()
            for row_id, line, entities in db.execute("SELECT id, line, entities FROM docs WHERE path = ?", (path,))
            if line in lines
        ]
        db.executemany("UPDATE docs_fts SET entities = ? WHERE rowid = ?", updates)
        db.executemany("DELETE FROM mention_tags WHERE path = ? AND line = ?", [p for p in changed if p in had])
        db.executemany("INSERT INTO mention_tags VALUES (?, ?, ?)", [(*p, wanted[p]) for p in changed if p in wanted])
        db.execute("DELETE FROM aliases WHERE path = ?", (PROSE_ALIASES,))
        db.executemany("INSERT INTO aliases VALUES (?, ?, ?, ?)", _prose_names(library))


def tagged_places(index: RecallIndex, keys: frozenset[str]) -> frozenset[tuple[str, int]]:
    """The lines tagged with any of these (folded) entity keys: ``--entity`` keeps them beside the lines its own
    entities name."""
    return frozenset(
        (path, line)
        for path, line, tags in index.db.execute("SELECT path, line, keys FROM mention_tags")
        if keys.intersection(tags.split())
    )


def _mention_tags(library: Library) -> dict[Place, str]:
    """Each line that names entities in plain text -> their keys (folded, as the rows hold them), in key order."""
    keys: dict[Place, set[str]] = defaultdict(set)
    for key, links in library.backlinks.items():
        for link in links:
            if link.syntax == "name":
                keys[(link.path, link.line)].add(fold_accents(key))
    return {place: " ".join(sorted(found)) for place, found in keys.items()}


def _prose_names(library: Library) -> list[tuple[str, str, str, str]]:
    """``aliases`` rows of the entities found in prose: each name and alias -> the entity's key."""
    rows = []
    for entity in library.entities.values():
        if entity.prose:
            for name in dict.fromkeys((entity.name, *entity.aliases)):
                alias = entity_key(name)
                rows.append((alias, entity.key, PROSE_ALIASES, fold_accents(alias)))
    return rows
