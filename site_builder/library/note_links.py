"""Links between notes (not entities): ``[[Note]]`` wikilinks, ``[text](other.md)`` links and OpenClaw's
``source=memory/x.md:12`` citations, gathered per target note so every page can say what links to it."""

from __future__ import annotations

from collections import defaultdict

from site_builder.core.model import Link, Note
from site_builder.core.resolver import Resolver
from site_builder.parse.link_syntax import plain_sentence


def note_backlinks(notes: list[Note], resolver: Resolver, by_path: dict[str, Note]) -> dict[str, list[Link]]:
    """Target note path -> the lines of other notes that link to it, one per (source, line), in path order."""
    found: dict[str, list[Link]] = defaultdict(list)
    for note in notes:
        for link in links_to_notes(note, resolver, by_path):
            found[link.target].append(link)
    return {path: sorted(links) for path, links in sorted(found.items())}


def links_to_notes(note: Note, resolver: Resolver, by_path: dict[str, Note]) -> list[Link]:
    """The note's lines linking another note (``Link.target``: its path), one per (target, line)."""
    targets: list[tuple[int, str]] = [
        (link.line, path)
        for link in note.links
        if link.syntax == "wikilink"
        and link.target
        and resolver.entity(link.target) is None
        and (path := resolver.note_path(link.target, note.path))
    ]
    targets += [(line, path) for line, written in note.file_links if (path := resolver.file_path(written, note.path))]
    lines = note.body.split("\n") if targets else []  # once per note: a long note links from many lines
    found: dict[tuple[str, int], Link] = {}
    for line, path in targets:
        if path == note.path or path not in by_path:
            continue
        index = line - note.body_start
        sentence = plain_sentence(lines[index] if 0 <= index < len(lines) else "")
        found.setdefault((path, line), Link(note.path, line, path, "file", sentence))
    return list(found.values())
