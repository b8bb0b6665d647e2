"""The workspace as it is now, for a server that runs for hours while the agent and a person edit it.

Every call first stats the workspace's files (size and modification time). The
recall index re-parses only the files whose stamp changed (as ``memwiki recall``
does). ``memory_entity`` links only the notes the index says can matter to the
entity (``recall.entity_notes``); they are parsed once and kept while their stamp
holds. The whole linked library, needed for the context block, is built on first
use from the build cache and then kept up to date the same way: changed files
are parsed again and the notes linked anew.
"""

from __future__ import annotations

from collections.abc import Iterable

from site_builder.build import load
from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Library, Note
from site_builder.core.names import entity_key
from site_builder.io.reader import Workspace, read_notes, stamp_workspace
from site_builder.library.link import link_notes
from site_builder.parse.note import parse_note
from site_builder.recall.entity_notes import entity_notes
from site_builder.recall.index import RecallIndex, index_path, trusted_stamps


class LiveWorkspace:
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self._index: RecallIndex | None = None
        self._stamps: dict[str, str] = {}  # of the last call's index refresh
        self._parsed: dict[str, tuple[str, Note]] = {}  # path -> (trusted stamp, note) for memory_entity
        self._names: tuple[frozenset[str], dict[str, set[str]]] | None = None
        self._linked: tuple[tuple[tuple[str, str], ...], Library] | None = None  # the last entity's notes, linked
        self._notes: dict[str, Note] = {}
        self._library: Library | None = None
        self._library_stamps: dict[str, str] = {}

    @property
    def root_stamps(self) -> dict[str, str]:
        """``{path: stamp}`` of every memory file now (the files ``memory_get`` may read)."""
        return stamp_workspace(self.workspace, Diagnostics())

    def index(self) -> RecallIndex:
        """The recall index, with every file changed since the last call indexed again."""
        if self._index is None:
            self._index = RecallIndex(index_path(self.workspace.root))
        self._stamps = self.root_stamps
        self._index.refresh(self.workspace, self._stamps, Diagnostics())
        return self._index

    def entity_library(self, name: str) -> Library:
        """The notes that can matter to the entity called ``name``, as the files are now, linked."""
        notes = entity_notes(self.index(), name, self._note_names, self._notes_at)
        stamps = tuple((note.path, self._parsed[note.path][0]) for note in notes)
        if self._linked is None or self._linked[0] != stamps or not all(stamp for _, stamp in stamps):
            self._linked = (stamps, link_notes(notes))  # the same notes as last time: their library again
        return self._linked[1]

    def _notes_at(self, paths: Iterable[str]) -> list[Note]:
        """The notes at ``paths``, parsed again only when their stamp changed (or was too recent to trust)."""
        wanted = [path for path in paths if path in self._stamps]
        trusted = trusted_stamps({path: self._stamps[path] for path in wanted})
        stale = [path for path in wanted if not trusted[path] or self._parsed.get(path, ("",))[0] != trusted[path]]
        for source in read_notes(self.workspace, stale, Diagnostics()):
            self._parsed[source.path] = (trusted[source.path], parse_note(source))
        return [self._parsed[path][1] for path in wanted if path in self._parsed]

    def _note_names(self) -> dict[str, set[str]]:
        """Name key -> paths of the notes other than entity pages a link may name by it (their stem or path)."""
        paths = frozenset(self._stamps)
        if self._names is None or self._names[0] != paths:
            kind_of = self.workspace.layout.kind_of
            names: dict[str, set[str]] = {}
            for path in paths:
                if kind_of(path) != "entity":
                    for key in (
                        entity_key(path.rsplit("/", 1)[-1].removesuffix(".md")),
                        entity_key(path.removesuffix(".md")),
                    ):
                        names.setdefault(key, set()).add(path)
            self._names = (paths, names)
        return self._names[1]

    def library(self) -> tuple[list[Note], Library]:
        """Every note (private ones included) and the linked library of the public ones, as the files are now."""
        stamps = self.root_stamps
        if self._library is None:
            loaded = load(self.workspace, save_cache=True)  # the next server start parses only what changed
            self._notes = {note.path: note for note in loaded.notes}
            self._library = loaded.library
        elif stamps != self._library_stamps:
            stale = [path for path, stamp in stamps.items() if self._library_stamps.get(path) != stamp]
            for source in read_notes(self.workspace, stale, Diagnostics()):
                self._notes[source.path] = parse_note(source)
            for gone in set(self._notes) - set(stamps):
                del self._notes[gone]
            self._library = link_notes(list(self._notes.values()))
        self._library_stamps = trusted_stamps(stamps)  # a file written just now is parsed again next time
        return list(self._notes.values()), self._library
