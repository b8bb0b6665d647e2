"""What the agent sees: each memory system's own prompt block, rebuilt from the workspace, and its tiers.

``memwiki context --format tinyclaw|toebeans|openclaw`` prints the block that
system injects into its prompt (``LAYOUTS.md``): TinyClaw's ``[MEMORY]`` block
(knowledge, the last 10 reflections, the 3 episodes and the skills that match
the message), toebeans' SOUL + USER + topic listing, OpenClaw's MEMORY.md with
today's and yesterday's notes ("today" is the newest day in the workspace).
``tiers`` splits the workspace into what is always loaded, only listed, or only
found by search, with token counts, as toebeans' budget analysis does.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from site_builder.core.library import Library
from site_builder.core.model import Note
from site_builder.core.stop_words import STOP_WORDS
from site_builder.core.tokens import estimate_tokens, tokens_of

FORMATS = ("memwiki", "tinyclaw", "toebeans", "openclaw")
SYSTEM_NAMES = {"memwiki": "a memwiki", "tinyclaw": "a TinyClaw", "toebeans": "a toebeans", "openclaw": "an OpenClaw"}
RECENT_REFLECTIONS = 10
TOP_EPISODES = 3
WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Tier:
    """One part of the workspace by how the agent gets it: ``always`` loaded, ``listed`` by name, or ``search`` only."""

    name: str
    loaded: str
    paths: list[str]
    tokens: int


def agent_block(library: Library, fmt: str, query: str = "") -> str:
    """The prompt block of ``fmt`` (one of ``FORMATS`` but memwiki, whose block ``recall.context`` makes)."""
    if fmt == "tinyclaw":
        return tinyclaw_block(library, query)
    if fmt == "toebeans":
        return toebeans_block(library)
    return openclaw_block(library)


def tinyclaw_block(library: Library, query: str) -> str:
    """TinyClaw's ``[MEMORY]`` block: knowledge, recent reflections, matching episodes and skills."""
    words = _keywords(query)
    parts = ["[MEMORY]"]
    knowledge = library.core
    if knowledge is not None and knowledge.body.strip():
        parts += ["## Knowledge", knowledge.body.strip(), ""]
    reflections = _records(library, "reflections")[-RECENT_REFLECTIONS:]
    lines = [_reflection(r) for r in reflections if r is not None]
    if lines:
        parts += ["## Recent Reflections", *lines, ""]
    episodes = _ranked((r for r in _records(library, "episodes") if r is not None), words, _episode_text)
    if episodes[:TOP_EPISODES]:
        parts += ["## Relevant Past Conversations", *(_episode(r) for r in episodes[:TOP_EPISODES]), ""]
    skills = [n for n in _skills(library) if words & _keywords(n.stem.replace("-", " "))]  # by the skill's id
    if skills:
        parts += ["## Relevant Skills", *(f"### {n.stem}\n{n.body.strip()}\n" for n in skills)]
    return "\n".join([*parts, "[/MEMORY]"]) + "\n"


def toebeans_block(library: Library) -> str:
    """toebeans' system prompt memory: SOUL.md, USER.md, then the names of the topic files."""
    parts = [n.body.strip() for n in (_first(library, "soul"), library.core) if n is not None and n.body.strip()]
    topics = [n.stem for n in _topics(library)]
    if topics:
        parts.append("## Memory topics (read on demand)\n" + "\n".join(f"- {t}" for t in topics))
    return "\n\n".join(parts) + "\n"


def openclaw_block(library: Library) -> str:
    """OpenClaw's memory context: MEMORY.md, then today's and yesterday's daily notes."""
    notes = [n for n in (library.core, *_yesterday_and_today(library)) if n is not None]
    return "\n\n".join(f"## {n.path}\n\n{n.body.strip()}" for n in notes) + "\n"


def tiers(library: Library, fmt: str) -> list[Tier]:
    """The workspace by how the agent of ``fmt`` gets it, with token counts."""
    always: list[Note] = [n for n in (library.core, _first(library, "soul")) if n is not None]
    listed: list[Note] = []
    if fmt == "openclaw":
        always += [n for n in library.notes if n.kind == "standing"] + _yesterday_and_today(library)
    elif fmt == "toebeans":
        listed = _topics(library)
    elif fmt == "tinyclaw":
        always = [n for n in always if n.kind == "core"] + [n for n in library.notes if n.kind == "reflections"]
    seen = {n.path for n in [*always, *listed]}
    rest = [n for n in library.notes if n.path not in seen]
    return [
        Tier("Always loaded", "always", [n.path for n in always], sum(tokens_of(n.chars) for n in always)),
        Tier("Listed by name", "listed", [n.path for n in listed], sum(estimate_tokens(n.path) for n in listed)),
        Tier("Found by search only", "search", [n.path for n in rest], sum(tokens_of(n.chars) for n in rest)),
    ]


def budget_report(library: Library, fmt: str) -> str:
    """The tiers as text: name, files and tokens, one line each."""
    system = SYSTEM_NAMES.get(fmt, fmt)
    lines = [f"What {system} agent sees of this workspace (tokens are estimates, 4 characters each):"]
    for tier in tiers(library, fmt):
        files = "1 file" if len(tier.paths) == 1 else f"{len(tier.paths)} files"
        lines.append(f"  {tier.name}: {files}, ~{tier.tokens:,} tokens")
    return "\n".join(lines) + "\n"


def _records(library: Library, kind: str) -> list[dict[str, Any] | None]:
    """Every non-blank line of the workspace's ``kind`` records in file order: the record, None if malformed."""
    out: list[dict[str, Any] | None] = []
    for note in (n for n in library.notes if n.kind == kind):
        lines = note.body.split("\n")
        out += [note.records.get(note.body_start + i) for i, line in enumerate(lines) if line.strip()]
    return out


def _reflection(record: dict[str, Any]) -> str:
    context = record.get("context")
    text = f"{context}: {record['lesson']}" if context else str(record["lesson"])
    action = record.get("action")
    return f"- [{record.get('type', 'insight')}] {text}" + (f" → {action}" if action else "")


def _episode(record: dict[str, Any]) -> str:
    tags = ", ".join(str(t) for t in record.get("tags") or [])
    return f"- [{record.get('outcome', 'unknown')}] {record['summary']}" + (f" ({tags})" if tags else "")


def _episode_text(record: dict[str, Any]) -> str:
    return f"{record.get('summary', '')} {' '.join(str(t) for t in record.get('tags') or [])}"


def _ranked(records: Iterable[dict[str, Any]], words: set[str], text: Any) -> list[dict[str, Any]]:
    """Records sharing words with the query, most shared first, newer first on ties."""
    scored = [(len(words & _keywords(text(r))), i, r) for i, r in enumerate(records)]
    return [r for score, _, r in sorted(scored, key=lambda s: (-s[0], -s[1])) if score]


def _keywords(text: str) -> set[str]:
    return {w for w in WORD.findall(text.casefold()) if len(w) > 2 and w not in STOP_WORDS}


def _skills(library: Library) -> list[Note]:
    return [n for n in library.notes if n.kind == "skill"]


def _topics(library: Library) -> list[Note]:
    """toebeans' topic files: the memory folder's notes that are neither daily logs nor the profile."""
    core = library.core
    folder = core.path.rpartition("/")[0] if core else "memory"
    return [n for n in library.notes if n.path.rpartition("/")[0] == folder and n is not core and n.date is None]


def _first(library: Library, kind: str) -> Note | None:
    return next((n for n in library.notes if n.kind == kind), None)


def _yesterday_and_today(library: Library) -> list[Note]:
    """The daily logs OpenClaw reads at a session's start: ``memory/YYYY-MM-DD.md`` of the newest day with one and
    of the day before it, oldest first (a dated file in another folder, ``memory/meta-ai/2026-02-07.md``, is not
    one of them)."""
    days = library.by_day
    logs = [day for day, notes in days.items() if any(_opening_log(n) for n in notes)]
    if not logs:
        return []
    today = max(logs)
    return [n for day in (today - dt.timedelta(days=1), today) for n in days.get(day, []) if _opening_log(n)]


def _opening_log(note: Note) -> bool:
    return note.kind == "daily" and OPENING_LOG.fullmatch(note.path) is not None


OPENING_LOG = re.compile(r"memory/\d{4}-\d{2}-\d{2}\.md")
