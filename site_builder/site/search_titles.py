"""Search titles that say where a page is from, when the title it shows is shown by another searchable page too.

Search lists a page by the title it shows first (its first ``h1``: Pagefind's title). Real workspaces repeat file
names (``INDEX.md`` in every project, ``knowledge/people/<slug>/summary.md``) and headings ("REM Sleep" on every
dream report), so a list of results may hold five "INDEX" and no way to tell them apart. Those pages, and only
those, tell Pagefind a title that names their folder: "INDEX — projects/openclaw" (``Chrome.pagefind_meta``)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import NamedTuple

SEPARATOR = " — "


class ShownTitle(NamedTuple):
    """A searchable page's title as it shows it first, and where its text comes from."""

    url: str
    title: str
    source: str  # the workspace path of its note, or of a project's folder ("projects/harbor/"); "" for an entity


def placed_titles(pages: Iterable[ShownTitle]) -> dict[str, str]:
    """Page URL -> its search title, for the pages whose title (case aside) another page shows too: the title and
    its source's folder, or its source itself when another page of that title comes from the same folder (the dream
    reports of a folder, by day). An entity's page keeps its name: it is the page of that name."""
    groups: defaultdict[str, list[ShownTitle]] = defaultdict(list)
    for page in pages:
        groups[page.title.casefold()].append(page)
    titles = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        folders = Counter(_folder(page.source) for page in group)
        for page in group:
            if page.source:
                folder = _folder(page.source)
                where = folder if folder and folders[folder] == 1 else page.source
                titles[page.url] = page.title + SEPARATOR + where
    return titles


def _folder(source: str) -> str:
    """The folder of a note's path, or a project's folder itself (its source ends with a slash)."""
    return source.rpartition("/")[0]
