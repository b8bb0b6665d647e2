"""Which notes' texts each page's inputs read (``PageBuilder.reads``), kept for the next build: when its library is
the last build's (``io.library_texts``), a page whose inputs read no text that changed since is kept as the last
build made it, its inputs not worked out again. After a plain edit of one day of a workspace of 10,000, a handful
of pages, not 12,000. When the library was relinked from the last (``library.relink``: a Retain fact added), the
pages whose inputs say what of the library they read (``PageBuilder.reads_linked``) are held the same way when
they read nothing relinking changed."""

from __future__ import annotations

from dataclasses import dataclass

from site_builder.io.library_texts import LibraryTexts
from site_builder.library.relink import LINKED, MEMBER, PAIR
from site_builder.site.builder import EVERY_TEXT


@dataclass(frozen=True)
class PageReads:
    """What one build's pages read: its library and texts, what every page shares (``PageBuilder.shared_inputs``)
    and, by page, the notes whose texts its inputs read."""

    texts: LibraryTexts
    shared: str
    pages: dict[str, frozenset[str]]

    def still_held(self, now: LibraryTexts, shared: str) -> dict[str, frozenset[str]]:
        """The pages whose inputs are as that build worked them out (with what they read), for a build of ``now``'s
        library and texts and ``shared`` inputs."""
        changed = now.changed_since(self.texts)
        pages = self.pages
        if changed is None:  # a library relinked from the last: only the pages that say what of it they read
            changed = now.relinked_since(self.texts)
            pages = {url: reads for url, reads in pages.items() if LINKED in reads}
        if changed is None or shared != self.shared:
            return {}
        changed.add(EVERY_TEXT)  # never held: what reading every file found (settings too) may change without a note
        named = (cell.removeprefix(PAIR).partition("\n") for cell in changed if cell.startswith(PAIR))
        pairs = [(MEMBER + a, MEMBER + b) for a, _, b in named]
        return {
            url: reads
            for url, reads in pages.items()
            if not reads & changed and not any(a in reads and b in reads for a, b in pairs)  # a graph with both
        }
