"""Render the site: every page's view through its Jinja2 template (the jobs rendered by ``render_jobs``), plus the
feed, the sitemap and the theme's static files."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from site_builder.core.config import Config
from site_builder.core.library import Library
from site_builder.core.model import Link
from site_builder.core.progress import Tick
from site_builder.io.styling import Styling
from site_builder.library.hygiene import Section
from site_builder.library.summaries import first_line_markdown
from site_builder.parse.link_syntax import plain_sentence
from site_builder.site.backlinks import shown_sentence
from site_builder.site.builder import PageBuilder
from site_builder.site.environment import (
    make_environment,
    render_pages,
    styling_files,
    template_errors,
    theme_files,
    use_templates,
)
from site_builder.site.feeds import sitemap_page
from site_builder.site.fragments import Fragments
from site_builder.site.markdown import MarkdownRenderer
from site_builder.site.page_output import (
    PageOutput,
)
from site_builder.site.page_reads import PageReads
from site_builder.site.pages import PageJob, hygiene_jobs, page_jobs
from site_builder.site.render_jobs import render_jobs


@dataclass(frozen=True)
class RenderedSite:
    """The site's files by path that are not yet written (every page too, when no ``PageOutput`` was given), how
    many pages there are, the HTML and page marks the next build may reuse, the digest of each searchable page's
    search record (by its path), the site's language and the pages taken as the last build left them."""

    files: dict[str, bytes]
    pages: int
    fragments: Fragments
    records: dict[str, str]
    language: str
    unchanged: frozenset[str] = frozenset()
    reads: PageReads | None = None  # what each page's inputs read, for the next build (with an output)
    opinion_digests: list[str | None] | None = None  # ``PageBuilder.opinion_digests``


# The rendered lines kept for the next build are pruned to those still shown once they outnumber this many times
# the lines the workspace can show (working that out costs 0.4 s on the large race corpus: not on every build).
STALE_LINES = 1.25


def render_site(
    library: Library,
    config: Config,
    hygiene: Callable[[], list[Section]],
    layouts: tuple[str, ...],
    reuse: Fragments | None = None,
    tick: Tick | None = None,
    output: PageOutput | None = None,
    opinion_digests: list[str] | None = None,
    styling: Styling | None = None,
) -> RenderedSite:
    """The whole site: pages (over every core when it pays), feed, sitemap and theme files. With ``output`` each
    page is written there as soon as it is rendered (nothing held in memory), and a page whose view is the one the
    last build rendered (``reuse``) is kept from the last site, not rendered again; without, every page is in
    ``files``. ``reuse`` also gives the last build's fragments, used where links still resolve the same. The hygiene
    report (``hygiene``) is asked for once the searched pages are made: not on the way to Pagefind's start.
    ``opinion_digests``: the last build's, when the library holds the same saved opinions. ``styling``: the
    workspace's templates, which the pages are rendered with, and its stylesheet, which they link."""
    styling = styling or Styling()
    use_templates(styling.templates)
    builder = PageBuilder(library, config, MarkdownRenderer(), reuse, styling.digest)
    if opinion_digests is not None and len(opinion_digests) == len(library.opinions):
        builder.opinion_digests_by_id.update(zip(map(id, library.opinions), opinion_digests, strict=True))
    env = make_environment()

    def later() -> list[PageJob]:
        return hygiene_jobs(builder, hygiene())

    done = render_jobs(builder, page_jobs(builder, layouts), env, tick, output, later)
    builder.fragments.update(done.fragments)
    if builder.fragments.unread is None and len(builder.fragments.inline) > STALE_LINES * _lines_shown_at_most(library):
        shown = shown_lines(library)  # the HTML of lines no longer in the workspace is not kept for the next build
        builder.fragments.inline = {text: html for text, html in builder.fragments.inline.items() if text in shown}
    sitemap = sitemap_page(builder, done.listed)
    with template_errors():
        files = done.files | render_pages([sitemap] if sitemap else [], env) | theme_files() | styling_files(styling)
    pages = sum(url.endswith(".html") for url in done.fragments.pages)  # not the feed
    records = dict(sorted(done.records.items()))
    reads = None
    if output is not None and output.texts is not None:
        reads = PageReads(output.texts, builder.shared_inputs, dict(sorted(done.reads.items())))
    return RenderedSite(
        files, pages, builder.fragments, records, builder.language, frozenset(done.unchanged), reads,
        list(map(builder.opinion_digests_by_id.get, map(id, library.opinions))),
    )  # fmt: skip


def _lines_shown_at_most(library: Library) -> int:
    """At most how many lines pages show on their own (``shown_lines``), counted without reading one."""
    links = sum(map(len, library.backlinks.values())) + sum(map(len, library.note_backlinks.values()))
    return links + len(library.facts) + len(library.opinions) + len(library.notes)


def shown_lines(library: Library) -> set[str]:
    """The lines of Markdown pages show on their own (``PageBuilder.inline``), as the library has them now: linking
    sentences, facts, opinion statements and each note's first line. Any other (an entity's summary, a record)
    is rendered again by the next build."""
    links = [link for found in (library.backlinks, library.note_backlinks) for many in found.values() for link in many]
    shown = {link.sentence or _line(library, link) for link in links}
    shown.update([shown_sentence(row) for row in shown if row.startswith("|")])  # a table row shows as its cells
    shown.update(fact.content for fact in library.facts)
    shown.update(opinion.statement for opinion in library.opinions)
    shown.update(first_line_markdown(note) for note in library.notes)
    return shown


def _line(library: Library, link: Link) -> str:
    note = library.note(link.path)
    return plain_sentence(note.line_text(link.line)) if note else ""
