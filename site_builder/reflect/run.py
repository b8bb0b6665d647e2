"""Reflect: regenerate entity pages and opinion histories from the facts (DESIGN §3).

Reads the linked library, asks a reflector (offline, or Claude) for entity
summaries and evidence verdicts, and returns the new text of every page whose
generated block changed. Only the blocks change: the person's text around
them is kept byte for byte. The build writes them (``io.writer.write_workspace_files``).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.digest import value_digest
from site_builder.core.library import Library
from site_builder.core.model import Entity, Note, Opinion
from site_builder.core.names import entity_file_name
from site_builder.library.link import OPINIONS_PATH, link_notes, recorded_history
from site_builder.library.opinions import VERDICTS, collect_opinions
from site_builder.reflect.blocks import BlockError, replace_block
from site_builder.reflect.candidates import verdict_inputs
from site_builder.reflect.entity_block import render_entity_block
from site_builder.reflect.offline import offline_summary
from site_builder.reflect.opinion_block import render_opinion_block
from site_builder.reflect.reflector import EntityInput, Reflector, Usage


@dataclass
class ReflectResult:
    changes: dict[str, tuple[str | None, str]] = field(default_factory=dict)  # path -> (old text or None, new)
    opinions_now: list[Opinion] = field(default_factory=list)  # every opinion, with the verdicts judged this run
    opinions_block_of: list[Opinion] | None = None  # whose block bank/opinions.md has as reflect leaves it
    entities: int = 0
    opinions: int = 0
    usage: Usage = field(default_factory=Usage)

    @property
    def created(self) -> list[str]:
        return sorted(p for p, (old, _) in self.changes.items() if old is None)

    def summary(self, dry_run: bool = False) -> str:
        """One line for the terminal: what was reflected, what changed, what the model cost."""
        usage = self.usage
        verb = "would change" if dry_run else "changed"
        created = f" ({len(self.created)} new)" if self.created else ""
        line = (
            f"reflect: {self.entities} entities, {self.opinions} opinions; {verb} {len(self.changes)} page(s){created}"
        )
        if usage.calls or usage.cached:
            line += (
                f"; {usage.calls} model call(s), {usage.cached} from cache, "
                f"{usage.input_tokens:,} input + {usage.output_tokens:,} output tokens"
            )
        return line + "."

    def diff(self) -> str:
        out: list[str] = []
        for path, (old, new) in sorted(self.changes.items()):
            before = (old or "").replace("\r\n", "\n").splitlines(keepends=True)
            after = new.replace("\r\n", "\n").splitlines(keepends=True)
            out += difflib.unified_diff(before, after, f"a/{path}" if old is not None else "/dev/null", f"b/{path}")
        return "".join(out)


PageParser = Callable[[str, str], Note]  # (path, new text) -> the page as the next build parses it


def reflect(
    library: Library,
    reflector: Reflector,
    read_raw: Callable[[str], str | None],
    diagnostics: Diagnostics,
    parse_page: PageParser,
    opinions_written: bool = False,
) -> ReflectResult:
    """New text for every page whose generated block changes.

    Blocks cite facts by line, and a block that grows moves the facts written below it (in its own
    page, in ``bank/opinions.md``). When a fact moves, the blocks are written once more against the
    pages as they will be: a block keeps its number of lines, so once is enough. ``parse_page`` parses a page
    as reflect is about to write it, as the next build will (the build's own parser keeps what it parsed).
    ``opinions_written``: ``bank/opinions.md`` has the block the library's opinions make (known from an earlier run);
    while no verdict moves one, it is not made again (a million history rows: seconds to make and compare).
    """
    result = ReflectResult(usage=reflector.usage)
    verdicts = reflector.verdicts(verdict_inputs(library), diagnostics)
    if any(v in VERDICTS[:3] for v in verdicts.values()):
        opinions = collect_opinions(library.facts, recorded_history(library.note_by_path), verdicts)
    else:  # nothing moved: the library's opinions are already these
        opinions = library.opinions
    result.opinions_now = opinions
    result.opinions = len(opinions)
    inputs = {
        entity.key: _entity_input(entity, path, library, opinions)
        for entity, path in _entity_pages(library, diagnostics)
    }
    answers = reflector.summaries(list(inputs.values()), diagnostics)
    summaries = {key: answers.get(key) or given.previous or given.offline for key, given in inputs.items()}
    _write_blocks(result, library, opinions, summaries, read_raw, diagnostics, opinions_written)
    moved = _as_written(library, result, opinions, parse_page)
    if moved is not None:
        result.changes.clear()
        _write_blocks(result, moved, moved.opinions, summaries, read_raw, Diagnostics(), False)
    result.entities = len(summaries)
    return result


NoteReads = dict[str, tuple[str, str]]  # path -> (the text the note was parsed from, the digest of what reflect reads)


def input_digest(library: Library, known: NoteReads | None = None) -> tuple[str, NoteReads]:
    """The digest of everything reflect reads from the library: every public note's path, kind and date, its facts,
    its links (where they are and what they name: not their sentences, which reflect never shows), its dreaming
    blocks, and the whole text of the pages reflect writes (entity pages, with their names, aliases and earlier
    summaries; ``bank/opinions.md``, with the history it recorded). Entities, backlinks, co-mentions, the days an
    entity was seen and the opinions all come from these. Reflect run again on the pages it wrote changes no byte,
    so with the same digest (and reflector and settings) it would change nothing.

    Each note's part is digested on its own and given back, so that the next build digests only the notes whose
    text changed (``known``; a note is parsed from its path, kind and text alone): all of them took 0.8 s on a
    workspace of 100,000 facts, at every build that reflect might have to run for."""
    reads: NoteReads = {}
    for note in library.notes:
        text = f"{note.kind}:{note.digest}"
        was = known.get(note.path) if known else None
        reads[note.path] = was if was is not None and was[0] == text else (text, value_digest(_read_of(note)))
    return value_digest([read for _, read in reads.values()]), reads


def _read_of(note: Note) -> object:
    links = [(link.line, link.target, link.syntax, link.heading) for link in note.links]
    page = note.digest if note.kind == "entity" or note.path == OPINIONS_PATH else ""
    return (note.path, note.kind, note.date, note.facts, links, note.dreaming, page)


def _entity_pages(library: Library, diagnostics: Diagnostics) -> list[tuple[Entity, str]]:
    """Entities that get a block, and the page it goes in."""
    pages = []
    may_create = _keeps(library, "bank/entities/")
    for entity in library.entities.values():
        if entity.note is None and not (may_create and _retain_subject(entity, library)):
            continue  # pages are made only where the workspace keeps them, and only for what facts are about
        path = entity.note.path if entity.note else entity_file_name(entity.name)
        if path is None:
            diagnostics.warn(
                "bank/entities", 0, f"'{entity.name}' is not a safe file name; no page was created for it", "reflect"
            )
            continue
        pages.append((entity, path))
    return pages


def _write_blocks(
    result: ReflectResult,
    library: Library,
    opinions: list[Opinion],
    summaries: dict[str, str],
    read_raw: Callable[[str], str | None],
    diagnostics: Diagnostics,
    opinions_written: bool,
) -> None:
    result.opinions_block_of = None
    if opinions and (OPINIONS_PATH in library.note_by_path or _keeps(library, "bank/")):
        in_place = opinions_written and opinions is library.opinions
        if not in_place:
            block = render_opinion_block(opinions)
            in_place = _change(result, OPINIONS_PATH, "opinions", block, read_raw, "# Opinions\n", diagnostics)
        if in_place:
            result.opinions_block_of = opinions
    for key, summary in summaries.items():
        entity = library.entities[key]
        path = entity.note.path if entity.note else entity_file_name(entity.name)
        assert path is not None  # _entity_pages kept only safe names
        block = render_entity_block(entity, library, library.opinions_about(key, opinions), summary)
        _change(result, path, "entity", block, read_raw, f"# {entity.name}\n", diagnostics)


def _as_written(
    library: Library, result: ReflectResult, opinions: list[Opinion], parse_page: PageParser
) -> Library | None:
    """The library once reflect's pages are written, or None when no fact in them moves to another line."""
    notes = dict(library.note_by_path)
    moved = False
    for path, (_, text) in result.changes.items():
        old = library.note_by_path.get(path)
        notes[path] = parse_page(path, text)
        moved |= old is not None and [(f.id, f.line) for f in old.facts] != [(f.id, f.line) for f in notes[path].facts]
    return link_notes(list(notes.values()), opinions=opinions) if moved else None


def _change(
    result: ReflectResult,
    path: str,
    name: str,
    block: str,
    read_raw: Callable[[str], str | None],
    new_page: str,
    diagnostics: Diagnostics,
) -> bool:
    """Put ``block`` into the page at ``path``: False when its markers are broken (the page is left alone)."""
    old = read_raw(path)
    try:
        new = replace_block(old if old is not None else new_page, name, block)
    except BlockError as exc:
        diagnostics.warn(path, 0, f"{exc}; reflect left this page alone", "reflect")
        return False
    if new != old:
        result.changes[path] = (old, new)
    return True


def _retain_subject(entity: Entity, library: Library) -> bool:
    """True when Retain facts are about it (``- W @Name: …``) and it is more than a passing name: the subject of
    two facts, or of one fact and named in another note too. A mere ``@mention`` makes no file, and neither does
    the one fact of a topic tag (``- B @Authorization: …``): that fact is shown on its day's page already."""
    links = library.backlinks.get(entity.key, [])
    facts = {(link.path, link.line) for link in links if link.syntax == "fact"}
    return len(facts) >= 2 or (len(facts) == 1 and len({link.path for link in links}) >= 2)


def _keeps(library: Library, folder: str) -> bool:
    """Does the workspace already keep notes in ``folder`` (memwiki's conventions)? Elsewhere reflect creates nothing."""
    return any(path.startswith(folder) for path in library.note_by_path)


def _entity_input(entity: Entity, path: str, library: Library, opinions: list[Opinion]) -> EntityInput:
    about = library.opinions_about(entity.key, opinions)
    note = entity.note
    text = "\n".join(line for line in note.body.split("\n") if line.strip()) if note else ""
    return EntityInput(
        key=entity.key,
        name=entity.name,
        path=path,
        type=entity.type,
        text=text,
        facts=library.facts_by_entity.get(entity.key, []),
        opinions=about,
        related=[library.entities[k].name for k, _ in library.related.get(entity.key, [])[:8]],
        previous=note.reflected.summary if note else "",
        offline=offline_summary(entity, library, about),
    )
