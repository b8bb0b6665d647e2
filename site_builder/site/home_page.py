"""The home page: core memory, recent days, the most active entities and opinions at a glance."""

from __future__ import annotations

from site_builder.site.builder import PAGE_KINDS, PageBuilder
from site_builder.site.folder_page import folder_listing
from site_builder.site.links import SiteLinker, href
from site_builder.site.views import HomePage, LinkView

ACTIVE_ENTITIES = 12
STANDING_KINDS = ("core", "soul", "standing", "dream")
GLANCE_OPINIONS = 6


def home_page(builder: PageBuilder) -> HomePage:
    url = "index.html"
    library = builder.library
    core = library.core
    return HomePage(
        chrome=builder.chrome(url, kind="home", title=builder.config.title, section="home"),
        core_html=builder.md.render_note(core, SiteLinker(library, url, core.path)) if core else "",
        core_href=href(url, core.url) if core else "",
        core_source=core.path if core else "",
        standing=[
            LinkView(n.title, href(url, n.url), f"{n.path} · {PAGE_KINDS[n.kind]}")
            for n in sorted(
                (n for n in library.notes if n.kind in STANDING_KINDS and "/" not in n.path),
                key=lambda n: (STANDING_KINDS.index(n.kind), n.path),
            )
        ],
        sections=sections(builder, url),
        recent=[builder.day_summary(n, url) for n in reversed(builder.days[-builder.config.recent_days :])],
        active_entities=active_entities(builder, url),
        opinions=[builder.opinion_view(o, url) for o in library.opinions[:GLANCE_OPINIONS]],
        stats=[
            LinkView(f"{len(builder.days)} days", "memory/index.html"),
            LinkView(f"{len(library.facts)} facts", "memory/index.html"),
            LinkView(f"{len(library.entities)} entities", "bank/entities/index.html"),
            LinkView(f"{len(library.opinions)} opinions", "bank/opinions.html"),
        ],
    )


def sections(builder: PageBuilder, url: str) -> list[LinkView]:
    """The top-level folders (each with its index page) and the top-level pages no other list shows."""
    root = builder.folders.get("")
    if root is None:
        return []
    folders, _ = folder_listing(builder, "", url)
    pages = [LinkView(n.title, href(url, n.url), n.path) for n in root.notes if n.kind in ("page", "bank", "daily")]
    return folders + sorted(pages, key=lambda link: link.text.casefold())


def active_entities(builder: PageBuilder, url: str) -> list[LinkView]:
    """The most mentioned entities, most mentions first."""
    library = builder.library
    counts = sorted(
        ((len(library.backlinks.get(k, [])), e) for k, e in library.entities.items()),
        key=lambda item: (-item[0], item[1].name.casefold()),
    )
    return [
        LinkView(e.name, href(url, e.url), f"{n} mentions", "missing" if e.placeholder else "")
        for n, e in counts[:ACTIVE_ENTITIES]
        if n
    ]
