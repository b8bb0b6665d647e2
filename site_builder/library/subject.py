"""Who a whole note is about: an entity's page is about the entity, the user's profile about the user, a project's
files about the project.

Few lines of such a note name its subject ("- Lives at Carrer de la Serra 7, Olivella" on Oscar's page, "- **Location:**
Olivella, near Sitges, Spain" in ``USER.md``), yet every line is about it: in the recall index each line carries
the subject among its entities, so "Where does Oscar live?" is answered from his page and his profile.

A ClawXMemory project's files (each names its ``project_id``) are about the project, which its
``project.meta.md`` names (``project_name`` and each part of it around a colon, ``aliases``: "Paper A", "savings
app redesign").

The user's profile is ``USER.md`` (OpenClaw, Clawd; ``memory/USER.md`` or ``knowledge/USER.md`` in toebeans) or
a memory whose front matter says ``type: user`` (Claude Code, ClawXMemory's ``global/User/``). The user is
called by the name the profile gives ("- **What to call them:** Oscar", "- **Name:** Oscar Serra", "- 姓名：…"),
or ``user`` when it gives none; "user" (and Chinese "用户") is one of the user's names, so "Where does the user
live?" asks about Oscar too.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import NamedTuple

from site_builder.core.config import Config
from site_builder.core.model import Entity, Note
from site_builder.core.names import entity_key, slugify
from site_builder.library.projects import find_projects

USER = "user"  # the user's key when the profile names nobody
USER_WORDS = (USER, "用户")  # what questions call the workspace's user ("用户": Chinese, common in ClawXMemory)
PROFILE_FILES = frozenset({"USER.md", "memory/USER.md", "knowledge/USER.md"})
IDENTITY_FILES = frozenset({"IDENTITY.md", "memory/IDENTITY.md"})  # the agent's own: "- **Name:** Vader"
SOUL_FILES = frozenset({"SOUL.md", "memory/SOUL.md"})  # the agent's persona: "I am Beans, a patient study companion"
SOUL_LINES = 40  # a persona names its agent near its top
# "I am Beans,", "You are 小七.", "My name is Kit " (a capitalised name of up to three words, or a CJK one)
_SOUL_NAME = re.compile(
    r"(?:^[-*>]?\s*|[.!]\s+)(?:I am|I'm|You are|You're|My name is|Your name is)\s+"
    r"([A-Z][\w'-]*(?:\s[A-Z][\w'-]*){0,2}|[\u3400-\u9fff]{1,6})(?=[,.;:!\s]|$)"
)
GENERIC_FOLDERS = frozenset({"workspace", "memory", "memories", "notes", "site", "src", "data", "tmp"})
CALLED = ("what to call them", "call them", "preferred name", "nickname", "goes by", "称呼", "昵称")  # first choice
NAMED = ("name", "full name", "姓名", "名字")
_LABEL = "|".join(map(re.escape, CALLED + NAMED))
# "- **Name:** Oscar Serra", "- **Name**: Tim", "Name: Miguel", "- 姓名：张伟" (the value, cleaned by ``_name``)
_NAME_LINE = re.compile(
    rf"^\s*(?:[-*+]\s+)?(?:\*\*|__)?\s*({_LABEL})\s*(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__)?\s*(.*)$", re.IGNORECASE
)
_VALUE_END = re.compile(r"\s+[\[—–-]\s|[,;/(（，；]")  # "Oscar (he/him)", "Daniel, Dani", "Ana — ...", "馆长（…）"
# The sections of a profile that say who the user is ("## Identity", "## Basic Info", "## Profile", "## 基本信息").
_OWN_SECTION = re.compile(r"identity|profile|basic|about|user|who|personal|基本|身份|个人|资料|用户", re.IGNORECASE)
MAX_NAME = 40
TOP_LINES = 200  # a profile's lines read for the user's name
NOT_NAMES = frozenset({"unknown", "n/a", "na", "tbd", "none", "-", "?"})


class Subject(NamedTuple):
    key: str  # the entity key each line of the note is about
    names: tuple[str, ...]  # what the subject is called: a page's name and aliases, the names a profile gives


def subject_of(note: Note) -> Subject | None:
    """Who the note is about as a whole: the entity of an entity page, the user of a profile, the project of a
    project's file; None for others."""
    if note.kind == "entity":
        return Subject(entity_key(note.stem), (note.stem, *(entity_aliases(note) or ())))
    if is_profile(note) and note.path not in IDENTITY_FILES:
        names = profile_names(note)
        return Subject(entity_key(names[0]) if names else USER, (*names, *USER_WORDS))
    if project := str(note.meta.get("project_id") or "").strip():  # ClawXMemory: each file of a project says so
        if note.kind != "project":
            return Subject(entity_key(project), ())
        named = find_projects([note])[note.path.rpartition("/")[0]]
        parts = [part for part in named.name.split(":") if part.strip()] if ":" in named.name else []
        return Subject(entity_key(project), (project, named.name, *parts, *named.aliases))
    return None


def is_profile(note: Note) -> bool:
    """Is the note the user's profile (or the agent's identity: ``IDENTITY.md``, ``IDENTITY_FILES``)?"""
    return (
        note.path in PROFILE_FILES
        or note.path in IDENTITY_FILES
        or str(note.meta.get("type", "")).strip().casefold() == USER
    )


def profile_entities(notes: list[Note]) -> list[Entity]:
    """The entities notes say they are about: a page that declares it (``declared_entity``), the user a profile
    names and the agent its identity names, as entities whose home is that note: the user and the agent named by
    the longest name given, the others as aliases (``Oscar Serra``, also ``Oscar``); the user keyed as recall keys
    the profile's lines (``subject_of``)."""
    found: dict[str, Entity] = {}
    for note in notes:
        if note.private:
            continue
        if (declared := declared_entity(note)) is not None:
            found.setdefault(declared.key, declared)
            continue
        if not is_profile(note):
            continue
        names = profile_names(note)
        if not names:
            continue
        key = entity_key(names[0])
        name = max(names, key=len)
        if key not in found:
            aliases = tuple(n for n in names if n != name)
            found[key] = Entity(key, name, slugify(name), aliases=aliases, home=note.path)
    return list(found.values())


def declared_entity(note: Note) -> Entity | None:
    """The entity a page says it is about, with that page as its home: an OpenClaw memory-wiki page
    (``pageType: entity``: its ``title``, ``aliases`` and ``entityType``) or a page in a folder called
    ``entities`` at any depth (``second-brain/entities/roger.md``: its ``title`` or ``name``, first heading or
    file name); None for other notes."""
    declared = str(note.meta.get("pageType", "")).strip().casefold() == "entity"
    in_folder = note.path.rpartition("/")[0].rpartition("/")[2].casefold() == "entities"
    if note.kind == "entity" or not (declared or in_folder):
        return None
    title = note.meta.get("title") or note.meta.get("name")
    name = title.strip() if isinstance(title, str) and title.strip() else note.title
    if not entity_key(name):
        return None
    kind = note.meta.get("entityType")
    aliases = tuple(alias for alias in entity_aliases(note) or () if entity_key(alias) != entity_key(name))
    return Entity(entity_key(name), name, slugify(name), aliases=aliases, type=str(kind or "").strip(), home=note.path)


def profile_names(note: Note) -> tuple[str, ...]:
    """The names a profile gives the user, what to call them first: ``("Oscar", "Oscar Serra")``."""
    called: list[str] = []
    named: list[str] = []
    own = True  # under no heading yet, or under one about the user (not "## Family": "- Name: Sasha")
    for line in note.body.split("\n", TOP_LINES)[:TOP_LINES]:  # a profile says who the user is near its top
        if line.startswith("#"):
            own = line.lstrip("#").strip() == "" or line.startswith("# ") or bool(_OWN_SECTION.search(line))
        elif own and (found := _NAME_LINE.match(line)) and (name := _name(found[2])):
            (called if found[1].casefold() in CALLED else named).append(name)
    return tuple(dict.fromkeys(called + named))


def _name(value: str) -> str:
    """The name a profile line's value starts with, "" when it holds none (empty, a placeholder, a sentence)."""
    value = _VALUE_END.split(value.replace("**", "").replace("__", "").strip(" *_`\"'"), maxsplit=1)[0].strip(" *_`")
    if not value or len(value) > MAX_NAME or len(value.split()) > 4 or value.casefold() in NOT_NAMES:
        return ""
    return value if value[0].isalnum() else ""


def entity_aliases(note: Note) -> tuple[str, ...] | None:
    """The ``aliases:`` in an entity page's front matter; None when they are not a list of names."""
    raw = note.meta.get("aliases", [])
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list):
        return None
    return tuple(str(a).strip() for a in raw if str(a).strip())


def site_title(config: Config, notes: Iterable[Note], folder: str) -> Config:
    """The settings with the site's title: ``[site] title`` (or ``--title``), else the agent's name its
    ``IDENTITY.md`` gives (the longest, as its entity is named) or its ``SOUL.md`` says ("I am Beans, …"), else the
    workspace folder's name (a clone and a CI runner's checkout are named after the repository), else "memwiki"
    where the folder's name says nothing of whose memory it is (``workspace``, a hidden folder)."""
    if config.title:
        return config
    notes = [n for n in notes if not n.private]
    names = next((profile_names(n) for n in notes if n.path in IDENTITY_FILES), ())
    name = max(names, key=len) if names else next(filter(None, (soul_name(n) for n in notes)), "")
    if not name and folder and not folder.startswith(".") and folder.casefold() not in GENERIC_FOLDERS:
        name = folder
    return dataclasses.replace(config, title=name or "memwiki")


def soul_name(note: Note) -> str:
    """The name a persona file gives its agent in its first lines ("I am Beans, a patient study companion",
    "You are 小七, recursion-born"); "" for other notes and for a persona that names none ("You're not a chatbot")."""
    if note.path not in SOUL_FILES:
        return ""
    for line in note.body.split("\n", SOUL_LINES)[:SOUL_LINES]:
        if not line.startswith(("#", "    ", "\t", "```")) and (found := _SOUL_NAME.search(line)):
            return found[1]
    return ""
