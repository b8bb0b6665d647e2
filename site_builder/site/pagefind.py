"""The search index: Pagefind over lean copies of the searchable pages, in parts, kept in the build cache.

Pagefind reads only what a page marks for search (``data-pagefind-body`` minus ``data-pagefind-ignore``), yet
it parses the whole page: an entity page is mostly backlinks and charts it skips. So each searchable page is
cut down to its *search record* first — its title, its filters and meta, and its main content without the
ignored blocks and charts — which Pagefind turns into the same index (same text, anchors, filters, meta and
URLs) from a fraction of the bytes. The records are files named by their digests (``io.record_store``), written
as pages are rendered and kept between builds.

Pagefind cannot add a page to an index, so the index is made in parts by the year of each page's date, plus one
for the undated pages (``search_parts``), each kept in ``.memwiki/cache/search/<part>/`` under a name made from its records:
a build runs Pagefind only on the parts whose records changed (an edit to today's log: this year's part) and
copies the others. The site gets ``pagefind/<part>/`` for each, Pagefind's script and WebAssembly once beside
them, and ``pagefind/parts.json`` listing the parts; the browser opens every part in one Pagefind, searches each
and merges the results (``search-core.js``)."""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from site_builder.io.record_store import record_file
from site_builder.site.language import index_language
from site_builder.site.record_links import link_records
from site_builder.site.search_parts import split_parts

SEARCH_FOLDER = "pagefind"  # the index's folder in the site
RECORD_VERSION = "5"  # bump when search records or parts change: cached indexes are then built again
UNUSED_FILES = (  # Pagefind's ready-made interfaces (memwiki has its own) and its worker (parts are searched on the page)
    "pagefind-ui.js", "pagefind-ui.css", "pagefind-modular-ui.js", "pagefind-modular-ui.css",
    "pagefind-component-ui.js", "pagefind-component-ui.css", "pagefind-highlight.js", "pagefind-worker.js",
)  # fmt: skip

_BODY = re.compile(r"<main\b[^>]*\sdata-pagefind-body[^>]*>")
_IGNORED_BLOCK = re.compile(
    r"<(section|aside|nav|details|footer|header|div|p|ul|ol|table|figure)\b[^>]*\sdata-pagefind-ignore[\s>=]"
)
_SVG = re.compile(r"<svg\b.*?</svg>", re.DOTALL)  # Pagefind skips SVG; charts are most of an opinion's bytes
# Pagefind ends a block (heading, paragraph, list item, cell) whose text ends in a letter, digit or quote with a
# period, so that its excerpts read as sentences: "Project details." A heading is no sentence, and a space before its
# end tag (the text's last character then, dropped with the other spaces) keeps it as written.
_HEADING_END = re.compile(r"</h[1-6]>")


class SearchIndexError(Exception):
    """Pagefind could not build the index (missing binary, crash)."""


@dataclass(frozen=True)
class SearchStats:
    pages: int
    parts: int = 0  # the parts the index is split into (``search_parts``)
    indexed: int = 0  # the parts Pagefind made in this build; the others were the last build's, still right

    @property
    def reused(self) -> bool:
        """The index of the last build was still right: Pagefind did not run."""
        return self.indexed == 0


def search_record(page: str) -> str | None:
    """What Pagefind needs of a rendered page: its language, title, filters and meta, and its main content
    without the blocks Pagefind ignores. None for a page that is not searched."""
    body = _BODY.search(page)
    end = page.rfind("</main>")
    if body is None or end < body.end():
        return None
    head = page[: page.find("<main")]
    title = re.search(r"<title>.*?</title>", head, re.DOTALL)
    data = re.search(r'<div hidden class="search-data">.*?</div>', head, re.DOTALL)
    lang = re.search(r"<html\b[^>]*>", page)
    main = _SVG.sub("", _without_ignored_blocks(page[body.start() : end + len("</main>")]))
    main = _HEADING_END.sub(lambda end_tag: " " + end_tag[0], main)
    return (
        f'<!doctype html>\n{lang.group(0) if lang else "<html>"}<head><meta charset="utf-8">'
        f"{title.group(0) if title else ''}</head><body>{data.group(0) if data else ''}{main}</body></html>\n"
    )


def _without_ignored_blocks(html: str) -> str:
    """``html`` without the block elements marked ``data-pagefind-ignore`` (nested tags of the same name counted)."""
    kept: list[str] = []
    position = 0
    while found := _IGNORED_BLOCK.search(html, position):
        tag = found.group(1)
        opening, closing = re.compile(rf"<{tag}[\s>]"), f"</{tag}>"
        depth, cursor = 1, found.end()
        while depth and cursor < len(html):
            close = html.find(closing, cursor)
            if close < 0:
                cursor = len(html)
                break
            depth += len(opening.findall(html, cursor, close)) - 1
            cursor = close + len(closing)
        kept.append(html[position : found.start()])
        position = cursor
    kept.append(html[position:])
    return "".join(kept)


@dataclass(frozen=True)
class SearchRecords:
    """The search records of a site: the digest of each searchable page's record (site path -> digest), which
    together name the index they make, and the store in ``folder`` that holds them (``io.record_store``)."""

    folder: Path
    digests: dict[str, str]
    language: str  # the site's (``site.language``): the language Pagefind indexes in


@dataclass(frozen=True)
class BuiltIndex:
    """The parts of a Pagefind index made (or found in the cache) for a set of records, ready to be placed."""

    parts: dict[str, Path]  # part name -> the folder of its index, in the order the browser lists them
    language: str
    pages: int
    indexed: int  # parts Pagefind made this time; the others were in the cache
    scratch: Path | None  # a temporary folder to remove once the index is placed


def build_index(
    records: SearchRecords,
    cache_dir: Path | None,
    meanwhile: Callable[[dict[str, Path]], None] | None = None,
    discard: Callable[[Path], None] | None = None,
    counted: Callable[[int, int], None] | None = None,
) -> BuiltIndex | None:
    """The index of ``records`` in parts (``search_parts``): each part taken from ``cache_dir`` when its records
    were indexed last time, else made by Pagefind (two parts at a time) and kept there; ``meanwhile`` gets the parts
    taken from the cache while Pagefind makes the others (``search_placing.Placing.parts``); ``discard`` takes the
    indexes the cache no longer needs out of it (by default, removes them here); ``counted`` hears how many of the parts
    to make are made, and of how many, as each is. None when nothing is searched. Safe to run in a thread beside the
    rest of the build: it only reads the records and writes under ``cache_dir`` (and ``meanwhile`` into the staged
    site)."""
    if not records.digests:
        return None
    language = index_language(records.language)
    scratch = None
    if cache_dir is None:  # nothing kept: the index lives in a temporary folder until it is placed
        scratch = Path(tempfile.mkdtemp(prefix="memwiki-search-"))
        store = scratch / "store"
    else:
        store = cache_dir / "search"
    try:
        plan = _plan_parts(records, store, language)
        _make_parts(plan, records.folder, language, meanwhile, counted)
        _forget_others(store, plan.wanted, discard or removed_now)
    except (OSError, subprocess.SubprocessError) as exc:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
        raise SearchIndexError(f"Pagefind failed: {exc}") from exc
    except SearchIndexError:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
        raise
    return BuiltIndex(plan.wanted, language, len(records.digests), len(plan.missing), scratch)


class _PartsPlan(NamedTuple):
    """The index's parts (name -> site path -> record digest), the Pagefind that makes them, the folder in the store
    each part's index is wanted in, and the parts not there yet (the largest first)."""

    parts: dict[str, dict[str, str]]
    executable: str
    wanted: dict[str, Path]
    missing: list[str]


def _plan_parts(records: SearchRecords, store: Path, language: str) -> _PartsPlan:
    """The parts of the index of ``records`` and where in ``store`` each is wanted (its key names what it is made
    from), and which of them are to be made."""
    store.mkdir(parents=True, exist_ok=True)
    (store / "records.json").unlink(missing_ok=True)  # the years of the records, as memwiki kept them before
    parts = split_parts(records.digests, language)
    executable = _executable()
    wanted = {part: store / part / _key(digests, language, executable) for part, digests in parts.items()}
    missing = [part for part, index in wanted.items() if not (index / "pagefind.js").is_file()]
    missing.sort(key=lambda part: -len(parts[part]))  # the largest first: it is not left running alone at the end
    return _PartsPlan(parts, executable, wanted, missing)


def _make_parts(
    plan: _PartsPlan,
    folder: Path,
    language: str,
    meanwhile: Callable[[dict[str, Path]], None] | None,
    counted: Callable[[int, int], None] | None,
) -> None:
    """The missing parts of ``plan`` made by Pagefind, two at a time, from the records in ``folder``; ``meanwhile``
    and ``counted``: see ``build_index``."""
    running = threading.Event()  # set once the first Pagefind runs (its records linked for it), or failed
    count = itertools.count(1)

    def index_part(part: str) -> None:
        try:
            _index_part(plan.executable, folder, plan.parts[part], language, plan.wanted[part], running.set)
            if counted is not None:
                counted(next(count), len(plan.missing))
        finally:
            running.set()

    with ThreadPoolExecutor(2, "memwiki-pagefind") as pool:  # each Pagefind is a process: both cores
        made = [pool.submit(index_part, part) for part in plan.missing]
        if meanwhile is not None:  # the parts already made, placed while Pagefind makes the others
            if made:
                running.wait()  # not before: linking its records first is on the way to the index
            meanwhile({part: index for part, index in plan.wanted.items() if part not in plan.missing})
        for part in made:
            part.result()


def _key(digests: dict[str, str], language: str, executable: str) -> str:
    """The name of the index of these records: it changes with any record, the language or Pagefind."""
    digest = hashlib.sha256(f"{RECORD_VERSION}\0{language}\0{executable}\0".encode())
    for path, record in sorted(digests.items()):
        digest.update(f"{path}\0{record}\n".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()[:32]


def _executable() -> str:
    """Pagefind's binary, found as ``pagefind.service.get_executable`` finds it, from its own package first: that one
    imports in a millisecond, while ``pagefind.service`` imports asyncio (0.05 s alone, 0.4 s beside a build's work,
    on the way to the index an edit waits for)."""
    if os.environ.get("PAGEFIND_BINARY_PATH") is None:
        with contextlib.suppress(ImportError, FileNotFoundError):
            from pagefind_bin_extended import get_executable as bundled  # type: ignore[import-untyped]

            return str(bundled())
    from pagefind.service import get_executable  # imported here: only a build with search needs Pagefind

    found = get_executable()
    if found is None:
        raise SearchIndexError("the Pagefind binary is missing: pip install 'pagefind[extended]'")
    return str(found)


def _index_part(
    executable: str, store: Path, digests: dict[str, str], language: str, into: Path, starting: Callable[[], None]
) -> None:
    """The records of one part (site path -> digest, kept in ``store``) through Pagefind into ``into``. Pagefind
    reads them as hard links in a folder of their own, at their pages' paths (so the same URLs); ``starting`` is
    called when they are, as Pagefind starts."""
    into.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".memwiki-index-", dir=into.parent) as work:
        source = Path(work) / "records"
        link_records([(str(record_file(store, digest)), path) for path, digest in digests.items()], source)
        output = Path(work) / "index"
        command = [executable, "--site", str(source), "--output-path", str(output), "--force-language", language]
        starting()
        done = subprocess.run([*command, "--keep-index-url", "--quiet"], capture_output=True, text=True, check=False)
        if done.returncode != 0 or not (output / "pagefind.js").is_file():
            said = (done.stderr or done.stdout).strip().splitlines()
            raise SearchIndexError(said[-1] if said else f"Pagefind exited with {done.returncode}")
        for unused in UNUSED_FILES:
            (output / unused).unlink(missing_ok=True)
        shutil.rmtree(into, ignore_errors=True)
        shutil.move(output, into)


def _forget_others(store: Path, kept: dict[str, Path], discard: Callable[[Path], None]) -> None:
    """The cache keeps the newest index of each part only, and no part the site no longer has."""
    for part in store.iterdir():
        if part.is_dir() and part.name not in kept:
            discard(part)
        elif part.is_dir():
            for index in part.iterdir():
                if index != kept[part.name]:
                    discard(index)


def removed_now(folder: Path) -> None:
    """``folder`` removed here and now (what a build without a staged site does with what it discards)."""
    shutil.rmtree(folder, ignore_errors=True)
