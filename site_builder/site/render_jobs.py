"""Render the jobs of pages (``site.pages``) over one process or two: each job's pages made, or kept from the last
site when what they are made from is the same (its job's inputs when it says them, else its view), written as they
are made (``PageOutput``), the searchable ones first when that lets Pagefind start early.
"""

from __future__ import annotations

from collections.abc import Callable

import jinja2

from site_builder.core.digest import value_digest
from site_builder.core.processes import Share, Take, handing_out, in_shares, process_count
from site_builder.core.progress import Tick
from site_builder.site.builder import PageBuilder
from site_builder.site.environment import template_errors
from site_builder.site.fragments import PageMark
from site_builder.site.page_output import (
    PageOutput,
    Rendered,
    add_page,
    announce_records,
    kept_page,
    put_page,
)
from site_builder.site.pagefind import search_record
from site_builder.site.pages import PageJob

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
    one has taken, ``in_shares``): it inherits the library as it is (nothing to send), writes its pages itself and
    sends back their marks and the fragments it made; the output is the same bytes as from one process. ``tick``
    hears how many jobs have been taken."""
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
