"""Pages of notes shown as their Markdown: daily logs, core memory, SOUL.md and bank pages."""

from __future__ import annotations

from site_builder.core.model import KIND_NAMES, Entity, Fact, Note, fact_order
from site_builder.core.names import href, is_folder_page
from site_builder.library.relink import CITING, NOTE_LINKS
from site_builder.library.summaries import description
from site_builder.site.backlinks import backlink_groups, backlink_inputs, citing_groups
from site_builder.site.builder import BANK_KINDS, BANK_SECTIONS, PageBuilder, counted
from site_builder.site.facts_page import fact_groups
from site_builder.site.folder_page import crumbs, folder_listing
from site_builder.site.page_inputs import fact_inputs
from site_builder.site.page_views import NotePage
from site_builder.site.records_page import RECORD_KINDS, records_html
from site_builder.site.search_fields import PAGE_KINDS, search_filters, search_meta
from site_builder.site.tags_page import tag_chips
from site_builder.site.views import LinkView

KIND_FACTS_SHOWN = 300  # on World and Experience; a heavy workspace's older ones are on the facts pages

SECTIONS = {
    "core": "home",
    "soul": "home",
    "standing": "home",
    "daily": "days",
    "session": "days",
    "entity": "entities",
}


def note_page(builder: PageBuilder, note: Note) -> NotePage:
    url = note.url
    entities = mentioned_entities(builder, note)
    kinds = sorted({f.kind for f in note.facts})
    kind = BANK_KINDS.get(note.path, "")
    shown, older = kind_facts(builder, note, kind) if kind else ([], 0)
    is_day = note.date is not None and builder.by_day[note.date][0] is note
    folder = note.path.rpartition("/")[0]
    own_folder = is_folder_page(note.path)  # its folder's page: the listing follows, the way up starts above
    prev, next_, crumbs_ = (
        day_links(builder, note)
        if is_day
        else (None, None, crumbs(folder.rpartition("/")[0] if own_folder else folder, url))
    )
    folders, files = folder_listing(builder, folder, url) if own_folder else ([], [])
    return NotePage(
        chrome=builder.chrome(
            url,
            kind="note",
            title=note.title,
            section=BANK_SECTIONS.get(note.path) or SECTIONS.get(note.kind, ""),
            searchable=True,
            meta=search_meta(note.kind, note.date),
            filters=search_filters(note.kind, kinds, [e.text for e in entities], note.date, note.tags),
        ),
        html=records_html(builder, note) if note.kind in RECORD_KINDS else builder.note_html(note),
        heading="" if any(h.level == 1 for h in note.headings) else note.title,
        description=description(builder.library, note),
        source=note.path,
        date=note.date.isoformat() if note.date else "",
        prev=prev,
        next=next_,
        crumbs=crumbs_,
        tags=tag_chips(note, url),
        same_day=same_day(builder, note),
        entities=entities,
        about=[LinkView(e.name, href(url, e.url)) for e in builder.homes.get(note.path, [])],
        kind_name=KIND_NAMES[kind] if kind else "",
        kind_facts=fact_groups(builder, shown, url),
        kind_facts_older=counted(older, KIND_NAMES[kind] + " fact") if older else "",
        folders=folders,
        files=files,
        backlinks=[
            *backlink_groups(builder, builder.library.note_backlinks.get(note.path, []), url),
            *citing_groups(builder, note, url),
        ],
    )


def note_page_inputs(builder: PageBuilder, note: Note) -> object:
    """What ``note_page`` makes the note's page from, besides what every page shares (``PageBuilder.shared_inputs``):
    the note itself, its place among the days, the lines linking to it, the opinions citing it, on World and
    Experience the facts of their kind, and the entities it is about (their pages' names and places). None for the pages that list more of the workspace (records, skills, a
    folder's ``index.md``)."""
    if note.kind in RECORD_KINDS or note.kind == "skill" or is_folder_page(note.path):
        return None  # a folder's page lists the folder too (made every build, as folder pages are)
    kind = BANK_KINDS.get(note.path, "")
    is_day = note.date is not None and builder.by_day[note.date][0] is note
    if not kind:  # the facts of World and Experience are those of every note
        builder.reads_linked(NOTE_LINKS + note.path, CITING + note.path)
    return (
        note.path,
        note.kind,
        builder.text_digest(note),
        [(link.text, link.href) if link else None for link in day_links(builder, note)[:2]] if is_day else None,
        [(o.title, o.url, o.kind, o.path) for o in builder.by_day[note.date] if o is not note] if note.date else [],
        backlink_inputs(builder, builder.library.note_backlinks.get(note.path, [])),
        [(o.id, o.statement, line, page) for o, line, page in builder.citing(note)],
        _kind_facts_inputs(builder, note, kind) if kind else None,
        [(e.name, e.url) for e in builder.homes.get(note.path, [])],
    )


def _kind_facts_inputs(builder: PageBuilder, note: Note, kind: str) -> object:
    shown, older = kind_facts(builder, note, kind)
    return [fact_inputs(f) for f in shown], older


def kind_facts(builder: PageBuilder, note: Note, kind: str) -> tuple[list[Fact], int]:
    """On World and Experience (``kind`` W or B), the facts of that kind stated elsewhere in the workspace: the
    newest ``KIND_FACTS_SHOWN``, and how many older ones the facts pages hold besides."""
    facts = [f for f in builder.library.facts if f.kind == kind and f.path != note.path]
    if len(facts) <= KIND_FACTS_SHOWN:
        return facts, 0
    return sorted(facts, key=fact_order)[-KIND_FACTS_SHOWN:], len(facts) - KIND_FACTS_SHOWN


def day_links(builder: PageBuilder, day: Note) -> tuple[LinkView | None, LinkView | None, list[LinkView]]:
    """A day page's previous and next days, and the way up: Days, then its month."""
    assert day.date is not None
    url, days = day.url, builder.days
    index = builder.day_position[day.path]
    prev = LinkView(days[index - 1].title, href(url, days[index - 1].url)) if index > 0 else None
    next_ = LinkView(days[index + 1].title, href(url, days[index + 1].url)) if index + 1 < len(days) else None
    up = [
        LinkView("Days", href(url, "memory/index.html")),
        LinkView(day.date.strftime("%B %Y"), href(url, f"memory/{day.date:%Y-%m}.html")),
    ]
    return prev, next_, up


def same_day(builder: PageBuilder, note: Note) -> list[LinkView]:
    """On a day's page, the other files of that day; on any of those, the day's page first, then the others."""
    if note.date is None:
        return []
    return [
        LinkView(other.title, href(note.url, other.url), f"{PAGE_KINDS[other.kind]} · {other.path}")
        for other in builder.by_day[note.date]
        if other is not note
    ]


def mentioned_entities(builder: PageBuilder, note: Note) -> list[LinkView]:
    """The entities a note links to, by name; a wikilink to a note that is no entity page does not count."""
    resolver = builder.library.resolver
    seen: dict[str, Entity] = {}
    for link in note.links:
        entity = resolver.entity(link.target)
        if (
            entity
            and entity.key not in seen
            and not (link.syntax == "wikilink" and resolver.note_path(link.target, note.path) and not entity.note)
        ):
            seen[entity.key] = entity
    return [
        LinkView(e.name, href(note.url, e.url), css="missing" if e.placeholder else "")
        for e in sorted(seen.values(), key=lambda e: e.name.casefold())
    ]
