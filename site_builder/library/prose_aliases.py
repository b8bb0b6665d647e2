"""The other names of the names found in prose (``library.prose_entities``): a name's short forms (``Roger`` of
``Roger Gimbel``) and the same name with a web domain (``SerraVision.ai`` of ``SerraVision``)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable

from site_builder.core.names import entity_key
from site_builder.library.prose_scan import NameSeen
from site_builder.parse.proper_names import COMMON_CAPITALISED, JOINERS

DOMAIN = re.compile(r"([^\W_][\w-]*)\.(?:ai|io|com|org|net|app|dev|co)", re.IGNORECASE)


def short_names(
    chosen: dict[str, str],
    seen: dict[str, NameSeen],
    lowered: Counter[str],
    known_as: dict[str, list[str]],
    own: dict[str, list[str]],
    key_of: Callable[[str], str | None],
) -> dict[str, list[str]]:
    """Each chosen name's short forms (``Roger`` of ``Roger Gimbel``): a single word that starts or ends exactly one
    name of several words none of which is written in lower case, and is written alone too; a chosen single word
    that is one is taken out of ``chosen``, and so is one never written without that name. A name found to be a
    kept entity's (``known_as``: ``Dolores Cannon`` of ``DoloresCannon``), or that is one of its own names of
    several words (``own``: ``Alex Morgan``, the user's profile's), gives that entity its short forms, in
    ``known_as``. A kept entity's own name (``key_of``) is no other's short form ("Vader", the agent, of
    "Vader Calrissian")."""
    aliases: dict[str, list[str]] = defaultdict(list)
    ends: dict[str, set[tuple[str, str]]] = defaultdict(set)  # a single word -> (owner, name) of the names it ends
    named = [(key, key, name) for key, name in chosen.items()]
    named += [
        (owner, entity_key(name), name) for kept in (known_as, own) for owner, names in kept.items() for name in names
    ]
    for owner, key, name in named:
        words = name.split(" ")
        if len(words) > 1 and all(_name_word(word, seen, lowered) for word in words if word not in JOINERS):
            for word in {words[0], words[-1]}:
                ends[entity_key(word)].add((owner, key))
    for word, owners in sorted(ends.items()):
        owner = min(owners)[0]
        if word not in seen or (word not in chosen and key_of(seen[word].name) not in (None, owner)):
            continue
        within = set().union(*(seen[key].lines for _, key in owners if key in seen))  # the lines of the names it ends
        alone = bool(within) and bool(seen[word].lines - within)  # written without the rest
        written = seen[word].name
        if len({o for o, _ in owners}) == 1 and alone and (word in chosen or _name_word(written, seen, lowered)):
            (aliases[owner] if owner in chosen else known_as[owner]).append(chosen.pop(word, "") or written)
        elif word in chosen and within and seen[word].lines <= within:
            del chosen[word]  # "Carbone", only ever read in "Tony Carbone" (at a sentence's start: "Met Tony Carbone")
    return aliases


def drop_tails(chosen: dict[str, str], seen: dict[str, NameSeen]) -> None:
    """Take out of ``chosen`` the names that end one longer chosen name and are never written without it
    (``WhatsApp Report``, ``Auto-Publish``, read in "Daily WhatsApp Report" and "Blog Auto-Publish" at a
    sentence's start, where the first word may be no name's), as ``short_names`` does a surname ("Carbone")."""
    longer = sorted((key, name) for key, name in chosen.items() if " " in name)
    for key, name in sorted(chosen.items()):
        owners = [owner for owner, full in longer if full.endswith(" " + name) and owner in seen]
        if key in seen and len(owners) == 1 and seen[key].lines <= seen[owners[0]].lines:
            del chosen[key]


def web_names(chosen: dict[str, str], home_of: dict[str, str]) -> dict[str, list[str]]:
    """A chosen name and the same with a web domain (``SerraVision`` and ``SerraVision.ai``) are one entity: the one
    with a home (else the one without the domain) has the other as an alias, taken out of ``chosen``."""
    aliases: dict[str, list[str]] = defaultdict(list)
    for key, name in list(chosen.items()):
        found = DOMAIN.fullmatch(name)
        base = entity_key(found[1]) if found else ""
        if base in chosen and key in chosen:
            keep, other = (key, base) if key in home_of and base not in home_of else (base, key)
            aliases[keep].append(chosen.pop(other))
    return aliases


def _name_word(word: str, seen: dict[str, NameSeen], lowered: Counter[str]) -> bool:
    """Is this word of a name written as a name's: never in lower case, or capitalised inside sentences three times as
    often ("João", written "joão" in a few handles)?"""
    found = seen.get(entity_key(word))
    return alias_like(word, lowered) or (found is not None and lowered[word.casefold()] * 3 <= found.inside)


def alias_like(word: str, lowered: Counter[str]) -> bool:
    """Can this single word be a name's short form: never written in lower case, no common word."""
    return lowered[word.casefold()] == 0 and word.casefold() not in COMMON_CAPITALISED
