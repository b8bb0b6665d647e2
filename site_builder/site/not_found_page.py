"""The 404 page, which hosts serve at any missing path."""

from __future__ import annotations

import dataclasses

from site_builder.site.builder import PageBuilder
from site_builder.site.page_views import NotFoundPage
from site_builder.site.views import NavLink


def not_found_page(builder: PageBuilder) -> NotFoundPage:
    chrome = builder.chrome("404.html", kind="404", title="Page not found", section="", listed=False)
    if builder.config.base_url:
        # Hosts serve 404.html at whatever path was missing: only absolute links work there.
        root = builder.config.base_url + "/"
        nav = [NavLink(text, root + target, False) for _, text, target in builder.nav]
        chrome = dataclasses.replace(chrome, root=root, nav=nav)
    return NotFoundPage(chrome=chrome)
