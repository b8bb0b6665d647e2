"""Link again only what a few edited notes change: the library ``link.link_notes`` would make from the new notes,
made from the last one. After an agent appends a Retain fact to today's log, linking 10,000 notes again takes
2 s; this takes the edited notes' links and facts out of the last library and puts their new ones in.

It applies when every edited note keeps its path, kind, date, title and front matter (and its headings' names, when
another note links one; an entity's page, always), is not ``bank/opinions.md``, and the names that make placeholder
entities are the same: then what links resolve to is unchanged, and each part of the library is the last one's
without the old notes' share and with the new notes' share (``library.relink_parts``; an entity's page edited, its
entity holds the new one: reflect rewrites one for each new fact about it). Otherwise (None) the notes are linked anew. The library says what
changed (``Library.relinked``), in the names the pages' inputs read it by.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.library import Library
from site_builder.core.model import Fact, Link, Note, Opinion, fact_order
from site_builder.core.resolver import Resolver
from site_builder.library.citing import citing_after
from site_builder.library.graph import shown_mentions
from site_builder.library.link import OPINIONS_PATH, dedupe_links, entity_links, named_enough
from site_builder.library.note_links import links_to_notes
from site_builder.library.opinion_pages import page_starts, pages_changed
from site_builder.library.prose_entities import reads_prose
from site_builder.library.relink_parts import Patched, patched_opinions, patched_part, patched_problems, patched_related
from site_builder.library.subject import is_profile

# What relinking changed (``Library.relinked``), for the pages that say what of the library they read
# (``site.builder.PageBuilder.reads_linked``): an entity's lines, facts, co-mentions or opinions; the lines linking
# a note; the opinions citing a note; an entity's mentions as a neighbour shows them (``MEMBER``: what an entity's
# graph reads of each node); how often two entities are named together (``PAIR`` a, newline, b: it changes the
# pages whose graphs have both); and a page of opinions, by its number (``opinion_pages.pages_changed``).
ENTITY, NOTE_LINKS, CITING, MEMBER, PAIR = "@entity:", "@links-to:", "@cited-by:", "@node:", "@pair:"
OPINIONS_PAGE = "@opinions-page:"
# Among a page's reads (``site.builder.PageBuilder.reads_linked``): its inputs say what of the library they read,
# in these names; such a page is held after a relink that changed none of them.
LINKED = "@"


def relink(last: Library, notes: list[Note]) -> Library | None:
    """The library of ``notes`` (public, in path order: the paths of ``last``'s notes), made from ``last``; None
    when an edit changes what names resolve to (then link them anew)."""
    edited = {note.path: (old, note) for old, note in zip(last.notes, notes, strict=True) if old is not note}
    if reads_prose(notes):  # any line may name an entity in prose now: link anew
        return None
    if not edited or any(not _keeps_names(old, new) or is_profile(new) for old, new in edited.values()):
        return None
    relinking = _Relinking(last, notes, edited)
    return relinking.library() if relinking.names_resolve_alike() else None


class _Relinking:
    """One relink: the last library, the notes now, the edited ones (path -> (old, new)) and what names resolve to
    (the last resolver, with the edited entities' pages as they are now)."""

    def __init__(self, last: Library, notes: list[Note], edited: dict[str, tuple[Note, Note]]) -> None:
        self.last, self.notes, self.edited = last, notes, edited
        self.resolver = resolver = _with_pages(last.resolver, edited)
        self.by_path = {note.path: note for note in notes}
        self.placeholders = {k for k, e in resolver.entities.items() if e.placeholder}
        self.with_pages = {k: e for k, e in resolver.entities.items() if not e.placeholder}  # a page, a profile
        with_pages_only = Resolver(self.with_pages, resolver.aliases, resolver.notes)  # before placeholders
        self.named = named_enough(notes, with_pages_only)

    def names_resolve_alike(self) -> bool:
        """Do the same names make placeholders, no edited note name one as ``[[a/b]]`` and no other note link a
        heading of an edited note whose headings changed?"""
        if {key for key in self.named if key} != self.placeholders:
            return False
        if _slashed_placeholder(self.edited.values(), self.resolver):
            return False
        return not _heads_named(self.notes, self.edited, self.resolver)

    def library(self) -> Library | None:
        """The library patched: links, facts, links to notes, opinions and warnings; None when linking anew could
        make it differently."""
        last, resolver = self.last, self.resolver
        diagnostics = Diagnostics()
        links = self.entity_links(diagnostics)
        if links is None:
            return None
        facts = [fact for note in self.notes for fact in note.facts]
        by_entity, to_notes = self.facts_by_entity(), self.note_backlinks()
        opinions, touched = patched_opinions(last, self.edited, facts, self.by_path)
        problems = patched_problems(last.problems.items, self.edited, diagnostics, touched)
        if problems is None:
            return None
        related, pairs = patched_related(last.related, self.edited, resolver)
        changed = self.changed(links, by_entity, to_notes, pairs, opinions, touched)
        citing = last.citing
        if opinions is not last.opinions:
            starts = page_starts(last.opinions), page_starts(opinions)
            citing, cited_otherwise = citing_after(last, opinions, touched, starts)
            changed.update(CITING + path for path in cited_otherwise)
            changed.update(OPINIONS_PAGE + str(n) for n in pages_changed(last.opinions, opinions, touched, starts))
        return Library(
            notes=self.notes,
            entities=last.entities if resolver is last.resolver else dict(resolver.entities),
            facts=facts,
            backlinks=links.now,
            facts_by_entity=by_entity.now,
            related=related,
            opinions=opinions,
            note_by_path=self.by_path,
            resolver=resolver,
            problems=problems,
            note_backlinks=to_notes.now,
            citing=citing,
            to_review=last.to_review if opinions is last.opinions else None,
            day_places=last.day_places,
            relinked=frozenset(changed),
        )

    def entity_links(self, diagnostics: Diagnostics) -> Patched[Link] | None:
        """The backlinks patched (the edited notes' new links' warnings into ``diagnostics``); None when a
        placeholder is made or no longer linked to."""
        resolver, by_path, named = self.resolver, self.by_path, self.named
        old = [
            pair
            for old, _ in self.edited.values()
            for pair in entity_links(old, resolver, by_path, Diagnostics(), named)
        ]
        new = [
            pair for _, new in self.edited.values() for pair in entity_links(new, resolver, by_path, diagnostics, named)
        ]
        if len(resolver.entities) != len(self.placeholders) + len(self.with_pages):
            return None  # a placeholder was made after all
        backlinks = patched_part(self.last.backlinks, self.edited, old, new, dedupe_links)
        if any(key not in backlinks for key in self.placeholders):
            return None  # a placeholder no longer linked to
        return Patched(old, new, backlinks)

    def facts_by_entity(self) -> Patched[Fact]:
        """The facts of each entity patched."""
        resolver, edited = self.resolver, self.edited
        old = [(key, f) for old, _ in edited.values() for f in old.facts for key in _keys(f, resolver)]
        new = [(key, f) for _, new in edited.values() for f in new.facts for key in _keys(f, resolver)]
        by_entity = patched_part(self.last.facts_by_entity, edited, old, new, lambda f: sorted(f, key=fact_order))
        return Patched(old, new, by_entity)

    def note_backlinks(self) -> Patched[Link]:
        """The lines linking each note patched."""
        resolver, by_path, edited = self.resolver, self.by_path, self.edited
        old = [(link.target, link) for old, _ in edited.values() for link in links_to_notes(old, resolver, by_path)]
        new = [(link.target, link) for _, new in edited.values() for link in links_to_notes(new, resolver, by_path)]
        return Patched(old, new, patched_part(self.last.note_backlinks, edited, old, new, sorted))

    def changed(
        self,
        links: Patched[Link],
        facts: Patched[Fact],
        to_notes: Patched[Link],
        pairs: set[tuple[str, str]],
        opinions: list[Opinion],
        touched: dict[str, list[Fact]],
    ) -> set[str]:
        """What changed, but for the opinions' pages and what cites them (``Library.relinked``): the lines linking
        each note, the entities edited, those whose lines, facts, co-mentions or opinions changed, those shown with
        another number of mentions, and the pairs named together another number of times."""
        last = self.last
        changed = {NOTE_LINKS + target for target, _ in (*to_notes.old, *to_notes.new)}
        changed.update(ENTITY + e.key for e in self.resolver.entities.values() if e.note and e.note.path in self.edited)
        differ = (*(set(links.old) ^ set(links.new)), *(set(facts.old) ^ set(facts.new)), *pairs)  # pairs: both ways
        changed.update(_entities_changed(last, opinions, touched, differ))
        for key in {key for key, _ in (*links.old, *links.new)}:
            if shown_mentions(len(last.backlinks.get(key, []))) != shown_mentions(len(links.now.get(key, []))):
                changed.add(MEMBER + key)
        changed.update(PAIR + a + "\n" + b for a, b in pairs if a < b)
        return changed


def _entities_changed(
    last: Library, opinions: list[Opinion], touched: dict[str, list[Fact]], differ: Iterable[tuple[str, object]]
) -> set[str]:
    """The ``ENTITY`` names of the entities whose lines, facts or co-mentions changed (``differ``: the edited notes'
    links and facts that are not in both the old and the new notes, by key — a line appended leaves those above it
    — and the pairs whose co-mention count moved), and of those the opinions made again (or gone) are about."""
    keys = {key for key, _ in differ}
    about = [o for o in (*last.opinions, *opinions) if o.id in touched] if touched else []
    keys.update(e.key for o in about for name in o.entities if (e := last.resolver.entity(name)))
    return {ENTITY + key for key in keys}


def _keeps_names(old: Note, new: Note) -> bool:
    """Does the edit leave what names resolve to, the day and the title (what other pages show of the note) as they
    were? An entity's page keeps its name, aliases and type with its front matter and title, and its headings (a
    link may name one: ``[[Sam#Boats]]``)."""
    return (
        old.path == new.path
        and old.kind == new.kind
        and new.path != OPINIONS_PATH
        and (old.date, old.meta, old.private, old.title, old.found)
        == (new.date, new.meta, new.private, new.title, new.found)
        and (new.kind != "entity" or [h.slug for h in old.headings] == [h.slug for h in new.headings])
    )


def _with_pages(resolver: Resolver, edited: dict[str, tuple[Note, Note]]) -> Resolver:
    """``resolver`` with the entity of each edited entity's page holding the page as it is now (its name, aliases
    and type are the same: ``_keeps_names``)."""
    pages = {path: new for path, (_, new) in edited.items() if new.kind == "entity"}
    if not pages:
        return resolver
    entities = {
        key: replace(entity, note=pages[entity.note.path]) if entity.note and entity.note.path in pages else entity
        for key, entity in resolver.entities.items()
    }
    return Resolver(entities, resolver.aliases, resolver.notes)


def _heads_named(notes: list[Note], edited: dict[str, tuple[Note, Note]], resolver: Resolver) -> bool:
    """Does another note link a heading of an edited note whose headings changed (``[[note#heading]]``)?"""
    moved = {
        path for path, (old, new) in edited.items() if {h.slug for h in old.headings} != {h.slug for h in new.headings}
    }
    return bool(moved) and any(
        link.heading
        and link.syntax == "wikilink"
        and link.target
        and resolver.note_path(link.target, note.path) in moved
        for note in notes
        if note.path not in edited
        for link in note.links
    )


def _slashed_placeholder(edited: Iterable[tuple[Note, Note]], resolver: Resolver) -> bool:
    """Does an edited note have a ``[[a/b]]`` naming a placeholder? Whether linking made it first depends on
    where the names met it are: link anew."""
    return any(
        link.syntax == "wikilink" and "/" in link.target and (e := resolver.entity(link.target)) and e.note is None
        for pair in edited
        for note in pair
        for link in note.links
    )


def _keys(fact: Fact, resolver: Resolver) -> set[str]:
    return {e.key for e in map(resolver.entity, fact.names) if e}
