"""The search records of the site, kept by their digests: ``<folder>/<digest>.html``.

A page's record is written once, when a page renders to a record no build has
kept yet; a page kept from the last site keeps its record by its digest alone,
so a build writes, links and removes no record file for the pages it keeps.
Pagefind gets a part's records as hard links at their pages' paths
(``site.pagefind``). The store is pruned to the records of the last site once
that site is complete. A build that keeps no cache puts its records in a temporary
folder of its own (``build_record_store``), gone once its index is made.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Collection
from pathlib import Path

SUFFIX = ".html"
TEMPORARY_RECORDS = "memwiki-records-"  # the prefix of the folder a build without cache puts its records in
RECORDS_FOLDER = "cache/search-records"  # under .memwiki/: the search records of the last site (``io.record_store``)
OLD_RECORDS_FOLDER = "cache/records"  # the records at their pages' paths, as memwiki kept them before the store


def record_file(folder: Path, digest: str) -> Path:
    """Where the record of ``digest`` is kept in the store at ``folder``."""
    return folder / f"{digest}{SUFFIX}"


class RecordStore:
    """The records by digest in ``folder``; render processes put records into it as they go (forked ones too)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self._held: set[str] | None = None  # the names in the folder, listed when first asked

    def has(self, digest: str) -> bool:
        """Whether the store held the record of ``digest`` when first asked (a build asks for the last site's records
        of the pages it keeps, one per page: one listing, not a look-up each)."""
        if self._held is None:
            self._held = {entry.name for entry in os.scandir(self.folder) if entry.is_file()}
        return f"{digest}{SUFFIX}" in self._held

    def put(self, digest: str, data: bytes) -> None:
        """Keep the record ``data`` of ``digest`` unless it is kept already; written whole, then moved into place
        (two processes writing the same record each write all of it)."""
        target = record_file(self.folder, digest)
        if target.is_file():
            return
        temporary = self.folder / f".{digest}.{os.getpid()}"
        try:
            temporary.write_bytes(data)
            temporary.replace(target)
        finally:
            temporary.unlink(missing_ok=True)

    def prune(self, kept: Collection[str]) -> None:
        """Remove every file but the records of ``kept`` (digests): the records of earlier sites, and what a
        killed build left half written."""
        names = {f"{digest}{SUFFIX}" for digest in kept}
        with os.scandir(self.folder) as entries:
            for entry in entries:
                if entry.name not in names:
                    with contextlib.suppress(OSError):  # a folder, or gone already: nothing but records is put here
                        Path(entry.path).unlink()


def build_record_store(memwiki_dir: Path, *, keep: bool) -> RecordStore:
    """Where render puts the search records: the store the last build kept (``keep``), or a temporary folder of
    its own that goes once the index is made."""
    if keep:
        shutil.rmtree(memwiki_dir / OLD_RECORDS_FOLDER, ignore_errors=True)
        return RecordStore(memwiki_dir / RECORDS_FOLDER)
    return RecordStore(Path(tempfile.mkdtemp(prefix=TEMPORARY_RECORDS)))


def drop_temporary_records(records: RecordStore | None) -> None:
    """A build's temporary records, gone (the kept store is pruned by the next build that completes)."""
    if records is not None and records.folder.name.startswith(TEMPORARY_RECORDS):
        shutil.rmtree(records.folder, ignore_errors=True)
