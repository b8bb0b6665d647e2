"""Registries: a list in a curated note, under a heading that says what it lists ("## Key Connections",
"## Agents"), whose items each start with a name in bold and a dash (``- **funwolf** — Email/discovery…``), or a
table whose first column is of names (``| 名字 | 描述 |``): each item or row names one entity, whatever the case of
the name (agents' handles are in lower case). Read by the one pass over the
prose (``library.prose_entities``)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from site_builder.core.names import entity_key, without_aside
from site_builder.core.stop_words import STOP_WORDS
from site_builder.parse.proper_names import generic

# A registry's item: ``- **funwolf** — Email/discovery…`` (a bold name, then a dash; a label ends in a colon).
REGISTRY_ENTRY = re.compile(r"^\s*[-*+]\s+\*\*([^*:\n]{1,60})\*\*\s+[—–-]\s+\S")
MIN_LISTED = 2
# A heading over a registry says what it lists: people, agents, organisations, projects, tools…
# (a word in the plural or for a group anywhere, one in the singular only as the heading's last word, where English
# puts what a heading is about: "## 中文 Agent 社区" lists agents; "## Tool Execution Display", "## Connection to
# Values" list nothing)
_GROUPS = (
    "people persons contacts connections friends family team colleagues collaborators partners clients customers "
    "users humans agents bots accounts companies organisations organizations orgs projects products services tools "
    "places who personas contactos agentes proyectos equipo familia amigos"
)
_ONE = (
    "person contact connection friend colleague collaborator partner client customer user human agent bot account "
    "company organisation organization org project product service tool place"
)
REGISTRY_HEADING = re.compile(
    rf"\b(?:{'|'.join(_GROUPS.split())})\b|\b(?:{'|'.join(_ONE.split())})\b[^A-Za-z]*$"
    r"|人物|联系人|朋友|家人|团队|项目|工具|社区",
    re.IGNORECASE,
)
NOT_NAME = re.compile(r"[/\\@=<>{}$%^|`]|\.(?:md|json|jsonl|ya?ml|py|ts|js|sh|txt|html?)$", re.IGNORECASE)


# A table whose first column holds names, as its header's first cell says ("| Name | Role |", "| 名字 | 描述 |"): each
# row's first cell names one entity ("| **m0ther** | 胖红鱼 | 71329 |").
_NAME_COLUMN = re.compile(
    r"^\|\s*(?:\*\*|__)?\s*(?:names?|who|person|people|users?|agents?|bots?|handles?|accounts?|contacts?|nombre|nom"
    r"|名字|名称|姓名|用户|账号)\s*(?:\*\*|__)?\s*\|",
    re.IGNORECASE,
)
_FIRST_CELL = re.compile(r"^\|\s*(?:\*\*|__)?\s*@?([^|*_\s][^|*\n]{0,59}?)\s*(?:\*\*|__)?\s*\|")
_SEPARATOR = re.compile(r"^\|?\s*:?-{2,}:?\s*\|")


def table_head(head: str, previous: str, line: str) -> str:
    """The header row of the table ``line`` is a row of (``head``: the one of the line before, ``previous``), "" when
    it is in none: a table's header is the row above its separator row."""
    if not line.startswith("|"):
        return ""
    return previous if _SEPARATOR.match(line) and previous.startswith("|") else head


def table_entry(head: str, line: str) -> str | None:
    """The name a row of a table of names gives in its first cell (``head``: its table's header row), or None."""
    if not head or not _NAME_COLUMN.match(head) or _SEPARATOR.match(line):
        return None
    cell = _FIRST_CELL.match(line)
    return (without_aside(cell[1]) or None) if cell else None


_BOLD_LABEL = re.compile(r"^\s*(?:\*\*|__)([^*_\n]{1,60}?)(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*:)\s*$")


def bold_label(line: str) -> str | None:
    """The label a line that is only a bold label gives ("**Qué es:**" -> "Qué es"): like a heading, it says what
    the lines below it are ("**Por qué importa:**" over a list of features under "## lobster (… AI Agents)")."""
    found = _BOLD_LABEL.match(line)
    return found[1].strip() if found else None


def registry_entry(heading: str, line: str) -> str | None:
    """The name a registry's item gives (``line``, under ``heading``), or None when the line is none."""
    if not REGISTRY_HEADING.search(heading):
        return None
    entry = REGISTRY_ENTRY.match(line)
    return (without_aside(entry[1]) or None) if entry else None


def listed_names(
    listed: dict[str, list[tuple[str, int]]],
    lowered: Counter[str],
    known: Callable[[str], str | None],
    chosen: set[str],
    tabled: set[str],
) -> list[tuple[str, str]]:
    """``(key, name)`` of each entity the registries list (``listed``: each registry's items, by where it is), in
    key order: in a registry of at least ``MIN_LISTED`` items, a name no entity has yet (``known``, ``chosen``);
    one a table of names gives (``tabled``: "| Name | Role |") may be a common word ("Max", an agent)."""
    found: dict[str, str] = {}
    for entries in listed.values():
        if len(entries) < MIN_LISTED:
            continue
        for name, _ in entries:
            key = entity_key(name)
            if (
                key
                and key not in chosen
                and key not in found
                and known(name) is None
                and _listable(name, lowered, tabled)
            ):
                found[key] = name
    return sorted(found.items())


def _listable(name: str, lowered: Counter[str], tabled: set[str]) -> bool:
    """Can a registry's bold term be a name: a few words, no file name or path, not a common word in lower case,
    nor a capitalised word the notes write in lower case too (``**Status** — ✓ success``)."""
    if len(name.split()) > 4 or NOT_NAME.search(name) or name.casefold() in STOP_WORDS:
        return False
    return name.islower() or " " in name or name in tabled or not generic(name, lowered)
