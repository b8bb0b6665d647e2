"""Render the site: every page's view through its Jinja2 template, plus the theme's static files."""

from __future__ import annotations

import functools
import hashlib
import multiprocessing
import os
import pickle
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

import jinja2

from site_builder.core.config import Config
from site_builder.core.model import Library
from site_builder.core.progress import Tick
from site_builder.library.hygiene import Section
from site_builder.site.builder import Fragments, PageBuilder
from site_builder.site.feeds import feed_page, sitemap_page
from site_builder.site.markdown import MarkdownRenderer
from site_builder.site.pagefind import search_record
from site_builder.site.pages import PageJob, page_jobs
from site_builder.site.views import PageView

PACKAGE_DIR = Path(__file__).resolve().parents[1]  # site_builder/


def resource_dir(name: str) -> Path:
    """``templates`` or ``themes``: inside the installed wheel, or beside the source tree."""
    for candidate in (PACKAGE_DIR / name, PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"memwiki is missing its {name}/ folder; reinstall memwiki")


@dataclass(frozen=True)
class RenderedSite:
    """Every file of the site by its path, how many of them are pages, the HTML the next build may reuse, and
    the search record of each searchable page (by its path)."""

    files: dict[str, bytes]
    pages: int
    fragments: Fragments
    records: dict[str, str]
    unchanged: frozenset[str] = frozenset()  # the pages taken as the last build wrote them


@dataclass
class Rendered:
    """Pages rendered by one process: site path -> bytes, the paths of the listed ones (for the sitemap), the
    fragments it rendered and the searchable pages' search records."""

    files: dict[str, bytes] = field(default_factory=dict)
    listed: list[str] = field(default_factory=list)
    fragments: Fragments = field(default_factory=Fragments)
    records: dict[str, str] = field(default_factory=dict)
    unchanged: set[str] = field(default_factory=set)


# Below this many jobs a second process costs more than it saves.
PARALLEL_FROM = 200

LastBytes = Callable[[str], bytes | None]  # the bytes the last build wrote for a site path, if still there


def render_site(
    library: Library,
    config: Config,
    hygiene: list[Section],
    layouts: tuple[str, ...],
    reuse: Fragments | None = None,
    tick: Tick | None = None,
    last_bytes: LastBytes | None = None,
) -> RenderedSite:
    """The whole site in memory: pages (over every core when it pays), feed, sitemap and theme files. ``reuse``:
    the last build's fragments, used where links still resolve the same; with ``last_bytes`` a page whose view
    is the one the last build rendered is taken as it was written, not rendered again."""
    builder = PageBuilder(library, config, MarkdownRenderer(), reuse)
    env = make_environment()
    done = render_jobs(builder, page_jobs(builder, hygiene, layouts), env, tick, last_bytes)
    builder.fragments.update(done.fragments)
    feeds = [feed_page(builder), *filter(None, [sitemap_page(builder, done.listed)])]
    files = done.files | render_pages(feeds, env) | theme_files()
    records = dict(sorted(done.records.items()))
    return RenderedSite(files, len(done.files), builder.fragments, records, frozenset(done.unchanged))


def render_jobs(
    builder: PageBuilder,
    jobs: list[PageJob],
    env: jinja2.Environment,
    tick: Tick | None = None,
    last_bytes: LastBytes | None = None,
) -> Rendered:
    """Every job's pages, rendered. With two processes a forked child takes every second job: it inherits the
    library as it is (nothing to send), and the output is the same bytes as from one process. ``tick`` hears how
    many pages are done (counted in this process, times the number of processes)."""
    last = Reuse(builder.last_pages, last_bytes) if last_bytes else None
    if process_count(len(jobs)) == 1:
        return _render_share(jobs, env, 0, 1, tick, last)
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_render_child, args=(builder, jobs, env, send, last), daemon=True)
    child.start()
    send.close()
    mine = _render_share(jobs, env, 0, 2, (lambda done: tick(2 * done)) if tick else None, last)
    try:
        theirs: Rendered | None = receive.recv()
    except EOFError:  # the child died
        theirs = None
    child.join()
    if theirs is None:  # its share again, here: an error it met is raised with its real traceback
        theirs = _render_share(jobs, env, 1, 2, None, last)
    theirs.fragments.pages.update(mine.fragments.pages)
    return Rendered(
        mine.files | theirs.files,
        mine.listed + theirs.listed,
        theirs.fragments,
        mine.records | theirs.records,
        mine.unchanged | theirs.unchanged,
    )


def process_count(jobs: int) -> int:
    """How many processes render: 2 on a machine with two cores or more for a site worth it, else 1.
    Never from a process with other threads (``memwiki serve``): forking one is unsafe. ``MEMWIKI_PROCESSES=1``
    forces one."""
    if os.environ.get("MEMWIKI_PROCESSES") == "1" or jobs < PARALLEL_FROM or threading.active_count() > 1:
        return 1
    return 2 if len(os.sched_getaffinity(0)) > 1 else 1


def _render_child(
    builder: PageBuilder, jobs: list[PageJob], env: jinja2.Environment, send: Connection, last: Reuse | None
) -> None:
    try:
        known_notes, known_inline = set(builder.fragments.notes), set(builder.fragments.inline)
        done = _render_share(jobs, env, 1, 2, None, last)
        mine = builder.fragments  # what the parent does not have yet: the fragments this share rendered
        done.fragments.notes = {k: v for k, v in mine.notes.items() if k not in known_notes}
        done.fragments.inline = {k: v for k, v in mine.inline.items() if k not in known_inline}
        send.send(done)
    except BaseException:  # the parent renders this share itself and raises what it meets
        send.send(None)
    finally:
        send.close()


@dataclass(frozen=True)
class Reuse:
    """The last build's pages: each one's view and bytes digests, and where to read the bytes it wrote."""

    pages: dict[str, tuple[str, str]]
    last_bytes: LastBytes

    def same(self, url: str, view: str) -> bytes | None:
        """The bytes written for ``url`` last time, when its view was ``view`` and the file is still as written."""
        known = self.pages.get(url)
        if known is None or known[0] != view:
            return None
        data = self.last_bytes(url)
        return data if data is not None and _digest(data) == known[1] else None


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _render_share(
    jobs: list[PageJob],
    env: jinja2.Environment,
    share: int,
    shares: int,
    tick: Tick | None = None,
    last: Reuse | None = None,
) -> Rendered:
    done = Rendered()
    for job in jobs[share::shares]:
        for page in job():
            view = _digest(pickle.dumps(page, protocol=pickle.HIGHEST_PROTOCOL))
            data = last.same(page.chrome.url, view) if last else None
            if data is None:
                data = env.get_template(page.template).render(page=page).encode("utf-8")
            else:
                done.unchanged.add(page.chrome.url)
            done.files[page.chrome.url] = data
            done.fragments.pages[page.chrome.url] = (view, _digest(data))
            if page.chrome.searchable:
                record = search_record(data.decode("utf-8"))
                if record is not None:
                    done.records[page.chrome.url] = record
            if page.chrome.listed:
                done.listed.append(page.chrome.url)
        if tick:
            tick(len(done.files))
    return done


@functools.cache
def make_environment() -> jinja2.Environment:
    """The template environment, made once per process: templates compile once, not once per build."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(resource_dir("templates")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=False,
        keep_trailing_newline=True,
    )


def render_pages(pages: list[PageView], env: jinja2.Environment) -> dict[str, bytes]:
    """Site path -> bytes for every page: its view rendered by the template it names, as ``page``."""
    return {page.chrome.url: env.get_template(page.template).render(page=page).encode("utf-8") for page in pages}


def theme_files(theme: str = "default") -> dict[str, bytes]:
    """The theme's CSS, JS and icons, placed under ``_theme/`` in the site."""
    folder = resource_dir("themes") / theme
    return {
        f"_theme/{path.relative_to(folder).as_posix()}": path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }
