"""Workspace layouts: which memory system wrote a workspace, and what kind of note each file is.

Agents keep memory in several layouts (``LAYOUTS.md``): Clawd "Workspace Memory
v2" (memwiki's own), OpenClaw, TinyClaw, toebeans, ClawXMemory, Claude Code
memory folders and OpenClaw memory-wiki vaults. A workspace may mix them. ``detect`` names the layouts present
from the file names alone; ``Layout.kind_of`` tags each file with its kind of
note, so everything after the reader sees the same ``SourceFile`` records
whatever wrote the workspace. Every Markdown file is read: a file no rule
places is a topic ``page``, never dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from site_builder.core.model import NoteKind

# Files an agent loads into every prompt (OpenClaw's bootstrap files; TinyClaw copies AGENTS.md and heartbeat.md).
STANDING = {"agents", "user", "identity", "tools", "heartbeat", "now", "projects", "bootstrap"}
# The core memory, in order of preference: the first one present is the home page's core memory.
CORE_CANDIDATES = (
    "MEMORY.md",
    "memory.md",
    "memory/MEMORY.md",
    "memory/knowledge.md",
    "knowledge.md",
    "memory/USER.md",
    "knowledge/USER.md",
    "global/User/user-profile.md",
    "global/MEMORY.md",
    "WIKI.md",
)
# Each layout's own core memory files, in its order of preference: a forced layout takes its own.
LAYOUT_CORE = {
    "clawd-v2": ("memory.md",),
    "openclaw": ("MEMORY.md", "memory/MEMORY.md"),
    "tinyclaw": ("memory/knowledge.md", "knowledge.md"),
    "toebeans": ("memory/USER.md", "knowledge/USER.md"),
    "clawxmemory": ("global/User/user-profile.md", "global/MEMORY.md"),
    "claude-code": ("MEMORY.md",),
    "memory-wiki": ("WIKI.md", "index.md"),
}
# An OpenClaw memory-wiki vault's folders of pages, by kind (``pageType``).
WIKI_FOLDERS = ("entities/", "concepts/", "syntheses/", "sources/", "reports/", "canon/")
# TinyClaw's JSON files memwiki reads (as Markdown, one line per record): file name -> kind of note.
RECORD_FILES: dict[str, NoteKind] = {"reflections.jsonl": "reflections", "episodes.jsonl": "episodes"}
CLAUDE_CODE_NAME = re.compile(r"^(user|feedback|project|reference)_[^/]+\.md$")
CLAUDE_CODE_FEEDBACK = re.compile(r"^feedback_[^/]+\.md$")
DATE_STEM = re.compile(r"^\d{4}-\d{2}-\d{2}$")
SESSION_STEM = re.compile(r"^\d{4}-\d{2}-\d{2}-.+$")


@dataclass(frozen=True)
class Layout:
    """The layouts found in (or forced on) a workspace, and its core memory file."""

    names: tuple[str, ...] = ("clawd-v2",)
    core: str | None = "memory.md"  # the workspace's core memory file, if it has one
    other_cores: tuple[str, ...] = ()  # files other layouts found here would load as core memory (read as pages)

    def kind_of(self, path: str) -> NoteKind:
        """The kind of note at ``path`` (relative, POSIX)."""
        parts = path.split("/")
        stem = parts[-1].removesuffix(".md")
        if parts[-1] in RECORD_FILES:
            return RECORD_FILES[parts[-1]]
        if parts[-2:] == ["skills", "index.json"]:
            return "skills"
        if path == self.core:
            return "core"
        if path == "SOUL.md" or (len(parts) == 2 and parts[0] in ("memory", "knowledge") and stem == "SOUL"):
            return "soul"
        if stem.upper() == "DREAMS" or "dreaming" in parts[:-1]:
            return "dream"
        if len(parts) == 1 and stem.lower() in STANDING:
            return "standing"
        if parts[-1] == "project.meta.md":
            return "project"
        if "Feedback" in parts[:-1] or CLAUDE_CODE_FEEDBACK.match(parts[-1]):
            return "feedback"
        if len(parts) >= 2 and parts[-2] == "skills":
            return "skill"
        if parts[0] == "bank":
            return "entity" if path.startswith("bank/entities/") and len(parts) == 3 else "bank"
        if DATE_STEM.match(stem):
            return "daily"
        if len(parts) == 2 and parts[0] == "memory" and SESSION_STEM.match(stem):
            return "session"
        return "page"


DEFAULT_LAYOUT = Layout()


def detect(paths: Iterable[str], forced: str | None = None) -> Layout:
    """The layouts the workspace's files show (``forced``: the one ``[workspace] layout`` names)."""
    present = set(paths)
    found = [forced] if forced else [name for name, test in _TESTS if test(present)]
    candidates = LAYOUT_CORE.get(forced, ()) if forced else CORE_CANDIDATES
    cores = [c for c in candidates if c in present]
    # Each layout's own first choice: a layout keeping several (ClawXMemory's profile and index) is not a conflict.
    claimed = {next((c for c in LAYOUT_CORE.get(name, ()) if c in present), None) for name in found} - {None}
    return Layout(tuple(found), cores[0] if cores else None, tuple(sorted(str(c) for c in claimed - set(cores[:1]))))


def _clawd(p: set[str]) -> bool:
    return "memory.md" in p or any(x.startswith("bank/") for x in p)


def _openclaw(p: set[str]) -> bool:
    # TinyClaw copies AGENTS.md into its agent folders too: alone it means OpenClaw only without TinyClaw's files.
    return ("MEMORY.md" in p and any(x.startswith("memory/") for x in p)) or ("AGENTS.md" in p and not _tinyclaw(p))


def _tinyclaw(p: set[str]) -> bool:
    return any(x.endswith(("reflections.jsonl", "episodes.jsonl", "skills/index.json")) for x in p) or (
        "memory/knowledge.md" in p or "knowledge.md" in p
    )


def _toebeans(p: set[str]) -> bool:
    return any(x in p for x in ("memory/USER.md", "knowledge/USER.md"))


def _clawxmemory(p: set[str]) -> bool:
    return "global/User/user-profile.md" in p or any(x.endswith("/project.meta.md") for x in p)


def _claude_code(p: set[str]) -> bool:
    return "MEMORY.md" in p and any(CLAUDE_CODE_NAME.match(x) for x in p)


def _memory_wiki(p: set[str]) -> bool:
    return "WIKI.md" in p and any(x.startswith(WIKI_FOLDERS) for x in p)


_TESTS = (
    ("clawd-v2", _clawd),
    ("openclaw", _openclaw),
    ("tinyclaw", _tinyclaw),
    ("toebeans", _toebeans),
    ("clawxmemory", _clawxmemory),
    ("claude-code", _claude_code),
    ("memory-wiki", _memory_wiki),
)
