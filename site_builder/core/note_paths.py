"""Which note a link opens, as Obsidian resolves it: relative to the linking note, else by path from the
workspace root, else by path suffix (``[[people/anna]]`` opens ``knowledge/people/anna.md``), else by file name
anywhere; case-insensitive, ``-``, ``_`` and spaces alike, with or without ``.md``. Where several notes answer,
the one nearest the root wins (fewest folders, then the shortest path, then the first in path order), and
``same_name`` says which others there were. A folder's ``index.md`` or ``README.md`` answers for the folder
(``[[projects/openclaw]]``, ``[[openclaw]]``), after a note of that very name.

``[[wikilinks]]`` and ``[text](path.md)`` links resolve through the same index (``NotePaths``), made once per set
of paths.
"""

from __future__ import annotations

import functools
import posixpath
from collections import defaultdict

from site_builder.core.names import entity_key

# The notes that are their folder's page, best first (as GitHub, MkDocs and Hugo show them).
FOLDER_PAGES = ("index", "readme", "_index")
# The notes that are about their folder's one thing (``people/roger-gimbel/summary.md``): its page, or its summary.
ABOUT_FOLDER = frozenset({*FOLDER_PAGES, "summary", "overview", "about", "profile", "main"})


def path_key(path: str) -> str:
    """``Knowledge/People/Anna Lee.md`` -> ``knowledge/people/anna-lee``: each part as ``entity_key`` has it."""
    path = path.strip().strip("/")
    if path[-3:].casefold() == ".md":
        path = path[:-3]
    return "/".join(entity_key(part) for part in path.split("/") if part not in ("", "."))


def folder_page_of(path: str) -> str | None:
    """The folder whose page the note at ``path`` is (``a/b/index.md`` -> ``a/b``), None for other notes and for
    the workspace root's own ``index.md``."""
    folder, _, name = path.rpartition("/")
    stem = name[:-3] if name[-3:].casefold() == ".md" else name
    return folder if folder and stem.casefold() in FOLDER_PAGES else None


def about_folder(path: str) -> str | None:
    """The folder whose one thing the note at ``path`` is about (``ABOUT_FOLDER``), None for other notes."""
    folder, _, name = path.rpartition("/")
    stem = name[:-3] if name[-3:].casefold() == ".md" else name
    return folder if folder and stem.casefold() in ABOUT_FOLDER else None


class NotePaths:
    """The notes links may open, by every path suffix of each (and of its folder, for a folder's page)."""

    def __init__(self, paths: tuple[str, ...]) -> None:
        self.paths = paths
        ranked: dict[str, list[tuple[int, int, int, str]]] = defaultdict(list)
        for path in paths:
            parts = path_key(path).split("/")
            for start in range(len(parts)):
                ranked["/".join(parts[start:])].append((0, len(parts), len(path), path))
            folder = folder_page_of(path)
            if folder is not None:
                rank = 1 if parts[-1] == "index" else 2  # index.md before README.md
                for start in range(len(parts) - 1):
                    ranked["/".join(parts[start:-1])].append((rank, len(parts), len(path), path))
        self._by_key = {key: [found[-1] for found in sorted(entries)] for key, entries in ranked.items()}
        self._files = {key: sum(1 for entry in entries if entry[0] == 0) for key, entries in ranked.items()}

    def wikilink(self, target: str, from_path: str = "") -> str | None:
        """The note ``[[target]]`` opens from the note at ``from_path``; None when none does."""
        for key in self._keys(target, from_path):
            found = self._by_key.get(key)
            if found:
                return found[0]
        return None

    def markdown(self, target: str, from_path: str) -> str | None:
        """The note ``[text](target)`` opens from the note at ``from_path``: as a path relative to it, from the
        workspace root, or the longest known tail of an absolute path; then as Obsidian would a wikilink of it."""
        for candidate in markdown_candidates(from_path, target):
            if candidate in self._exact:
                return candidate
        if target.startswith("/"):
            candidates = markdown_candidates(from_path, target)
            return next((found for c in candidates if (found := self._whole(c)) is not None), None)
        return self.wikilink(target, from_path)

    def same_name(self, target: str) -> list[str]:
        """Every note a bare name (``[[anna]]``) could open, best first, when more than one file has that name."""
        if "/" in target:
            return []
        key = path_key(target)
        return self._by_key.get(key, [])[: self._files.get(key, 0)] if self._files.get(key, 0) > 1 else []

    @functools.cached_property
    def _exact(self) -> frozenset[str]:
        return frozenset(self.paths)

    def _whole(self, path: str) -> str | None:
        found = self._by_key.get(path_key(path))
        return found[0] if found and path_key(found[0]) == path_key(path) else None

    def _keys(self, target: str, from_path: str) -> list[str]:
        written = target.strip()
        keys = []
        if from_path and ("/" in written or written.startswith(".")):
            relative = posixpath.normpath(posixpath.join(posixpath.dirname(from_path), written))
            if not relative.startswith("../") and relative != "..":
                keys.append(path_key(relative))
        plain = posixpath.normpath(written.lstrip("/")) if written.strip("/.") else ""
        while plain.startswith("../"):  # a relative link that leaves the workspace: by what is left, as a suffix
            plain = plain[3:]
        if plain and plain not in (".", ".."):
            keys.append(path_key(plain))
        return [key for key in dict.fromkeys(keys) if key]


def markdown_candidates(note_path: str, target: str) -> list[str]:
    """Where ``[text](target)`` may point from the note at ``note_path``, as written: relative to the note's folder,
    from the workspace root, or (an absolute path) each of its tails, longest first."""
    if target.startswith("/"):
        parts = posixpath.normpath(target).strip("/").split("/")
        return ["/".join(parts[i:]) for i in range(len(parts))]
    relative = posixpath.normpath(posixpath.join(posixpath.dirname(note_path), target))
    rooted = posixpath.normpath(target)
    return [p for p in dict.fromkeys((relative, rooted)) if not p.startswith("../") and p != ".."]


@functools.lru_cache(maxsize=4)
def note_paths(paths: tuple[str, ...]) -> NotePaths:
    """The index of these paths (made once: the site, hygiene and linking ask the same one)."""
    return NotePaths(paths)
