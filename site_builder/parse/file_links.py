"""Ordinary Markdown links to other notes, ``[notes](../knowledge/x.md#part)``: found here, resolved to the
workspace path they name, so the site can point them at that note's page and hygiene can report the broken ones."""

from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote

# [text](target.md) or [text](<target with spaces.md>), with an optional #fragment and "title".
MD_LINK = re.compile(r"\]\(\s*(?:<([^>]+?\.md)(#[^>]*)?>|([^)\s]+?\.md)(#[^)\s]*)?)(?:\s+\"[^\"]*\")?\s*\)", re.I)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


def file_links(note_path: str, line: str) -> list[str]:
    """Workspace paths of the ``.md`` files the line links to ("" for a link that leaves the workspace)."""
    found = []
    for m in MD_LINK.finditer(CODE_SPAN.sub("", line)):
        target = m[1] or m[3]
        if not SCHEME.match(target):
            found.append(resolve(note_path, target))
    return found


def resolve(note_path: str, target: str) -> str:
    """The workspace path ``target`` names, seen from the note at ``note_path`` ("" when it leaves the workspace)."""
    target = unquote(target)
    joined = target.lstrip("/") if target.startswith("/") else posixpath.join(posixpath.dirname(note_path), target)
    path = posixpath.normpath(joined)
    return "" if path.startswith("../") or path == ".." else path
