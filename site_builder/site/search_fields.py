"""What Pagefind is told of a page besides its text: its kind, and the filters and metadata search offers."""

from __future__ import annotations

import datetime as dt

from site_builder.core.model import KIND_NAMES

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


def search_filters(page: str, kinds: list[str], entities: list[str], date: dt.date | None) -> dict[str, list[str]]:
    """Pagefind filters: the page's kind, the kinds of its facts, its entities and year."""
    filters: dict[str, list[str]] = {"page": [PAGE_KINDS[page]]}
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
