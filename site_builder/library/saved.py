"""The linked library in the memo store (``io.memo_store``): an edit that changes no note's link inputs (``library.link.link_inputs``:
a plain line added to a day) takes the last build's library instead of linking every note again (2 s on a
workspace of 10,000 notes).

- ``library``: the library without its notes: what it holds of them (notes, links, facts) by their places
  (a note by its path, a link or a fact by its place among all the notes' links or facts), the rest as is but the
  opinions. Saved by the recall child, beside render, whenever a build linked anew; tagged with a token of its own.
- ``library-opinions``: its opinions, tagged with a token of their own that the library names. They
  keep copies of their facts (equal to the notes' own; pickled by reference, the file took twice as long to
  write). Written only when the opinions changed: a library relinked after a fact was appended keeps the entry.
- ``library-notes``: the token of the library it goes with, and the key (``NoteKey``) of every note
  that library holds for. Saved by the build once its site is done: a build that stopped before never leaves a
  library that passes for notes it was not linked from.

A build takes the saved library when the public notes are the same paths, and each note whose key changed has
the same link inputs as the note the library was linked from (that note is in the notes cache, under its old key);
when some have other link inputs (a Retain fact appended), ``library.relink`` makes the new library from it.
"""

from __future__ import annotations

import itertools
import secrets
from dataclasses import dataclass
from pathlib import Path

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.library import Library
from site_builder.core.model import Entity, Link, Note, Opinion
from site_builder.core.resolver import Resolver
from site_builder.io.build_cache import NoteKey
from site_builder.io.memo_store import MemoStore
from site_builder.library.citing import citing_of
from site_builder.library.hygiene import opinions_to_review
from site_builder.library.link import link_inputs
from site_builder.library.prose_entities import reads_prose
from site_builder.library.relink import relink


@dataclass(frozen=True)
class _Image:
    """A library without its notes (``Library``'s fields; notes, links and facts by their places)."""

    paths: list[str]
    # key, name, slug, note, aliases, type, found in prose, home, who found it
    entities: list[tuple[str, str, str, str | None, tuple[str, ...], str, bool, str, str]]
    backlinks: dict[str, list[int]]
    facts_by_entity: dict[str, list[int]]
    related: dict[str, list[tuple[str, int]]]
    opinions: str  # the token of the opinions file
    problems: Diagnostics
    note_backlinks: dict[str, list[Link]]
    resolved: tuple[list[str], dict[str, str], tuple[str, ...]]  # the resolver's entities (keys), aliases, notes
    citing: dict[str, list[tuple[int, int]]]  # ``library.citing.citing_places``
    to_review: list[tuple[str, int, str]]  # ``library.hygiene.opinions_to_review``
    day_places: list[tuple[int, list[int]]]  # ``Library.by_day``, the notes by their places


@dataclass(frozen=True)
class LinkedFrom:
    """Which saved library a build's library is: its token ("" when it was linked anew), and the notes it holds for;
    for a library relinked from a saved one (``library.relink``), that one's token; and the token of the saved
    opinions it holds, when it holds them (a library taken as saved; one relinked, or linked again after reflect,
    that kept them as they were)."""

    token: str
    notes: dict[str, NoteKey]
    since: str = ""
    opinions: str = ""


def new_token() -> str:
    return secrets.token_hex(8)


def reuse_library(
    memwiki_dir: Path, notes: list[Note], keys: dict[str, NoteKey], last: dict[NoteKey, Note]
) -> tuple[Library, LinkedFrom] | None:
    """The last build's library, with ``notes`` in it (their ``keys`` by path; ``last``: the notes cache as loaded),
    and which saved library it is — or, when some notes' link inputs changed, the library ``library.relink`` makes
    from it (a library linked anew: token ""); None when a note came or went, an edit changes what names resolve to,
    or nothing can be trusted."""
    store = MemoStore.of(memwiki_dir, cache=True)
    saved = store.get("library-notes", (), tuple)
    if not (isinstance(saved, tuple) and len(saved) == 2 and isinstance(saved[1], dict)):
        return None
    token, was = saved
    public = sorted((n for n in notes if not n.private), key=lambda n: n.path)
    if was.keys() != {note.path for note in public}:
        return None
    linked_from = []  # the notes the saved library was linked from
    edited = False
    prose = reads_prose(public)
    for note in public:
        key = keys.get(note.path)
        if key is None:
            return None
        old = note if key == was[note.path] else last.get(was[note.path])
        if old is None:
            return None
        same = old is note or link_inputs(old, prose=prose) == link_inputs(note, prose=prose)
        linked_from.append(note if same else old)
        edited = edited or not same
    # The library and opinions saved last, by whichever build (a build killed after its recall child saved them
    # leaves ones no notes were recorded for): taken only when they are the ones ``library-notes`` names.
    found = store.get("library", (), tuple)
    if not (found is not None and len(found) == 2 and found[0] == token and isinstance(found[1], _Image)):
        return None
    image: _Image = found[1]
    opinions = store.get("library-opinions", (), tuple)
    if not (opinions is not None and len(opinions) == 2 and opinions[0] == image.opinions):
        return None
    library = _restored(image, opinions[1], linked_from)
    if library is None or not edited:
        return (library, LinkedFrom(str(token), was, opinions=image.opinions)) if library else None
    relinked = relink(library, public)
    kept = image.opinions if relinked is not None and relinked.opinions is library.opinions else ""
    return (relinked, LinkedFrom("", {}, str(token), kept)) if relinked else None


def _restored(image: _Image, opinions: list[Opinion], public: list[Note]) -> Library | None:
    """The library ``image`` and ``opinions`` hold, with ``public`` (the notes it was linked from) in it; None when
    they do not fit."""
    if image.paths != [note.path for note in public]:
        return None
    by_path = {note.path: note for note in public}
    facts = [fact for note in public for fact in note.facts]
    links = list(itertools.chain.from_iterable(note.links for note in public))  # a link's place: in this list
    try:
        entities = {
            key: Entity(key, name, slug, by_path[note] if note is not None else None, aliases, type_, prose, home, by)
            for key, name, slug, note, aliases, type_, prose, home, by in image.entities
        }
        backlinks = {key: list(map(links.__getitem__, places)) for key, places in image.backlinks.items()}
        facts_by_entity = {key: list(map(facts.__getitem__, places)) for key, places in image.facts_by_entity.items()}
        keys_in_order, aliases, note_names = image.resolved
        if not isinstance(note_names, tuple):
            raise TypeError(note_names)
        resolver = Resolver({key: entities[key] for key in keys_in_order}, aliases, note_names)
    except (IndexError, KeyError, TypeError, ValueError):
        return None
    return Library(
        notes=public,
        entities=entities,
        facts=facts,
        backlinks=backlinks,
        facts_by_entity=facts_by_entity,
        related=image.related,
        opinions=opinions,
        note_by_path=by_path,
        resolver=resolver,
        problems=image.problems,
        note_backlinks=image.note_backlinks,
        citing=image.citing,
        to_review=image.to_review,
        day_places=image.day_places,
    )


def save_library(memwiki_dir: Path, library: Library, token: str, opinions: str, *, anew: bool) -> None:
    """The library, its notes by place, as ``token``'s (``save_library_notes`` says which notes it holds for); its
    opinions are those of the token ``opinions``: saved now when ``anew``, else the saved ones."""
    facts = {id(fact): i for i, fact in enumerate(library.facts)}
    links = {id(link): i for i, link in enumerate(itertools.chain.from_iterable(n.links for n in library.notes))}
    notes = {id(note): i for i, note in enumerate(library.notes)}
    try:
        image = _Image(
            paths=[note.path for note in library.notes],
            entities=[
                (e.key, e.name, e.slug, e.note.path if e.note else None, e.aliases, e.type, e.prose, e.home, e.by)
                for e in library.entities.values()
            ],
            backlinks={key: list(map(links.__getitem__, map(id, found))) for key, found in library.backlinks.items()},
            facts_by_entity={
                key: list(map(facts.__getitem__, map(id, found))) for key, found in library.facts_by_entity.items()
            },
            related=library.related,
            opinions=opinions,
            problems=library.problems,
            note_backlinks=library.note_backlinks,
            resolved=(list(library.resolver.entities), library.resolver.aliases, library.resolver.notes),
            citing=citing_of(library),
            to_review=library.to_review if library.to_review is not None else opinions_to_review(library),
            day_places=[(day.toordinal(), [notes[id(n)] for n in found]) for day, found in library.by_day.items()],
        )
    except KeyError:  # a link or fact not of a note: not saved (the next build links anew)
        return
    store = MemoStore.of(memwiki_dir, cache=True)
    if anew:
        store.put("library-opinions", (), (image.opinions, library.opinions))
    store.put("library", (), (token, image))


def save_library_notes(memwiki_dir: Path, linked: LinkedFrom) -> None:
    """Which notes the library of ``linked.token`` holds for (once the site is done)."""
    MemoStore.of(memwiki_dir, cache=True).put("library-notes", (), (linked.token, linked.notes))
