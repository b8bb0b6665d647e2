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
from pathlib import Path

from site_builder.build_result import BuildOptions, BuildResult
from site_builder.core.collector import cycle_collection_paused
from site_builder.core.diagnostics import Diagnostics
from site_builder.core.processes import Background
from site_builder.io.build_cache import LastBuild, count_files, load_shard_marks, save_last_build
from site_builder.io.library_texts import LibraryTexts
from site_builder.io.listing import KnownTexts, Listing, save_known
from site_builder.io.memo_store import MEMO_FOLDER, MemoStore, remove_retired
from site_builder.io.reader import Workspace
from site_builder.io.record_store import RecordStore, build_record_store, drop_temporary_records
from site_builder.io.sources import SourceFile
from site_builder.io.staging import Staging
from site_builder.io.stamps import stamps_of
from site_builder.library.hygiene import Section, hygiene_report
from site_builder.library.saved import LinkedFrom, new_token, save_library, save_library_notes
from site_builder.library.subject import site_title
from site_builder.load import key_after_reflect, load_sources
from site_builder.recall.publish import Published, copy_recall_bundle, publish_recall, update_recall_index
from site_builder.reflect.run import ReflectResult
from site_builder.reflect_loaded import (
    ReflectInput,
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
from site_builder.site.pagefind import SEARCH_FOLDER, SearchRecords, SearchStats
from site_builder.site.render import render_site
from site_builder.site.render_jobs import PARALLEL_FROM, work_size
from site_builder.site.search_indexing import Indexing, wait_for_index


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
    stages = SiteBuild(opened, out, listing, options)
    stages.gather(sources)
    stages.start_beside(last_files)
    try:
        stages.render()
        stages.write()
    except BaseException:
        stages.abort()
        raise
    diagnostics = Diagnostics([*stages.found().items, *stages.later.items])
    if options.strict and diagnostics.items:
        stages.abort()
        diagnostics.extend(stages.recall_problems)
        return stages.result(diagnostics, 0, written=False)
    files = stages.commit(diagnostics)
    if options.cache:
        stages.remember(sources, key, files, diagnostics)
    return stages.result(diagnostics, files, written=True)


class SiteBuild:
    """One build's stages, in the order ``make_site`` runs them, and what each leaves for the next: gather (parse,
    link, reflect), start recall and the search index beside render, render, write, then commit the site and
    remember, through the memo store, what the next build can reuse."""

    def __init__(self, opened: Workspace, out: Path, listing: Listing, options: BuildOptions) -> None:
        self.opened, self.out, self.listing, self.options = opened, out, listing, options
        self.memwiki_dir = opened.root / ".memwiki"
        self.memo = MemoStore.of(self.memwiki_dir, cache=options.cache)  # what stages made, by what they were made from
        self.memo.begin()
        self.later = Diagnostics()  # what the stages after linking find
        self.staging = Staging(out)  # render writes each page into it as soon as it is made
        self.records: RecordStore | None = None
        self.recall: Background[Published] | None = None
        self.recall_problems = Diagnostics()
        self.reflected: ReflectResult | None = None
        self.reflected_from: ReflectInput | None = None
        self.stats: SearchStats | None = None
        if options.cache:  # the last site's files linked in beside reading and linking: the pages kept are in place
            # already (its search index too when this build makes one now: a part the index still has is then too)
            leave = [] if options.search and not options.search_later else [SEARCH_FOLDER]
            self.staging.link_last_site(leave=leave)

    def gather(self, sources: list[SourceFile]) -> None:
        """Parse and link ``sources``, then reflect: the model, frozen for the rest of the build."""
        options = self.options
        try:
            with cycle_collection_paused():  # frozen before the collector runs again: it never walks the model
                self.loaded = load_sources(
                    self.opened, sources, self.listing.problems, options.progress, cache=options.cache
                )
                if options.reflector is not None:
                    with options.progress.stage("reflect"):
                        memwiki = self.memwiki_dir if options.cache else None
                        self.loaded = read_by_reflector(self.loaded, options.reflector, self.later, self.memo)
                        self.loaded, self.reflected, self.reflected_from = reflect_unless_settled(
                            self.loaded, options.reflector, self.later, memwiki
                        )
                gc.freeze()  # the model lives as long as the build: the collector need not walk its objects again
        except BaseException:
            self.staging.abort()
            raise
        self.staging.linked()  # before a process forks with it
        self.found = functools.cache(self.loaded.problems)  # worked out once: every note's problems, links, dates

    def start_beside(self, last_files: int | None) -> None:
        """Start what works beside render: recall.json, its shards and the recall index in a child (both cores
        busy), and Pagefind as soon as render knows every record. ``last_files``: see ``make_site``."""
        loaded, options, memwiki_dir, cache = self.loaded, self.options, self.memwiki_dir, self.options.cache
        if options.search:
            self.records = build_record_store(memwiki_dir, keep=cache or options.search_later)
        # The recall index waits for reflect's pages to be written, when it wrote some (it records each file as it
        # stands).
        self.index_now = self.reflected is None or not self.reflected.changes
        # A library linked anew is saved by the same child once recall is sent, for the next build (``library.saved``).
        self.linked = LinkedFrom(
            loaded.linked.token or new_token(),
            {key[0]: key for key in loaded.cached.now},
            opinions=loaded.linked.opinions or new_token(),
        )
        # what a page or shard made from unchanged texts holds on
        self.texts = LibraryTexts.of(loaded.library, self.linked.token, loaded.linked.since)
        # the agent's name, else the folder's, when no title is set
        self.config = site_title(self.opened.config, loaded.notes, self.opened.root.resolve().name)
        publish = functools.partial(
            publish_recall, loaded.library, self.config.title, self.config.recall_max_tokens, self.staging,
            load_shard_marks(memwiki_dir) if cache else None,
            (self.opened, loaded.notes, stamps_of(self.listing.entries)) if self.index_now else None, self.texts,
            (self.memo, self.linked.opinions) if cache else None,
        )  # fmt: skip
        keep = functools.partial(
            save_library, memwiki_dir, loaded.library, self.linked.token, self.linked.opinions,
            anew=not loaded.linked.opinions,
        )  # fmt: skip
        work = work_size(len(loaded.notes), sum(note.chars for note in loaded.notes))  # recall's work: lines to index
        self.recall = Background(publish, work, PARALLEL_FROM, keep if cache and not loaded.linked.token else None)
        self.indexing = None
        if self.records is not None and not options.search_later:
            # The last site's index is taken as it stands only when nothing was added to or removed from it since.
            as_left = self.staging.linked_files is not None and self.staging.linked_files == last_files
            cached = memwiki_dir / "cache" if cache else None
            self.indexing = Indexing(cached, self.staging.path, self.staging.discard, as_left)

    def render(self) -> None:
        """Every page, into the staging folder as each is made, and its search records; then Pagefind starts."""
        loaded, memo, memwiki_dir, cache = self.loaded, self.memo, self.memwiki_dir, self.options.cache
        with self.options.progress.stage("render") as tick:  # its size once its pages are known

            def sections() -> list[Section]:  # asked for by render once the searched pages are made
                found = Diagnostics([*self.found().items, *self.later.items])
                return hygiene_report(loaded.library, found, self.opened.left_out)

            reuse = load_fragments(memwiki_dir) if cache else None
            self.reuse = reuse if isinstance(reuse, Fragments) else None
            keep_compiled_templates(memwiki_dir / MEMO_FOLDER / "templates" if cache else None)
            self.last_reads = memo.get("page-reads", (), PageReads)
            opinions = loaded.linked.opinions
            self.digests = memo.get("opinion-digests", (opinions,), list) if opinions else None
            start = self.indexing.start if self.indexing else None
            self.site = render_site(
                loaded.library, self.config, sections, self.opened.layout.names, self.reuse, tick,
                PageOutput(self.staging, self.records, self.texts, self.last_reads, start), self.digests,
                self.opened.styling,
            )  # fmt: skip
        if self.indexing is not None and self.records is not None:  # Pagefind works on while the rest is written
            self.indexing.of(SearchRecords(self.records.folder, self.site.records, self.site.language))

    def write(self) -> None:
        """Reflect's pages into the workspace, the rest of the site into staging, recall's part, then the search
        index, waited for."""
        loaded, options, site, staging = self.loaded, self.options, self.site, self.staging
        with options.progress.stage("write"):
            if self.reflected is not None and options.reflector is not None:
                write_reflected(self.opened.root, self.reflected, options.reflector, self.later)
            if options.cache:  # after reflect's pages are written: they are cached as parsed after reflect
                loaded.cached.save(self.memwiki_dir)
            staging.write(site.files)
        assert self.recall is not None
        with options.progress.stage("recall"):
            self.published = self.recall.result()
            self.recall_problems = Diagnostics(list(self.published.problems))  # never keep the old site
            if not self.index_now:
                update_recall_index(self.opened, loaded.notes, loaded.library, self.recall_problems)
        staging.drop_unmade([*site.fragments.pages, *site.files, *self.published.paths], leave=[SEARCH_FOLDER])
        if options.search and options.search_later:
            staging.keep_from_output(SEARCH_FOLDER)
        # Pagefind runs meanwhile
        self.anew = save_rendered(self.memwiki_dir, site.fragments, self.reuse, loaded.notes) if options.cache else True
        if self.indexing is not None:
            self.stats = wait_for_index(self.indexing, staging, options.progress, self.later)

    def abort(self) -> None:
        """Nothing of this build stays: the child stopped, staging and temporary records gone."""
        if self.recall is not None:
            self.recall.cancel()
        self.staging.abort()
        drop_temporary_records(self.records)

    def commit(self, diagnostics: Diagnostics) -> int:
        """The site swapped in, its records pruned, recall.json beside the workspace: the files in ``out``."""
        records, options = self.records, self.options
        self.staging.commit()
        if records is not None:  # the records of this site only; none kept by a build without cache
            if options.cache or options.search_later:
                records.prune(set(self.site.records.values()))
            else:
                drop_temporary_records(records)
        copy_recall_bundle(self.loaded.root, self.published.paths, self.out, self.recall_problems)
        diagnostics.extend(self.recall_problems)
        assert self.recall is not None
        self.recall.finish()  # the library the child saves when linked anew: only then the notes it holds for
        return count_files(self.out)  # as many as a look at the folder finds (the search index and theme too)

    def remember(self, sources: list[SourceFile], key: str, files: int, diagnostics: Diagnostics) -> None:
        """What the next build can reuse, through the memo store; what this build did not use goes."""
        memo, site, memwiki_dir = self.memo, self.site, self.memwiki_dir
        save_page_marks(memwiki_dir, site.fragments, self.reuse, anew=self.anew)
        if site.reads is not None and site.reads != self.last_reads:  # after the marks: it says when they hold
            memo.put("page-reads", (), site.reads)
        else:
            memo.keep("page-reads", ())
        memo.put("recall-shards", (), (self.texts, self.published.marks))
        made = site.opinion_digests  # saved when every opinion was digested (and not as given)
        if made is not None and None not in made and made != self.digests:
            memo.put("opinion-digests", (self.linked.opinions,), made)
        if self.linked != self.loaded.linked:
            save_library_notes(memwiki_dir, self.linked)
        known = self.listing.known(sources)  # what the next build need not read again
        save_known(memo, known)
        self._remember_input(key, known, files, diagnostics)
        if self.options.reflector is None:  # without reflect: what reflect settled on last is still for the next
            memo.keep("reflect-settled", ())
        memo.keep_only_used()  # what this build did not use is not kept
        remove_retired(memwiki_dir)  # earlier versions' own files: the store keeps them

    def _remember_input(self, key: str, known: KnownTexts, files: int, diagnostics: Diagnostics) -> None:
        """The input this site is of, and what reflect settled on. After reflect wrote, the input is the workspace
        as it left it; a site whose search comes later is not finished: look again next time."""
        options, reflected, reflector, loaded = self.options, self.reflected, self.options.reflector, self.loaded
        stamps = self.listing.stamps
        if reflected and reflected.changes:
            done = not self.later.items
            key, stamps = key_after_reflect(loaded, options.base_url, options.settings, known) if done else ("", "")
        if reflector is not None and reflected is not None and self.reflected_from and not self.later.items:
            if not reflected.changes:  # reflect settled on its input; or the workspace is as it wrote it
                save_settled(self.memwiki_dir, self.reflected_from, reflected)
            elif key:
                save_settled(self.memwiki_dir, reflect_input(loaded, reflector, self.reflected_from.reads), reflected)
        if reflected is not None:  # even after a warning: it names the file as it is
            save_opinions_block(self.memo, loaded, self.linked.opinions, reflected)
        if key and not options.search_later:
            done_build = LastBuild(
                key, stamps, str(self.out), files, self.site.pages, tuple(diagnostics.items), self.published.report,
                self.stats,
            )  # fmt: skip
            save_last_build(self.memo, done_build)

    def result(self, diagnostics: Diagnostics, files: int, *, written: bool) -> BuildResult:
        """What the build made and found; the old site removed (or left to its own process to remove)."""
        site, records, options = self.site, self.records, self.options
        if written:
            self.staging.settle() if options.settle else self.staging.leave()
        later = None
        if written and records is not None and options.search_later:
            later = SearchRecords(records.folder, site.records, site.language)
        return BuildResult(
            self.out, site.pages, files, written, self.loaded, diagnostics, self.stats, self.published.report,
            options.progress.timings, self.reflected, records=later,
        )  # fmt: skip
