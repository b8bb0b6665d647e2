"""The parts of the search index: one per year of dated pages, and one for the undated pages.

Pagefind cannot add a page to an index, so one index for the whole site would be made again from every page
whenever one page changes. Split by the year of each page's date (a daily log, a session, a dated note), an edit
re-indexes only its year's part — a few hundred pages at most, whatever the age of the workspace — and no
Pagefind process holds more than a year of it in memory. The browser loads Pagefind and its WebAssembly once and
opens every part in it (``search-core.js``), so a part costs it only that part's own index files. The pages
without a date (entities, bank pages, core memory) are a part of their own, or a few of ``UNDATED_PART_PAGES``
each.

A record's year comes from its date (``data-pagefind-sort="date"``, which the page's search data holds at its
start) and is the start of its digest (``record_digest``: ``2024-…``, ``pages-…``), so no record is read again to
find its part.
"""

from __future__ import annotations

import hashlib
import re

UNDATED = "pages"  # the part of the pages without a date (``pages-01``, ``pages-02``… when there are many)
UNDATED_PART_PAGES = 300  # undated pages in a part, about (a year of daily logs is 365, records half the size)
SLOTS = 64  # the undated pages' slots, by path: a part holds a range of them
WHOLE = "all"  # the only part of a site whose text is not split on spaces (one index: see ``split_parts``)
_DATE = re.compile(r'data-pagefind-sort="date">(\d{4})-\d\d-\d\d<')
_HEAD = 4096  # the search data comes right after the title: a record's date is in its first characters


def record_digest(record: str) -> str:
    """The name of a search record: the year of its date (``UNDATED`` without one), then a digest of its text."""
    dated = _DATE.search(record, 0, _HEAD)
    digest = hashlib.blake2b(record.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
    return f"{dated.group(1) if dated else UNDATED}-{digest}"


def split_parts(digests: dict[str, str], language: str) -> dict[str, dict[str, str]]:
    """Part name -> (site path -> record digest): a part per year, oldest first, then the undated pages, in as many
    parts as it takes to hold about ``UNDATED_PART_PAGES`` each (``undated_parts``). Chinese and Japanese sites
    stay one index: the browser's merge tells a part's real matches from Pagefind's fallback to a shorter word by
    stemming English words (``search-core.js``), which says nothing of words inside unspaced text."""
    if language != "en":
        return {WHOLE: dict(digests)} if digests else {}
    parts: dict[str, dict[str, str]] = {}
    for path, digest in digests.items():
        parts.setdefault(digest.partition("-")[0], {})[path] = digest
    undated = parts.pop(UNDATED, {})
    parts |= undated_parts(undated)
    return dict(sorted(parts.items(), key=lambda item: (is_undated(item[0]), item[0])))


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
