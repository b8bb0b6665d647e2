"""The build's stages, one line each on the terminal, each timed (``build.build`` runs them when there is
something to build). First gather, then write.

gather: parse -> model -> reflect (new page texts, re-parsed in memory)
        -> render (site path -> bytes, and the search records), and beside it, in a child process, recall.json
           and its shards (staged) and the recall index (``recall.publish``)
write:  reflect's pages into the workspace -> the site, staged
        -> search index (Pagefind runs in a thread from the moment render knows every record) -> ``--strict`` check
        -> swap the site in -> recall.json into ``.memwiki/``
"""

from __future__ import annotations

import functools
import gc
import shutil
import tempfile
from pathlib import Path

from site_builder.build_result import BuildOptions, BuildResult
from site_builder.core.collector import cycle_collection_paused
from site_builder.core.diagnostics import WHOLE_WORKSPACE, Diagnostics
from site_builder.core.processes import Background
from site_builder.core.progress import Progress
from site_builder.io.build_cache import LastBuild, count_files, load_shard_marks, save_last_build
from site_builder.io.derived import write_derived
from site_builder.io.library_texts import LibraryTexts
from site_builder.io.listing import Listing, save_known
from site_builder.io.memo_store import MEMO_FOLDER, MemoStore
from site_builder.io.reader import Workspace
from site_builder.io.record_store import RecordStore
from site_builder.io.sources import SourceFile
from site_builder.io.staging import Staging
from site_builder.io.stamps import stamps_of
from site_builder.library.hygiene import Section, hygiene_report
from site_builder.library.saved import (
    LinkedFrom,
    new_token,
    save_library,
    save_library_notes,
)
from site_builder.library.subject import site_title
from site_builder.load import Loaded, key_after_reflect, load_sources
from site_builder.recall.publish import publish_recall, update_recall_index
from site_builder.reflect_loaded import (
    read_by_reflector,
    reflect_input,
    reflect_unless_settled,
    save_opinions_block,
    save_settled,
    write_reflected,
)
from site_builder.site.environment import keep_compiled_templates
from site_builder.site.fragments import Fragments
from site_builder.site.fragments_cache import load_fragments, save_page_marks, save_rendered
from site_builder.site.page_output import PageOutput
from site_builder.site.page_reads import PageReads
from site_builder.site.pagefind import (
    SEARCH_FOLDER,
    SearchIndexError,
    SearchRecords,
    SearchStats,
)
from site_builder.site.render import PARALLEL_FROM, render_site, work_size
from site_builder.site.search_indexing import Indexing

TEMPORARY_RECORDS = "memwiki-records-"  # the prefix of the folder a build without cache puts its records in
RECORDS_FOLDER = "cache/search-records"  # under .memwiki/: the search records of the last site (``io.record_store``)
OLD_RECORDS_FOLDER = "cache/records"  # the records at their pages' paths, as memwiki kept them before the store
RETIRED_FOLDERS = ("cache/notes", "cache/fragments", "cache/templates")  # now in the memo store


def make_site(
    opened: Workspace,
    out: Path,
    listing: Listing,
    sources: list[SourceFile],
    key: str,
    options: BuildOptions,
    last_files: int | None = None,
) -> BuildResult:
    """Every stage after reading: the site of ``sources`` (as ``listing`` listed them) into ``out``. ``key`` is
    their input's key, saved as the last build's when the site is done; ``last_files``: how many files the last
    build left in ``out`` (when it built into it)."""
    progress, reflector, cache, search, search_later = (
        options.progress, options.reflector, options.cache, options.search, options.search_later
    )  # fmt: skip
    memwiki_dir = opened.root / ".memwiki"
    memo = MemoStore.of(memwiki_dir, cache=cache)  # what stages made, by what they were made from
    memo.begin()
    later = Diagnostics()  # what the stages after linking find
    staging = Staging(out)  # render writes each page into it as soon as it is made
    if cache:  # the last site's files linked in beside reading and linking: the pages kept are in place already
        # (its search index too when this build makes one now: a part the index still has is then in place too)
        staging.link_last_site(leave=[] if search and not search_later else [SEARCH_FOLDER])
    try:
        reflected, reflected_from = None, None
        with cycle_collection_paused():  # frozen before the collector runs again: it never walks the model
            loaded = load_sources(opened, sources, listing.problems, progress, cache=cache)
            if reflector is not None:
                with progress.stage("reflect"):
                    memwiki = memwiki_dir if cache else None
                    loaded = read_by_reflector(loaded, reflector, later, memo)
                    loaded, reflected, reflected_from = reflect_unless_settled(loaded, reflector, later, memwiki)
            gc.freeze()  # the model lives as long as the build: the collector need not walk its objects again
    except BaseException:
        staging.abort()
        raise
    staging.linked()  # before a process forks with it
    records = _record_store(memwiki_dir, keep=cache or search_later) if search else None
    # recall.json, its shards and the recall index are made by a child beside render (both cores busy); the index
    # waits for reflect's pages to be written, when it wrote some (the index records each file as it stands).
    index_now = reflected is None or not reflected.changes
    # A library linked anew is saved by the same child once recall is sent, for the next build (``library.saved``).
    linked = LinkedFrom(
        loaded.linked.token or new_token(),
        {key[0]: key for key in loaded.cached.now},
        opinions=loaded.linked.opinions or new_token(),
    )
    # what a page or shard made from unchanged texts holds on
    texts = LibraryTexts.of(loaded.library, linked.token, loaded.linked.since)
    config = site_title(opened.config, loaded.notes)  # the agent's name when no title is set
    publish = functools.partial(
        publish_recall, loaded.library, config.title, config.recall_max_tokens, staging,
        load_shard_marks(memwiki_dir) if cache else None,
        (opened, loaded.notes, stamps_of(listing.entries)) if index_now else None, texts,
        (memo, linked.opinions) if cache else None,
    )  # fmt: skip
    keep = functools.partial(
        save_library, memwiki_dir, loaded.library, linked.token, linked.opinions, anew=not loaded.linked.opinions
    )
    work = work_size(len(loaded.notes), sum(note.chars for note in loaded.notes))  # recall's work: lines to index
    recall = Background(publish, work, PARALLEL_FROM, keep if cache and not loaded.linked.token else None)
    indexing = None
    if records is not None and not search_later:
        # The last site's index is taken as it stands only when nothing was added to or removed from that site since.
        as_left = staging.linked_files is not None and staging.linked_files == last_files
        indexing = Indexing(memwiki_dir / "cache" if cache else None, staging.path, staging.discard, as_left)
    try:
        with progress.stage("render") as tick:  # its size once its pages are known
            found = functools.cache(loaded.problems)  # worked out once: every note's problems, file links, dates

            def sections() -> list[Section]:  # asked for by render once the searched pages are made
                return hygiene_report(loaded.library, Diagnostics([*found().items, *later.items]), opened.left_out)

            reuse = load_fragments(memwiki_dir) if cache else None
            keep_compiled_templates(memwiki_dir / MEMO_FOLDER / "templates" if cache else None)
            last_reads = memo.get("page-reads", (), PageReads)
            digests = memo.get("opinion-digests", (loaded.linked.opinions,), list) if loaded.linked.opinions else None
            site = render_site(
                loaded.library,
                config,
                sections,
                opened.layout.names,
                reuse if isinstance(reuse, Fragments) else None,
                tick,
                PageOutput(staging, records, texts, last_reads, indexing.start if indexing else None),
                digests,
            )
        if indexing is not None and records is not None:  # Pagefind works on while the rest of the site is written
            indexing.of(SearchRecords(records.folder, site.records, site.language))
        with progress.stage("write"):
            if reflected is not None and reflector is not None:
                write_reflected(opened.root, reflected, reflector, later)
            if cache:  # after reflect's pages are written: they are cached as parsed after reflect
                loaded.cached.save(memwiki_dir)
            staging.write(site.files)
        with progress.stage("recall"):
            published = recall.result()
            recall_problems = Diagnostics(list(published.problems))  # the recall index's never keep the old site
            if not index_now:
                update_recall_index(opened, loaded.notes, recall_problems)
        staging.drop_unmade([*site.fragments.pages, *site.files, *published.paths], leave=[SEARCH_FOLDER])
        if search and search_later:
            staging.keep_from_output(SEARCH_FOLDER)
        anew = save_rendered(memwiki_dir, site.fragments, reuse, loaded.notes) if cache else True  # Pagefind runs
        stats = None
        if indexing is not None:
            stats = _place_search(indexing, staging, progress, later)
    except BaseException:
        recall.cancel()
        staging.abort()
        _drop_records(records)
        raise
    diagnostics = Diagnostics([*found().items, *later.items])
    if options.strict and diagnostics.items:
        recall.cancel()
        staging.abort()
        _drop_records(records)
        diagnostics.extend(recall_problems)
        return BuildResult(
            out, site.pages, 0, False, loaded, diagnostics, stats, published.report, progress.timings, reflected
        )  # fmt: skip
    staging.commit()
    if records is not None:  # the records of this site only; none kept by a build without cache
        records.prune(set(site.records.values())) if cache or search_later else _drop_records(records)
    _copy_recall_bundle(loaded, published.paths, out, recall_problems)
    diagnostics.extend(recall_problems)
    files = count_files(out)  # as many as a look at the folder finds (the search index and theme too)
    recall.finish()  # the library the child saves when linked anew: only then the notes it holds for (below)
    if cache:
        save_page_marks(memwiki_dir, site.fragments, reuse, anew=anew)
        if site.reads is not None and site.reads != last_reads:  # after the marks: it says when they still hold
            memo.put("page-reads", (), site.reads)
        else:
            memo.keep("page-reads", ())
        memo.put("recall-shards", (), (texts, published.marks))
        made = site.opinion_digests  # saved when every opinion was digested (and not as given)
        if made is not None and None not in made and made != digests:
            memo.put("opinion-digests", (linked.opinions,), made)
        if linked != loaded.linked:
            save_library_notes(memwiki_dir, linked)
        known = listing.known(sources)  # what the next build need not read again
        save_known(memo, known)
        # After reflect wrote, the input is the workspace as it left it; a site whose search comes later is not
        # finished: look again next time.
        stamps = listing.stamps
        if reflected and reflected.changes:
            key, stamps = (
                key_after_reflect(loaded, options.base_url, options.settings, known) if not later.items else ("", "")
            )
        if reflector is not None and reflected is not None and reflected_from and not later.items:
            if not reflected.changes:  # reflect settled on its input; or the workspace is as it wrote it
                save_settled(memwiki_dir, reflected_from, reflected)
            elif key:
                save_settled(memwiki_dir, reflect_input(loaded, reflector, reflected_from.reads), reflected)
        if reflected is not None:  # even after a warning: it names the file as it is
            save_opinions_block(memo, loaded, linked.opinions, reflected)
        if key and not search_later:
            done = LastBuild(
                key, stamps, str(out), files, site.pages, tuple(diagnostics.items),
                published.report, stats,
            )  # fmt: skip
            save_last_build(memo, done)
        if reflector is None:  # a build without reflect: what reflect settled on last is still for the next one
            memo.keep("reflect-settled", ())
        memo.keep_only_used()  # what this build did not use is not kept
        for retired in (memwiki_dir / "cache").glob("*.pickle"):  # earlier versions' own files: the store keeps them
            retired.unlink(missing_ok=True)
        for retired_folder in RETIRED_FOLDERS:
            shutil.rmtree(memwiki_dir / retired_folder, ignore_errors=True)
    if options.settle:
        staging.settle()
    else:
        staging.leave()
    later_records = (
        SearchRecords(records.folder, site.records, site.language) if records is not None and search_later else None
    )
    return BuildResult(
        out, site.pages, files, True, loaded, diagnostics, stats, published.report, progress.timings, reflected,
        records=later_records,
    )  # fmt: skip


def _record_store(memwiki_dir: Path, *, keep: bool) -> RecordStore:
    """Where render puts the search records: the store the last build kept (``keep``), or a temporary folder of
    its own that goes once the index is made."""
    if keep:
        shutil.rmtree(memwiki_dir / OLD_RECORDS_FOLDER, ignore_errors=True)
        return RecordStore(memwiki_dir / RECORDS_FOLDER)
    return RecordStore(Path(tempfile.mkdtemp(prefix=TEMPORARY_RECORDS)))


def _drop_records(records: RecordStore | None) -> None:
    """A build's temporary records, gone (the kept store is pruned by the next build that completes)."""
    if records is not None and records.folder.name.startswith(TEMPORARY_RECORDS):
        shutil.rmtree(records.folder, ignore_errors=True)


def _place_search(
    indexing: Indexing, staging: Staging, progress: Progress, diagnostics: Diagnostics
) -> SearchStats | None:
    """Wait for Pagefind and its index beside the staged pages; a failure is a warning, not a lost site."""
    try:
        with progress.stage("index") as tick:
            return indexing.result(tick)
    except SearchIndexError as exc:
        diagnostics.warn(WHOLE_WORKSPACE, 0, f"search index not built: {exc}", "search")
        return None
    except BaseException:
        staging.abort()
        raise


def _copy_recall_bundle(loaded: Loaded, paths: list[str], site: Path, diagnostics: Diagnostics) -> None:
    """recall.json and the shards (``paths``) into ``.memwiki/``, where an agent finds them beside the workspace:
    the site's files, linked where the file system allows."""
    try:
        write_derived(loaded.root / ".memwiki", {path: site / path for path in paths})
    except OSError as exc:
        diagnostics.warn(".memwiki", 0, f"recall.json not copied into the workspace: {exc}", "io")
