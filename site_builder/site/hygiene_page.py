"""The hygiene report page: the findings of ``memwiki check``, linked to where they are."""

from __future__ import annotations

from site_builder.library.hygiene import Finding, Section
from site_builder.site.builder import PageBuilder
from site_builder.site.links import href, source_url
from site_builder.site.page_views import HygienePage
from site_builder.site.views import HygieneItem, HygieneSection

URL = "hygiene.html"


def hygiene_page_inputs(sections: list[Section]) -> object:
    """What the hygiene page is made from, besides what every page shares: its findings."""
    return sections


def hygiene_page(builder: PageBuilder, sections: list[Section]) -> HygienePage:
    views = [
        HygieneSection(section.title, section.explanation, [hygiene_item(builder, f) for f in section.findings])
        for section in sections
    ]
    return HygienePage(
        chrome=builder.chrome(URL, kind="hygiene", title="Hygiene report", section="hygiene"),
        sections=[s for s in views if s.items],
        clean=[s for s in views if not s.items],
        total=sum(len(s.items) for s in views),
    )


def hygiene_item(builder: PageBuilder, finding: Finding) -> HygieneItem:
    """A finding, linked to its page (or its line) when the site has that page."""
    on_page = finding.path.endswith(".html")
    where = f"{finding.path}:{finding.line}" if finding.line else finding.path
    line = f"{finding.path}#L{finding.line}" if finding.line else finding.path
    target = finding.path if on_page else source_url(line)
    known = on_page or target.split("#")[0].removesuffix(".html") + ".md" in builder.library.note_by_path
    return HygieneItem(where, href(URL, target) if known else "", finding.message)
