"""Relative URLs between pages, and the ``Linker`` the Markdown renderer uses."""

from __future__ import annotations

import posixpath
import re
from html import escape
from urllib.parse import unquote

from site_builder.core.library import Library
from site_builder.core.model import KIND_NAMES, Fact
from site_builder.core.names import heading_slug, page_url, root_of, tag_url
from site_builder.parse.file_links import written_path
from site_builder.parse.tags import tag_key
from site_builder.site.markdown import Linker, Target

# A relative link to a note: ``x.md``, ``../y.md#part``, ``z.md:14`` (a line, as tools cite them; no scheme).
_SCHEME = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, mailto:, data:…
FILE_URL = re.compile(
    r"^(?:(?![a-zA-Z][a-zA-Z0-9+.-]*:)|(?=[^:]*\.md:L?\d))([^#?]+?\.md)(?::L?(\d+)(?:-L?\d+)?)?(#.*)?$", re.IGNORECASE
)


class SiteLinker(Linker):
    """Resolves names for the page at ``url`` using the library's resolver."""

    def __init__(self, library: Library, url: str, note_path: str = "", root: str | None = None) -> None:
        self.library = library
        self.url = url
        self.note_path = note_path or url  # relative links resolve from the note's folder
        self.root = root_of(url) if root is None else root  # the way back to the site root, put before every link

    def entity(self, name: str) -> Target:
        entity = self.library.resolver.entity(name)
        if entity is None:
            return Target("#", f"{name} (unknown)", missing=True)
        title = entity.name + (" (no page yet)" if entity.placeholder else "")
        return Target(self.root + entity.url, title, missing=entity.placeholder)

    def wikilink(self, name: str, heading: str | None) -> Target:
        fragment = ""
        if heading:
            fragment = "#" + (heading if heading.startswith("^") else heading_slug(heading))
        if not name:
            return Target(fragment or "#", heading or "")
        entity = self.library.resolver.entity(name)
        path = self.library.resolver.note_path(name, self.note_path)
        if entity is None and path:
            note = self.library.note(path)
            title = note.title if note else name
            return Target(self.root + page_url(path) + fragment, title)
        target = self.entity(name)
        return Target(target.href + fragment if target.href != "#" else "#", target.title, target.missing)

    def file(self, url: str) -> Target | None:
        m = FILE_URL.match(url)
        if m is None:
            return None
        target = unquote(m[1])
        path = self.library.resolver.file_path(target, self.note_path)
        note = self.library.note(path) if path else None
        if note is None:
            return Target("#", f"{written_path(self.note_path, target)} is not on this site", missing=True)
        return Target(self.root + note.url + (f"#L{m[2]}" if m[2] else m[3] or ""), note.title)

    def relative(self, url: str) -> str:
        """A link written relative to its note (``./fusion-reactor/``), from the page it is shown on: the same where
        that page is in the note's folder, else by the way back to the site's root (an entity's backlinks quote
        lines of notes elsewhere)."""
        if not url or url.startswith(("#", "/")) or _SCHEME.match(url):
            return url
        folder = posixpath.dirname(self.note_path)
        if folder == posixpath.dirname(self.url):
            return url
        target = posixpath.normpath(posixpath.join(folder, url)) + ("/" if url.endswith("/") else "")
        return url if target.startswith("../") or target == ".." else self.root + target.removeprefix("./")

    def tag(self, name: str) -> Target:
        return Target(self.root + tag_url(tag_key(name)), f"Tag #{name}")

    def fact_badge(self, fact: Fact) -> str:
        # The badge's kind and confidence stay out of the search index, but its anchor is in it: search tells a
        # fact's kind from the anchor's id (``f-W-<fact id>``). Its subjects are searched: a name typed finds the
        # facts about that entity, not only the lines that name it in passing. Its subjects are apart by a space,
        # which the badge's flex layout does not show but search reads: "@Tidewater @Peter", not "@Tidewater@Peter".
        parts = [
            f'<span class="fact k-{fact.kind}" id="f-{fact.kind}-{fact.id}">',
            f'<abbr class="kind" title="{KIND_NAMES[fact.kind]}" data-pagefind-ignore>{fact.kind}</abbr>',
        ]
        if fact.confidence is not None:
            parts.append(f'<span class="conf" title="confidence" data-pagefind-ignore>{fact.confidence:.2f}</span>')
        chips = []
        for name in fact.entities:
            to = self.entity(name)
            css = "mention missing" if to.missing else "mention"
            title = escape(to.title)
            chips.append(f'<a class="{css}" href="{escape(to.href)}" title="{title}">@{escape(name)}</a>')
        parts.append(" ".join(chips))
        if fact.block_id:
            parts.append(f'<span class="block-id" id="^{escape(fact.block_id)}"></span>')
        parts.append("</span>")
        return "".join(parts)
