"""The co-mention graph: entities as nodes sized by their mentions, an edge between two entities named on the same
line (weighted by how often), and the days that mention each entity.

Computed from the ``Library`` once per build; the site draws it on the graph page and, as an entity's neighbourhood,
on each entity page.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass
from operator import attrgetter

from site_builder.core.library import Library

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
    mentions an entity, linked to the entities it mentions (weight: how many times). The edges come out in order,
    entity by entity (its co-mentions, then its days in date order): a ten-year workspace has 200,000 of them."""
    keys = list(library.entities)
    index = {key: i for i, key in enumerate(keys)}
    nodes = [GraphNode(key, "entity", len(library.backlinks.get(key, []))) for key in keys]
    pairs: dict[tuple[int, int], int] = {}
    for key, related in library.related.items():
        for other, count in related[:STRONGEST_EDGES]:
            if key in index and other in index:
                pairs[(index[key], index[other]) if index[key] < index[other] else (index[other], index[key])] = count
    own: list[list[tuple[int, int, int]]] = [[] for _ in keys]
    for (a, b), count in pairs.items():
        own[a].append((a, b, count))
    dated: list[list[tuple[int, int, int]]] = [[] for _ in keys]
    if days:
        day_nodes, dated = _day_nodes(library, keys)
        nodes += day_nodes
    edges = []
    for a, found in enumerate(own):
        edges += sorted(found)
        edges += dated[a]
    return Graph(nodes, edges)


def _day_nodes(library: Library, keys: list[str]) -> tuple[list[GraphNode], list[list[tuple[int, int, int]]]]:
    """Day nodes (numbered after the entities ``keys``), and each entity's edges to the days that mention it, in
    date order."""
    day_page = {date: notes[0].path for date, notes in library.by_day.items()}
    date_of = {note.path: note.date for note in library.notes if note.date is not None}
    path = attrgetter("path")
    counts: list[Counter[dt.date]] = []
    mentions: Counter[dt.date] = Counter()
    for key in keys:
        found = Counter(filter(None, map(date_of.get, map(path, library.backlinks.get(key, ())))))  # dated lines
        counts.append(found)
        mentions.update(found)
    dates = sorted(mentions)
    number = {date: n for n, date in enumerate(dates, len(keys))}
    nodes = [GraphNode(day_page[date], "day", mentions[date]) for date in dates]
    return nodes, [[(a, number[d], count) for d, count in sorted(found.items())] for a, found in enumerate(counts)]


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
