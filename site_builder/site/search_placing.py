"""The search index placed into a site: each part's files linked into ``pagefind/<part>/``, Pagefind's script and
WebAssembly once beside them, and the list of parts the browser reads (``parts.json``).

A build places the parts its cache already holds while Pagefind makes the others (``build_index``'s
``meanwhile``): after an edit that is every part but one, ten thousand files on a ten-year workspace, linked
while the build waits for Pagefind anyway instead of after it. When the staged site came with the last site's index
(``Staging.link_last_site``), a part it holds already is left as it is (its files are the cache's very files), and
only the parts that changed are taken out (``discard``) and placed again."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from site_builder.io.writer import link_or_copy
from site_builder.site.pagefind import SEARCH_FOLDER, BuiltIndex, SearchIndexError, SearchStats, removed_now
from site_builder.site.search_parts import is_undated

PARTS_LIST = (
    "parts.json"  # in the index's folder: the site's language and its parts, in the order the browser lists them
)
_INSTANCE_CLASS = re.compile(r"\bvar PagefindInstance\s*=\s*class\b|\bclass PagefindInstance\b")


class Placing:
    """An index going into ``site_dir/pagefind/``, part by part as each is ready (``parts``), then whole
    (``finish``). With ``swap`` it is written beside the index the site already has, which it replaces when complete
    (a site being served)."""

    def __init__(
        self,
        site_dir: Path,
        *,
        swap: bool = False,
        discard: Callable[[Path], None] | None = None,
        adopt: bool = False,
    ) -> None:
        self._site_dir = site_dir
        self._swap = swap
        self._discard = discard or removed_now  # takes a folder out of the site: a part it no longer has
        self._adopt = adopt  # an index the site has already is as the last build left it: its parts may stay
        self._target: Path | None = None  # made when the first part comes
        self._beside: Path | None = None
        self._placed: set[str] = set()

    def parts(self, parts: dict[str, Path]) -> None:
        """Place these parts (part name -> the folder of its index) now: hard links where the file system allows,
        made by ``cp -al`` when it can (``_linked_by_cp``), else one by one from here."""
        todo = {part: folder for part, folder in parts.items() if part not in self._placed}
        if not todo:
            return
        try:
            target = self._folder()
            for part, folder in list(todo.items()):
                if _same_index(target / part, folder):  # the last site's, left in the staged one
                    self._placed.add(part)
                    del todo[part]
                elif (target / part).exists():
                    self._discard(target / part)
            if not todo:
                return
            if not _linked_by_cp(todo, target):
                for part, folder in todo.items():
                    shutil.rmtree(target / part, ignore_errors=True)
                    _link_part(str(folder), f"{target}/{part}")
            for part in todo:
                for shared in (path for path in (target / part).iterdir() if _shared_file(path.name)):
                    shared.unlink()  # placed once for every part (``shared_pagefind``)
            self._placed.update(todo)
        except OSError as exc:
            raise SearchIndexError(f"search index not placed: {exc}") from exc

    def finish(self, built: BuiltIndex | None) -> SearchStats:
        """The parts of ``built`` not placed yet, Pagefind's script and WebAssembly once beside them
        (``shared_pagefind``) and the list the browser reads them from (``parts.json``)."""
        if built is None:
            self.abandon()  # nothing searched: no index, not even the last site's
            return SearchStats(0)
        try:
            self.parts(built.parts)
            target = self._folder()
            for entry in target.iterdir():  # the last site's parts this index no longer has, and its shared files
                if entry.name in built.parts:
                    continue
                if entry.is_dir():
                    self._discard(entry)
                else:
                    entry.unlink()  # never written through: they may be links to the current site's files
            wasm = shared_pagefind(next(iter(built.parts.values())), target)
            undated = [part for part in built.parts if is_undated(part)]
            listed = {"language": built.language, "wasm": wasm, "parts": list(built.parts), "undated": undated}
            (target / PARTS_LIST).write_text(json.dumps(listed) + "\n", encoding="utf-8")
            if self._beside:
                _replace(target, self._site_dir / SEARCH_FOLDER)
        except OSError as exc:
            raise SearchIndexError(f"search index not placed: {exc}") from exc
        finally:
            for scratch in (built.scratch, self._beside):
                if scratch is not None:
                    shutil.rmtree(scratch, ignore_errors=True)
        return SearchStats(built.pages, len(built.parts), built.indexed)

    def abandon(self) -> None:
        """Remove what was placed (the index could not be made), and the last site's index the staged site came
        with: no part of an index without its list, no index of another site."""
        if self._beside is not None:
            shutil.rmtree(self._beside, ignore_errors=True)
        elif not self._swap and (self._site_dir / SEARCH_FOLDER).is_dir():
            self._discard(self._site_dir / SEARCH_FOLDER)
        self._target = None
        self._placed.clear()

    def _folder(self) -> Path:
        """The folder the parts go into: in the staged site, as the last site's index left it there when it may be
        taken as it stands (``adopt``: its parts are looked at one by one), else made empty; beside the site's with
        ``swap``."""
        if self._target is None:
            if self._swap:
                self._beside = Path(tempfile.mkdtemp(prefix=".memwiki-search-", dir=self._site_dir.parent))
            target = self._beside / "bundle" if self._beside else self._site_dir / SEARCH_FOLDER
            if not self._beside and target.is_dir() and not self._adopt:
                self._discard(target)
            if self._beside or not target.is_dir():
                target.mkdir(parents=True)
            self._target = target
        return self._target


def place_index(built: BuiltIndex | None, site_dir: Path, *, swap: bool = False) -> SearchStats:
    """The whole index ``built`` into ``site_dir`` at once (``Placing``)."""
    placing = Placing(site_dir, swap=swap)
    try:
        return placing.finish(built)
    except SearchIndexError:
        placing.abandon()
        raise


def _same_index(placed: Path, folder: Path) -> bool:
    """Is the part ``placed`` in the site the index in ``folder`` (the cache's)? Its files are that index's very
    files (hard links) when it is: its entry file is one file with the cache's."""
    try:
        return (placed / "pagefind-entry.json").samefile(folder / "pagefind-entry.json")
    except OSError:
        return False


def _linked_by_cp(parts: dict[str, Path], target: Path) -> bool:
    """Each part's folder hard-linked into ``target/<part>`` by one ``cp -al``: a process of its own, whose ten
    thousand links do not wait for this one's interpreter, busy with the rest of the build. False when it could not
    (no GNU ``cp``, a file system without hard links): nothing of it is left in ``target`` then."""
    if len({folder.name for folder in parts.values()}) != len(parts):
        return False  # two folders of one name would land in one
    landing = Path(tempfile.mkdtemp(prefix=".parts-", dir=target))
    try:
        done = subprocess.run(
            ["cp", "-al", "--", *map(str, parts.values()), str(landing)], capture_output=True, check=False
        )
        if done.returncode != 0:
            return False
        for part, folder in parts.items():
            (landing / folder.name).rename(target / part)
        return True
    except OSError:
        for part in parts:
            shutil.rmtree(target / part, ignore_errors=True)
        return False
    finally:
        shutil.rmtree(landing, ignore_errors=True)


def _link_part(source: str, target: str) -> None:
    """The files of one part's index (``source``) into ``target``, hard links where the file system allows. (Plain
    strings, not ``Path``s: an index of a ten-year workspace is ten thousand files.)"""
    Path(target).mkdir()
    with os.scandir(source) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                _link_part(entry.path, f"{target}/{entry.name}")
            else:
                link_or_copy(entry.path, f"{target}/{entry.name}")


def shared_pagefind(part: Path, target: Path) -> str:
    """Pagefind's script and WebAssembly from the index ``part`` into ``target``, once for every part: the browser
    loads them once and opens each part as one more index of that Pagefind, as Pagefind's own ``mergeIndex`` does
    (one WebAssembly, one state per index), through the class it uses for that, which the script then exports
    (``MemwikiPart``). The WebAssembly's name, as the part's entry file says (``en``, ``unknown``…)."""
    script = (part / "pagefind.js").read_text(encoding="utf-8")
    if not _INSTANCE_CLASS.search(script):
        raise SearchIndexError("this Pagefind's pagefind.js has no PagefindInstance class; memwiki needs Pagefind 1.x")
    (target / "pagefind.js").write_text(script + "\nexport { PagefindInstance as MemwikiPart };\n", encoding="utf-8")
    for wasm in part.glob("wasm.*.pagefind"):
        link_or_copy(wasm, target / wasm.name)
    entry = json.loads((part / "pagefind-entry.json").read_text(encoding="utf-8"))
    return str(next(iter(entry["languages"].values())).get("wasm") or "unknown")


def _shared_file(name: str) -> bool:
    """Is ``name`` one of the files ``shared_pagefind`` places once for all parts (left out of each part)?"""
    return name == "pagefind.js" or (name.startswith("wasm.") and name.endswith(".pagefind"))


def _replace(new: Path, bundle: Path) -> None:
    old = bundle.parent / f".{SEARCH_FOLDER}-old"
    shutil.rmtree(old, ignore_errors=True)
    if bundle.exists():
        bundle.rename(old)
    new.rename(bundle)
    shutil.rmtree(old, ignore_errors=True)
