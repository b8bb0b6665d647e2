"""The home page: core memory, recent days, the most active entities and opinions at a glance."""

from __future__ import annotations

import dataclasses
import re

from site_builder.core.model import Note
from site_builder.core.names import OPINIONS_URL, TAG_INDEX_URL, href
from site_builder.library.summaries import plain
from site_builder.parse.lines import walk_lines
from site_builder.site.builder import PageBuilder, counted
from site_builder.site.folder_page import folder_listing
from site_builder.site.item_views import day_summary, opinion_view
from site_builder.site.links import SiteLinker
from site_builder.site.page_views import HomePage
from site_builder.site.search_fields import PAGE_KINDS
from site_builder.site.views import LinkView

ACTIVE_ENTITIES = 12
CORE_PREVIEW_LINES = 40  # lines of the core memory the home page shows; the rest is on its own page
STANDING_KINDS = ("core", "soul", "standing", "dream")
# TinyClaw's records and skill library: its prompt draws on them every session, wherever they are kept.
RECORD_KINDS = ("reflections", "episodes", "skills")
GLANCE_OPINIONS = 6
# The core memory's own first heading, shown as its card's heading instead of twice.
LEADING_H1 = re.compile(r"\A\s*<h1[^>]*>.*?</h1>\n?", re.S)


def home_page(builder: PageBuilder) -> HomePage:
    url = "index.html"
    library = builder.library
    core = library.core
    core_title, core_html, core_rest, core_more = core_card(builder, core, url) if core else ("Core memory", "", "", 0)
    return HomePage(
        chrome=builder.chrome(url, kind="home", title=builder.config.title, section="home"),
        core_title=core_title,
        core_html=core_html,
        core_href=href(url, core.url) if core else "",
        core_source=core.path if core else "",
        core_rest_html=core_rest,
        core_more=core_more,
        standing=[
            LinkView(n.title, href(url, n.url), f"{n.path} · {PAGE_KINDS[n.kind]}")
            for n in sorted(
                (
                    n
                    for n in library.notes
                    if n.kind in RECORD_KINDS or (n.kind in STANDING_KINDS and "/" not in n.path)
                ),
                key=lambda n: ((STANDING_KINDS + RECORD_KINDS).index(n.kind), n.path),
            )
        ],
        sections=sections(builder, url),
        recent=[day_summary(builder, n, url) for n in reversed(builder.days[-builder.config.recent_days :])],
        active_entities=active_entities(builder, url),
        opinions=[opinion_view(builder, o, url) for o in library.opinions[:GLANCE_OPINIONS]],
        stats=[
            LinkView(counted(len(builder.days), "day"), "memory/index.html"),
            *([LinkView(counted(len(library.facts), "fact"), "facts.html")] if library.facts else []),
            LinkView(counted(len(library.entities), "entity", "entities"), "bank/entities/index.html"),
            *([LinkView(counted(len(library.opinions), "opinion"), OPINIONS_URL)] if library.opinions else []),
        ],  # no "0 facts" or "0 opinions" where memory holds none (most agents' own: the pages say how to add them)
    )


def core_card(builder: PageBuilder, core: Note, url: str) -> tuple[str, str, str, int]:
    """The core memory's card: its heading (the file's own first heading when it opens with one, else "Core
    memory"), its start as HTML without that heading, the rest as HTML ("" when it is short) and how many lines
    of text the rest holds. A long core
    memory (real ones run to hundreds of lines) shows its first screenful, cut at a blank line outside code; the
    rest is on the page too, folded, so the whole core memory is still on the home page."""
    lines = core.body.split("\n")
    cut = _preview_end(lines) if len(lines) > CORE_PREVIEW_LINES else len(lines)
    linker = SiteLinker(builder.library, url, core.path)
    shown = dataclasses.replace(core, body="\n".join(lines[:cut])) if cut < len(lines) else core
    html = builder.md.render_note(shown, linker)
    rest, more = "", sum(1 for line in lines[cut:] if line.strip())
    if cut < len(lines):
        rest_note = dataclasses.replace(core, body="\n".join(lines[cut:]), body_start=core.body_start + cut)
        rest = builder.md.render_note(rest_note, linker)
    opening = LEADING_H1.match(html)
    if opening is None or not core.headings or core.headings[0].level != 1:
        return "Core memory", html, rest, more
    return plain(core.headings[0].text) or "Core memory", html[opening.end() :], rest, more


def _preview_end(lines: list[str]) -> int:
    """Where the home page's preview of the core memory stops: the last blank line outside code and comments
    within the first ``CORE_PREVIEW_LINES`` lines (so no table, list or fence is cut), else that many lines."""
    blanks = [
        line.number
        for line in walk_lines(lines[:CORE_PREVIEW_LINES], 0)
        if line.role == "text" and not line.text.strip()
    ]
    return max(blanks[-1], 1) if blanks else CORE_PREVIEW_LINES


def sections(builder: PageBuilder, url: str) -> list[LinkView]:
    """The top-level folders (each with its index page), the top-level pages no other list shows, and the tags."""
    root = builder.folders.get("")
    if root is None:
        return []
    folders, _ = folder_listing(builder, "", url)
    pages = [LinkView(n.title, href(url, n.url), n.path) for n in root.notes if n.kind in ("page", "bank", "daily")]
    tags = [LinkView("Tags", href(url, TAG_INDEX_URL), counted(len(builder.tags), "tag"))] if builder.tags else []
    return folders + sorted(pages, key=lambda link: link.text.casefold()) + tags


def active_entities(builder: PageBuilder, url: str) -> list[LinkView]:
    """The most mentioned entities, most mentions first."""
    library = builder.library
    counts = sorted(
        ((len(library.backlinks.get(k, [])), e) for k, e in library.entities.items()),
        key=lambda item: (-item[0], item[1].name.casefold()),
    )
    return [
        LinkView(e.name, href(url, e.url), counted(n, "mention"), "missing" if e.placeholder else "")
        for n, e in counts[:ACTIVE_ENTITIES]
        if n
    ]
