"""Ordinary Markdown links to other notes, ``[notes](../knowledge/x.md#part)``: found here, resolved to the
workspace path they name, so the site can point them at that note's page and hygiene can report the broken ones."""

from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote

from site_builder.core.note_paths import markdown_candidates

# [text](target.md) or [text](<target with spaces.md>), with an optional line suffix, #fragment and "title".
# Tools write ``x.md:14`` or ``x.md:L12-L14`` for a file's lines: that suffix is a place in the file, not its name.
LINE_SUFFIX = r"(?::L?\d+(?:-L?\d+)?)"
MD_LINK = re.compile(
    rf"\]\(\s*(?:<([^>]+?\.md){LINE_SUFFIX}?(#[^>]*)?>|([^)\s]+?\.md){LINE_SUFFIX}?(#[^)\s]*)?)(?:\s+\"[^\"]*\")?\s*\)",
    re.I,
)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)
# OpenClaw cites the lines a memory came from: promoted memories end in
# ``[score=0.81 recalls=3 source=memory/2026-05-13.md:64-65]`` (``:L12-L14`` also written) and the dream diary's
# entries in ``[memory/2026-03-01.md:15, memory/2026-03-01.md:17]``.
CITED = r"(?P<cite_path>[^\s\[\],:=]+?\.md):L?(?P<cite_from>\d+)(?:-L?(?P<cite_to>\d+))?"
_ONE = CITED.replace("?P<cite_path>", "?:").replace("?P<cite_from>", "?:").replace("?P<cite_to>", "?:")
CITATION = rf"\[(?:[^\[\]\n]*?\bsource=)?{_ONE}(?:,\s*{_ONE})*\]"
CITATION_RE = re.compile(CITATION)
CITED_RE = re.compile(CITED)


def file_links(line: str) -> list[str]:
    """The ``.md`` targets the line links to, as written (no links inside code spans, none with a scheme),
    then the files its promoted-memory citations name."""
    found = []
    for m in MD_LINK.finditer(CODE_SPAN.sub("", line)):
        target = unquote(m[1] or m[3])
        if not SCHEME.match(target):
            found.append(target)
    found.extend(c["cite_path"] for m in CITATION_RE.finditer(line) for c in CITED_RE.finditer(m[0]))
    return found


def written_path(note_path: str, target: str) -> str:
    """Where ``target`` points from the note's folder, for messages about links that lead nowhere; an absolute
    path as written (``/home/me/.openclaw/workspace/skills/x/SKILL.md``: outside the workspace copy memwiki reads)."""
    if target.startswith("/"):
        return posixpath.normpath(target)
    return next(iter(markdown_candidates(note_path, target)), target)
