"""The workspace as it is now, for a server that runs for hours while the agent and a person edit it.

Every call first stats the workspace's files (size and modification time). The
recall index re-parses only the files whose stamp changed (as ``memwiki recall``
does). ``memory_entity`` links only the notes the index says can matter to the
entity (``recall.entity_notes``); they are parsed once and kept while their stamp
holds. The context block is made from the index too (``recall.index_facts``):
only the core memory and ``bank/opinions.md`` are parsed, the facts are the
index's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.library import Library, core_of
from site_builder.core.model import Note, Opinion, OpinionPoint
from site_builder.core.names import entity_key
from site_builder.io.reader import Workspace, stamp_workspace
from site_builder.io.sources import read_notes
from site_builder.library.link import OPINIONS_PATH, link_notes
from site_builder.library.opinions import collect_opinions
from site_builder.recall.ahead import answer_refreshed, in_background
from site_builder.recall.entity_notes import entity_notes
from site_builder.recall.index import RecallIndex, index_path, trusted_stamps
from site_builder.recall.index_facts import latest_day, newest_facts, opinion_facts

if TYPE_CHECKING:
    from site_builder.library.memory_block import MemorySources

Answer = TypeVar("Answer")
NO_HISTORY: dict[str, list[OpinionPoint]] = {}  # no bank/opinions.md, or a private one (never changed)


class LiveWorkspace:
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self._index: RecallIndex | None = None
        self._stamps: dict[str, str] = {}  # of the last call's index refresh
        self._parsed: dict[str, tuple[str, Note]] = {}  # path -> (trusted stamp, note) for memory_entity
        self._names: tuple[frozenset[str], dict[str, set[str]]] | None = None
        self._linked: tuple[tuple[tuple[str, str], ...], Library] | None = None  # the last entity's notes, linked
        # The opinions of the last context block, with what they were made from (the index's state, the history).
        self._opinions: tuple[tuple[object, int], list[Opinion], object] | None = None

    def index(self) -> RecallIndex:
        """The recall index, with every file changed since the last call indexed again."""
        if self._index is None:
            self._index = RecallIndex(index_path(self.workspace.root))
        self._stamps = stamp_workspace(self.workspace, Diagnostics())
        self._index.refresh(self.workspace, self._stamps, Diagnostics())
        return self._index

    def answer(self, ask: Callable[[RecallIndex], Answer]) -> Answer:
        """What ``ask`` answers from the index as the files are now: asked while the files are statted, and again
        only when they changed what the index holds."""
        if self._index is None:
            return ask(self.index())

        def stamped() -> tuple[Workspace, dict[str, str]]:
            return self.workspace, stamp_workspace(self.workspace, Diagnostics())

        checked = in_background(stamped)

        def recorded() -> tuple[Workspace, dict[str, str]]:
            self._stamps = checked()[1]
            return self.workspace, self._stamps

        return answer_refreshed(self._index, recorded, ask, Diagnostics())

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
        if stale:
            from site_builder.parse.note import parse_note  # not at start: a search on unchanged files needs none

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

    def titled(self) -> Workspace:
        """The workspace with the site's title its settings, its agent's identity or its folder give
        (``site_title``)."""
        from site_builder.library.subject import IDENTITY_FILES, SOUL_FILES, site_title

        identity = self._notes_at(sorted((IDENTITY_FILES | SOUL_FILES) & set(self._stamps)))
        folder = self.workspace.root.resolve().name
        return self.workspace.with_config(site_title(self.workspace.config, identity, folder))

    def memory_sources(self) -> tuple[MemorySources, RecallIndex]:
        """What the context block is made of, as the files are now, and the index it came from: the same as a
        library of the whole workspace gives (``MemorySources.of``)."""
        from site_builder.library.memory_block import MemorySources  # and the bundle's renderer: only this tool

        index = self.index()
        kind_of = self.workspace.layout.kind_of
        core = core_of(self._notes_at(sorted(path for path in self._stamps if kind_of(path) == "core")))
        recorded = NO_HISTORY
        for note in self._notes_at([OPINIONS_PATH]):
            recorded = NO_HISTORY if note.private else note.reflected.opinion_history
        key = (index.state(), id(recorded))
        if self._opinions is None or self._opinions[0] != key:  # the same facts and history: the same opinions
            cited = (point.fact_id for points in recorded.values() for point in points)
            self._opinions = (key, collect_opinions(opinion_facts(index.db, cited), recorded), recorded)
        return MemorySources(core, self._opinions[1], latest_day(index.db), newest_facts(index.db)), index
