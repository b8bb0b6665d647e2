"""The workspace as it is now, for a server that runs for hours while the agent and a person edit it.

Every call first stats the workspace's files (size and modification time). The
recall index re-parses only the files whose stamp changed (as ``memwiki recall``
does); the linked library, needed for entities and the context block, is built
on first use from the build cache and then kept up to date the same way: changed
files are parsed again and the notes linked anew.
"""

from __future__ import annotations

from site_builder.build import load
from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Library, Note
from site_builder.io.reader import Workspace, read_notes, stamp_workspace
from site_builder.library.link import link_notes
from site_builder.parse.note import parse_note
from site_builder.recall.index import RecallIndex, index_path


class LiveWorkspace:
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self._index: RecallIndex | None = None
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
        self._index.refresh(self.workspace, self.root_stamps, Diagnostics())
        return self._index

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
        self._library_stamps = stamps
        return list(self._notes.values()), self._library
