"""Backlinks of any page: the lines of other notes that link to it, grouped by source note."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import groupby

from markupsafe import escape

from site_builder.core.model import Fact, Link, Note
from site_builder.core.names import OPINIONS_URL, href, root_of, source_url
from site_builder.parse.link_syntax import plain_sentence
from site_builder.site.builder import ROOT_MARK, PageBuilder
from site_builder.site.links import SiteLinker
from site_builder.site.views import BacklinkGroup, LinkView


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
        items = [
            backlink_item(
                sentence_html(builder, link.sentence or plain_sentence(note.line_text(link.line)), url, path),
                ROOT_MARK + source_url(f"{path}#L{link.line}"),
                link.line,
            )
            for link in group
        ]
        view = _group(LinkView(note.title, href(url, note.url)), items, url)
        if note.date:
            dated.append((note.date.isoformat(), view))
        else:
            undated.append(view)
    dated.sort(key=lambda item: item[0])
    return [view for _, view in reversed(dated)] + undated


def backlink_inputs(builder: PageBuilder, links: Iterable[Link]) -> list[tuple[object, ...]]:
    """What ``backlink_groups`` makes of ``links``, as plain values: each line, and its note's title and date (the
    note's whole text when the line has no sentence of its own)."""
    heads = builder.note_heads
    found: list[tuple[object, ...]] = []
    for link in links:
        title, day = heads[link.path]
        text = link.sentence or builder.text_digest(builder.library.note_by_path[link.path])
        found.append((link.path, link.line, text, title, day))
    return found


def shown_sentence(text: str) -> str:
    """The Markdown a linking line is shown as: the line, or a table row as its cells ("a · b")."""
    if text.startswith("|"):
        return " · ".join(cell.strip() for cell in text.strip().strip("|").split("|") if cell.strip())
    return text


def backlink_item(html: str, to: str, line: int) -> str:
    """One line of a list of backlinks: its number, linking to ``to``, then ``html``, the sentence. Made here, not
    in a template: an entity of a ten-year workspace has thousands."""
    return (
        f'<li><a class="cite" href="{escape(to)}" aria-label="line {line}">L{line}</a> '
        f'<span class="backlink-text">{html}</span></li>'
    )


def _group(source: LinkView, items: list[str], url: str) -> BacklinkGroup:
    """A group of ``items`` made with ``ROOT_MARK`` for the way back to the site root, for the page at ``url``."""
    return BacklinkGroup(source, "".join(items).replace(ROOT_MARK, root_of(url)), len(items))


def sentence_html(builder: PageBuilder, text: str, url: str, source: str) -> str:
    """A source line as HTML (a table row as its cells, "a · b"), with ``ROOT_MARK`` for the way back to the site
    root; links in it resolve from the source note's folder, not the page's."""
    text = shown_sentence(text)
    if ".md" not in text and "](" not in text:
        return builder.inline_marked(text, url)  # memoised: the same sentence shows on many pages
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


def citing_groups(builder: PageBuilder, note: Note, url: str) -> list[BacklinkGroup]:
    """The site's pages that cite this note's facts: each entity a fact is about (its facts timeline), then the
    opinions whose history or evidence a fact moved. Each line is the cited line of this note."""
    library = builder.library
    by_entity: dict[str, list[Fact]] = {}
    for fact in note.facts:
        for key in dict.fromkeys(e.key for n in fact.names if (e := library.resolver.entity(n))):
            by_entity.setdefault(key, []).append(fact)
    groups = []
    for key, facts in sorted(by_entity.items(), key=lambda kv: library.entities[kv[0]].name.casefold()):
        entity = library.entities[key]
        if entity.note is note:
            continue
        items = [
            backlink_item(builder.inline_marked(f.content, url), f"{ROOT_MARK}{entity.url}#t-{f.id}", f.line)
            for f in facts
        ]
        groups.append(_group(LinkView(entity.name, href(url, entity.url)), items, url))
    opinions = [
        backlink_item(builder.inline_marked(o.statement, url), f"{ROOT_MARK}{page}#op-{o.id}", cited)
        for o, cited, page in builder.citing(note)
    ]
    if opinions:
        groups.append(_group(LinkView("Opinions", href(url, OPINIONS_URL)), opinions, url))
    return groups
