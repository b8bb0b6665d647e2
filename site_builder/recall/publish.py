"""What a build gives an agent, made while the site renders: ``recall.json`` and its shards written into the
staged site, and the recall index brought up to date with the notes just parsed.

A build runs ``publish_recall`` in a forked child (``processes.Background``) beside render: it needs only the
linked library, and sends back a few lines (``Published``), not the bundle; ``copy_recall_bundle`` then puts the
bundle beside the workspace.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.core.collector import cycle_collection_paused
from site_builder.core.diagnostics import Diagnostic, Diagnostics
from site_builder.core.library import Library
from site_builder.core.model import Note
from site_builder.io.build_cache import LastShards, ShardMarks, kept_shard
from site_builder.io.derived import write_derived
from site_builder.io.library_texts import LibraryTexts
from site_builder.io.memo_store import MemoStore
from site_builder.io.reader import Workspace
from site_builder.io.sources import read_notes
from site_builder.io.staging import Staging
from site_builder.recall.bundle import make_bundle, opinion_facts
from site_builder.recall.index import RecallIndex, refresh_index
from site_builder.recall.index_mentions import tag_mentions
from site_builder.recall.shard_inputs import HeldShards


@dataclass(frozen=True)
class Published:
    paths: list[str]  # recall.json and every shard, in the staged site
    report: str  # one line about recall.json (``Bundle.report``)
    marks: ShardMarks  # what each shard was made from and its file as written (or kept): for the next build
    problems: list[Diagnostic] = field(default_factory=list)  # the recall index's: they never keep the old site


def publish_recall(
    library: Library,
    title: str,
    max_tokens: int,
    staging: Staging,
    last_shards: LastShards | None,
    index: tuple[Workspace, list[Note], dict[str, str]] | None,
    texts: LibraryTexts | None = None,
    opinions: tuple[MemoStore, str] | None = None,
) -> Published:
    """recall.json and the shards it does not keep from the last build (``last_shards``; None: no cache) into
    ``staging``; then, when ``index`` is given, the workspace's recall index updated from its notes (and their
    stamps as listed, ``refresh_index``). ``texts``: this build's library and texts; when the library is the last
    build's, the inputs of a shard whose entity's page did not change are the last ones (``HeldShards``).
    ``opinions``: the memo store and the token the library's opinions are saved under (``_opinion_facts``)."""
    last_texts, last_marks = last_shards if last_shards is not None else (None, {})
    kept = kept_shard(last_marks, staging) if last_shards is not None else None
    changed = texts.changed_since(last_texts) if texts is not None else None
    held = HeldShards({path: mark[0] for path, mark in last_marks.items()}, changed) if changed is not None else None
    bundle = make_bundle(library, title, max_tokens, kept, held, _opinion_facts(library, opinions))
    written = {path: staging.put(path, data) for path, data in bundle.files.items()}
    before = last_marks
    marks = {path: (key, written.get(path) or before[path][1]) for path, key in bundle.inputs.items()}
    problems = Diagnostics()
    if index is not None:
        workspace, notes, stamps = index
        update_recall_index(workspace, notes, library, problems, stamps)
    return Published(bundle.paths, bundle.report(), marks, problems.items)


def _opinion_facts(library: Library, opinions: tuple[MemoStore, str] | None) -> frozenset[str]:
    """``bundle.opinion_facts`` of the library's opinions, kept by the token they are saved under: a pass over every
    history point and evidence, a second on a workspace of a million (while the build waits for recall)."""
    if opinions is None or not opinions[1]:
        return opinion_facts(library.opinions)
    store, token = opinions
    return store.get_or_make("opinion-facts", (token,), lambda: opinion_facts(library.opinions), frozenset)


def update_recall_index(
    workspace: Workspace,
    notes: list[Note],
    library: Library,
    diagnostics: Diagnostics,
    stamps: dict[str, str] | None = None,
) -> None:
    """The recall index brought up to date with the notes just parsed, and the lines that name an entity in plain
    text tagged with it (``index_mentions``); a failure is a warning."""
    try:
        index = refresh_index(workspace, notes, stamps)
        tag_mentions(index, library)
        index.db.close()
    except (OSError, sqlite3.Error) as exc:
        diagnostics.warn(".memwiki", 0, f"recall index not updated ({exc}); memwiki recall will update it", "io")


def first_index(workspace: Workspace, stamps: dict[str, str], diagnostics: Diagnostics) -> RecallIndex:
    """A workspace's first recall index, made by ``memwiki recall`` before any build: its notes parsed once and
    linked, so that the lines naming an entity in plain text are tagged as a build tags them (``index_mentions``;
    ``--entity Alex`` finds the logs that write "Alex", not only the profile that names him)."""
    from site_builder.library.link import link_notes
    from site_builder.parse.note import parse_note

    with cycle_collection_paused():
        notes = [parse_note(source) for source in read_notes(workspace, list(stamps), diagnostics)]
        index = refresh_index(workspace, notes, stamps)
        tag_mentions(index, link_notes(notes))
    return index


def copy_recall_bundle(root: Path, paths: list[str], site: Path, diagnostics: Diagnostics) -> None:
    """recall.json and the shards (``paths``) into ``.memwiki/``, where an agent finds them beside the workspace:
    the site's files, linked where the file system allows."""
    try:
        write_derived(root / ".memwiki", {path: site / path for path in paths})
    except OSError as exc:
        diagnostics.warn(".memwiki", 0, f"recall.json not copied into the workspace: {exc}", "io")
