"""Where render puts each page (``PageOutput``): kept from the last site when it is made from the same, else
written into the staged site, its search record into the record store."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from site_builder.io.library_texts import LibraryTexts
from site_builder.io.record_store import RecordStore
from site_builder.io.staging import Staging
from site_builder.site.fragments import Fragments, PageMark
from site_builder.site.page_reads import PageReads
from site_builder.site.pagefind import SearchRecords
from site_builder.site.pages import PageJob
from site_builder.site.search_parts import record_digest


@dataclass(frozen=True)
class PageOutput:
    """Where render puts pages as it goes, from every render process: the staged site, and the store of search
    records (None: no search). A page whose view and file are as the last build left them is kept (a hard link),
    and so is its record (by its digest)."""

    site: Staging
    records: RecordStore | None
    texts: LibraryTexts | None = None  # the library rendered and its notes' texts (``io.library_texts``)
    last_reads: PageReads | None = None  # what the last build's pages read
    # Hears every searchable page's record as soon as they are known, before render keeps the pages it holds (one
    # render process only): Pagefind can start then. Else they are known once render is done.
    records_known: Callable[[SearchRecords], None] | None = None


@dataclass
class Rendered:
    """Pages rendered by one process: site path -> bytes (only when they are not put into a ``PageOutput``), the
    paths of the listed ones (for the sitemap), the fragments it rendered, the searchable pages' record digests and
    the pages kept as they were."""

    files: dict[str, bytes] = field(default_factory=dict)
    listed: list[str] = field(default_factory=list)
    fragments: Fragments = field(default_factory=Fragments)
    records: dict[str, str] = field(default_factory=dict)
    unchanged: set[str] = field(default_factory=set)
    reads: dict[str, frozenset[str]] = field(default_factory=dict)  # page -> the notes whose texts its inputs read


def add_page(done: Rendered, url: str, mark: PageMark, *, listed: bool) -> None:
    done.fragments.pages[url] = mark
    if mark[2]:
        done.records[url] = mark[2]
    if listed:
        done.listed.append(url)


def announce_records(
    output: PageOutput, held: list[PageJob], last: dict[str, PageMark], made: Rendered, language: str
) -> None:
    """Say every searchable page's record (``PageOutput.records_known``) once the pages whose inputs changed are
    ``made``: the ``held`` ones keep the records they had (or are made again from the same, to the same records).
    Unsaid when a held page's record is not known (the last build did not search)."""
    if output.records is None or output.records_known is None:
        return
    records = dict(made.records)
    for job in (job for job in held if job.searchable):
        mark = last.get(job.url)
        if mark is None or mark[2] is None:
            return
        if mark[2]:
            records[job.url] = mark[2]
    output.records_known(SearchRecords(output.records.folder, records, language))


def kept_page(output: PageOutput, url: str, view: str, mark: PageMark | None, searched: bool) -> PageMark | None:
    """The last build's mark of ``url`` when its page is kept: the same view, its file as that build left it
    (and, when searched, its search record kept in the store), linked into the new site."""
    if mark is None or mark[0] != view or mark[1] is None:
        return None
    if searched and mark[2] is None:
        return None  # the last build did not search: this page's record is not known
    if searched and mark[2] and not (output.records and output.records.has(mark[2])):
        return None
    if not output.site.keep(url, mark[1]):
        return None
    return mark if searched else (mark[0], mark[1], None)


def put_page(output: PageOutput, url: str, data: bytes, view: str, record: str | None) -> PageMark:
    """Write a page just rendered (and its search record, when searched) into the output; its mark."""
    stamp = output.site.put(url, data)
    if output.records is None:
        return (view, stamp, None)
    if record is None:
        return (view, stamp, "")
    digest = record_digest(record)
    output.records.put(digest, record.encode("utf-8", "surrogateescape"))
    return (view, stamp, digest)
