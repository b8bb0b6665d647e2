"""``memory_remember``: one Retain bullet appended to today's daily log, and nothing else changed.

The bullet is written the way the parser reads it (``- O(c=0.8) @Anna: text``)
and read back through the same grammar before anything is written. It goes at
the end of the log's last ``## Retain`` section (the section is added, and the
file created, when missing). Every other byte of the file stays as it was:
newline style, BOM, a missing final newline. The new text is written to a
temporary sibling and renamed over the log, and only if the log still holds
exactly what was read: a log changed in between (an editor saving it) or open
in an editor (its swap or lock file is there) is left alone with an error.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import dataclass
from pathlib import Path

from site_builder.parse.lines import walk_lines
from site_builder.parse.retain import ENTITY_TOKEN, KINDS, RETAIN_HEADING, FactSyntaxError, parse_fact_line

MAX_CONTENT = 2000
MAX_ENTITIES = 20
HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")


class RememberError(ValueError):
    """The fact cannot be written; the message says why and nothing was written."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Append:
    """What appending will do: the log's bytes as read (None: no file yet) and as they will be."""

    root: Path
    path: str  # workspace-relative: memory/YYYY-MM-DD.md
    before: bytes | None
    after: bytes
    line: int  # where the bullet lands
    bullet: str

    @property
    def citation(self) -> str:
        return f"{self.path}#L{self.line}"


def fact_bullet(kind: str, content: str, entities: list[str], confidence: float | None) -> str:
    """The Retain bullet for a fact, checked by the parser's own grammar; ``RememberError`` says what is wrong."""
    if kind not in KINDS:
        raise RememberError("invalid_kind", "kind must be one of W, B, O, S (world, experience, opinion, observation)")
    text = content.strip()
    if not text:
        raise RememberError("invalid_content", "content is empty")
    if "\n" in text or "\r" in text:
        raise RememberError("invalid_content", "content must be one line (one self-contained fact)")
    if len(text) > MAX_CONTENT:
        raise RememberError("invalid_content", f"content is {len(text):,} characters; at most {MAX_CONTENT:,}")
    if "<!--" in text or "-->" in text:
        raise RememberError("invalid_content", "content must not hold HTML comments (they would hide other lines)")
    from site_builder.parse.credentials import redact  # its many patterns: only when the agent writes

    if redact(text)[1]:
        raise RememberError("credential", "content looks like it holds a credential; memory must not keep secrets")
    if confidence is not None and kind != "O":
        raise RememberError("invalid_confidence", f"confidence only applies to opinions (kind O), not {kind}")
    if confidence is not None and not 0.0 <= confidence <= 1.0:
        raise RememberError("invalid_confidence", f"confidence {confidence} is outside 0..1")
    if len(entities) > MAX_ENTITIES:
        raise RememberError("invalid_entities", f"{len(entities)} entities; at most {MAX_ENTITIES}")
    names = [name.strip().removeprefix("@") for name in entities]
    for name in names:
        if not ENTITY_TOKEN.match("@" + name):
            raise RememberError("invalid_entities", f"'{name}' is not an entity name (letters, digits, - _ . only)")
    params = f"(c={round(confidence, 3):g})" if confidence is not None else ""
    bullet = f"- {kind}{params}{''.join(f' @{name}' for name in names)}: {text}"
    try:
        parsed = parse_fact_line(bullet)
    except FactSyntaxError as exc:
        raise RememberError("invalid_fact", f"not a Retain fact: {exc}") from None
    if parsed.kind != kind or list(parsed.entities) != names:
        raise RememberError("invalid_fact", "the fact would not read back as written")
    return bullet


def plan_append(root: Path, day: dt.date, bullet: str) -> Append:
    """Read today's log and work out its new bytes (nothing is written yet)."""
    rel = f"memory/{day.isoformat()}.md"
    target = root / rel
    _check_target(root, target, rel)
    if not target.exists():
        text = f"# {day.isoformat()}\n\n## Retain\n{bullet}\n"
        return Append(root, rel, None, text.encode("utf-8"), 4, bullet)
    before = target.read_bytes()
    text = before.decode("utf-8", errors="surrogateescape")
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(newline)
    ends_with_newline = lines[-1] == ""
    if ends_with_newline:
        lines.pop()
    at = _retain_end(lines)
    if at is None:  # no Retain section: add one at the end
        tail = [] if not lines or not lines[-1].strip() else [""]
        lines += [*tail, "## Retain", bullet]
        line = len(lines)
    else:
        lines.insert(at, bullet)
        line = at + 1
    after = newline.join(lines) + (newline if ends_with_newline or line == len(lines) else "")
    return Append(root, rel, before, after.encode("utf-8", errors="surrogateescape"), line, bullet)


def commit_append(append: Append) -> None:
    """Write the new log atomically, only if the file still holds what was read."""
    target = append.root / append.path
    _check_target(append.root, target, append.path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.memwiki-{os.getpid()}.tmp")
    try:
        tmp.write_bytes(append.after)
        if append.before is None:
            try:
                os.link(tmp, target)  # fails if the log appeared meanwhile
            except FileExistsError:
                raise _changed(append.path) from None
            return
        if target.read_bytes() != append.before:
            raise _changed(append.path)
        tmp.chmod(target.stat().st_mode & 0o7777)
        tmp.replace(target)
    finally:
        tmp.unlink(missing_ok=True)


def _changed(rel: str) -> RememberError:
    return RememberError("changed", f"{rel} changed while the fact was being written; nothing was written, try again")


def _check_target(root: Path, target: Path, rel: str) -> None:
    if target.is_symlink() or (target.exists() and not target.is_file()):
        raise RememberError("unwritable", f"{rel} is not a regular file; nothing was written")
    if root.resolve() not in target.parent.resolve().parents and target.parent.resolve() != root.resolve():
        raise RememberError("unwritable", f"{rel} would be outside the workspace; nothing was written")
    folder = target.parent
    for editor_file in (f".{target.name}.swp", f".{target.name}.swo", f".#{target.name}", f"{target.name}~lock"):
        if (folder / editor_file).is_symlink() or (folder / editor_file).exists():
            raise RememberError(
                "open_in_editor", f"{rel} is open in an editor ({editor_file} exists); nothing was written, try later"
            )


def _retain_end(lines: list[str]) -> int | None:
    """Index after the last non-blank line of the last ``## Retain`` section (up to the next heading), or None."""
    headings = []
    for line in walk_lines(lines, 0):
        m = HEADING.match(line.text.removesuffix("\r")) if line.role == "text" else None
        if m:
            headings.append((line.number, (m[2] or "").strip()))
    retain = [n for n, title in headings if RETAIN_HEADING.match(title)]
    if not retain:
        return None
    start = retain[-1]
    end = next((n for n, _ in headings if n > start), len(lines))  # facts sit right under the heading
    last = start
    for index in range(start + 1, end):
        if lines[index].strip():
            last = index
    return last + 1
