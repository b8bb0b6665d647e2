"""Render the site: every page's view through its Jinja2 template, plus the theme's static files."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import jinja2

from site_builder.core.config import Config
from site_builder.core.digest import value_digest
from site_builder.core.model import Library, Link
from site_builder.core.processes import Share, Take, handing_out, in_shares, process_count
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
from site_builder.site.fragments import Fragments, PageMark
from site_builder.site.markdown import MarkdownRenderer
from site_builder.site.page_output import (
    PageOutput,
    Rendered,
    add_page,
    announce_records,
    kept_page,
    put_page,
)
from site_builder.site.page_reads import PageReads
from site_builder.site.pagefind import search_record
from site_builder.site.pages import PageJob, hygiene_jobs, page_jobs


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


# Below this much work (``work_size``: jobs, and the text behind them) a second process costs more than it saves.
PARALLEL_FROM = 200
# Characters of the notes behind the jobs that count as one more job: a note's page is mostly the rendering of its
# text, and a real workspace of 83 daily logs of up to 340 kB took 3 s to render in one process (1.9 s more for
# recall, after it), while its second core waited.
CHARS_PER_JOB = 5_000
# The HTML of notes and lines the last build left is read when this share of the pages or more is made; below it the
# few pages made render their notes and lines again: a plain edit of the large race corpus makes 50 pages of 12,000,
# and reading the cache's 115 MB of HTML took 0.2 s of it.
READ_HTML_FROM = 0.02
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


def render_jobs(
    builder: PageBuilder,
    jobs: list[PageJob],
    env: jinja2.Environment,
    tick: Tick | None = None,
    output: PageOutput | None = None,
    later: Callable[[], list[PageJob]] = list,
) -> Rendered:
    """Every job's pages, and those of the jobs ``later`` gives (none searched: asked for once the searched pages
    are made, when they come first), rendered. With two processes a forked child takes jobs too (the next one no
    one has taken, ``in_shares``): it inherits the library as it is (nothing to send), writes its pages itself and sends back their
    marks and the fragments it made; the output is the same bytes as from one process. ``tick`` hears how many jobs
    have been taken."""
    run = _JobRun(builder, env, tick, output)
    ending = [job for job in jobs if job.ending]  # made here once every other page is (``PageJob.ending``)
    jobs = [job for job in jobs if not job.ending]
    made_first = run.made(jobs)
    first = bool(run.held) and output is not None and process_count(run.work(made_first), PARALLEL_FROM) == 1
    if not first:
        after = later()
        jobs, made_first = jobs + after, made_first + run.made(after)
    if len(made_first) >= READ_HTML_FROM * len(jobs):  # before a process forks with it
        builder.fragments.read()
    if first and output is not None:
        parts, total = run.searched_first(output, jobs, made_first, later)
    else:  # two processes: work for two
        total = len(jobs)
        parts = in_shares(run.share(jobs, 0, total), total, PARALLEL_FROM, run.work(made_first))
    for part in parts[1:]:  # what the child rendered, for the jobs that show it again
        builder.fragments.update(part.fragments)
    parts.append(run.share(ending, total, total + len(ending))(handing_out(range(len(ending))), True))
    if tick:  # the last jobs may have been the child's
        tick(total + len(ending), total + len(ending))
    return _joined(parts)


class _JobRun:
    """One ``render_jobs``: what its shares of jobs are rendered with, the last build's page marks and the pages
    whose inputs still read what they read then (``held``: kept without working their inputs out again)."""

    def __init__(
        self, builder: PageBuilder, env: jinja2.Environment, tick: Tick | None, output: PageOutput | None
    ) -> None:
        self.builder, self.env, self.tick, self.output = builder, env, tick, output
        self.last = builder.last_pages if output is not None else {}
        self.held: dict[str, frozenset[str]] = {}
        if output is not None and output.last_reads is not None and output.texts is not None:
            self.held = output.last_reads.still_held(output.texts, builder.shared_inputs)
        if output is not None and not self.held:  # every page's inputs are digested
            builder.prepare_inputs()
        self.chars = {note.url: note.chars for note in builder.library.notes}

    def made(self, jobs: list[PageJob]) -> list[PageJob]:
        """The jobs whose pages are made, not held."""
        return [job for job in jobs if job.url not in self.held]

    def work(self, some: list[PageJob]) -> int:
        """How much work ``some`` jobs are (``work_size``)."""
        return work_size(len(some), sum(self.chars.get(job.url, 0) for job in some))

    def share(self, some: list[PageJob], before: int, of: int) -> Share[Rendered]:
        """The work of ``some`` jobs, which come after ``before`` others of ``of`` in all (for ``tick``)."""
        builder, env, tick, output, last, held = self.builder, self.env, self.tick, self.output, self.last, self.held

        def work(take: Take, reporting: bool) -> Rendered:
            if reporting:  # this process: what it renders goes into the builder's fragments as it goes
                taken = (lambda done: tick(before + done, of)) if tick else None
                return _render_share(builder, some, env, take, taken, output, last, held)
            known_notes, known_inline = set(builder.fragments.notes), set(builder.fragments.inline)
            done = _render_share(builder, some, env, take, None, output, last, held)
            made = builder.fragments  # what the child rendered that the builder did not have before: sent back
            done.fragments.notes = {k: v for k, v in made.notes.items() if k not in known_notes}
            done.fragments.inline = {k: v for k, v in made.inline.items() if k not in known_inline}
            return done

        return work

    def searched_first(
        self, output: PageOutput, jobs: list[PageJob], made_first: list[PageJob], later: Callable[[], list[PageJob]]
    ) -> tuple[list[Rendered], int]:
        """The searchable pages to make come first: then every search record is known, and Pagefind starts while
        the other pages are made and the held ones kept (a link each). The shares rendered, and how many jobs."""
        kept_later = [job for job in jobs if job.url in self.held]
        searched, others = [job for job in made_first if job.searchable], [j for j in made_first if not j.searchable]
        parts = in_shares(self.share(searched, 0, len(jobs)), len(searched), PARALLEL_FROM, self.work(searched))
        announce_records(output, kept_later, self.last, parts[0], self.builder.language)
        after = later()
        others += self.made(after)
        kept_later += [job for job in after if job.url in self.held]
        rest = others + kept_later
        total = len(searched) + len(rest)
        parts += in_shares(self.share(rest, len(searched), total), len(rest), PARALLEL_FROM, self.work(others))
        return parts, total


def _joined(parts: list[Rendered]) -> Rendered:
    """The shares' pages, fragments and records, as one."""
    joined = Rendered()
    for part in parts:
        joined.files |= part.files
        joined.listed += part.listed
        joined.fragments.update(part.fragments)
        joined.records |= part.records
        joined.unchanged |= part.unchanged
        joined.reads |= part.reads
    return joined


def work_size(jobs: int, chars: int) -> int:
    """How much work ``jobs`` over notes of ``chars`` characters in all are, in jobs (``PARALLEL_FROM``)."""
    return jobs + chars // CHARS_PER_JOB


def _render_share(
    builder: PageBuilder,
    jobs: list[PageJob],
    env: jinja2.Environment,
    take: Take,
    taken: Callable[[int], None] | None,
    output: PageOutput | None,
    last: dict[str, PageMark],
    held: dict[str, frozenset[str]],
) -> Rendered:
    """The jobs ``take`` hands out. A page is kept from the last site when what it is made from is the same: its
    job's inputs when it says them (its view is then not made at all; ``held``: the pages whose inputs are the last
    build's, not worked out again), else its view. ``taken`` hears the number of each job done (from 1)."""
    done = Rendered()
    with template_errors():  # one of the workspace's templates that fails: at its file:line
        while (index := take()) is not None:
            job = jobs[index]
            key = ""
            if output is not None:
                key = _inputs_key(builder, job, last.get(job.url), held.get(job.url), done.reads)
            searched = job.searchable and output is not None and output.records is not None
            kept = kept_page(output, job.url, key, last.get(job.url), searched) if output and key else None
            if kept is not None:
                done.unchanged.add(job.url)
                add_page(done, job.url, kept, listed=True)
            for page in job.make() if kept is None else []:
                url = page.chrome.url
                assert not key or (
                    url == job.url and page.chrome.listed == job.listed and page.chrome.searchable == job.searchable
                )
                searched = page.chrome.searchable and output is not None and output.records is not None
                view = key or value_digest((builder.templates, page) if builder.templates else page)
                mark = kept_page(output, url, view, last.get(url), searched) if output is not None else None
                if mark is not None:
                    done.unchanged.add(url)
                else:
                    data = env.get_template(page.template).render(page=page).encode("utf-8")
                    if output is None:
                        done.files[url] = data
                        mark = (view, None, None)
                    else:
                        record = search_record(data.decode("utf-8")) if searched else None
                        mark = put_page(output, url, data, view, record)
                add_page(done, url, mark, listed=page.chrome.listed)
            if taken:
                taken(index + 1)
    return done


INPUTS = "in:"  # starts the key of a page made from the inputs its job says


def _inputs_key(
    builder: PageBuilder,
    job: PageJob,
    mark: PageMark | None,
    held: frozenset[str] | None,
    reads: dict[str, frozenset[str]],
) -> str:
    """The digest of what the job's page is made from ("" when the job does not say), noting what its inputs read in
    ``reads``: the last build's (``mark``) when they still hold (``held``: what they read), else worked out."""
    if held is not None and mark is not None and mark[0].startswith(INPUTS):
        reads[job.url] = held
        return mark[0]
    said = job_inputs(builder, job)
    if said is None or said[0] is None:
        return ""
    reads[job.url] = said[1]
    return INPUTS + value_digest((builder.shared_inputs, said[0]))


def job_inputs(builder: PageBuilder, job: PageJob) -> tuple[object, frozenset[str]] | None:
    """What the job's page is made from and the notes whose texts that read; None when the job does not say."""
    if job.inputs is None:
        return None
    builder.reads = set()
    try:
        inputs = job.inputs()
        return inputs, frozenset(builder.reads)
    finally:
        builder.reads = None
