"""The tag pages: one per tag of the workspace (``library.tags``), listing the notes and lines that carry it, and
the tag index. Their inputs read no note's text: the places, titles and lines they show are all in the notes' link
inputs (``library.link.link_inputs``), so a page is held exactly while the library is the last build's."""

from __future__ import annotations

from itertools import groupby

from site_builder.core.model import Note
from site_builder.core.names import TAG_INDEX_URL, href, root_of, source_url, tag_url
from site_builder.library.tags import TagUse, nested_keys
from site_builder.parse.link_syntax import plain_sentence
from site_builder.parse.tags import tag_key
from site_builder.site.backlinks import backlink_item, sentence_html
from site_builder.site.builder import ROOT_MARK, PageBuilder, counted
from site_builder.site.page_inputs import ordinal
from site_builder.site.page_views import TagIndexPage, TagPage
from site_builder.site.views import BacklinkGroup, LinkView

MOST_USED = 24  # tags shown first on the index, by use


def tag_page(builder: PageBuilder, use: TagUse) -> TagPage:
    url = tag_url(use.key)
    return TagPage(
        chrome=builder.chrome(url, kind="tag", title=f"#{use.name}", section=""),
        crumbs=[LinkView("Tags", href(url, TAG_INDEX_URL)), *_parents(builder, use, url)],
        summary=f"{counted(len(use.places), 'place')} in {counted(use.notes, 'note')}",
        nested=[LinkView(f"#{t.name}", href(url, tag_url(t.key))) for t in _nested(builder, use)],
        groups=_groups(builder, use, url),
    )


def tag_page_inputs(builder: PageBuilder, use: TagUse) -> object:
    """What a tag's page is made from, besides what every page shares: its places (each note's path, title and day,
    each line's text) and the tags it nests in and holds."""
    places = [
        (note.path, note.title, ordinal(note.date), tag.line, tag.front, "" if tag.front else note.line_text(tag.line))
        for note, tag in use.places
    ]
    tags = builder.tags
    parents = [tags[k].name for k in _parent_keys(use) if k in tags]
    return use.key, use.name, places, parents, [(t.key, t.name) for t in _nested(builder, use)]


def tag_index_page(builder: PageBuilder) -> TagIndexPage:
    url = TAG_INDEX_URL
    uses = list(builder.tags.values())
    by_use = sorted(uses, key=lambda t: (-len(t.places), t.key))[:MOST_USED]
    return TagIndexPage(
        chrome=builder.chrome(url, kind="tags", title="Tags", section=""),
        most_used=[LinkView(f"#{t.name}", href(url, tag_url(t.key)), f"{len(t.places):,}") for t in by_use],
        tags=[LinkView(f"#{t.name}", href(url, tag_url(t.key)), _uses(t)) for t in uses],
    )


def tag_index_inputs(builder: PageBuilder) -> object:
    """What the tag index is made from, besides what every page shares: each tag's name and how often it is used."""
    return [(t.key, t.name, len(t.places), t.notes) for t in builder.tags.values()]


def tag_chips(note: Note, url: str) -> list[LinkView]:
    """The tags of a note's front matter, as the note writes them, each linking to its page."""
    names = dict.fromkeys(tag.name for tag in note.tags if tag.front)
    return [LinkView(f"#{name}", href(url, tag_url(tag_key(name)))) for name in names]


def _uses(use: TagUse) -> str:
    places, notes = len(use.places), use.notes
    return counted(notes, "note") if places == notes else f"{counted(places, 'place')} in {counted(notes, 'note')}"


def _groups(builder: PageBuilder, use: TagUse, url: str) -> list[BacklinkGroup]:
    """The places by note, daily logs newest first, then the other notes by path; each line once."""
    groups = []
    for _, places in groupby(use.places, key=lambda place: place[0].path):
        found = list(places)
        note = found[0][0]
        lines = dict.fromkeys((tag.line, tag.front) for _, tag in found)
        items = [_item(builder, note, line, front, url) for line, front in lines]
        view = BacklinkGroup(LinkView(note.title, href(url, note.url), note.path), "".join(items), len(items))
        groups.append((note.date.toordinal() if note.date else 0, view))
    dated = sorted((g for g in groups if g[0]), key=lambda g: -g[0])
    return [view for _, view in dated] + [view for day, view in groups if not day]


def _item(builder: PageBuilder, note: Note, line: int, front: bool, url: str) -> str:
    root = root_of(url)
    if front:
        return (
            f'<li><a class="cite" href="{root}{note.url}">tags</a> <span class="muted">in its front matter</span></li>'
        )
    text = sentence_html(builder, plain_sentence(note.line_text(line)), url, note.path)
    return backlink_item(text, ROOT_MARK + source_url(f"{note.path}#L{line}"), line).replace(ROOT_MARK, root)


def _parent_keys(use: TagUse) -> list[str]:
    parts = use.key.split("/")
    return ["/".join(parts[:depth]) for depth in range(1, len(parts))]


def _parents(builder: PageBuilder, use: TagUse, url: str) -> list[LinkView]:
    """The tags ``use`` nests in that the workspace uses, outermost first."""
    tags = builder.tags
    return [LinkView(f"#{tags[k].name}", href(url, tag_url(k))) for k in _parent_keys(use) if k in tags]


def _nested(builder: PageBuilder, use: TagUse) -> list[TagUse]:
    return [builder.tags[key] for key in nested_keys(builder.tag_keys, use.key)]
