"""Folders as sections: an index page for every folder of notes, and the breadcrumbs that lead back up.

``memory/`` has the timeline as its index (its undated files and sub-folders are
listed there too) and ``bank/entities/`` the entity index; every other folder
gets ``<folder>/index.html``: its ``index.md`` with the listing below (``note_page``), else the listing with its
``README.md`` below, as GitHub shows a folder.
"""

from __future__ import annotations

from site_builder.core.model import Note
from site_builder.core.names import OWN_INDEX, href, is_folder_page
from site_builder.library.folders import Folder
from site_builder.library.summaries import description
from site_builder.site.backlinks import folder_backlinks
from site_builder.site.builder import PageBuilder
from site_builder.site.page_views import FolderPage
from site_builder.site.search_fields import PAGE_KINDS
from site_builder.site.views import LinkView


def folder_pages(builder: PageBuilder) -> list[FolderPage]:
    """One index page per folder of notes, in path order, but for a folder whose ``index.md`` is its page."""
    tree = builder.folders
    pages = []
    for path in sorted(p for p in tree if p and p not in OWN_INDEX and p not in builder.projects):
        if folder_note(builder, path):
            continue
        url = f"{path}/index.html"
        folders, files = folder_listing(builder, path, url)
        readme = next((n for n in tree[path].notes if n.stem.casefold() == "readme"), None)
        pages.append(
            FolderPage(
                chrome=builder.chrome(url, kind="folder", title=f"{path}/", section=section_of(path)),
                crumbs=crumbs(path.rpartition("/")[0], url),
                folders=folders,
                files=files,
                backlinks=folder_backlinks(builder, path, url),
                readme=LinkView(readme.path.rsplit("/", 1)[-1], href(url, readme.url)) if readme else None,
                readme_html=builder.note_html(readme) if readme else "",  # beside this page: its links hold
            )
        )
    return pages


def folder_note(builder: PageBuilder, path: str) -> Note | None:
    """The note that is the folder's page (its ``index.md``: ``core.names.page_url``), None when it has none."""
    return next((n for n in builder.folders.get(path, Folder()).notes if is_folder_page(n.path)), None)


def folder_listing(
    builder: PageBuilder, path: str, url: str, *, dated: bool = True
) -> tuple[list[LinkView], list[LinkView]]:
    """Links to a folder's sub-folders and to its notes (dated ones newest first, then by title; ``dated=False``:
    only the notes without a date, for folders whose dated notes the timeline lists); not to the page itself."""
    folder = builder.folders.get(path, Folder())
    folders = [
        LinkView(_folder_name(builder, sub), href(url, f"{sub}/index.html"), _count(builder, sub))
        for sub in sorted(folder.folders)
    ]
    notes = sorted(
        (n for n in folder.notes if (dated or n.date is None) and n.url != url),
        key=lambda n: (n.date is None, -(n.date.toordinal() if n.date else 0), n.title),
    )
    files = [LinkView(n.title, href(url, n.url), _describe(builder, n)) for n in notes]
    return folders, files


def crumbs(folder: str, url: str) -> list[LinkView]:
    """``folder`` and the folders above it, outermost first, each linking to its index ("" has none)."""
    parts = folder.split("/") if folder else []
    out = []
    for depth in range(1, len(parts) + 1):
        path = "/".join(parts[:depth])
        text = {"memory": "Days", "bank/entities": "Entities"}.get(path, parts[depth - 1])
        out.append(LinkView(text, href(url, f"{path}/index.html")))
    return out


def section_of(path: str) -> str:
    """The navigation entry a folder belongs to."""
    if path == "memory" or path.startswith("memory/"):
        return "days"
    return "bank" if path.startswith("bank") else "files"


def _describe(builder: PageBuilder, note: Note) -> str:
    """``2026-02-03 · session``, ``skill · Refund an order…``: the note's date or description after its kind."""
    kind = PAGE_KINDS[note.kind]
    if note.date:
        return f"{note.date.isoformat()} · {kind}"
    described = description(builder.library, note)
    return f"{kind} · {described}" if described else kind


def _folder_name(builder: PageBuilder, folder: str) -> str:
    """A folder's name in a listing; a project's name and status for a project's folder."""
    project = builder.projects.get(folder)
    if project is None:
        return folder.rsplit("/", 1)[-1] + "/"
    return f"{project.name} ({project.status})" if project.status else project.name


def _count(builder: PageBuilder, folder: str) -> str:
    total = sum(len(f.notes) for p, f in builder.folders.items() if p == folder or p.startswith(folder + "/"))
    return f"{total} file{'s' if total != 1 else ''}"
