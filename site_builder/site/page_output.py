"""Where render puts each page (``PageOutput``): kept from the last site when it is made from the same, else
written into the staged site, its search record into the record store."""

from __future__ import annotations

from dataclasses import dataclass

from site_builder.io.library_texts import LibraryTexts
from site_builder.io.record_store import RecordStore
from site_builder.io.writer import Staging
from site_builder.site.fragments import PageMark
from site_builder.site.page_reads import PageReads
from site_builder.site.pagefind import record_digest


@dataclass(frozen=True)
class PageOutput:
    """Where render puts pages as it goes, from every render process: the staged site, and the store of search
    records (None: no search). A page whose view and file are as the last build left them is kept (a hard link),
    and so is its record (by its digest)."""

    site: Staging
    records: RecordStore | None
    texts: LibraryTexts | None = None  # the library rendered and its notes' texts (``io.library_texts``)
    last_reads: PageReads | None = None  # what the last build's pages read


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
