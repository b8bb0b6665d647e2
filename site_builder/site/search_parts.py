"""The parts of the search index: one per year of dated pages, one for the pages without a date.

Pagefind cannot add a page to an index, so one index for the whole site would be made again from every page
whenever one page changes. Split by the year of each page's date (a daily log, a session, a dated note) plus one
part for the rest (entities, bank pages, core memory), an edit re-indexes only the part its page is in: most edits
land in this year's logs. The browser searches every part and merges their results (``search-core.js``).

Which part a record is in comes from its date (``data-pagefind-sort="date"``, which the page's search data
holds at its start). The parts of the last index are remembered with the digest of each record
(``KNOWN_FILE``), so only records that changed are read to find theirs.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

UNDATED = "pages"  # the part of the pages without a date
WHOLE = "all"  # the only part of a site whose text is not split on spaces (one index: see ``split_parts``)
KNOWN_FILE = "records.json"  # in the index cache: site path -> [record digest, part] of the last index
_DATE = re.compile(rb'data-pagefind-sort="date">(\d{4})-\d\d-\d\d<')
_HEAD = 4096  # the search data comes right after the title: a record's date is in its first bytes


def split_parts(
    folder: Path, digests: dict[str, str], known: dict[str, tuple[str, str]], language: str
) -> dict[str, dict[str, str]]:
    """Part name -> (site path -> record digest) for the records in ``folder``. ``known``: the parts of the last
    index by path, with the digest each record had then. Chinese and Japanese sites stay one index: the browser's
    merge tells a part's real matches from Pagefind's prefix fallback by stemming English words (``search-core.js``),
    which says nothing of words found inside unspaced text."""
    if language != "en":
        return {WHOLE: dict(digests)} if digests else {}
    parts: dict[str, dict[str, str]] = {}
    for path, digest in digests.items():
        last = known.get(path)
        part = last[1] if last is not None and last[0] == digest and last[1] != WHOLE else _part_of(folder / path)
        parts.setdefault(part, {})[path] = digest
    return dict(sorted(parts.items(), key=lambda item: (item[0] == UNDATED, item[0])))


def _part_of(record: Path) -> str:
    """The year of a record's date, or ``UNDATED``."""
    try:
        with record.open("rb") as file:
            found = _DATE.search(file.read(_HEAD))
    except OSError:
        return UNDATED
    return found.group(1).decode() if found else UNDATED


def load_known(store: Path) -> dict[str, tuple[str, str]]:
    """The parts of the last index (site path -> (digest, part)); empty when there is none or it cannot be read."""
    try:
        raw = json.loads((store / KNOWN_FILE).read_text(encoding="utf-8"))
        return {str(path): (str(entry[0]), str(entry[1])) for path, entry in raw.items()}
    except (OSError, ValueError, TypeError, AttributeError, IndexError, KeyError):
        return {}


def save_known(store: Path, parts: dict[str, dict[str, str]]) -> None:
    """Remember which part each record went into (written whole, then moved into place)."""
    known = {path: [digest, part] for part, records in parts.items() for path, digest in records.items()}
    temporary = store / f".{KNOWN_FILE}.{os.getpid()}"
    temporary.write_text(json.dumps(known, sort_keys=True), encoding="utf-8")
    temporary.replace(store / KNOWN_FILE)
