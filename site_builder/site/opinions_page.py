"""The opinions page: every opinion card, then bank/opinions.md itself."""

from __future__ import annotations

from site_builder.library.link import OPINIONS_PATH
from site_builder.site.builder import PageBuilder
from site_builder.site.page_views import OpinionsPage


def opinions_page(builder: PageBuilder) -> OpinionsPage:
    url = "bank/opinions.html"
    note = builder.library.note(OPINIONS_PATH)
    return OpinionsPage(
        chrome=builder.chrome(url, kind="opinions", title="Opinions", section="opinions", searchable=True),
        opinions=[builder.opinion_view(o, url) for o in builder.library.opinions],
        html=builder.note_html(note, url) if note else "",
    )
