"""The parts of the search index: one per year of dated pages (two, by half year, for a year of more than
``DATED_PART_PAGES``), and one for the undated pages.

Pagefind cannot add a page to an index, so one index for the whole site would be made again from every page
whenever one page changes. Split by the year of each page's date (a daily log, a session, a dated note), an edit
re-indexes only its year's part — a few hundred pages at most, whatever the age of the workspace — and no
Pagefind process holds more than a year of it in memory. A year of a daily log every day is two parts of half a
year: Pagefind takes about 1.5 ms a page (0.5 s for a year, twice that beside the rest of a build), and an edit
waits for it; while the browser pays for each part it searches (the large race corpus, 22 years: a search took
1.1-1.5 s with a part a year, 1.4-1.9 s with two). The browser loads Pagefind and its WebAssembly once and opens
every part in it (``search-core.js``), so a part costs it only that part's own index files. The pages without a
date (entities, bank pages, core memory) are a part of their own, or a few of ``UNDATED_PART_PAGES`` each.

A record's year and half year come from its date (``data-pagefind-sort="date"``, which the page's search data
holds at its start) and are the start of its digest (``record_digest``: ``2024-1-…``, ``2024-2-…``,
``pages-…``), so no record is read again to find its part.
"""

from __future__ import annotations

import hashlib
import re

UNDATED = "pages"  # the part of the pages without a date (``pages-01``, ``pages-02``… when there are many)
UNDATED_PART_PAGES = 300  # undated pages in a part, about (a year of daily logs is 365, records half the size)
DATED_PART_PAGES = 200  # a year of more dated pages than this is two parts, by half year
SLOTS = 64  # the undated pages' slots, by path: a part holds a range of them
WHOLE = "all"  # the only part of a site whose text is not split on spaces (one index: see ``split_parts``)
_DATE = re.compile(r'data-pagefind-sort="date">(\d{4})-(\d\d)-\d\d<')
_HEAD = 4096  # the search data comes right after the title: a record's date is in its first characters


def record_digest(record: str) -> str:
    """The name of a search record: the year of its date and its half (``2024-1``: January to June; ``UNDATED``
    without a date), then a digest of its text."""
    dated = _DATE.search(record, 0, _HEAD)
    digest = hashlib.blake2b(record.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
    if dated is None:
        return f"{UNDATED}-{digest}"
    return f"{dated.group(1)}-{1 if dated.group(2) <= '06' else 2}-{digest}"


def split_parts(digests: dict[str, str], language: str) -> dict[str, dict[str, str]]:
    """Part name -> (site path -> record digest): a part per year (``2024``), or its halves when it has more than
    ``DATED_PART_PAGES`` pages (``2024-1``, ``2024-2``), oldest first, then the undated pages, in as many parts as
    it takes to hold about ``UNDATED_PART_PAGES`` each (``undated_parts``). Chinese and Japanese sites stay one
    index: the browser's merge tells a part's real matches from Pagefind's fallback to a shorter word by stemming
    English words (``search-core.js``), which says nothing of words inside unspaced text."""
    if language != "en":
        return {WHOLE: dict(digests)} if digests else {}
    years: dict[str, dict[str, dict[str, str]]] = {}  # year -> its halves -> their pages
    undated: dict[str, str] = {}
    for path, digest in digests.items():
        half = digest.rpartition("-")[0]
        if half == UNDATED:
            undated[path] = digest
        else:
            years.setdefault(half.partition("-")[0], {}).setdefault(half, {})[path] = digest
    parts: dict[str, dict[str, str]] = {}
    for year, halves in sorted(years.items()):
        if sum(map(len, halves.values())) > DATED_PART_PAGES:
            parts |= sorted(halves.items())
        else:
            parts[year] = {path: digest for pages in halves.values() for path, digest in pages.items()}
    return parts | dict(sorted(undated_parts(undated).items()))


def undated_parts(records: dict[str, str]) -> dict[str, dict[str, str]]:
    """The undated pages (entities, bank pages, core memory: a ten-year workspace has thousands, 17 kB of record
    each) in parts of about ``UNDATED_PART_PAGES`` (a hash spreads them): an edit of an entity page re-indexes its
    part, not all of them. A page's part is fixed by its path (one of ``SLOTS``, a range of slots to a part), so the
    parts change only when their number does (a power of two)."""
    count = 1
    while count < SLOTS and len(records) > count * UNDATED_PART_PAGES:
        count *= 2
    if count == 1:
        return {UNDATED: records} if records else {}
    parts: dict[str, dict[str, str]] = {}
    for path, digest in records.items():
        slot = int.from_bytes(hashlib.blake2b(path.encode("utf-8", "surrogateescape"), digest_size=4).digest(), "big")
        parts.setdefault(f"{UNDATED}-{slot % SLOTS // (SLOTS // count) + 1:02d}", {})[path] = digest
    return parts


def is_undated(part: str) -> bool:
    """Whether a part (of ``split_parts``) holds undated pages."""
    return part == UNDATED or part.startswith(f"{UNDATED}-")
