"""The opinions pages: the cards of every opinion, highest confidence first, about two hundred a page (cut where
``library.opinion_pages`` says), then (on the first) bank/opinions.md itself.

A heavy workspace holds thousands of opinions, each card with its chart and evidence: on one page they made
hundreds of megabytes that no browser opens. The first page keeps the address ``bank/opinions.html`` (and the
file's line anchors, which citations of bank/opinions.md lead to); the others follow it in the same folder.
"""

from __future__ import annotations

from site_builder.core.model import Opinion
from site_builder.core.names import href, opinions_page_url
from site_builder.library.link import OPINIONS_PATH
from site_builder.library.relink import OPINIONS_PAGE
from site_builder.site.builder import PageBuilder, counted
from site_builder.site.item_views import opinion_view
from site_builder.site.page_views import OpinionsPage
from site_builder.site.views import LinkView


def page_count(builder: PageBuilder) -> int:
    return len(builder.opinion_pages)


def _bounds(builder: PageBuilder, number: int) -> tuple[int, int]:
    """The places of the first card of the ``number``-th page and of the card after its last."""
    starts = builder.opinion_pages
    return starts[number - 1], starts[number] if number < len(starts) else len(builder.library.opinions)


def _cards(builder: PageBuilder, number: int) -> list[Opinion]:
    return builder.library.opinions[slice(*_bounds(builder, number))]


def opinions_page_inputs(builder: PageBuilder, number: int) -> object:
    """What a page of opinions is made from, besides what every page shares: its opinions, how many pages there are
    (and what the others hold: the links to them say it) and, on the first, how many opinions and
    bank/opinions.md."""
    note = builder.library.note(OPINIONS_PATH) if number == 1 else None
    pages = page_count(builder)
    builder.reads_linked(OPINIONS_PAGE + str(number))
    return (
        number,
        [builder.opinion_digest(o) for o in _cards(builder, number)],
        [_range(builder, n) for n in range(1, pages + 1)] if pages > 1 else None,
        len(builder.library.opinions) if number == 1 else None,
        builder.text_digest(note) if note else None,
    )


def opinions_page(builder: PageBuilder, number: int) -> OpinionsPage:
    url = opinions_page_url(number)
    note = builder.library.note(OPINIONS_PATH) if number == 1 else None
    pages = page_count(builder)
    title = "Opinions" if number == 1 else f"Opinions, page {number} of {pages}"
    cards = _cards(builder, number)
    return OpinionsPage(
        chrome=builder.chrome(url, kind="opinions", title=title, section="opinions", searchable=True),
        opinions=[opinion_view(builder, o, url) for o in cards],
        html=builder.note_html(note, url) if note else "",
        pages=[
            LinkView(str(n), href(url, opinions_page_url(n)), _range(builder, n), "current" if n == number else "")
            for n in range(1, pages + 1)
        ]
        if pages > 1
        else [],
        # on the first page, how many there are; on the others, how many it holds (one added elsewhere leaves them)
        count=counted(len(builder.library.opinions) if number == 1 else len(cards), "opinion"),
        first=number == 1,
    )


def _range(builder: PageBuilder, number: int) -> str:
    """What a page holds, said in its link's title: the confidence of its first and last card."""
    start, end = _bounds(builder, number)
    opinions = builder.library.opinions
    first, last = f"{opinions[start].confidence:.2f}", f"{opinions[end - 1].confidence:.2f}"
    return f"confidence {first}" if first == last else f"confidence {first} to {last}"
