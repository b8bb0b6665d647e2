"""Which entities a name stands for in the recall index: a name given to ``--entity`` (a page name, an alias, or a
part of one entity's key), and the names a query's words may be, one word or two or three in a row (``search``).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from site_builder.core.names import entity_key
from site_builder.recall.candidates import phrase
from site_builder.recall.evidence import Row
from site_builder.recall.index import RecallIndex
from site_builder.recall.query import QueryError
from site_builder.recall.scripts import fold_accents

NAMING_KEYS = 500  # lines read to find which entities a name given to --entity may stand for


def alias_map(index: RecallIndex) -> Mapping[str, str]:
    """Every page name and alias (accents folded) → the entity key it stands for (looked up name by name)."""
    return index.aliases()


def resolve_entity(index: RecallIndex, name: str) -> str:
    """The entity key a name or alias stands for; ``QueryError`` when nothing in the workspace is called that."""
    key = fold_accents(entity_key(name))
    if key in (aliases := alias_map(index)):
        return aliases[key]
    named = _keys_naming(index, key) | _aliases_naming(index, key)
    if not named:
        raise QueryError(f"unknown entity '{name}': no page, alias or mention matches it")
    if key not in named and len(named) == 1:  # "Noor": the one entity whose name holds it ("noor-haddad")
        (key,) = named
        return aliases.get(key, key)
    return key


def entity_names(index: RecallIndex, key: str) -> frozenset[str]:
    """The key and every alias of one entity, accents folded: the names its lines may carry."""
    rows = index.db.execute("SELECT alias FROM aliases WHERE key = ?", (key,))
    return frozenset({fold_accents(key), *(fold_accents(str(alias)) for (alias,) in rows)})


def query_entities(index: RecallIndex, terms: list[str]) -> set[str]:
    """Entities the query names by a page name or alias: one word, or two or three words in a row."""
    aliases = alias_map(index)
    return {aliases[name] for name in _names(terms) if name in aliases}


def mentioned_in_rows(rows: list[Row], terms: list[str]) -> frozenset[str]:
    """Entities without a page that the query names and some of its candidate lines mention (``@Anna``)."""
    mentioned = {fold_accents(key) for row in rows for key in row[5].split()}
    return frozenset(name for name in _names(terms) if name in mentioned)


def known_anywhere(index: RecallIndex, terms: list[str], known: frozenset[str]) -> frozenset[str]:
    """Entities the query names that some line anywhere mentions (not only its candidates)."""
    return frozenset(name for name in _names(terms) if name not in known and _mentioned_anywhere(index, name))


def _mentioned_anywhere(index: RecallIndex, key: str) -> bool:
    """Does some line have this entity (a folded key) among its entities?"""
    about = f"entities : {phrase(key.replace('-', ' '))}"
    return index.db.execute("SELECT 1 FROM docs_fts WHERE docs_fts MATCH ? LIMIT 1", (about,)).fetchone() is not None


def _keys_naming(index: RecallIndex, key: str) -> frozenset[str]:
    """The entity keys (folded) of lines about an entity whose key holds this one's words in a row ("noor" is in
    "noor-haddad"), among the first ``NAMING_KEYS`` such lines."""
    about = f"entities : {phrase(key.replace('-', ' '))}"
    rows = index.db.execute(
        "SELECT d.entities FROM docs_fts JOIN docs d ON d.id = docs_fts.rowid WHERE docs_fts MATCH ? LIMIT ?",
        (about, NAMING_KEYS),
    )
    return frozenset(
        folded
        for (entities,) in rows
        for folded in map(fold_accents, str(entities).split())
        if f"-{key}-" in f"-{folded}-"
    )


def _aliases_naming(index: RecallIndex, key: str) -> frozenset[str]:
    """The entity keys (folded) of names and aliases that hold this one's words in a row ("roger" is in
    "roger-gimbel", an entity found in prose that no line links: ``index_mentions``)."""
    rows = index.db.execute(
        "SELECT DISTINCT key FROM aliases WHERE '-' || folded || '-' LIKE ? LIMIT ?", (f"%-{key}-%", NAMING_KEYS)
    )
    return frozenset(fold_accents(str(found)) for (found,) in rows)


def _names(terms: list[str]) -> list[str]:
    """The names a query's words may be: each word, two and three words in a row ("anna-kowalski")."""
    pairs = (f"{a}-{b}" for a, b in itertools.pairwise(terms))
    triples = (f"{a}-{b}-{c}" for a, b, c in zip(terms, terms[1:], terms[2:], strict=False))
    return [fold_accents(name) for name in [*terms, *pairs, *triples]]
