"""The workspace's tags: every note's (``Note.tags``), grouped by ``parse.tags.tag_key``, each shown in the spelling
written most often."""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass

from site_builder.core.model import Note, Tag
from site_builder.parse.tags import tag_key


@dataclass(frozen=True)
class TagUse:
    """One tag of the workspace: its key (its page's path under ``tags/``), the name it is shown as, and every
    place that carries it, by note in path order (a note's front matter first, then its lines)."""

    key: str
    name: str
    places: list[tuple[Note, Tag]]

    @property
    def notes(self) -> int:
        return len({id(note) for note, _ in self.places})


def workspace_tags(notes: list[Note]) -> dict[str, TagUse]:
    """Every tag of ``notes`` by key, in key order."""
    places: dict[str, list[tuple[Note, Tag]]] = {}
    for note in notes:
        for tag in note.tags:
            places.setdefault(tag_key(tag.name), []).append((note, tag))
    return {key: TagUse(key, _spelling(places[key]), places[key]) for key in sorted(places)}


def _spelling(places: list[tuple[Note, Tag]]) -> str:
    """The spelling written most often; of equally common ones, the first written."""
    counts = Counter(tag.name for _, tag in places)
    return max(counts, key=counts.__getitem__)  # max keeps the first of equals: Counter keeps the order met


def nested_keys(keys: list[str], key: str) -> list[str]:
    """The keys of the tags nested in ``key`` (``a/b``, ``a/b/c`` in ``a``), from ``keys`` in order."""
    prefix = key + "/"
    start = bisect.bisect_left(keys, prefix)
    end = start
    while end < len(keys) and keys[end].startswith(prefix):
        end += 1
    return keys[start:end]
