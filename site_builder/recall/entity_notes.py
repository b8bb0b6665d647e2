"""The notes one entity's answer is made from, found through the recall index.

``memory_entity`` needs an entity's facts, mentions, co-mentions and opinions.
Linking the whole workspace for that parses every file (minutes on a large
one); instead the index names the few notes that can matter, and only those are
linked:

- every note with a line that names the entity (by its key, an alias or its page's path);
- every entity page and ``bank/opinions.md`` (they decide what each name resolves to);
- every note that restates an opinion found there, or that the opinion's recorded history cites;
- every note naming an entity that has no page, when it is named next to this one
  (whether a name without a page is an entity depends on all the days it is used);
- every other note whose name a link there uses (a link to a note names no entity).

Linked together they give the entity the same answer as the whole workspace does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from site_builder.core.model import Note
from site_builder.core.names import entity_key
from site_builder.parse.link_syntax import DAY_NAME
from site_builder.recall.index import RecallIndex

OPINIONS_PATH = "bank/opinions.md"  # as site_builder.library.link has it
FACT_KINDS = ("W", "B", "O", "S")

Parse = Callable[[Iterable[str]], list[Note]]  # paths -> their notes as they are now


def entity_notes(
    index: RecallIndex, name: str, note_names: Callable[[], dict[str, set[str]]], parse: Parse
) -> list[Note]:
    """The notes to link for the entity called ``name`` (``note_names``: name key -> paths of the notes other
    than entity pages that a link may name by it)."""
    pages = _pages_by_key(index)
    names = {entity_key(name)}
    names |= {key for key, paths in pages.items() if paths & pages.get(entity_key(name), set())}
    paths, opinions = _naming(index, names)
    paths |= {path for paths in pages.values() for path in paths} | _citing(index, opinions)
    paths |= _writing(index, name)  # an entity may be named in prose (``library.prose_entities``)
    if _exists(index, OPINIONS_PATH):
        paths.add(OPINIONS_PATH)
    notes = {note.path: note for note in parse(sorted(paths))}
    pageless = {key for note in notes.values() for link in note.links if (key := entity_key(link.target))}
    pageless = {key for key in pageless - pages.keys() - names if not DAY_NAME.match(key)}
    if pageless:
        more, _ = _naming(index, pageless)
        notes |= {note.path: note for note in parse(sorted(more - notes.keys()))}
        targets = {entity_key(link.target) for note in notes.values() for link in note.links}
        by_name = note_names()
        named_notes = {path for key in targets for path in by_name.get(key, ())}
        notes |= {note.path: note for note in parse(sorted(named_notes - notes.keys()))}
    return [notes[path] for path in sorted(notes)]


def _pages_by_key(index: RecallIndex) -> dict[str, set[str]]:
    """Every key an entity page is found by (its name, its aliases, its path) -> the pages found by it.
    Every entity page but a private one has its name in ``aliases``."""
    pages: dict[str, set[str]] = {}
    for alias, path in index.db.execute("SELECT alias, path FROM aliases"):
        for key in (str(alias), entity_key(str(path)), entity_key(str(path).removesuffix(".md"))):
            pages.setdefault(key, set()).add(str(path))
    return pages


def _naming(index: RecallIndex, keys: set[str]) -> tuple[set[str], set[str]]:
    """Paths of the notes with a line naming any of ``keys``, and the opinions those lines state."""
    phrases = " OR ".join('"' + key.replace("-", " ").replace('"', '""') + '"' for key in sorted(keys) if key)
    if not phrases:
        return set(), set()
    rows = index.db.execute(
        "SELECT d.path, d.entities, d.opinion FROM docs_fts JOIN docs d ON d.id = docs_fts.rowid"
        " WHERE docs_fts MATCH ?",
        (f"entities : ({phrases})",),
    )
    paths: set[str] = set()
    opinions: set[str] = set()
    for path, entities, opinion in rows:
        if keys.intersection(str(entities).split()):  # the phrase also matches inside longer names
            paths.add(str(path))
            if opinion:
                opinions.add(str(opinion))
    return paths, opinions


def _writing(index: RecallIndex, name: str) -> set[str]:
    """Paths of the notes with a line that writes ``name`` in its text."""
    words = " ".join(part for part in entity_key(name).split("-") if part)
    if not words:
        return set()
    phrase = '"' + words.replace('"', '""') + '"'
    rows = index.db.execute(
        "SELECT DISTINCT d.path FROM docs_fts JOIN docs d ON d.id = docs_fts.rowid WHERE docs_fts MATCH ?",
        (f"content : {phrase}",),
    )
    return {str(path) for (path,) in rows}


def _citing(index: RecallIndex, opinions: set[str]) -> set[str]:
    """Notes restating one of ``opinions``, and those their recorded history cites."""
    if not opinions:
        return set()
    marks = ",".join("?" * len(opinions))
    keys = sorted(opinions)
    paths = {str(p) for (p,) in index.db.execute(f"SELECT path FROM docs WHERE opinion IN ({marks})", keys)}  # noqa: S608
    cited = index.db.execute(f"SELECT source FROM opinion_points WHERE opinion IN ({marks})", keys)  # noqa: S608
    return paths | {str(source).split("#", 1)[0] for (source,) in cited}


def _exists(index: RecallIndex, path: str) -> bool:
    return index.db.execute("SELECT 1 FROM files WHERE path = ?", (path,)).fetchone() is not None
