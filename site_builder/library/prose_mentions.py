"""Unlinked mentions: every line that names an entity in plain text, as Obsidian's "unlinked mentions" are, from
what the pass over the prose found (``library.prose_entities``) and one more pass for the names it could not see
(handles in lower case, names in Chinese or Japanese inside unspaced text)."""

from __future__ import annotations

import itertools
import re
from collections import defaultdict

from site_builder.core.common_words import common_words
from site_builder.core.model import Link, Note
from site_builder.core.names import entity_key
from site_builder.library.prose_scan import ProseScan
from site_builder.parse.lines import walk_lines
from site_builder.parse.link_syntax import plain_sentence
from site_builder.parse.proper_names import CJK

_TOKEN = re.compile(r"[\w.-]*\w")  # a word, a handle (``bro_agent``, ``x402builder``, ``i.am.teke``)


def named_within(name_key: str, by_key: dict[str, str]) -> set[str]:
    """The entities a run of capitalised words names (by the key of each entity name in ``by_key``): the one it is,
    else those whose names are runs of its words, longest first and not overlapping ("Moltbook Suspension
    Pattern": Moltbook; "Personal Obsidian OpenClaw docs": Obsidian and OpenClaw)."""
    if (whole := by_key.get(name_key)) is not None:
        return {whole}
    words = name_key.split("-")
    if len(words) < 2 or len(words) > _LONGEST_RUN:
        return set()
    named: set[str] = set()
    free = [True] * len(words)
    for size in range(len(words) - 1, 0, -1):
        for start in range(len(words) - size + 1):
            span = range(start, start + size)
            if all(free[i] for i in span) and (target := by_key.get("-".join(words[start : start + size]))):
                named.add(target)
                for i in span:
                    free[i] = False
    return named


_LONGEST_RUN = 8  # words of a run looked into: a longer one is a title, not a sentence naming things


def _unseen(name: str) -> bool:
    """Is a name one the scan of capitalised runs cannot see: in lower case (``santaclawd``), in a script without
    capitals (``馆长``), one word joined by ``_`` (``Alan_Botts``, ``CooperK_bot``), or a few capitals (``NAS``)?"""
    return (
        name == name.lower()
        or ("_" in name and " " not in name)
        or (name.isupper() and name.isalpha() and len(name) <= 4)
    )


def prose_mentions(scan: ProseScan, notes: list[Note], names: dict[str, str]) -> dict[str, list[Link]]:
    """Every line naming an entity in plain text (``names``: each name and alias of every entity, as written ->
    its entity's key): a name with capitals where the scan found it (in a heading too), a name without them (a
    handle: ``santaclawd``) or in a script without them (``馆长``) wherever it is written, as a word, or inside
    unspaced text for a name in CJK characters."""
    common = common_words(scan.lowered)
    # a name in lower case that is a common word ("speak", a service) is not the capitalised word ("Know When to Speak")
    by_key = {entity_key(name): key for name, key in names.items() if not (name.islower() and name in common)}
    found: dict[str, set[tuple[str, int]]] = defaultdict(set)
    for name_key, places in itertools.chain(((k, seen.lines) for k, seen in scan.seen.items()), scan.headed.items()):
        for target in named_within(name_key, by_key):
            found[target] |= places
    for where, entries in scan.listed.items():  # a registry's line names its item ("| NAS | nas.servers… |")
        for entry, number in entries:
            if (listed := by_key.get(entity_key(entry))) is not None:
                found[listed].add((where.partition("#")[0], number))
    plain = {name: key for name, key in names.items() if _unseen(name) and (len(name) > 2 or CJK.search(name))}
    cjk = {name: key for name, key in plain.items() if CJK.search(name)}
    words = {name: key for name, key in plain.items() if name not in cjk and name not in common}
    # a common word that names something ("hear", a service) names it only where names are written: in bold, a
    # table's cell, code, after "@" ("- **hear** (Docker GPU)"; not "I could hear dust")
    as_names = {name: key for name, key in plain.items() if name not in cjk and name in common}
    written_as_name = (
        re.compile(rf"(?:\*\*|`|@|\|\s*)({'|'.join(map(re.escape, as_names))})(?=\*\*|`|\s*\|)") if as_names else None
    )
    if words or cjk or as_names:
        written = re.compile("|".join(map(re.escape, sorted(cjk, key=len, reverse=True)))) if cjk else None
        for note in notes:
            for line in walk_lines(note.body.split("\n"), note.body_start):
                if line.role != "text" or not line.text:
                    continue
                place = (note.path, line.number)
                hits = {words[w] for w in _TOKEN.findall(line.text) if w in words}
                if written_as_name is not None:
                    hits |= {as_names[m[1]] for m in written_as_name.finditer(line.text)}
                if written is not None and CJK.search(line.text):
                    hits |= {cjk[m[0]] for m in written.finditer(line.text)}
                for key in hits:
                    found[key].add(place)
                    scan.texts.setdefault(place, line.text)
    return {
        key: [
            Link(path, number, key, "name", plain_sentence(scan.texts[(path, number)]))
            for path, number in sorted(places)
        ]
        for key, places in sorted(found.items())
    }
