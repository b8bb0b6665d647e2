"""What Pagefind is told of a page besides its text: its kind, and the filters and metadata search offers."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from site_builder.core.model import KIND_NAMES, Tag
from site_builder.parse.tags import tag_key

PAGE_KINDS = {
    "core": "core memory",
    "soul": "persona",
    "standing": "standing file",
    "daily": "daily log",
    "session": "session",
    "dream": "dream report",
    "bank": "bank page",
    "entity": "entity",
    "page": "page",
    "reflections": "reflections",
    "episodes": "episodes",
    "skills": "skill library",
    "skill": "skill",
    "project": "project",
    "feedback": "feedback rule",
}


def search_filters(
    page: str, kinds: list[str], entities: list[str], date: dt.date | None, tags: Iterable[Tag] = ()
) -> dict[str, list[str]]:
    """Pagefind filters: the page's kind, the kinds of its facts, its entities, year and tags (by key: one value
    however each note spells the tag)."""
    filters: dict[str, list[str]] = {"page": [PAGE_KINDS[page]]}
    keys = sorted({tag_key(tag.name) for tag in tags})
    if keys:
        filters["tag"] = keys
    if kinds:
        filters["kind"] = sorted(KIND_NAMES[k] for k in set(kinds))
    if date:
        filters["year"] = [str(date.year)]
    if entities:
        filters["entity"] = entities
    return filters


def search_meta(page: str, date: dt.date | None) -> dict[str, str]:
    """Pagefind metadata: the page's kind and, for logs, its date."""
    meta = {"page": PAGE_KINDS[page]}
    if date:
        meta["date"] = date.isoformat()
    return meta
