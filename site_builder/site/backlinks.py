"""Backlinks of any page: the lines of other notes that link to it, grouped by source note."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import groupby

from site_builder.core.model import Link
from site_builder.parse.link_syntax import plain_sentence
from site_builder.site.builder import PageBuilder
from site_builder.site.links import SiteLinker, href, source_url
from site_builder.site.views import BacklinkGroup, BacklinkLine, LinkView


def backlink_groups(builder: PageBuilder, links: Iterable[Link], url: str) -> list[BacklinkGroup]:
    """``links`` (entity mentions, note links) as groups for the page at ``url``: one per source note, daily logs
    newest first, then the other notes by path; each line once, in line order."""
    library = builder.library
    ordered = sorted({(link.path, link.line): link for link in links}.values(), key=lambda link: (link.path, link.line))
    dated: list[tuple[str, BacklinkGroup]] = []
    undated: list[BacklinkGroup] = []
    for path, group in groupby(ordered, key=lambda link: link.path):
        note = library.note(path)
        assert note is not None
        lines = [
            BacklinkLine(
                _sentence_html(builder, link.sentence or plain_sentence(note.line_text(link.line)), url, path),
                href(url, source_url(f"{path}#L{link.line}")),
                link.line,
            )
            for link in group
        ]
        view = BacklinkGroup(LinkView(note.title, href(url, note.url)), lines)
        if note.date:
            dated.append((note.date.isoformat(), view))
        else:
            undated.append(view)
    dated.sort(key=lambda item: item[0])
    return [view for _, view in reversed(dated)] + undated


def _sentence_html(builder: PageBuilder, text: str, url: str, source: str) -> str:
    """A source line as HTML; ``.md`` links in it resolve from the source note's folder, not the page's."""
    if ".md" not in text:
        return builder.inline(text, url)  # memoised: the same sentence shows on many pages
    return builder.md.render_inline(text, SiteLinker(builder.library, url, source))


def folder_backlinks(builder: PageBuilder, folder: str, url: str) -> list[BacklinkGroup]:
    """What links into a folder from outside it: the lines of other notes linking to the notes it holds."""
    inside = folder + "/"
    links = [
        link
        for path, found in builder.library.note_backlinks.items()
        if path.startswith(inside)
        for link in found
        if not link.path.startswith(inside)
    ]
    return backlink_groups(builder, links, url)
