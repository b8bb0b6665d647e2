"""The memo store, ``WORKSPACE/.memwiki/cache/memo/``: what a stage made, by what it was made from.

An entry's key is the stage's name, memwiki's version (``code_fingerprint``: its code, templates and themes) and
the digests of the stage's inputs; the entry is the value pickled, read back with the build cache's safe unpickler
(it builds nothing but memwiki's own record classes and dates), in a file named by the key's digest and written
atomically. A missing, half-written, corrupted or foreign entry is a miss, never an error: the stage makes its
value again. Every entry a build reads or writes is touched; ``keep_only_used`` then removes those it did not, so
the store holds what the last build used (a forked child's reads count too: they touch the same files).

Like Hugo's ``filecache.GetOrCreate``: ``store.get_or_make(stage, inputs, make)``.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

import site_builder
from site_builder.core.collector import cycle_collection_paused

MEMO_FOLDER = "cache/memo"  # under .memwiki/
RETIRED_FOLDERS = ("cache/notes", "cache/fragments", "cache/templates")  # now in the memo store
MARK = ".build-started"  # its time is when the running build began (``begin``)
T = TypeVar("T")
# What a cache file may build: the model's and diagnostics' classes, dates, and nothing that runs code.
ALLOWED = {
    "site_builder.core.model": None,  # any class of the module
    "site_builder.core.diagnostics": None,
    "site_builder.site.fragments": {"Fragments", "LinkNames"},
    "site_builder.site.pagefind": {"SearchStats"},
    "site_builder.site.page_reads": {"PageReads"},
    "site_builder.io.build_cache": {"LastBuild"},
    "site_builder.library.saved": {"_Image"},
    "site_builder.io.library_texts": {"LibraryTexts"},
    "datetime": {"date", "datetime", "timedelta", "timezone"},
}


class MemoStore:
    """Entries under ``folder``; with no folder (``--no-cache``) every value is made and nothing is kept."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.started: int | None = None  # when the build began, by the file system's clock (``begin``)

    @classmethod
    def of(cls, memwiki_dir: Path, *, cache: bool) -> MemoStore:
        return cls(memwiki_dir / MEMO_FOLDER if cache else None)

    def get_or_make(self, stage: str, inputs: tuple[object, ...], make: Callable[[], T], kind: type[T]) -> T:
        """The value ``make()`` gave for these inputs, kept from a build before, or made now and kept."""
        found = self.get(stage, inputs, kind)
        if found is not None:
            return found
        value = make()
        self.put(stage, inputs, value)
        return value

    def get(self, stage: str, inputs: tuple[object, ...], kind: type[T]) -> T | None:
        """The value kept for these inputs, when there is one of type ``kind``; else None."""
        path = self._path(stage, inputs)
        if path is None:
            return None
        try:
            with cycle_collection_paused(), path.open("rb") as file:
                key, value = safe_load(file)
            os.utime(path)  # used by this build
        except Exception:  # any entry it cannot read is no entry
            return None
        return value if key == path.stem and isinstance(value, kind) else None

    def put(self, stage: str, inputs: tuple[object, ...], value: object) -> None:
        """Keep ``value`` for these inputs (atomically: a killed build leaves the old entry or none)."""
        path = self._path(stage, inputs)
        if path is None:
            return
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with tmp.open("wb") as file:
                pickle.dump((path.stem, value), file, protocol=pickle.HIGHEST_PROTOCOL)
            tmp.replace(path)
        except OSError:
            tmp.unlink(missing_ok=True)

    def keep(self, stage: str, inputs: tuple[object, ...]) -> None:
        """Count the entry for these inputs as used without reading it (a build that did not need it this time, but
        whose next build may)."""
        path = self._path(stage, inputs)
        if path is not None:
            with contextlib.suppress(OSError):
                os.utime(path)

    def begin(self) -> None:
        """Mark the start of a build: an entry touched from now on is used by it. The mark is a file's time, so
        that entries and mark are told apart by one clock (the file system's)."""
        if self.folder is None:
            return
        mark = self.folder / MARK
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            mark.touch()
            self.started = mark.stat().st_mtime_ns
        except OSError:
            self.started = None

    def keep_only_used(self) -> int:
        """Remove the entries this build (since ``begin``) neither read, wrote nor kept (the sharded notes and
        fragments and the compiled templates among them), and what a killed build left half-written; how many were
        removed."""
        if self.folder is None or self.started is None or not self.folder.is_dir():
            return 0
        removed = 0
        for path in self.folder.rglob("*"):
            try:
                if path.name == MARK or not path.is_file():
                    continue
                if path.name.startswith(".") or path.stat().st_mtime_ns < self.started:
                    path.unlink()
                    removed += 1
            except OSError:
                continue
        return removed

    def _path(self, stage: str, inputs: tuple[object, ...]) -> Path | None:
        if self.folder is None:
            return None
        key = hashlib.sha256(repr((code_fingerprint(), stage, inputs)).encode("utf-8", "surrogateescape")).hexdigest()
        return self.folder / stage / f"{key[:32]}.pickle"


def keep_files(folder: Path) -> None:
    """Count every file under ``folder`` as used by this build without reading it (a cache this build did not need,
    but whose next build may)."""
    for path in folder.rglob("*"):
        with contextlib.suppress(OSError):
            os.utime(path)


@functools.cache
def code_fingerprint() -> str:
    """memwiki's version and the size and time of every file of the package and of its templates and themes (inside
    the wheel, or beside the package in a checkout): a cache made by other code is never used, and an edited
    template is a new build."""
    package = Path(site_builder.__file__).parent
    stamp = hashlib.sha256(site_builder.__version__.encode())
    beside = [package.parent / name for name in ("templates", "themes") if not (package / name).is_dir()]
    folders = [package, *(folder for folder in beside if folder.is_dir())]
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.suffix != ".pyc":
                info = path.stat()
                stamp.update(f"{path.relative_to(package.parent)}:{info.st_size}:{info.st_mtime_ns}\n".encode())
    return stamp.hexdigest()[:16]


def safe_load(file: BinaryIO) -> Any:
    """Unpickle ``file`` building nothing but memwiki's own record classes and dates (``ALLOWED``)."""
    return _SafeUnpickler(file).load()


class _SafeUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        allowed = ALLOWED.get(module, set())
        if module in ALLOWED and (allowed is None or name in allowed):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"the build cache may not hold {module}.{name}")


def remove_retired(memwiki_dir: Path) -> None:
    """What earlier versions of memwiki kept in files of their own under ``.memwiki/cache/``, gone: the store keeps
    it now."""
    for retired in (memwiki_dir / "cache").glob("*.pickle"):
        retired.unlink(missing_ok=True)
    for retired_folder in RETIRED_FOLDERS:
        shutil.rmtree(memwiki_dir / retired_folder, ignore_errors=True)
