"""Entities a workspace keeps as a folder each: the sub-folders of a folder named for a kind of thing in the plural
(``projects/``, ``people/``, ``inventions/``) that each have their own page (``index.md``, ``README.md``,
``summary.md``…). ``memory/projects/gantry-robot-arm/index.md`` is the home of Gantry Robot Arm: named by that page's
title without its emoji, label and a bracket at its end ("🤖 Project: Gantry Robot Arm"), else by the folder's name,
which is an alias when it is of several words. A sub-folder named in the plural that holds such folders itself
(``projects/inventions/``) is a kind too, and the folders in a thing's folder are its parts
(``projects/openclaw/ui-improvements/``), not things of their own."""

from __future__ import annotations

import re
from collections import defaultdict

from site_builder.core.model import Entity, Note
from site_builder.core.names import entity_key, slugify, without_aside
from site_builder.core.note_paths import ABOUT_FOLDER, about_folder
from site_builder.library.prose_aliases import DOMAIN

# A folder's name in the plural: "projects", "people", "inventions"; not "status", "analysis", "news" (a word in -ss,
# -us, -is, or "news"), nor a name with digits ("2026s").
_PLURAL = re.compile(r"people|[a-z][a-z-]*[^suie\W\d_]s|[a-z][a-z-]*ies", re.IGNORECASE)
# What a page's title may open with before the thing's name: emoji and marks, then maybe a one-word label
# ("Project:", "Person —", "项目：").
_MARKS = re.compile(r"^[^\w(]+")
_LABEL = re.compile(r"^\w+\s*[:：—–-]\s+")
# A folder's name that names no thing: a date ("2026-03-01", "2026-03"), a number or a digest ("a3f9c21e").
_NO_NAME = re.compile(r"^\d{4}-\d{2}(?:-\d{2})?\b|^[\d\W_]+$|^(?=[a-f]*\d)[0-9a-f]{7,}$", re.IGNORECASE)


def folder_things(notes: list[Note]) -> list[Entity]:
    """The things kept as a folder each (the module's rules), each with its folder's page as its home."""
    pages: dict[str, Note] = {}  # a folder -> its page
    children: dict[str, set[str]] = defaultdict(set)  # a folder -> its sub-folders that have a page
    for note in sorted(notes, key=lambda n: n.path):
        if (folder := about_folder(note.path)) and not note.private:
            pages.setdefault(folder, note)
    for folder in pages:
        parent, _, _ = folder.rpartition("/")
        children[parent].add(folder)
    found: list[Entity] = []
    kinds = [folder for folder in children if _PLURAL.fullmatch(folder.rpartition("/")[2])]
    inside_things: set[str] = set()
    for kind in sorted(kinds, key=lambda f: (f.count("/"), f)):  # a kind inside a thing is one of its parts
        if any(kind.startswith(thing + "/") for thing in inside_things):
            continue
        for folder in sorted(children[kind]):
            if folder in kinds and children[folder]:
                continue  # a kind of its own ("projects/inventions"): its folders are the things
            inside_things.add(folder)
            if _NO_NAME.search(folder.rpartition("/")[2]):
                continue  # a day's folder, a session's id: kept by when or by number, not a thing
            if (entity := _thing(folder, pages[folder])) is not None:
                found.append(entity)
    return found


def _thing(folder: str, page: Note) -> Entity | None:
    """The thing a folder keeps, named by its page's title, else by the folder's name."""
    slug = folder.rpartition("/")[2]
    title = without_aside(_LABEL.sub("", _MARKS.sub("", page.title)).strip())
    generic = entity_key(title) in ABOUT_FOLDER  # "# INDEX", "# Summary": the page's name, not the thing's
    if not title or generic or (entity_key(title) == entity_key(slug) and title == title.lower()):
        title = " ".join(word[:1].upper() + word[1:] for word in re.split(r"[-_\s]+", slug) if word)
    key = entity_key(title)
    if not key:
        return None
    # the folder's name when it is another form of the title ("meta-ai-research"); one word that is not the title
    # ("openclaw" of "OpenClaw Self-Improvement") names what the thing is about, not the thing
    aliases = [slug] if entity_key(slug) != key and re.search(r"[-_ ]", slug) else []
    if domain := DOMAIN.fullmatch(title):
        aliases.append(domain[1])  # "SerraVision" of "SerraVision.ai"
    return Entity(key, title, slugify(title), aliases=tuple(aliases), home=page.path)
