"""Entities named in prose: the people, agents, companies, products, places and services a workspace writes about
without keeping a page for them, and every line that names them (their unlinked mentions).

A proper name (``parse.proper_names``) is an entity when a person would count it as one: it is named on at
least ``MIN_LINES`` lines of at least ``MIN_FILES`` files, inside a sentence at least once (a capital at a
sentence's start proves nothing, but for a name of words never written in lower case: ``Tony Carbone``), and at least once in the curated memory (not only in the stream of logs,
sessions and dreams: what the memory itself keeps is what it is about). A single word must also be written
capitalised inside a sentence twice, and seldom in lower case (a third as often at most, never for a word in
capitals: ``Heartbeat`` beside ``heartbeat``, ``RESOLVED``, are common words); a name whose first or last word is
a common one beside another name (``Codex CLI``, ``Personal Obsidian``) is that other name unless written on
``prose_rules.OWN_NAME_LINES`` lines or more (``Google Drive``), and one of common words only (``Cron Jobs``, ``Approval
Rules``; a word written in lower case twice, unless written capitalised three times as often: not ``Bitcoin``)
is a label in title case, unless a note is called so or the notes abbreviate it (``Agent Continuity Protocol
(ACP)``: its abbreviation is its alias). A name the notes refer by is none: a work's author or a
journal cited (``Granovetter (1973)``, ``Sci Rep 2015)``), a concept's eponym (``Brier score``, ``Gall's Law``),
code (``getUpdates`` in backquotes). A single word that
starts or ends exactly one name of several words, and is written alone too (``Roger`` of ``Roger Gimbel``), is
that entity's alias, not an entity of its own. A handle in lower case (``alphasenpai``, ``molt_zero``), which no
capital marks, is one where the prose writes it where names go (``library.handles``).

Found where the workspace keeps no entity pages of its own (``bank/entities/``), or keeps some but writes its logs
in prose (``reads_prose``); where its logs name their entities (``@Peter``, Retain facts) the entities are the ones
a person wrote. Deterministic and offline; one pass over each line.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from site_builder.core.common_words import common_words, of_language
from site_builder.core.model import Note
from site_builder.core.names import entity_key
from site_builder.core.note_paths import ABOUT_FOLDER, about_folder
from site_builder.library.handles import found_handles
from site_builder.library.prose_aliases import DOMAIN, alias_like, drop_tails, short_names, web_names
from site_builder.library.prose_rules import MIN_LINES, NameRules, camel, given_name
from site_builder.library.prose_scan import STREAM_KINDS, NameSeen, ProseScan, scan_prose
from site_builder.library.registries import listed_names
from site_builder.parse.proper_names import JOINERS

FULL_NAME_WORDS = 3  # words of a full name that holds a kept entity's name past its first ("João Miguel Marques Silva")
_HANDLE_HEAD = re.compile(r"([a-z]{3,})[_\d-]", re.IGNORECASE)  # a handle starting with an entity's name: "kit_fox"
NOT_HOMES = frozenset({"core", "soul", "standing", "skills", "feedback"})  # notes about the memory, not a thing


class ProseEntity(NamedTuple):
    key: str
    name: str
    aliases: tuple[str, ...]
    home: str  # the note about it (``homes``), "" without one


class ProseFindings(NamedTuple):
    entities: list[ProseEntity]
    scan: ProseScan
    # names in the prose that are entities the workspace keeps already (by key): ``Oscar Serra`` of ``Oscar.md``
    known_as: dict[str, list[str]]


def reads_prose(notes: list[Note]) -> bool:
    """Are entities found in these notes' prose: where the workspace keeps no entity pages of its own, or keeps
    them but does not name its entities in its logs itself (fewer than half its daily logs hold an ``@mention``
    or a Retain fact: the logs are prose, and so is most of what it knows)."""
    if not any(note.kind == "entity" for note in notes):
        return True
    days = [note for note in notes if note.kind == "daily"]
    marked = sum(1 for note in days if note.facts or any(link.syntax in MARKED for link in note.links))
    return marked * 2 < len(days)


MARKED = frozenset({"mention", "fact"})  # the links of a memory that names its entities itself


def homes(notes: list[Note]) -> dict[str, str]:
    """The notes that may be about one named thing, by the key of that name: a page (not a log, not the core
    memory, a standing file or a profile) by its title and its file name, and a folder's own page
    (``index.md``, ``README.md``, ``summary.md``…) by the folder's name too
    (``knowledge/people/roger-gimbel/summary.md``: ``roger-gimbel``), and a page by the name its title starts with
    before common words ("OpenClaw Gateway Setup"). A name is the home of the note nearest the workspace root that
    has it."""
    found: dict[str, str] = {}
    english = common_words(Counter())
    for note in sorted(notes, key=lambda n: (n.path.count("/"), n.path)):
        if note.kind in STREAM_KINDS or note.kind in NOT_HOMES:
            continue
        folder = about_folder(note.path)  # its name is the folder's (``people/roger-gimbel/summary.md``)
        stem = note.path.rpartition("/")[2].removesuffix(".md")
        names = [note.title, folder.rpartition("/")[2] if folder else "" if stem.casefold() in ABOUT_FOLDER else stem]
        names.append(_named_first(note.title, english))
        for written in names:
            if (key := entity_key(written)) and key not in found:
                found[key] = note.path
    return found


def _named_first(title: str, common: frozenset[str]) -> str:
    """The name a title starts with when ``common`` words follow it ("OpenClaw Gateway Setup": a page about
    OpenClaw), else ""."""
    first, _, rest = title.partition(" ")
    if not rest or not first[:1].isupper() or of_language(first.casefold(), common):
        return ""
    return first if all(of_language(word.casefold(), common) for word in rest.split(" ")) else ""


def prose_entities(
    notes: list[Note],
    known: Callable[[str], str | None],
    home_of: dict[str, str] | None = None,
    kept: Callable[[str], tuple[str, tuple[str, ...]]] = lambda key: ("", ()),
) -> ProseFindings:
    """The entities ``notes`` name in prose (``known``: a name -> the key of the entity it already is, or None;
    ``kept``: that entity's own page, "" without one, and its names). A name that is a note's (``homes``: ``home_of``) has that
    note as its home: it is an entity when named often enough, in the curated memory or not (its home is)."""
    scan = scan_prose(notes)
    known_as: dict[str, list[str]] = defaultdict(list)
    # a name written as a file's is one ("README", as in "README.md"; not "Claude", though "CLAUDE.md" is a file)
    files = {key for stem in scan.files if (found := scan.seen.get(key := entity_key(stem))) and found.name == stem}
    homes_of = {key: path for key, path in (home_of or {}).items() if key not in files}
    seen = {key: found for key, found in scan.seen.items() if key not in files}
    rules = NameRules(seen, scan.lowered, homes_of, common_words(scan.lowered), scan.coded)
    # the names registries list are entities first: a name the prose shortens is theirs ("Tristany" of a contacts
    # table's "Tristany Serra")
    # a common word a table of names gives is one where the prose writes it as names are too ("con Max en")
    tabled = {name for name in scan.tabled if (found := scan.seen.get(entity_key(name))) and found.alone}
    listed = dict(listed_names(scan.listed, scan.lowered, known, set(), tabled))
    entities = _entities(_Known(known, kept, known_as), rules, listed)
    chosen = {e.key for e in entities}

    # an entity's name already, or a word of the language (a common one, "information"; or capitalised on 2 lines:
    # "SixerDemon" is no word)
    def taken(word: str) -> bool:
        key = entity_key(word)
        seen = scan.seen.get(key)
        if known(word) is not None or key in chosen or word in rules.common:
            return True
        if seen and len(seen.lines) > 1 and not camel(seen):
            return True
        owner = known(head[1]) if (head := _HANDLE_HEAD.match(word)) else None  # "kit_fox" of Kit
        if owner is not None:
            known_as[owner].append(word)
        return owner is not None

    handles = [
        ProseEntity(entity_key(w), w, (), "")
        for w in found_handles(scan.handles, notes, taken, scan.lowered, set(scan.versioned))
    ]
    return ProseFindings(entities + handles, scan, dict(known_as))


@dataclass
class _Known:
    """The entities the workspace keeps already, and the names in the prose found to be theirs (``known_as``)."""

    key_of: Callable[[str], str | None]
    kept: Callable[[str], tuple[str, tuple[str, ...]]]  # key -> its page, its names
    known_as: dict[str, list[str]]

    def takes(self, name: str, seen: NameSeen) -> bool:
        """Is ``name`` a kept entity's (``owner``): then it is one of that entity's names, in ``known_as``."""
        owner = self.owner(name, seen)
        if owner is not None:
            self.known_as[owner].append(name)
        return owner is not None

    def owner(self, name: str, seen: NameSeen) -> str | None:
        """The kept entity ``name`` is another form of: written joined (``Dolores Cannon`` of ``DoloresCannon``),
        with a web domain (``SerraVision.ai`` of ``SerraVision``), or, of several words, one whose first word is the
        entity's name and which its own page writes (``Oscar Serra`` on ``bank/entities/Oscar.md``) or which starts
        a name it has (``Marcus Alexander`` of ``Marcus Alexander Serra Marchenko``)."""
        words = name.split(" ")
        forms = ["".join(words)] if len(words) > 1 else []
        if len(words) == 1 and (domain := DOMAIN.fullmatch(name)):
            forms.append(domain[1])
        for form in forms:
            if (key := self.key_of(form)) is not None:
                return key
        if len(words) > 1 and (key := self.key_of(words[0])) is not None:
            page, names = self.kept(key)
            if (page and any(path == page for path, _ in seen.lines)) or any(n.startswith(name + " ") for n in names):
                return key
        return None


def topics(keys: set[str], scan: ProseScan, notes: list[Note]) -> set[str]:
    """Of the names without a page that a Retain subject or ``@mention`` makes entities (their keys), the single
    words written capitalised that the prose writes in lower case too (``@Budget``, ``@Memory``, ``@Research``):
    topics, not things (a handle written in lower case, ``@clove``, is a name as written)."""
    capitalised = {
        link.target.casefold()
        for note in notes
        for link in note.links
        if link.target[:1].isupper() and link.target.isalpha()
    }
    return {key for key in keys & capitalised if scan.lowered[key] >= MIN_LINES}


def _kept_names(seen: dict[str, NameSeen], key_of: Callable[[str], str | None]) -> dict[str, list[str]]:
    """Each kept entity's names of several words that the prose writes ("Alex Morgan", the user its profile names
    and calls "Lex"): their first and last words, written alone, are its short forms too (``short_names``)."""
    own: dict[str, list[str]] = defaultdict(list)
    for found in seen.values():
        name = found.name
        words = name.split(" ")
        owner = key_of(name) if len(words) > 1 else None
        if owner is None and len(words) >= FULL_NAME_WORDS:  # "João Miguel Marques Silva": the user "Miguel"'s
            inside = {key_of(word) for word in words[1:]} - {None}
            owner = inside.pop() if len(inside) == 1 else None
        if owner is not None:
            own[owner].append(name)
    return own


def _entities(known: _Known, rules: NameRules, listed: dict[str, str]) -> list[ProseEntity]:
    """The names that count as entities (the module's rules) and those registries list (``listed``, by key), each
    with its aliases and home, by key."""
    seen, lowered = rules.seen, rules.lowered
    chosen: dict[str, str] = {}
    for key in sorted(seen):
        name = seen[key].name
        words = name.split(" ")
        # a name of several words none of which is written in lower case ("Tony Carbone") is one at a sentence's
        # start too
        rare = len(words) > 1 and all(alias_like(word, lowered) for word in words if word not in JOINERS)
        # or whose first word, as a given name is written, is of no language and never in lower case ("Jeffrey Long")
        rare = rare or (len(words) > 1 and given_name(words[0], lowered, rules.common))
        if known.key_of(name) is not None or not rules.counts(key, 0 if rare else 1) or known.takes(name, seen[key]):
            continue
        if rules.reference(key):
            continue
        if rules.single(key) if len(words) == 1 else rules.several(key, words):
            chosen[key] = name
    for key, name in listed.items():
        chosen.setdefault(key, name)
    drop_tails(chosen, seen)
    aliases = short_names(chosen, seen, lowered, known.known_as, _kept_names(seen, known.key_of), known.key_of)
    for key, short in _abbreviations(chosen, seen):
        aliases[key].append(short)
    for key, names in web_names(chosen, rules.home_of).items():
        aliases[key] += names
    return [
        ProseEntity(key, name, tuple(sorted(aliases.get(key, []))), rules.home_of.get(key, ""))
        for key, name in sorted(chosen.items())
    ]


def _abbreviations(chosen: dict[str, str], seen: dict[str, NameSeen]) -> list[tuple[str, str]]:
    """The abbreviation the notes give each chosen name ("Agent Continuity Protocol (ACP)"), by key, unless it is a
    name of its own."""
    found = []
    for key in chosen:
        initials = seen[key].initials if key in seen else None
        if initials and entity_key(short := initials.most_common(1)[0][0]) not in seen:
            found.append((key, short))
    return found
