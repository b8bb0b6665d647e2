"""The build cache, ``WORKSPACE/.memwiki/cache/``: what a build reuses from the last one. Three folders: the memo
store (``memo/``, ``io.memo_store``: every entry a build did not use is removed after it), the search index's
parts (``search/``) and the search records (``search-records/``).

- the memo store's ``notes/``: every parsed note by its file's path, kind and content
  hash, so a rebuild parses only the files that changed;
- its ``fragments/``: the HTML of every note and line the site rendered,
  reused while links resolve the same, and how each page was made (``site.fragments_cache``);
- its ``templates/``: the templates compiled (``site.environment.keep_compiled_templates``);
- ``search/<part>/<hash>/``: the last search index, in parts (one per year of dated pages, one for the
  rest), each by the hash of the search records it was made from (``site.pagefind``), so a build runs
  Pagefind only on the parts whose searchable pages changed; ``search/records.json`` says which part each
  record went into;
- the memo store's ``recall-shards`` (``io.memo_store``): what each recall shard of the last site was made from, so an unchanged shard is
  kept, not made and written again;
- the memo store's ``library``, ``library-opinions``, ``library-notes``: the linked library, its opinions and
  the notes it holds for (``library.saved``), so an edit that changes no note's links does not link every note
  again, and one that does links only what it changed (``library.relink``);
- its ``page-reads``: which notes' texts each page's inputs read (``site.page_reads``), so that with the
  last build's library a page reading no changed text is kept without its inputs worked out;
- its ``read``: the stamps, digest and reading problems of each file the last build read, so that the next one
  reads only the files whose stamps changed;
- its ``last-build`` (by output folder): the fingerprint of the last build's input (of its files' contents, and of their stamps
  when those can vouch for them) and what it reported, so the same input into an untouched output folder is not
  built again, and is told so without reading a file.

The notes and fragments are kept in shards (by path, or by text), and a build writes again only the shards
whose entries changed: after one edit, a few files, not the whole cache. Each file is keyed by memwiki's code (its version and the size and time of its
source files, templates and themes): an upgrade or an edited checkout never
reuses what other code made. A cache that cannot be used — another version, a half-written file,
anything — is ignored and written anew: it only ever saves time (``--no-cache``
skips it). It is read with an unpickler that builds nothing but memwiki's own
record classes and dates, so a cache file planted in a shared workspace cannot
run code.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import pickle
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from site_builder.core.collector import cycle_collection_paused
from site_builder.core.diagnostics import Diagnostic
from site_builder.core.model import Note
from site_builder.io.library_texts import LibraryTexts
from site_builder.io.memo_store import MEMO_FOLDER, MemoStore, code_fingerprint, safe_load
from site_builder.io.staging import MARKER, Staging, Stamp

NOTES_FOLDER = f"{MEMO_FOLDER}/notes"
NOTE_SHARDS = 64  # a rebuild after one edit writes one shard of notes again, not every note
HEAVY_NOTE_SHARDS = 16  # after those, for heavy notes: an edit of a day never pickles one again (``_note_shard``)
LARGE_NOTE = 1 << 20
NoteKey = tuple[str, str, str, str]  # path, kind, content hash, what reading it found
ShardMarks = dict[str, tuple[str, Stamp]]  # recall shard path -> (digest of its inputs, its file as a build left it)
# The last build's recall shards: its library and texts (None: not known), and the shards' marks.
LastShards = tuple[LibraryTexts | None, ShardMarks]


@dataclass(frozen=True)
class LastBuild:
    """What the last successful build started from (``key``) and what it reported, so that a build of the very
    same input into the same, untouched output folder can say so instead of doing it all again."""

    key: str
    stamps: str  # the same input, told from the files' stamps alone (``io.listing.list_notes``); "" when they could not tell
    output: str
    site_files: int  # files in the output folder after it (what the build said it made)
    pages: int
    diagnostics: tuple[Diagnostic, ...]
    recall_report: str
    search: object  # SearchStats | None


def build_key(sources: Iterable[tuple[object, ...]], settings: Iterable[object]) -> str:
    """A fingerprint of a build's whole input: memwiki's code, the settings and every file (its path, kind, content
    hash and what reading it found; or its path and stamps)."""
    digest = hashlib.sha256(code_fingerprint().encode())
    for setting in settings:
        digest.update(repr(setting).encode() + b"\0")
    for source in sources:
        digest.update(repr(source).encode() + b"\n")
    return digest.hexdigest()


def last_build(memwiki_dir: Path, output: Path) -> LastBuild | None:
    """The last build, when it was into ``output`` (whether that folder still holds what it wrote: ``in_place``)."""
    last = MemoStore.of(memwiki_dir, cache=True).get("last-build", (str(output),), LastBuild)
    return last if last is not None and last.output == str(output) else None


def save_last_build(store: MemoStore, last: LastBuild) -> None:
    """What a build into ``last.output`` started from and reported (``last_build`` finds it)."""
    store.put("last-build", (last.output,), last)


def in_place(last: LastBuild) -> bool:
    """Does the last build's output still hold what it wrote (its marker, and as many files)? Asked only when the
    input is the same: a site of 12,000 files takes 40 ms to count."""
    output = Path(last.output)
    return (output / MARKER).is_file() and count_files(output) == last.site_files


def count_files(folder: Path) -> int:
    return sum(len(files) for _, _, files in os.walk(folder))


def note_key(path: str, kind: str, digest: str, problems: tuple[Any, ...]) -> NoteKey:
    return (path, kind, digest, repr(problems))


def shard_of(text: str, shards: int) -> str:
    """The shard of a cache split in ``shards`` files that holds the entry named ``text``."""
    return f"{_shard_number(text, shards):02x}.pickle"


def _shard_number(text: str, shards: int) -> int:
    return zlib.crc32(text.encode("utf-8", "surrogateescape")) % shards


class Sharded(dict[Any, Any]):
    """The entries of a cache kept in shards, as ``load_sharded`` found them, and the keys each shard held: the
    shards an edit changes are written again from their own keys, not from every entry's."""

    def __init__(self, shards: int) -> None:
        super().__init__()
        self.keys_by_shard: list[list[Any]] = [[] for _ in range(shards)]


def load_sharded(memwiki_dir: Path, folder: str, shards: int) -> Sharded:
    """Every entry of a cache kept in shards; a shard it cannot trust only loses its own entries."""
    entries = Sharded(shards)
    with cycle_collection_paused():  # not between shards either: each time it ran, it would walk all loaded so far
        for shard in range(shards):
            found = load_cached(memwiki_dir, f"{folder}/{shard:02x}.pickle")
            if isinstance(found, dict):
                entries.update(found)
                entries.keys_by_shard[shard] = list(found)
    return entries


def save_sharded(
    memwiki_dir: Path,
    folder: str,
    shards: int,
    entries: dict[Any, Any],
    last: dict[Any, Any],
    name: Callable[[Any], str],
    *,
    by_content: bool = False,
    shard_at: Callable[[Any, Any], int] | None = None,
) -> None:
    """Write the shards whose entries are not those of ``last`` (what ``load_sharded`` gave); ``name`` is the text
    an entry's key is put in its shard by (``shard_at``, when given, says the shard of a key and its entry). The shards
    are told from the entries that changed: after an edit, the few that hold them are worked out and written, not
    every shard compared. ``by_content``: the entries are keyed by what they are made from (an entry never changes
    under its key): only the keys that came or went are looked for."""
    missing = object()
    changed = entries.keys() ^ last.keys()
    if not by_content:
        changed.update(
            key for key, value in entries.items() if (was := last.get(key, missing)) is not value and was != value
        )
    if not changed:
        return
    at = shard_at or (lambda key, value: _shard_number(name(key), shards))
    numbers = {key: at(key, entries[key] if key in entries else last[key]) for key in changed}
    held = last.keys_by_shard if isinstance(last, Sharded) and len(last.keys_by_shard) == shards else None
    dirty: dict[int, dict[Any, Any]] = {number: {} for number in numbers.values()}
    if held is None:  # not loaded from shards: every entry's shard is worked out
        for key, value in entries.items():
            shard = dirty.get(at(key, value))
            if shard is not None:
                shard[key] = value
    else:
        for number, shard in dirty.items():
            came = (key for key, at in numbers.items() if at == number and key not in last)
            shard.update((key, entries[key]) for key in itertools.chain(held[number], came) if key in entries)
    for number, shard in sorted(dirty.items()):
        save_cached(memwiki_dir, f"{folder}/{number:02x}.pickle", shard)


def load_notes(memwiki_dir: Path) -> dict[NoteKey, Note]:
    """The notes parsed by the last build, by key; a shard it cannot trust only costs its notes a parse."""
    return load_sharded(memwiki_dir, NOTES_FOLDER, NOTE_SHARDS + HEAVY_NOTE_SHARDS)


def save_notes(memwiki_dir: Path, notes: dict[NoteKey, Note], last: dict[NoteKey, Note]) -> None:
    """Write the shards whose notes are not those of ``last`` (what ``load_notes`` gave: a note is equal only to
    itself, so an unchanged note is the very one loaded)."""
    shards = NOTE_SHARDS + HEAVY_NOTE_SHARDS
    save_sharded(memwiki_dir, NOTES_FOLDER, shards, notes, last, str, by_content=True, shard_at=_note_shard)


def _note_shard(key: NoteKey, note: Note) -> int:
    """By its path; among the heavy notes' own when it is over ``LARGE_NOTE`` characters or holds reflect's opinion
    history, which grows with every fact judged (the large race corpus's bank/opinions.md: 136 MB pickled)."""
    if len(note.body) > LARGE_NOTE or note.reflected.opinion_history:
        return NOTE_SHARDS + _shard_number(key[0], HEAVY_NOTE_SHARDS)
    return _shard_number(key[0], NOTE_SHARDS)


def load_shard_marks(memwiki_dir: Path) -> LastShards:
    """What each recall shard of the last site was made from, and its file as that build left it; with the library
    and texts it was made from."""
    found = MemoStore.of(memwiki_dir, cache=True).get("recall-shards", (), tuple)
    if (
        isinstance(found, tuple)
        and len(found) == 2
        and isinstance(found[0], LibraryTexts)
        and isinstance(found[1], dict)
    ):
        return found[0], found[1]
    return None, {}


def kept_shard(last: ShardMarks, staging: Staging) -> Callable[[str, str], bool]:
    """``bundle.KeptShard``: keeps the last site's shard at a path (a hard link into ``staging``) when it was made
    from the same inputs and its file is as that build left it."""

    def kept(path: str, inputs: str) -> bool:
        mark = last.get(path)
        return mark is not None and mark[0] == inputs and staging.keep(path, mark[1])

    return kept


def load_cached(memwiki_dir: Path, name: str) -> Any:
    """What the last build saved as ``name``, or None when there is nothing it can trust."""
    try:
        with cycle_collection_paused(), (memwiki_dir / name).open("rb") as file:  # read as unpickled, not held whole
            fingerprint, value = safe_load(file)
        os.utime(memwiki_dir / name)  # used by this build: the memo store keeps it (``MemoStore.keep_only_used``)
    except Exception:  # any cache it cannot read is no cache
        return None
    return value if fingerprint == code_fingerprint() else None


def save_cached(memwiki_dir: Path, name: str, value: Any) -> None:
    """Write ``name`` atomically (a killed build leaves the old file or none); a failure only costs time."""
    target = memwiki_dir / name
    tmp = target.with_name(f".{target.name}.{os.getpid()}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tmp.open("wb") as file:  # written as it is pickled: the whole pickle is never in memory at once
            pickle.dump((code_fingerprint(), value), file, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(target)
    except OSError:
        tmp.unlink(missing_ok=True)
