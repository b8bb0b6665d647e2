"""The rendered HTML in the build cache, ``WORKSPACE/.memwiki/cache/fragments/``: every note and line the site
rendered, reused while links resolve the same (``site.fragments``), and how each page was made (its mark), in
shards (``io.build_cache.save_sharded``) so that an edit writes again only the few that changed."""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

from site_builder.core.model import Note
from site_builder.io.build_cache import Sharded, load_cached, load_sharded, save_cached, save_sharded
from site_builder.io.memo_store import MEMO_FOLDER, keep_files
from site_builder.site.fragments import Fragments, LinkNames

FRAGMENTS_FOLDER = f"{MEMO_FOLDER}/fragments"
FRAGMENT_SHARDS = 64


def load_fragments(memwiki_dir: Path) -> Fragments | None:
    """The HTML the last build rendered, None when its cache cannot be trusted."""
    context = load_cached(memwiki_dir, f"{FRAGMENTS_FOLDER}/context.pickle")
    if not (isinstance(context, tuple) and len(context) == 2 and isinstance(context[1], LinkNames)):
        return None
    fragments = Fragments(str(context[0]), context[1], pages=_load_part(memwiki_dir, "pages"))

    def read() -> None:  # when first needed (``Fragments.read``): most of the cache, 115 MB on the large race corpus
        fragments.notes, fragments.inline = _load_part(memwiki_dir, "notes"), _load_part(memwiki_dir, "inline")

    fragments.unread = read
    return fragments


def _load_part(memwiki_dir: Path, part: str) -> Sharded:
    return load_sharded(memwiki_dir, f"{FRAGMENTS_FOLDER}/{part}", FRAGMENT_SHARDS)


def save_rendered(memwiki_dir: Path, fragments: Fragments, last: Fragments | None, notes: Iterable[Note]) -> bool:
    """Write the shards of the rendered HTML (notes and lines) that changed since ``last`` (what ``load_fragments``
    gave); the HTML of a note's earlier texts is dropped. In a new epoch (links resolve differently:
    ``site.fragments``), or when nothing was loaded, the whole cache is written anew, and True says so: the page
    marks are then written whole too (``save_page_marks``). The epoch and the names links resolve to come last:
    a killed build never leaves HTML of one epoch under another, nor names that the HTML beside them was not
    checked against. The HTML is keyed by what it was made from: it may be saved before the site is swapped in."""
    if fragments.unread is not None:  # not read: this build made few pages. The cache stays as it was (what is stale
        keep_files(memwiki_dir / FRAGMENTS_FOLDER)  # goes when a build reads it), and so do the names it holds for.
        return False
    digests = {note.path: note.digest for note in notes}
    fragments.notes = {key: html for key, html in fragments.notes.items() if digests.get(_rendered_path(key)) == key[1]}
    anew = last is None or last.epoch != fragments.epoch
    if anew:
        shutil.rmtree(memwiki_dir / FRAGMENTS_FOLDER, ignore_errors=True)
    for part in ("notes", "inline"):
        before = getattr(last, part) if last is not None and not anew else {}
        name = (lambda key: str(key[0])) if part == "notes" else str
        folder = f"{FRAGMENTS_FOLDER}/{part}"
        save_sharded(memwiki_dir, folder, FRAGMENT_SHARDS, getattr(fragments, part), before, name, by_content=True)
    if anew or last is None or not _same_names(last.names, fragments.names):
        save_cached(memwiki_dir, f"{FRAGMENTS_FOLDER}/context.pickle", (fragments.epoch, fragments.names))
    return anew


def save_page_marks(memwiki_dir: Path, fragments: Fragments, last: Fragments | None, *, anew: bool) -> None:
    """Write the shards of the page marks (how each page was made, its file as written) that changed since
    ``last``; all of them when ``save_rendered`` wrote the cache ``anew``. Only after the site is swapped in:
    a page is kept only when its file is as the saved marks say."""
    before = last.pages if last is not None and not anew else {}
    save_sharded(memwiki_dir, f"{FRAGMENTS_FOLDER}/pages", FRAGMENT_SHARDS, fragments.pages, before, str)


def _same_names(last: LinkNames | None, now: LinkNames | None) -> bool:
    return last is not None and now is not None and last == now and last.digests == now.digests


def _rendered_path(key: tuple[str, str]) -> str:
    """The note path of a ``Fragments.notes`` key (its first part: the path, or the path and the page's depth)."""
    return key[0].partition("\0")[0]
