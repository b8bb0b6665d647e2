"""Markdown to HTML with mistune, plus memwiki's syntax and line anchors.

Every non-blank source line gets an anchor ``id="L<n>"`` so a citation
``memory/2025-11-27.md#L12`` opens at that line. Anchors are threaded through
mistune as private-use marker characters placed at the start of each line's
content (after list markers, heading hashes, table pipes: ``site.line_marks``) and
swapped for ``<span>`` elements after rendering. Raw HTML in the source is escaped and
unsafe URLs are dropped by mistune; names are escaped by us.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

import mistune
from mistune.core import BlockState
from mistune.util import striptags

from site_builder.core.model import Fact, Note
from site_builder.core.names import heading_slug
from site_builder.parse.file_links import CITATION, CITED_RE
from site_builder.parse.link_syntax import DIRECTIVE, MENTION, NOT_NAMES, WIKILINK, wikilink_part
from site_builder.parse.tags import INLINE_TAG, tag_key, tag_name
from site_builder.site.line_marks import MARK, PRIVATE_USE, annotate_lines, collapse_dreams


@dataclass(frozen=True)
class Target:
    """Where a name points, as seen from the page being rendered."""

    href: str
    title: str
    missing: bool = False


class Linker:
    """Resolves names for one page; the site renderer supplies the real one."""

    def entity(self, name: str) -> Target:
        raise NotImplementedError

    def wikilink(self, name: str, heading: str | None) -> Target:
        raise NotImplementedError

    def fact_badge(self, fact: Fact) -> str:
        raise NotImplementedError

    def file(self, url: str) -> Target | None:
        """Where a link to another note (``x.md``) points on the site; None for any other link."""
        return None

    def tag(self, name: str) -> Target | None:
        """The page of a ``#tag``; None where tags are not linked."""
        return None

    def relative(self, url: str) -> str:
        """Where any other link written in the note points from the page it is shown on (as written: the same)."""
        return url


def _parse_wikilink(inline: Any, m: re.Match[str], state: Any) -> int:
    if DIRECTIVE.search(wikilink_part(m["wl_target"])) and not m["wl_heading"]:
        state.append_token({"type": "text", "raw": m[0]})  # a chat directive, not a link
        return m.end()
    state.append_token(
        {
            "type": "wikilink",
            "attrs": {
                "target": wikilink_part(m["wl_target"]),
                "heading": wikilink_part(m["wl_heading"]) or None,
                "label": (m["wl_label"] or "").strip() or None,
            },
        }
    )
    return m.end()


def _parse_mention(inline: Any, m: re.Match[str], state: Any) -> int:
    if m["mention_name"].casefold() in NOT_NAMES:
        state.append_token({"type": "text", "raw": m[0]})
        return m.end()
    state.append_token({"type": "mention", "attrs": {"name": m["mention_name"]}})
    return m.end()


def _parse_tag(inline: Any, m: re.Match[str], state: Any) -> int:
    name = tag_name(m["tag_name"])
    if name is None:
        state.append_token({"type": "text", "raw": m[0]})
        return m.end()
    raw = "#" + name
    # Marked as an autolink is: inside a link's text mistune turns it back into its text (no link in a link).
    state.append_token({"type": "tag", "attrs": {"name": name}, "_autolink": raw})
    return m.start() + len(raw)


def _parse_citation(inline: Any, m: re.Match[str], state: Any) -> int:
    state.append_token({"type": "citation", "raw": m[0]})
    return m.end()


class MarkdownRenderer:
    """Renders notes; one instance is reused for every page of a build."""

    def __init__(self) -> None:
        self.linker: Linker | None = None
        # The keys of the tags linked: a note's own, while it renders (``parse.tags`` found them); None: any tag.
        self.tag_keys: frozenset[str] | None = None
        renderer = self._renderer = _Renderer(self)
        # Bare URLs become links only where a text has one: their rule starts at every "h", which costs the
        # inline parse of any other text a stop and a token per "h" (half of its time), for the same HTML.
        self._with_urls = _create_markdown(renderer, urls=True)
        self._without_urls = _create_markdown(renderer, urls=False)
        # Column alignment as a class: the site's Content-Security-Policy allows no inline styles.
        renderer.register("table_cell", _render_table_cell)
        # A task's checkbox says what it shows: screen readers get "done" or "to do", then the task.
        renderer.register("task_list_item", _render_task_list_item)
        # A table scrolls sideways when wide: a keyboard reaches it (axe's scrollable-region-focusable).
        renderer.register("table", _render_table)

    def _markdown(self, text: str) -> mistune.Markdown:
        return self._with_urls if "://" in text else self._without_urls

    def render_note(self, note: Note, linker: Linker) -> str:
        """HTML of a note's body with line anchors and rendered facts."""
        facts = {f.line: f for f in note.facts}
        source, badges = annotate_lines(note.body, note.body_start, facts)
        self.tag_keys = frozenset(tag_key(tag.name) for tag in note.tags)
        try:
            return unique_heading_ids(self._render(source, badges, linker))
        finally:
            self.tag_keys = None

    def render_inline(self, text: str, linker: Linker) -> str:
        """HTML of one line of text (a fact, a backlink sentence), without a paragraph."""
        self.linker = linker
        line = " ".join(PRIVATE_USE.sub("", text).split())
        tokens = self._markdown(line).inline(line, {})  # no block parsing: one line
        return self._renderer(tokens, BlockState())

    def render_excerpt(self, text: str, linker: Linker) -> str:
        """HTML of a piece of a note shown on another page: no line anchors (the note's own page has them)."""
        self.linker = linker
        text = PRIVATE_USE.sub("", text)
        return collapse_dreams(str(self._markdown(text)(text)))

    def _render(self, source: str, badges: list[Fact], linker: Linker) -> str:
        self.linker = linker
        body = collapse_dreams(str(self._markdown(source)(source)))

        def swap(m: re.Match[str]) -> str:
            kind, value = m[1], m[2]
            if kind == "F":
                return linker.fact_badge(badges[int(value)])
            if kind == "B":
                return f'<span class="block-id" id="^{html.escape(value)}"></span>'
            return "".join(f'<span class="ln" id="L{n}"></span>' for n in value.split(","))

        return MARK.sub(swap, body)


def _create_markdown(renderer: _Renderer, *, urls: bool) -> mistune.Markdown:
    plugins: list[Any] = ["table", "task_lists", "strikethrough", "footnotes", *(["url"] if urls else [])]
    md = mistune.create_markdown(escape=True, renderer=renderer, plugins=plugins)
    # Each rule says the character it starts with, so mistune skips plain text to the next such character
    # instead of trying every rule at every position (most of the inline parse time of a long note).
    md.inline.register("wikilink", WIKILINK, _parse_wikilink, before="link", start_chars="[")
    md.inline.register("mention", MENTION, _parse_mention, before="link", start_chars="@")
    md.inline.register("citation", CITATION, _parse_citation, before="link", start_chars="[")
    md.inline.register("tag", INLINE_TAG.pattern, _parse_tag, before="link", start_chars="#")
    return md


def _render_table(renderer: Any, text: str) -> str:
    return '<table tabindex="0">\n' + text + "</table>\n"


def _render_table_cell(renderer: Any, text: str, align: str | None = None, head: bool = False) -> str:
    tag = "th" if head else "td"
    css = f' class="align-{align}"' if align in ("left", "center", "right") else ""
    return f"  <{tag}{css}>{text}</{tag}>\n"


def _render_task_list_item(renderer: Any, text: str, checked: bool = False) -> str:
    state = ' checked aria-label="done"' if checked else ' aria-label="to do"'
    box = f'<input class="task-list-item-checkbox" type="checkbox" disabled{state}>'
    text = text.replace("<p>", "<p>" + box, 1) if text.startswith("<p>") else box + text
    return f'<li class="task-list-item">{text}</li>\n'


class _Renderer(mistune.HTMLRenderer):
    def __init__(self, owner: MarkdownRenderer) -> None:
        super().__init__(escape=True)
        self.owner = owner
        self.register("wikilink", _render_wikilink)
        self.register("mention", _render_mention)
        self.register("citation", _render_citation)
        self.register("tag", _render_tag)

    def heading(self, text: str, level: int, **attrs: Any) -> str:
        plain = html.unescape(striptags(MARK.sub("", text)))
        return f'<h{level} id="{heading_slug(plain)}">{text}</h{level}>\n'

    def link(self, text: str, url: str, title: str | None = None) -> str:
        to = _linker(self).file(url)
        if to is None:
            return str(super().link(text, _linker(self).relative(url), title))
        return _anchor(to, text, "file")

    def block_code(self, code: str, info: str | None = None) -> str:
        """A code block, which scrolls sideways when wide: a keyboard reaches it too."""
        return str(super().block_code(code, info)).replace("<pre>", '<pre tabindex="0">', 1)

    def block_html(self, html_text: str) -> str:
        return "<p>" + html.escape(html_text.strip()) + "</p>\n"


def _linker(renderer: _Renderer) -> Linker:
    linker = renderer.owner.linker
    assert linker is not None
    return linker


def _render_wikilink(renderer: _Renderer, target: str, heading: str | None, label: str | None) -> str:
    to = _linker(renderer).wikilink(target, heading)
    text = label or (f"{target} › {heading}" if heading and target else heading or target)
    return _anchor(to, html.escape(text), "wikilink")


def _render_mention(renderer: _Renderer, name: str) -> str:
    to = _linker(renderer).entity(name)
    if to.href == "#":  # not an entity (a handle seen once, say): the text, not a link
        return f'<span class="handle">@{html.escape(name)}</span>'
    return _anchor(to, "@" + html.escape(name), "mention")


def _render_tag(renderer: _Renderer, name: str) -> str:
    """A ``#tag`` as a link to its page, where the text carries it (``MarkdownRenderer.tag_keys``)."""
    keys = renderer.owner.tag_keys
    to = _linker(renderer).tag(name) if keys is None or tag_key(name) in keys else None
    return _anchor(to, "#" + html.escape(name), "tag") if to else "#" + html.escape(name)


def _render_citation(renderer: _Renderer, text: str) -> str:
    """``[… source=memory/x.md:12-14]``, ``[memory/x.md:15, memory/x.md:17]``: each cited place links to its lines."""
    out, at = [], 0
    for m in CITED_RE.finditer(text):
        first, last = int(m["cite_from"]), int(m["cite_to"] or m["cite_from"])
        to = _linker(renderer).file(f"{m['cite_path']}#L{first}") or Target("#", m["cite_path"], missing=True)
        lines = f"lines {first}–{last}" if last != first else f"line {first}"
        out += [
            html.escape(text[at : m.start()]),
            _anchor(Target(to.href, f"{to.title}, {lines}", to.missing), html.escape(m[0]), "citation"),
        ]
        at = m.end()
    return "".join([*out, html.escape(text[at:])])


def _anchor(to: Target, text_html: str, css: str) -> str:
    classes = css + (" missing" if to.missing else "")
    return f'<a class="{classes}" href="{html.escape(to.href)}" title="{html.escape(to.title)}">{text_html}</a>'


_HEADING_ID = re.compile(r'<h([1-6]) id="([^"]*)">')


def unique_heading_ids(html: str) -> str:
    """The note's HTML with one id per heading: a heading written again ("Light Sleep" in each part of a dream
    report) is ``light-sleep-1``, ``light-sleep-2``… as GitHub numbers them, skipping an id a heading of the note
    has as written ("Light Sleep 1"); a link to a heading opens the first of that name."""
    if len(ids := _HEADING_ID.findall(html)) == len({slug for _, slug in ids}):
        return html
    written = {slug for _, slug in ids}
    used: set[str] = set()

    def unique(found: re.Match[str]) -> str:
        slug = anchor = found[2]
        number = 0
        while anchor in used or (number and anchor in written):
            number += 1
            anchor = f"{slug}-{number}"
        used.add(anchor)
        return found[0] if anchor == slug else f'<h{found[1]} id="{anchor}">'

    return _HEADING_ID.sub(unique, html)
