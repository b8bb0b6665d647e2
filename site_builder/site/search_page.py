"""The search page: filter choices known at build time; Pagefind finds the results in the browser."""

from __future__ import annotations

from operator import attrgetter

from site_builder.core.model import KIND_NAMES
from site_builder.site.builder import PageBuilder
from site_builder.site.page_views import SearchPage
from site_builder.site.search_fields import PAGE_KINDS
from site_builder.site.views import LinkView


def search_page(builder: PageBuilder) -> SearchPage:
    library = builder.library
    present = set(map(attrgetter("kind"), library.notes)) | ({"entity"} if library.entities else set())
    stated = set(map(attrgetter("kind"), library.facts))  # once: a kind no fact has was all facts looked through
    return SearchPage(
        chrome=builder.chrome("search.html", kind="search", title="Search", section="search", listed=False),
        kinds=[KIND_NAMES[k] for k in "WBOS" if k in stated],
        entities=sorted((e.name for e in library.entities.values()), key=str.casefold),
        years=sorted({str(n.date.year) for n in builder.days if n.date}, reverse=True),
        page_kinds=[label for kind, label in PAGE_KINDS.items() if kind in present],
        tags=[LinkView(f"#{use.name}", use.key) for use in builder.tags.values()],
    )
