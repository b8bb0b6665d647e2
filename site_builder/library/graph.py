"""The co-mention graph: entities as nodes sized by their mentions, an edge between two entities named on the same
line (weighted by how often), and the days that mention each entity.

Computed from the ``Library`` once per build; the site draws it on the graph page and, as an entity's neighbourhood,
on each entity page.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass

from site_builder.core.model import Library

# Each entity keeps its strongest co-mentions; the union of those is drawn (a hub keeps more through its neighbours).
STRONGEST_EDGES = 12
# An entity page's graph: the entity and this many of its closest neighbours.
NEIGHBOURS = 12


@dataclass(frozen=True)
class GraphNode:
    """An entity (``key`` is its key) or a day (``key`` is the day page's note path)."""

    key: str
    kind: str  # "entity" or "day"
    mentions: int  # an entity: lines that link to it; a day: links to entities on it
    about: bool = False  # ``mentions`` rounded (a neighbour on an entity's page: ``_neighbour``)


@dataclass(frozen=True)
class Graph:
    """Nodes, and edges as (node index, node index, weight) with the smaller index first, sorted."""

    nodes: list[GraphNode]
    edges: list[tuple[int, int, int]]


def co_mention_graph(library: Library, days: bool = True) -> Graph:
    """Every entity, with edges to its ``STRONGEST_EDGES`` most frequent co-mentions; with ``days``, every day that
    mentions an entity, linked to the entities it mentions (weight: how many times)."""
    keys = list(library.entities)
    index = {key: i for i, key in enumerate(keys)}
    nodes = [GraphNode(key, "entity", len(library.backlinks.get(key, []))) for key in keys]
    edges: dict[tuple[int, int], int] = {}
    for key, related in library.related.items():
        for other, count in related[:STRONGEST_EDGES]:
            if key in index and other in index:
                a, b = sorted((index[key], index[other]))
                edges[(a, b)] = count
    if days:
        nodes += _day_nodes(library, index, edges)
    return Graph(nodes, sorted((a, b, w) for (a, b), w in edges.items()))


def _day_nodes(library: Library, index: dict[str, int], edges: dict[tuple[int, int], int]) -> list[GraphNode]:
    """Day nodes (numbered after the entities) and their edges to the entities they mention, added to ``edges``."""
    day_page = {date: notes[0].path for date, notes in library.by_day.items()}
    date_of = {note.path: note.date for note in library.notes if note.date is not None}
    by_day: dict[dt.date, dict[int, int]] = {}
    for key, links in library.backlinks.items():
        if key not in index:
            continue
        at = index[key]
        for date, count in Counter(map(date_of.get, [link.path for link in links])).items():
            if date is not None:
                by_day.setdefault(date, {})[at] = count
    first = len(index)
    nodes = []
    for offset, (date, counts) in enumerate(sorted(by_day.items())):
        nodes.append(GraphNode(day_page[date], "day", sum(counts.values())))
        for entity, count in counts.items():
            edges[(entity, first + offset)] = count
    return nodes


class Neighbourhoods:
    """Each entity's neighbourhood: the entity (node 0), its ``NEIGHBOURS`` closest co-mentioned entities and every
    edge among them. Made once per entity, from the co-mention counts by pair, gathered once for all entities."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self.counts = {(key, other): count for key, related in library.related.items() for other, count in related}
        self.made: dict[str, Graph] = {}

    def of(self, key: str) -> Graph:
        graph = self.made.get(key)
        if graph is None:
            graph = self.made[key] = self._make(key)
        return graph

    def _make(self, key: str) -> Graph:
        library = self.library
        related = library.related.get(key, [])[:NEIGHBOURS]
        members = [key] + [other for other, _ in related if other in library.entities]
        nodes = [GraphNode(key, "entity", len(library.backlinks.get(key, [])))]
        nodes += [_neighbour(k, len(library.backlinks.get(k, []))) for k in members[1:]]
        edges = []
        for i, k in enumerate(members):
            for j in range(i + 1, len(members)):
                count = self.counts.get((k, members[j]))
                if count is not None:
                    edges.append((i, j, count))
        return Graph(nodes, sorted(edges))


def _neighbour(key: str, mentions: int) -> GraphNode:
    """A neighbour on an entity's page, its mentions to two significant digits (1,433 -> 1,400): a mention more of a
    much-named entity then leaves the pages of the hundreds of entities it is beside as they were (each fact about it
    made them all again). Drawn the same: a node stops growing at 67 mentions; only its tooltip says "~1400"."""
    shown = shown_mentions(mentions)
    return GraphNode(key, "entity", shown, about=shown != mentions)


def shown_mentions(mentions: int) -> int:
    """A neighbour's mentions as its node shows them: to two significant digits."""
    return int(float(f"{mentions:.2g}"))
