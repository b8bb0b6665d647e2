"""Which entities are named together: the co-mention graph (``Library.related``), from the links of each line and
the lines naming an entity in prose."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Iterable

from site_builder.core.model import Link, Note
from site_builder.core.names import entity_key
from site_builder.core.resolver import Resolver


def related_entities(
    notes: list[Note], resolver: Resolver, named: dict[str, list[Link]] | None = None
) -> dict[str, list[tuple[str, int]]]:
    """Entities mentioned on the same line, counted: the co-mention graph (``named``: entity key -> the lines
    naming it in prose, which count too)."""
    in_prose: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for key, links in (named or {}).items():
        for link in links:
            in_prose[link.path].append((link.line, key))
    pairs: Counter[tuple[str, str]] = Counter()
    for note in notes:
        pairs.update(co_mentions(note, resolver, in_prose.get(note.path, ())))
    by_first: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for (a, b), count in pairs.items():
        by_first[a].append((-count, b))
    return {a: co_mentioned(found) for a, found in sorted(by_first.items())}


def co_mentioned(found: list[tuple[int, str]]) -> list[tuple[str, int]]:
    """One entity's (-count, other) pairs as its ``related`` list: most co-mentions first, then by key (sorted as
    tuples, no key function)."""
    return [(b, -count) for count, b in sorted(found)]


def co_mentions(note: Note, resolver: Resolver, named: Iterable[tuple[int, str]] = ()) -> list[tuple[str, str]]:
    """Each pair of entities the note mentions on one line (both ways; an entity's page mentions itself on each);
    ``named``: the lines naming an entity in prose (line, entity key)."""
    by_line: dict[int, set[str]] = defaultdict(set)
    own = entity_key(note.stem) if note.kind == "entity" else None
    for link in note.links:
        entity = resolver.entity(link.target)
        if entity:
            by_line[link.line].add(entity.key)
    for line, key in named:
        by_line[line].add(key)
    pairs: list[tuple[str, str]] = []
    for keys in by_line.values():
        if own:
            keys.add(own)
        if len(keys) > 1:
            pairs += itertools.permutations(keys, 2)
    return pairs
