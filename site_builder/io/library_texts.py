"""A library and its notes' texts, as one build had them (``LibraryTexts``): when a build's library is the last
build's (``library.saved``: no note's link inputs changed), what was made from the library and from texts that
did not change since is still what it was. Pages (``site.page_reads``) and recall shards (``recall.shard_inputs``)
are kept on it without their inputs worked out again."""

from __future__ import annotations

from dataclasses import dataclass

from site_builder.core.library import Library


@dataclass(frozen=True)
class LibraryTexts:
    """The token of a build's library ("" when it is not kept) and the digest of each of its notes' texts; for a
    library relinked from the last one (``library.relink``), that one's token and what relinking changed."""

    library: str
    texts: dict[str, str]
    since: str = ""
    relinked: frozenset[str] = frozenset()

    @classmethod
    def of(cls, library: Library, token: str, since: str = "") -> LibraryTexts:
        texts = {note.path: note.digest for note in library.notes}
        return cls(token, texts, since, library.relinked or frozenset()) if since else cls(token, texts)

    def changed_since(self, last: LibraryTexts | None) -> set[str] | None:
        """The notes whose texts changed since ``last``, when the library is the one it had; None when it is not
        (or no library was kept): then anything may have changed."""
        if last is None or not self.library or self.library != last.library or self.texts.keys() != last.texts.keys():
            return None
        return {path for path, digest in self.texts.items() if last.texts[path] != digest}

    def relinked_since(self, last: LibraryTexts | None) -> set[str] | None:
        """When the library was relinked from ``last``'s: the notes whose texts changed since and what relinking
        changed (a page that says what of the library it reads holds when it read none of them); else None."""
        if last is None or not self.since or self.since != last.library or self.texts.keys() != last.texts.keys():
            return None
        return {path for path, digest in self.texts.items() if last.texts[path] != digest} | self.relinked
