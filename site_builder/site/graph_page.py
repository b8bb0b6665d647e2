"""The graph page (every entity and the days that mention them) and the graph on each entity page."""

from __future__ import annotations

import json

from site_builder.core.model import Entity
from site_builder.core.names import href, page_url
from site_builder.library.graph import STRONGEST_EDGES, Graph, co_mention_graph
from site_builder.site.builder import PageBuilder
from site_builder.site.page_views import GraphPage
from site_builder.site.views import GraphView

URL = "graph.html"


def graph_page_inputs(builder: PageBuilder) -> object:
    """What the graph page is made from, besides what every page shares: each entity's type, the notes of the
    lines that mention it and its strongest co-mentions, and the page of each day."""
    library = builder.library
    return (
        [(e.key, e.type) for e in library.entities.values()],
        [(key, [link.path for link in links]) for key, links in library.backlinks.items()],
        [(key, related[:STRONGEST_EDGES]) for key, related in library.related.items()],
        [(date, [note.path for note in notes]) for date, notes in builder.by_day.items()],
    )


def graph_page(builder: PageBuilder) -> GraphPage:
    graph = co_mention_graph(builder.library)
    entities = sum(1 for n in graph.nodes if n.kind == "entity")
    days = len(graph.nodes) - entities
    edges = sum(1 for a, b, _ in graph.edges if b < entities)
    return GraphPage(
        chrome=builder.chrome(URL, kind="graph", title="Graph", section="graph"),
        graph=graph_view(builder, graph, URL, -1, f"{entities} entities linked by {edges} co-mentions", full=True),
        entities=entities,
        days=days,
        edges=edges,
    )


def entity_graph(builder: PageBuilder, entity: Entity) -> GraphView | None:
    """The entity and its closest co-mentioned entities; None when it is mentioned with no other."""
    graph = builder.neighbourhoods.of(entity.key)
    if len(graph.nodes) < 2:
        return None
    label = f"{entity.name} and {len(graph.nodes) - 1} related {'entity' if len(graph.nodes) == 2 else 'entities'}"
    return graph_view(builder, graph, entity.url, 0, label, full=False)


def graph_view(builder: PageBuilder, graph: Graph, url: str, focus: int, label: str, *, full: bool) -> GraphView:
    library = builder.library
    nodes = []
    for node in graph.nodes:
        if node.kind == "day":
            note = library.note(node.key)
            assert note is not None and note.date is not None
            name, target, group = note.date.isoformat(), page_url(note.path), "day"
        else:
            entity = library.entities[node.key]
            name, target = entity.name, entity.url
            group = "missing" if entity.placeholder else (entity.type or "entity")
        nodes.append({"name": name, "href": href(url, target), "mentions": node.mentions, "group": group})
        if node.about:
            nodes[-1]["about"] = True
    data = {"nodes": nodes, "edges": graph.edges, "focus": focus}  # JSON writes a tuple as a list
    return GraphView(script_json(data), label, full)


def script_json(data: object) -> str:
    """JSON that cannot end its ``<script>`` element or open a comment inside it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
