"""The opinions page: every opinion card, then bank/opinions.md itself."""

from __future__ import annotations

from site_builder.library.link import OPINIONS_PATH
from site_builder.site.builder import PageBuilder
from site_builder.site.page_views import OpinionsPage

URL = "bank/opinions.html"


def opinions_page_inputs(builder: PageBuilder) -> object:
    """What the opinions page is made from, besides what every page shares: the opinions and their page's text."""
    note = builder.library.note(OPINIONS_PATH)
    return [builder.opinion_digest(o) for o in builder.library.opinions], note.digest if note else None


def opinions_page(builder: PageBuilder) -> OpinionsPage:
    url = URL
    note = builder.library.note(OPINIONS_PATH)
    return OpinionsPage(
        chrome=builder.chrome(url, kind="opinions", title="Opinions", section="opinions", searchable=True),
        opinions=[builder.opinion_view(o, url) for o in builder.library.opinions],
        html=builder.note_html(note, url) if note else "",
    )
