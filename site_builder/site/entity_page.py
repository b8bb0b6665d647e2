"""Entity pages (text, backlinks, facts, opinions, related entities) and the index of all entities."""

from __future__ import annotations

from collections import defaultdict

from site_builder.core.model import Cited, Entity
from site_builder.core.names import href, source_url
from site_builder.library.relink import ENTITY, MEMBER, NOTE_LINKS
from site_builder.library.subject import is_profile
from site_builder.library.summaries import description, first_line_markdown
from site_builder.site.backlinks import backlink_groups, backlink_inputs
from site_builder.site.builder import PageBuilder, counted
from site_builder.site.charts import months_chart
from site_builder.site.graph_page import entity_graph
from site_builder.site.item_views import fact_items, opinion_view
from site_builder.site.page_inputs import fact_inputs
from site_builder.site.page_views import EntityIndexPage, EntityPage
from site_builder.site.search_fields import search_filters, search_meta
from site_builder.site.views import ClaimView, LinkView

MANY_MENTIONS = 40  # lines naming an entity from which its page draws them by month (and folds the older ones)
RELATED_ENTITIES = 12
INDEX_URL = "bank/entities/index.html"
UNTYPED = ("other", "no page yet")


def entity_page(builder: PageBuilder, entity: Entity) -> EntityPage:
    url = entity.url
    library = builder.library
    facts = library.facts_by_entity.get(entity.key, [])
    dates = library.seen(entity.key)
    note = entity.note
    summary = note.reflected.summary if note else ""
    return EntityPage(
        chrome=builder.chrome(
            url,
            kind="entity",
            title=entity.name,
            section="entities",
            searchable=True,
            meta=search_meta("entity", None),
            filters=search_filters("entity", [f.kind for f in facts], [entity.name], None, note.tags if note else ()),
        ),
        name=entity.name,
        type=entity.type,
        aliases=list(entity.aliases),
        placeholder=note is None,
        in_prose=entity.prose,
        by=entity.by,
        home=_home(builder, entity, url),
        opening_html=_opening(builder, entity, url),
        mentions_chart=_mentions_chart(builder, entity, url),
        claims=_claims(builder, entity, url),
        html=builder.note_html(note, url) if note else "",
        source=note.path if note else "",
        first_seen=dates[0].isoformat() if dates else "",
        last_seen=dates[-1].isoformat() if dates else "",
        backlinks=backlink_groups(
            builder,
            [*library.backlinks.get(entity.key, []), *(library.note_backlinks.get(note.path, []) if note else [])],
            url,
        ),
        facts_html=fact_items(builder, reversed(facts), url),
        related=related_entities(builder, entity),
        opinions=[opinion_view(builder, o, url) for o in library.opinions_about(entity.key)],
        summary=summary,
        summary_html=builder.inline(summary, url) if summary else "",
        graph=entity_graph(builder, entity),
    )


def entity_page_inputs(builder: PageBuilder, entity: Entity) -> object:
    """What ``entity_page`` makes the entity's page from, besides what every page shares
    (``PageBuilder.shared_inputs``): the entity and its page's text, the lines linking to it, its facts, its
    opinions and its neighbours (their mentions and types)."""
    library = builder.library
    note = entity.note
    graph = builder.neighbourhoods.of(entity.key)
    builder.reads_linked(  # its own lines, facts, co-mentions and opinions; its graph's nodes (mentions, co-mentions)
        ENTITY + entity.key, *(MEMBER + node.key for node in graph.nodes), *([NOTE_LINKS + note.path] if note else [])
    )
    return (
        entity.key,
        entity.type,
        entity.aliases,
        entity.prose,
        entity.home,
        builder.text_digest(home) if (home := builder.library.note(entity.home) if entity.home else None) else None,
        (note.path, builder.text_digest(note)) if note else None,
        backlink_inputs(
            builder,
            [*library.backlinks.get(entity.key, []), *(library.note_backlinks.get(note.path, []) if note else [])],
        ),
        [fact_inputs(f) for f in library.facts_by_entity.get(entity.key, [])],
        library.related.get(entity.key, [])[:RELATED_ENTITIES],
        [(node, library.entities[node.key].type) for node in graph.nodes],
        graph.edges,
        [builder.opinion_digest(o) for o in library.opinions_about(entity.key)],
    )


def related_entities(builder: PageBuilder, entity: Entity) -> list[LinkView]:
    """The entities most often mentioned alongside ``entity``, with how often."""
    entities = builder.library.entities
    return [
        LinkView(entities[k].name, href(entity.url, entities[k].url), f"{n}×")
        for k, n in builder.library.related.get(entity.key, [])[:RELATED_ENTITIES]
    ]


def entity_index_inputs(builder: PageBuilder) -> object:
    """What the entity index is made from, besides what every page shares: each entity's type and mentions."""
    backlinks = builder.library.backlinks
    return [(e.key, e.type, len(backlinks.get(e.key, []))) for e in builder.library.entities.values()]


def entity_index_page(builder: PageBuilder) -> EntityIndexPage:
    url = INDEX_URL
    groups: dict[str, list[LinkView]] = defaultdict(list)
    for entity in builder.library.entities.values():
        mentions = len(builder.library.backlinks.get(entity.key, []))
        label = entity.type or ("no page yet" if entity.placeholder else "other")
        css = "missing" if entity.placeholder else ""
        groups[label].append(LinkView(entity.name, href(url, entity.url), counted(mentions, "mention"), css))
    ordered = sorted(groups.items(), key=lambda kv: (kv[0] in UNTYPED, kv[0]))
    return EntityIndexPage(
        chrome=builder.chrome(url, kind="entities", title="Entities", section="entities"),
        groups=[(label, sorted(links, key=lambda link: link.text.casefold())) for label, links in ordered],
    )


def _home(builder: PageBuilder, entity: Entity, url: str) -> LinkView | None:
    """The link to the note about the entity that is no entity page (its profile), None without one."""
    note = builder.library.note(entity.home) if entity.home else None
    return LinkView(note.path, href(url, note.url)) if note is not None else None


def _opening(builder: PageBuilder, entity: Entity, url: str) -> str:
    """What the note about the entity says first, as HTML: its description, or its first line of prose (none for
    a profile: its first line is a name)."""
    note = builder.library.note(entity.home) if entity.home else None
    if note is None or is_profile(note):
        return ""
    return builder.inline(description(builder.library, note) or first_line_markdown(note), url)


def _mentions_chart(builder: PageBuilder, entity: Entity, url: str) -> str:
    """The entity's dated mentions by month, when they are many (``MANY_MENTIONS`` lines or more)."""
    links = builder.library.backlinks.get(entity.key, [])
    if len(links) < MANY_MENTIONS:
        return ""
    months: dict[str, tuple[int, str]] = {}
    for link in sorted(links, key=lambda link: (link.path, link.line)):
        note = builder.library.note(link.path)
        if note is None or note.date is None:
            continue
        month = note.date.isoformat()[:7]
        count, first = months.get(month, (0, href(url, source_url(f"{link.path}#L{link.line}"))))
        months[month] = (count + 1, first)
    bars = [(month, count, first) for month, (count, first) in sorted(months.items())]
    return months_chart(bars, f"Lines naming {entity.name}, by month") if len(bars) > 1 else ""


DOUBTED = frozenset({"contested", "superseded", "disputed", "refuted", "retracted"})


def _claims(builder: PageBuilder, entity: Entity, url: str) -> list[ClaimView]:
    """What the entity's home page claims, each with its status, confidence and cited lines."""
    note = builder.library.note(entity.home) if entity.home else None
    if note is None:
        return []
    return [
        ClaimView(
            builder.inline(claim.text, url),
            claim.status,
            f"{claim.confidence:.2f}" if claim.confidence is not None else "",
            [_cited(cited, url) for cited in claim.evidence],
            claim.status in DOUBTED,
        )
        for claim in note.claims
    ]


def _cited(cited: Cited, url: str) -> LinkView:
    """A claim's evidence: a link to its lines (``path:12-14``), to the page of its file."""
    lines = f"#L{cited.first}" if cited.first else ""
    text = cited.path + (f":{cited.first}" + (f"-{cited.last}" if cited.last != cited.first else "") if lines else "")
    return LinkView(text, href(url, source_url(cited.path + lines)), cited.note)
