"""What OpenClaw's prompt keeps of each bootstrap file: whole, or cut to its per-file and total character limits.

OpenClaw injects the workspace's bootstrap files into every prompt ("Project Context"), in a fixed order, each cut
to ``bootstrapMaxChars`` and all of them together to ``bootstrapTotalMaxChars``. A file over its limit keeps its head
and its tail and loses its middle; a file past the total keeps what budget is left, cut the same way. The numbers
and the order below are OpenClaw's defaults in ``openclaw/openclaw``'s main branch as read in December 2026 (no
release tag was at hand to name a version; the same numbers are in its docs since early 2026):
``src/agents/embedded-agent-helpers/bootstrap.ts`` (``DEFAULT_BOOTSTRAP_MAX_CHARS = 20_000``,
``DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS = 60_000``, ``BOOTSTRAP_HEAD_RATIO = 0.75``, ``BOOTSTRAP_TAIL_RATIO = 0.25``,
``MIN_BOOTSTRAP_FILE_BUDGET_CHARS = 64``; AGENTS.md keeps 45 % head, a 35 % digest of its rule lines and 15 % tail)
and ``docs/gateway/configuration-reference.md`` (``agents.defaults.bootstrapMaxChars``, ``bootstrapTotalMaxChars``).
An ``openclaw.json`` lives outside the workspace, so memwiki shows the defaults and says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from site_builder.core.library import Library
from site_builder.core.model import Note

OPENCLAW_VERSION = "main, December 2026"  # where the numbers below were read
SOURCE = "src/agents/embedded-agent-helpers/bootstrap.ts"
# The bootstrap files in the order OpenClaw injects them (``loadWorkspaceBootstrapFiles``); MEMORY.md may be memory.md.
BOOTSTRAP_FILES = ("AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md", "BOOTSTRAP.md")
MEMORY_FILES = ("MEMORY.md", "memory.md")
MAX_CHARS = 20_000  # agents.defaults.bootstrapMaxChars
TOTAL_MAX_CHARS = 60_000  # agents.defaults.bootstrapTotalMaxChars
MIN_FILE_BUDGET = 64  # a file is skipped once less than this is left of the total
HEAD_RATIO, TAIL_RATIO = 0.75, 0.25  # of what a cut file keeps, once the marker is paid for
AGENTS_FILE = "AGENTS.md"
AGENTS_HEAD_RATIO, AGENTS_TAIL_RATIO = 0.45, 0.15  # AGENTS.md: the rest of its budget is a digest of its rules


@dataclass(frozen=True)
class Injected:
    """One bootstrap file as OpenClaw's prompt sees it: its size, what of it is kept, and why it is cut."""

    path: str
    chars: int  #: its length as OpenClaw counts it (UTF-16 units, trailing space trimmed)
    limit: int  #: the characters it could take: the per-file limit, or what was left of the total
    head: int  #: characters kept from its start (all of them when it is not cut)
    tail: int  #: characters kept from its end
    cause: str  #: "" (whole), "per-file", "total" (past the total limit) or "skipped" (no budget left)
    head_lines: int = 0  #: the last line kept from its start
    tail_line: int = 0  #: the first line kept from its end (0 when no tail is kept)

    @property
    def cut(self) -> bool:
        return bool(self.cause)


def bootstrap_files(library: Library) -> list[Note]:
    """The workspace's bootstrap files, in the order OpenClaw injects them."""
    by_path = {n.path: n for n in library.notes if "/" not in n.path}
    notes = [by_path[name] for name in BOOTSTRAP_FILES if name in by_path]
    memory = next((by_path[name] for name in MEMORY_FILES if name in by_path), None)
    return notes + ([memory] if memory else [])


def injected(library: Library) -> list[Injected]:
    """Each bootstrap file as the prompt gets it, spending the total limit in injection order."""
    left = TOTAL_MAX_CHARS
    out: list[Injected] = []
    for note in bootstrap_files(library):
        text = note.body.rstrip()
        chars = utf16_length(text)
        if left < MIN_FILE_BUDGET:
            out.append(Injected(note.path, chars, left, 0, 0, "skipped"))
            continue
        limit = min(MAX_CHARS, left)
        file = _kept(note, text, chars, limit)
        out.append(file)
        left -= min(chars, limit)
    return out


def utf16_length(text: str) -> int:
    """The length JavaScript gives ``text``: characters beyond the Basic Multilingual Plane count twice."""
    return len(text.encode("utf-16-le")) // 2


def _kept(note: Note, text: str, chars: int, limit: int) -> Injected:
    if chars <= limit:
        return Injected(note.path, chars, limit, chars, 0, "", _line_at(note, text, len(text)))
    head, tail = _split(note.path.rsplit("/", 1)[-1], chars, limit)
    cause = "per-file" if limit == MAX_CHARS else "total"
    tail_line = _line_at(note, text, len(text) - tail) if tail else 0
    return Injected(note.path, chars, limit, head, tail, cause, _line_at(note, text, head), tail_line)


def _split(name: str, chars: int, limit: int) -> tuple[int, int]:
    """What a cut file keeps of its start and end: the marker OpenClaw puts between them costs its length first."""
    if name == AGENTS_FILE:
        return int(limit * AGENTS_HEAD_RATIO), int(limit * AGENTS_TAIL_RATIO)
    head = tail = 0
    for _ in range(3):  # the marker names the counts it keeps, so its length moves with them (as OpenClaw iterates)
        budget = max(0, limit - len(_marker(name, head, tail, chars)) - 2)
        head, tail = int(budget * HEAD_RATIO), int(budget * TAIL_RATIO)
    return head, tail


def _marker(name: str, head: int, tail: int, chars: int) -> str:
    return f"\n[...truncated, read {name} for full content...]\n…(truncated {name}: kept {head}+{tail} chars of {chars})…\n"


def _line_at(note: Note, text: str, offset: int) -> int:
    """The file's line holding character ``offset`` of its body (a line number as the note's page anchors it)."""
    return note.body_start + text.count("\n", 0, max(0, offset - 1))
