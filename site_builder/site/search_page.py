"""The search page: filter choices known at build time; Pagefind finds the results in the browser."""

from __future__ import annotations

from site_builder.core.model import KIND_NAMES
from site_builder.site.builder import PageBuilder
from site_builder.site.page_views import SearchPage
from site_builder.site.search_fields import PAGE_KINDS


def search_page(builder: PageBuilder) -> SearchPage:
    library = builder.library
    present = {n.kind for n in library.notes} | ({"entity"} if library.entities else set())
    return SearchPage(
        chrome=builder.chrome("search.html", kind="search", title="Search", section="search", listed=False),
        kinds=[KIND_NAMES[k] for k in "WBOS" if any(f.kind == k for f in library.facts)],
        entities=sorted((e.name for e in library.entities.values()), key=str.casefold),
        years=sorted({str(n.date.year) for n in builder.days if n.date}, reverse=True),
        page_kinds=[label for kind, label in PAGE_KINDS.items() if kind in present],
    )
