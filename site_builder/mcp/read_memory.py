"""``memory_get``: lines of one memory file, as every other output shows them.

Only files memwiki reads as memory can be read (not ``.git/``, ``.memwiki/``,
the built site, or anything a symlink points to outside the workspace). A
private file is refused; private spans read as blank lines, so line numbers
still match citations; strings that look like credentials are redacted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from site_builder.core.diagnostics import Diagnostics
from site_builder.io.reader import Workspace, is_listed
from site_builder.io.sources import read_notes

MAX_LINES = 2000
MAX_CHARS = 200_000
CITATION = re.compile(r"^(?P<path>.+?)#L(?P<start>\d+)(?:-L?(?P<end>\d+))?$")


class ReadError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Wanted:
    path: str
    start: int | None
    count: int | None


def wanted(path: str, start: int | None, count: int | None) -> Wanted:
    """A path, or a citation (``memory/2025-11-27.md#L12-L14``) whose lines apply when ``from``/``lines`` are not given."""
    m = CITATION.match(path.strip())
    if not m:
        return Wanted(path.strip(), start, count)
    first = int(m["start"])
    last = int(m["end"]) if m["end"] else first
    return Wanted(m["path"], start or first, count or max(1, last - first + 1))


def check_path(path: str, workspace: Workspace) -> str:
    """The workspace-relative path of a memory file, or ``ReadError`` saying why it cannot be read."""
    if "\x00" in path or "\\" in path:
        raise ReadError("invalid_path", "the path holds a NUL byte or a backslash; use workspace-relative a/b.md")
    parts = PurePosixPath(path).parts
    if not parts or path.startswith("/") or re.match(r"^[A-Za-z]:", path):
        raise ReadError("outside_workspace", f"'{path[:200]}' is not a workspace-relative path")
    if ".." in parts:
        raise ReadError("outside_workspace", f"'{path[:200]}' leaves the workspace")
    if any(part.startswith(".") for part in parts):
        raise ReadError("not_memory", f"'{path[:200]}' is inside a hidden folder (.git, .memwiki…); not memory")
    rel = "/".join(part for part in parts if part != ".")
    if not is_listed(workspace, rel):
        raise ReadError("not_found", f"'{path[:200]}' is not a memory file of this workspace")
    return rel


def read_lines(workspace: Workspace, rel: str, start: int | None, count: int | None) -> dict[str, object]:
    """``{path, from, to, totalLines, truncated, text}`` for ``count`` lines from line ``start`` (1-based)."""
    from site_builder.parse.credentials import redact  # the parser, not at start: only this tool needs it
    from site_builder.parse.front_matter import hide_private_blocks
    from site_builder.parse.note import parse_note

    sources = read_notes(workspace, [rel], Diagnostics())
    if not sources:
        raise ReadError("not_found", f"{rel} cannot be read")
    source = sources[0]
    if parse_note(source).private:
        raise ReadError("private", f"{rel} is private (private: true); its text is never shown")
    assert source.text is not None  # read_notes reads every file it is given
    text, _ = redact(source.text)
    lines = hide_private_blocks(text, rel, 1, Diagnostics()).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    first = start or 1
    if first > max(1, len(lines)):
        raise ReadError("out_of_range", f"{rel} has {len(lines)} lines; 'from' is {first}")
    last = min(len(lines), first - 1 + (count or MAX_LINES))
    chosen = lines[first - 1 : last]
    while len(chosen) > 1 and sum(len(line) + 1 for line in chosen) > MAX_CHARS:
        chosen = chosen[: len(chosen) // 2]
    last = first - 1 + len(chosen)
    return {
        "path": rel,
        "from": first,
        "to": last,
        "totalLines": len(lines),
        "truncated": last < len(lines) and (count is None or last < first - 1 + count),
        "text": "\n".join(chosen)[:MAX_CHARS],
    }
