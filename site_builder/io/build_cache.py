"""The build cache, ``WORKSPACE/.memwiki/cache/``: what a build reuses from the last one.

``notes.pickle`` holds every parsed note by its file's path, kind and content
hash, so a rebuild parses only the files that changed; ``fragments.pickle`` the
HTML of every note and line the site rendered, reused while links resolve the
same. The whole file is keyed
by memwiki's code (its version and the size and time of its source files), so
an upgrade or an edited checkout never reuses notes parsed by other code. A
cache that cannot be used — another version, a half-written file, anything —
is ignored and written anew: it only ever saves time (``--no-cache`` skips it).

It is read with an unpickler that builds nothing but memwiki's model classes,
dates and plain containers, so a cache file planted in a shared workspace
cannot run code.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import pickle
from pathlib import Path
from typing import Any

import site_builder
from site_builder.core.model import Note

NOTES_FILE = "cache/notes.pickle"
FRAGMENTS_FILE = "cache/fragments.pickle"
# What a cache file may build: the model's and diagnostics' classes, dates, and nothing that runs code.
ALLOWED = {
    "site_builder.core.model": None,  # any class of the module
    "site_builder.core.diagnostics": None,
    "site_builder.site.builder": {"Fragments"},
    "datetime": {"date", "datetime", "timedelta", "timezone"},
}

NoteKey = tuple[str, str, str, str]  # path, kind, content hash, what reading it found


def note_key(path: str, kind: str, digest: str, problems: tuple[Any, ...]) -> NoteKey:
    return (path, kind, digest, repr(problems))


@functools.cache
def code_fingerprint() -> str:
    """memwiki's version and the size and time of every source file of the package: a cache made by other code
    is never used."""
    package = Path(site_builder.__file__).parent
    stamp = hashlib.sha256(site_builder.__version__.encode())
    for path in sorted(package.rglob("*.py")):
        info = path.stat()
        stamp.update(f"{path.relative_to(package)}:{info.st_size}:{info.st_mtime_ns}\n".encode())
    return stamp.hexdigest()[:16]


def load_notes(memwiki_dir: Path) -> dict[NoteKey, Note]:
    """The notes parsed by the last build, by key; empty when there is no cache it can trust."""
    notes = load_cached(memwiki_dir, NOTES_FILE)
    return notes if isinstance(notes, dict) else {}


def save_notes(memwiki_dir: Path, notes: dict[NoteKey, Note]) -> None:
    save_cached(memwiki_dir, NOTES_FILE, notes)


def load_cached(memwiki_dir: Path, name: str) -> Any:
    """What the last build saved as ``name``, or None when there is nothing it can trust."""
    try:
        data = (memwiki_dir / name).read_bytes()
        fingerprint, value = _SafeUnpickler(io.BytesIO(data)).load()
    except Exception:  # any cache it cannot read is no cache
        return None
    return value if fingerprint == code_fingerprint() else None


def save_cached(memwiki_dir: Path, name: str, value: Any) -> None:
    """Write ``name`` atomically (a killed build leaves the old file or none); a failure only costs time."""
    target = memwiki_dir / name
    tmp = target.with_name(f".{target.name}.{os.getpid()}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(pickle.dumps((code_fingerprint(), value), protocol=pickle.HIGHEST_PROTOCOL))
        tmp.replace(target)
    except OSError:
        tmp.unlink(missing_ok=True)


class _SafeUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        allowed = ALLOWED.get(module, set())
        if module in ALLOWED and (allowed is None or name in allowed):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"the build cache may not hold {module}.{name}")
