"""The parts of the search index: one per year of dated pages, and one for the undated pages.

Pagefind cannot add a page to an index, so one index for the whole site would be made again from every page
whenever one page changes. Split by the year of each page's date (a daily log, a session, a dated note), an edit
re-indexes only its year's part — a few hundred pages at most, whatever the age of the workspace — and no
Pagefind process holds more than a year of it in memory. The browser loads Pagefind and its WebAssembly once and
opens every part in it (``search-core.js``), so a part costs it only that part's own index files. The pages
without a date (entities, bank pages, core memory) are a part of their own.

A record's year comes from its date (``data-pagefind-sort="date"``, which the page's search data holds at its
start). The year of each record of the last index is remembered with its digest (``KNOWN_FILE``), so only the
records that changed are read to find theirs.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from site_builder.io.record_store import record_file

UNDATED = "pages"  # the part of the pages without a date
WHOLE = "all"  # the only part of a site whose text is not split on spaces (one index: see ``split_parts``)
KNOWN_FILE = "records.json"  # in the index cache: site path -> [record digest, year] of the last index
_DATE = re.compile(rb'data-pagefind-sort="date">(\d{4})-\d\d-\d\d<')
_HEAD = 4096  # the search data comes right after the title: a record's date is in its first bytes


def record_years(store: Path, digests: dict[str, str], known: dict[str, tuple[str, str]]) -> dict[str, str]:
    """Site path -> the year of each record kept in ``store`` (``UNDATED`` when it has no date). ``known``: the
    years of the last index by path, with the digest each record had then."""
    years = {}
    for path, digest in digests.items():
        last = known.get(path)
        years[path] = last[1] if last is not None and last[0] == digest else _year_of(record_file(store, digest))
    return years


def split_parts(digests: dict[str, str], years: dict[str, str], language: str) -> dict[str, dict[str, str]]:
    """Part name -> (site path -> record digest): a part per year, oldest first, then the undated pages. Chinese and
    Japanese sites stay one index: the browser's merge tells a part's real matches from Pagefind's fallback to a
    shorter word by stemming English words (``search-core.js``), which says nothing of words inside unspaced
    text."""
    if language != "en":
        return {WHOLE: dict(digests)} if digests else {}
    parts: dict[str, dict[str, str]] = {}
    for path, digest in digests.items():
        parts.setdefault(years[path], {})[path] = digest
    return dict(sorted(parts.items(), key=lambda item: (item[0] == UNDATED, item[0])))


def _year_of(record: Path) -> str:
    """The year of a record's date, or ``UNDATED``."""
    try:
        with record.open("rb") as file:
            found = _DATE.search(file.read(_HEAD))
    except OSError:
        return UNDATED
    return found.group(1).decode() if found else UNDATED


def load_known(store: Path) -> dict[str, tuple[str, str]]:
    """The years of the records of the last index (site path -> (digest, year)); empty when there is none or it
    cannot be read."""
    try:
        raw = json.loads((store / KNOWN_FILE).read_text(encoding="utf-8"))
        known = {str(path): (str(entry[0]), str(entry[1])) for path, entry in raw.items()}
    except (OSError, ValueError, TypeError, AttributeError, IndexError, KeyError):
        return {}
    return {path: entry for path, entry in known.items() if entry[1] == UNDATED or entry[1].isdigit()}


def save_known(store: Path, digests: dict[str, str], years: dict[str, str]) -> None:
    """Remember the year of each record (written whole, then moved into place)."""
    known = {path: [digest, years[path]] for path, digest in digests.items()}
    temporary = store / f".{KNOWN_FILE}.{os.getpid()}"
    temporary.write_text(json.dumps(known, sort_keys=True), encoding="utf-8")
    temporary.replace(store / KNOWN_FILE)
