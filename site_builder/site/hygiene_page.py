"""The hygiene report page: the findings of ``memwiki check``, linked to where they are.

A heavy workspace can have tens of thousands of findings of one sort (every opinion of ten years gone stale):
a section with more than ``OWN_PAGE_FROM`` shows its first ``SHOWN`` on the report and all of them on a page of its
own, so that the report stays small and a finding of another sort does not make the big list again.
"""

from __future__ import annotations

from site_builder.core.names import heading_slug, href, source_url
from site_builder.library.hygiene import Finding, Section
from site_builder.site.builder import PageBuilder
from site_builder.site.page_views import HygienePage, HygieneSectionPage
from site_builder.site.views import HygieneItem, HygieneSection

URL = "hygiene.html"
SHOWN = 12  # findings of a section shown before the rest (folded away, or on the section's page)
OWN_PAGE_FROM = 500  # findings: a section with more has a page of its own


def section_url(section: Section) -> str:
    """The page of a section with a page of its own, e.g. ``hygiene-opinions-to-review.html``."""
    return f"hygiene-{heading_slug(section.title)}.html"


def own_page(section: Section) -> bool:
    return len(section.findings) > OWN_PAGE_FROM


def hygiene_page_inputs(sections: list[Section]) -> object:
    """What the hygiene page is made from, besides what every page shares: its findings (of a section with a page of
    its own, those it shows and how many)."""
    return [
        (s.title, s.explanation, len(s.findings), s.findings[:SHOWN] if own_page(s) else s.findings) for s in sections
    ]


def hygiene_page(builder: PageBuilder, sections: list[Section]) -> HygienePage:
    views = [
        HygieneSection(
            section.title,
            section.explanation,
            [
                hygiene_item(builder, f, URL)
                for f in (section.findings[:SHOWN] if own_page(section) else section.findings)
            ],
            len(section.findings),
            section_url(section) if own_page(section) else "",
        )
        for section in sections
    ]
    return HygienePage(
        chrome=builder.chrome(URL, kind="hygiene", title="Hygiene report", section="hygiene"),
        sections=[s for s in views if s.count],
        clean=[s for s in views if not s.count],
        total=sum(v.count for v, s in zip(views, sections, strict=True) if s.to_fix),  # "Left out" is said, not to fix
        shown=SHOWN,
    )


def section_page_inputs(section: Section) -> object:
    """What a section's own page is made from, besides what every page shares: its findings."""
    return section.title, section.explanation, section.findings


def section_page(builder: PageBuilder, section: Section) -> HygieneSectionPage:
    """A section of the report with all its findings, on its own page."""
    url = section_url(section)
    return HygieneSectionPage(
        chrome=builder.chrome(url, kind="hygiene", title=f"Hygiene: {section.title}", section="hygiene"),
        section=HygieneSection(
            section.title,
            section.explanation,
            [hygiene_item(builder, f, url) for f in section.findings],
            len(section.findings),
            "",
        ),
        report=href(url, URL),
    )


def hygiene_item(builder: PageBuilder, finding: Finding, url: str) -> HygieneItem:
    """A finding on the page at ``url``, linked to its page (or its line) when the site has that page."""
    on_page = finding.path.endswith(".html")
    where = f"{finding.path}:{finding.line}" if finding.line else finding.path
    line = f"{finding.path}#L{finding.line}" if finding.line else finding.path
    target = finding.path if on_page else source_url(line)
    known = on_page or target.split("#")[0].removesuffix(".html") + ".md" in builder.library.note_by_path
    return HygieneItem(where, href(url, target) if known else "", finding.message)
