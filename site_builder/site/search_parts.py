"""The parts of the search index: one per year of dated pages (its halves, or its months, when it holds more
than ``DATED_PART_PAGES`` pages or ``PART_KB`` of records), and one for the undated pages (or a few).

Pagefind cannot add a page to an index, so one index for the whole site would be made again from every page
whenever one page changes. Split by the date of each page (a daily log, a session, a dated note), an edit
re-indexes only its part — a few hundred pages or a few megabytes at most, whatever the age of the workspace — and
no Pagefind process holds more than a year of it in memory. A year of a daily log every day is two parts of half a
year: Pagefind takes about 1.5 ms a page of the race corpus (0.5 s for a year, twice that beside the rest of a
build), and an edit waits for it; while the browser pays for each part it searches (the large race corpus, 22
years: a search took 1.1-1.5 s with a part a year, 1.4-1.9 s with two). Pagefind's time follows the text, not the
pages: a real agent's few months of daily logs of 100-340 kB each (9 MB of records) were one part, which every
edit of today's log made again (1.7 s); such a half year is split by month. The browser loads Pagefind and its
WebAssembly once and opens every part in it (``search-core.js``), so a part costs it only that part's own index
files. The pages without a date (entities, bank pages, core memory) are a part of their own, or a few of
``UNDATED_PART_PAGES`` each.

A record's year and month come from its date (``data-pagefind-sort="date"``, which the page's search data holds at
its start) and start its name, then its size in kB (``record_digest``: ``2024-03-12-…``, ``pages-17-…``), so no
record is read or looked at again to find its part.
"""

from __future__ import annotations

import hashlib
import re

UNDATED = "pages"  # the part of the pages without a date (``pages-01``, ``pages-02``… when there are many)
UNDATED_PART_PAGES = 300  # undated pages in a part, about (a year of daily logs is 365, records half the size)
DATED_PART_PAGES = 200  # a year of more dated pages than this is two parts, by half year
PART_KB = 3_000  # records in a part, about (a half year of the large race corpus is 2.1 MB: Pagefind 0.5 s)
SLOTS = 64  # the undated pages' slots, by path: a part holds a range of them
WHOLE = "all"  # the only part of a site whose text is not split on spaces (one index: see ``split_parts``)
_DATE = re.compile(r'data-pagefind-sort="date">(\d{4})-(\d\d)-\d\d<')
_HEAD = 4096  # the search data comes right after the title: a record's date is in its first characters
_NAME = re.compile(rf"(\d{{4}}-\d\d|{UNDATED})-(\d+)-")

Pages = dict[str, str]  # site path -> record digest


def record_digest(record: str) -> str:
    """The name of a search record: the year and month of its date (``UNDATED`` without a date), its size in kB,
    then a digest of its text."""
    data = record.encode("utf-8", "surrogateescape")
    digest = hashlib.blake2b(data, digest_size=16).hexdigest()
    dated = _DATE.search(record, 0, _HEAD)
    when = UNDATED if dated is None else f"{dated.group(1)}-{dated.group(2)}"
    return f"{when}-{len(data) // 1000 + 1}-{digest}"


def split_parts(digests: Pages, language: str) -> dict[str, Pages]:
    """Part name -> (site path -> record digest): a part per year (``2024``), or its halves (``2024-1``: January to
    June, ``2024-2``), or a half's months (``2024-03``) when a year or half is more than ``DATED_PART_PAGES`` pages
    or ``PART_KB`` of records, oldest first; then the undated pages, in as many parts as it takes to hold about
    ``UNDATED_PART_PAGES`` each (``undated_parts``). Chinese and Japanese sites stay one index: the browser's merge
    tells a part's real matches from Pagefind's fallback to a shorter word by stemming English words
    (``search-core.js``), which says nothing of words inside unspaced text."""
    if language != "en":
        return {WHOLE: dict(digests)} if digests else {}
    months: dict[str, dict[str, Pages]] = {}  # year -> its months ("03") -> their pages
    undated: Pages = {}
    for path, digest in digests.items():
        when, _ = _name(digest)
        if when == UNDATED:
            undated[path] = digest
        else:
            year, _, month = when.partition("-")
            months.setdefault(year, {}).setdefault(month, {})[path] = digest
    parts: dict[str, Pages] = {}
    for year, in_year in sorted(months.items()):
        if _fits([*in_year.values()]):
            parts[year] = _joined([*in_year.values()])
            continue
        for half, first, last in (("1", "01", "06"), ("2", "07", "12")):
            in_half = {month: pages for month, pages in sorted(in_year.items()) if first <= month <= last}
            if in_half and _fits([*in_half.values()]):
                parts[f"{year}-{half}"] = _joined([*in_half.values()])
            else:
                parts |= {f"{year}-{month}": pages for month, pages in in_half.items()}
    return parts | dict(sorted(undated_parts(undated).items()))


def _name(digest: str) -> tuple[str, int]:
    """What a record's name says (``record_digest``): its year and month, or ``UNDATED``; and its size in kB (a name
    of another form: undated, of no size)."""
    said = _NAME.match(digest)
    return (said[1], int(said[2])) if said else (UNDATED, 0)


def _fits(groups: list[Pages]) -> bool:
    """Whether these pages are few and small enough for one part."""
    return sum(map(len, groups)) <= DATED_PART_PAGES and _kb(groups) <= PART_KB


def _kb(groups: list[Pages]) -> int:
    return sum(_name(digest)[1] for pages in groups for digest in pages.values())


def _joined(groups: list[Pages]) -> Pages:
    return {path: digest for pages in groups for path, digest in pages.items()}


def undated_parts(records: Pages) -> dict[str, Pages]:
    """The undated pages (entities, bank pages, core memory: a ten-year workspace has thousands, 17 kB of record
    each) in parts of about ``UNDATED_PART_PAGES`` (a hash spreads them): an edit of an entity page
    re-indexes its part, not all of them. A page's part is fixed by its path (one of ``SLOTS``, a range of slots to
    a part), so the parts change only when their number does (a power of two)."""
    count = 1
    while count < SLOTS and len(records) > count * UNDATED_PART_PAGES:
        count *= 2
    if count == 1:
        return {UNDATED: records} if records else {}
    parts: dict[str, Pages] = {}
    for path, digest in records.items():
        slot = int.from_bytes(hashlib.blake2b(path.encode("utf-8", "surrogateescape"), digest_size=4).digest(), "big")
        parts.setdefault(f"{UNDATED}-{slot % SLOTS // (SLOTS // count) + 1:02d}", {})[path] = digest
    return parts


def is_undated(part: str) -> bool:
    """Whether a part (of ``split_parts``) holds undated pages."""
    return part == UNDATED or part.startswith(f"{UNDATED}-")
