"""Link parsed notes into a ``Library``: entities, backlinks, facts, opinions.

Every ``@mention``, ``[[wikilink]]`` and fact entity is resolved here, once;
the renderer and recall only look names up in the result.
"""

from __future__ import annotations

import operator
import re
from collections import defaultdict

from site_builder.core.collector import cycle_collection_paused
from site_builder.core.diagnostics import Diagnostics
from site_builder.core.library import Library
from site_builder.core.model import Entity, Fact, Link, Note, Opinion, OpinionPoint, fact_order
from site_builder.core.names import entity_key, heading_slug, slugify
from site_builder.core.resolver import Resolver
from site_builder.library.co_mentions import related_entities
from site_builder.library.found_entities import add_found_by_claude, add_profiles, add_prose_entities, prose_mentions_of
from site_builder.library.note_links import note_backlinks
from site_builder.library.opinions import (
    collect_opinions,
    group_opinion_facts,
    restated_differently,
)
from site_builder.library.prose_entities import topics
from site_builder.library.repoint import repoint_opinions
from site_builder.library.subject import entity_aliases
from site_builder.parse.link_syntax import DAY_NAME

OPINIONS_PATH = "bank/opinions.md"
# A wikilink to a file that is not a note (an attachment: ``![[photo.png]]``) names no one.
FILE_NAME = re.compile(r"\.(?!md$)[a-z0-9]{1,5}$", re.IGNORECASE)
_PLACE = operator.attrgetter("path", "line")  # where a link is: its file, then its line


def link_notes(notes: list[Note], opinions: list[Opinion] | None = None) -> Library:
    """Resolve links across notes; unknown names become placeholder entities.

    A name without a page gets a placeholder entity: not a warning (the site makes its page, the
    hygiene report lists it). Opinions are collected from the facts and the history recorded in
    ``bank/opinions.md``, unless ``opinions`` already computed for these facts
    (by reflect) are given: those are only re-pointed at the facts' current lines.
    What linking finds goes to ``Library.problems``.
    """
    with cycle_collection_paused():  # many objects, none in a cycle
        return _link(notes, opinions)


def _link(notes: list[Note], opinions: list[Opinion] | None) -> Library:
    diagnostics = Diagnostics()
    public = sorted((n for n in notes if not n.private), key=lambda n: n.path)
    resolver = _resolver(public, diagnostics)
    add_profiles(public, resolver)
    by_path = {n.path: n for n in public}
    backlinks: dict[str, list[Link]] = defaultdict(list)
    named = named_enough(public, resolver)
    scan = add_prose_entities(public, resolver)
    if scan is not None:  # where the prose is read, a subject that is a common word is a topic (``@Budget``)
        named -= topics(named, scan, public)
    add_found_by_claude(public, resolver)
    for note in public:
        for key, link in entity_links(note, resolver, by_path, diagnostics, named):
            backlinks[key].append(link)
    in_prose = prose_mentions_of(scan, public, resolver)
    for key, links in in_prose.items():
        page = resolver.entities[key].note  # its own page's lines are no mentions (its profile's are: not shown)
        backlinks[key] += [link for link in links if page is None or link.path != page.path]
    resolver.entities = dict(sorted(resolver.entities.items()))  # placeholders among the pages: one order, however met
    facts = [f for n in public for f in n.facts]
    facts_by_entity = _facts_by_entity(facts, resolver)
    diagnostics.items += restated_differently(group_opinion_facts(facts))
    if opinions is None:
        opinions = collect_opinions(facts, recorded_history(by_path))
    else:
        opinions = repoint_opinions(opinions, facts)
    return Library(
        notes=public,
        entities=dict(resolver.entities),
        facts=facts,
        backlinks={k: dedupe_links(v) for k, v in sorted(backlinks.items())},
        facts_by_entity=facts_by_entity,
        related=related_entities(public, resolver, in_prose),
        opinions=opinions,
        note_by_path=by_path,
        resolver=resolver,
        problems=diagnostics,
        note_backlinks=note_backlinks(public, resolver, by_path),
    )


def entity_links(
    note: Note, resolver: Resolver, by_path: dict[str, Note], diagnostics: Diagnostics, named: set[str]
) -> list[tuple[str, Link]]:
    """The note's links to entities, each with its entity's key (a link on the entity's own page is none)."""
    found = []
    for link in note.links:
        key = resolve_link(link, resolver, by_path, diagnostics, named)
        owner = resolver.entities[key].note if key else None
        if key and (owner is None or owner.path != link.path):
            found.append((key, link))
    return found


def link_inputs(note: Note, *, prose: bool = False) -> tuple[object, ...]:
    """Everything linking reads of a note: all of it but its text, except the lines its links are on (the sentences
    of links between notes); all of its text where linking reads the prose (``prose``: ``reads_prose`` of the
    workspace's notes). Two notes with the same link inputs link the same: an edit that keeps them (a plain line
    added at the end) leaves the library as it was (``library.saved``)."""
    if prose:
        return (*link_inputs(note), note.body)
    linking = {link.line for link in note.links} | {line for line, _ in note.file_links}
    linking.update(tag.line for tag in note.tags)  # the tag pages show the lines (``site.tags_page``)
    lines = note.body.split("\n")
    texts = [lines[i] if 0 <= (i := line - note.body_start) < len(lines) else "" for line in sorted(linking)]
    return (
        note.path, note.kind, note.title, note.body_start, note.meta, note.date, note.facts, note.links,
        note.file_links, note.records, note.dreaming, note.headings, note.private, note.reflected, note.tags,
        sorted(linking), texts, note.found,
    )  # fmt: skip


def recorded_history(by_path: dict[str, Note]) -> dict[str, list[OpinionPoint]]:
    """The opinion history reflect recorded in ``bank/opinions.md``."""
    note = by_path.get(OPINIONS_PATH)
    return note.reflected.opinion_history if note else {}


def _resolver(notes: list[Note], diagnostics: Diagnostics) -> Resolver:
    resolver = Resolver(notes=tuple(note.path for note in notes))
    for note in notes:
        if note.kind != "entity":
            continue
        key = entity_key(note.stem)
        if key in resolver.entities:
            other = resolver.entities[key].note
            diagnostics.warn(
                note.path,
                0,
                f"same entity as {other.path if other else '?'} (names differ only in case or separators); ignored",
                "duplicate-entity",
            )
            continue
        name = note.meta.get("title") if isinstance(note.meta.get("title"), str) else note.stem
        resolver.entities[key] = Entity(
            key=key,
            name=str(name),
            slug=slugify(note.stem),
            note=note,
            aliases=_aliases(note, diagnostics),
            type=str(note.meta.get("type") or ""),
        )
        for path in (note.path, note.path.removesuffix(".md")):  # [[bank/entities/Alice]] is Alice too
            resolver.aliases[entity_key(path)] = key
    for key, entity in list(resolver.entities.items()):
        for alias in entity.aliases:
            akey = entity_key(alias)
            if akey in resolver.entities and akey != key:
                continue  # a real page wins over another page's alias
            if akey in resolver.aliases and resolver.aliases[akey] != key:
                owner = resolver.entities[resolver.aliases[akey]]
                diagnostics.warn(
                    entity.note.path if entity.note else "",
                    0,
                    f"alias '{alias}' is also an alias of {owner.name}; kept for {owner.name}",
                    "alias",
                )
                continue
            resolver.aliases[akey] = key
    return resolver


def _aliases(note: Note, diagnostics: Diagnostics) -> tuple[str, ...]:
    aliases = entity_aliases(note)
    if aliases is None:
        diagnostics.warn(note.path, 2, "aliases must be a list of names; ignored", "front-matter")
    return aliases or ()


def resolve_link(
    link: Link,
    resolver: Resolver,
    by_path: dict[str, Note],
    diagnostics: Diagnostics,
    named: set[str],
) -> str | None:
    """Entity key the link points to (creating a placeholder), or None for note links and passing names."""
    if link.syntax == "wikilink":
        if not link.target:
            _check_heading(link, by_path.get(link.path), diagnostics)
            return None
        path = resolver.note_path(link.target, link.path)
        if path and not resolver.entity(link.target):
            _check_heading(link, by_path.get(path), diagnostics)
            _check_same_name(link, resolver, diagnostics)
            return None
        if DAY_NAME.match(link.target) and path is None:
            diagnostics.warn(link.path, link.line, f"[[{link.target}]]: no note of that day", "broken-link")
            return None
        if ("/" in link.target or FILE_NAME.search(link.target)) and resolver.entity(link.target) is None:
            diagnostics.warn(link.path, link.line, f"[[{link.target}]]: no such note in the workspace", "broken-link")
            return None
    entity = resolver.entity(link.target)
    if entity is None:
        key = entity_key(link.target)
        if not key:
            diagnostics.warn(link.path, link.line, "empty link target", "broken-link")
            return None
        if key not in named:
            return None
        entity = Entity(key=key, name=link.target, slug=slugify(link.target))
        resolver.add_entity(entity)
    if link.heading:
        _check_heading(link, entity.note, diagnostics)
    return entity.key


def named_enough(notes: list[Note], resolver: Resolver) -> set[str]:
    """Keys of names without a page that still make an entity: the subject of a Retain fact (``- W @Name: …``), a
    name linked as ``[[name]]`` (as in Obsidian, a link to a page not written yet), or written as ``@name`` on at
    least two different days (a handle seen on one day only, or only in undated notes, is a passing name: it stays
    text). A wikilink to a note, a path (``[[dir/page]]``) or a file (``[[photo.png]]``) names no one."""
    subjects: set[str] = set()
    days: dict[str, set[object]] = defaultdict(set)
    for note in notes:
        for link in note.links:
            if resolver.entity(link.target) is not None or _page_link(link, resolver):
                continue
            key = entity_key(link.target)
            if DAY_NAME.match(key):
                continue  # [[2025-11-03]] names a day, never someone
            if link.syntax == "fact" or (link.syntax == "wikilink" and not FILE_NAME.search(link.target)):
                subjects.add(key)
            elif note.date is not None:
                days[key].add(note.date)
    return subjects | {key for key, seen in days.items() if len(seen) >= 2}


def _page_link(link: Link, resolver: Resolver) -> bool:
    return link.syntax == "wikilink" and ("/" in link.target or resolver.note_path(link.target, link.path) is not None)


def _check_same_name(link: Link, resolver: Resolver, diagnostics: Diagnostics) -> None:
    """A bare name that several notes have (``[[summary]]``) opens the one nearest the root: said, with the others."""
    candidates = resolver.paths.same_name(link.target)
    if candidates:
        diagnostics.warn(
            link.path,
            link.line,
            f"[[{link.target}]]: {len(candidates)} notes have this name ({', '.join(candidates)}); it opens"
            f" {candidates[0]} (write more of its path to choose)",
            "ambiguous-link",
        )


def _check_heading(link: Link, note: Note | None, diagnostics: Diagnostics) -> None:
    if not link.heading or note is None or link.heading.startswith("^"):
        return
    if heading_slug(link.heading) not in {h.slug for h in note.headings}:
        diagnostics.warn(
            link.path,
            link.line,
            f"[[{link.target}#{link.heading}]]: no heading '{link.heading}' in {note.path}",
            "broken-link",
        )


def dedupe_links(links: list[Link]) -> list[Link]:
    """The links in the order of their places, one per line (the first there): once sorted, a line's are side by side."""
    out = []
    last = None
    for link in sorted(links, key=_PLACE):
        place = (link.path, link.line)
        if place != last:
            out.append(link)
            last = place
    return out


def _facts_by_entity(facts: list[Fact], resolver: Resolver) -> dict[str, list[Fact]]:
    out: dict[str, list[Fact]] = defaultdict(list)
    for fact in sorted(facts, key=fact_order):  # sorted once: each entity's facts come in that order
        for key in {e.key for e in map(resolver.entity, fact.names) if e}:
            out[key].append(fact)
    return dict(sorted(out.items()))
