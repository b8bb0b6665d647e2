"""Front matter and privacy: the YAML header of a note, and the parts that must never leave it."""

from __future__ import annotations

import json
import re
from typing import Any

from site_builder.core.diagnostics import Diagnostics

PRIVATE_OPEN = re.compile(r"<!--\s*private\s*-->", re.IGNORECASE)
PRIVATE_CLOSE = re.compile(r"<!--\s*/private\s*-->", re.IGNORECASE)
FLAT_PAIR = re.compile(r"^([A-Za-z_][\w-]*):(?:[ \t](.*))?$")


def split_front_matter(text: str, path: str, diagnostics: Diagnostics) -> tuple[dict[str, Any], str, int]:
    """Return (front matter, body, line number of the body's first line)."""
    lines = text.split("\n")
    index = front_matter_end(lines)
    if index is not None:
        raw = "\n".join(lines[1:index])
        body = "\n".join(lines[index + 1 :])
        return _load_yaml(raw, path, diagnostics), body, index + 2
    if lines[0].strip() == "---":
        diagnostics.warn(path, 1, "front matter starts with '---' but is never closed; read as text", "front-matter")
    return {}, text, 1


def field_lines(text: str, body_start: int) -> dict[str, int]:
    """The line (in the file) of each top-level key of the front matter that ends before ``body_start``."""
    lines = text.split("\n", body_start)[1 : body_start - 2]
    return {m[1]: number for number, line in enumerate(lines, 2) if (m := FLAT_PAIR.match(line))}


def front_matter_end(lines: list[str]) -> int | None:
    """The index of the line that closes the front matter; None when there is none (or it is never closed)."""
    if not lines or lines[0].strip() != "---":
        return None
    return next((index for index in range(1, len(lines)) if lines[index].strip() in ("---", "...")), None)


def _load_yaml(raw: str, path: str, diagnostics: Diagnostics) -> dict[str, Any]:
    import yaml  # here: a build whose changed files have no front matter never needs it (10 ms to import)

    try:
        data = yaml.safe_load(raw)
    except yaml.YAMLError as exc:
        flat = _flat_pairs(raw, path, diagnostics)
        if flat is not None:
            return flat
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        problem = getattr(exc, "problem", None) or "syntax error"
        diagnostics.warn(path, line, f"front matter is not valid YAML ({problem}); ignored", "front-matter")
        return {}
    if data is None:
        return {}
    if not isinstance(data, dict):
        diagnostics.warn(path, 2, "front matter must be a mapping of keys to values; ignored", "front-matter")
        return {}
    return {str(k): v for k, v in data.items()}


def _flat_pairs(raw: str, path: str, diagnostics: Diagnostics) -> dict[str, Any] | None:
    """Flat ``key: value`` lines as agents write them (ClawXMemory, Claude Code), values YAML would reject
    (``name: Cover letter: length``, ``description: "Start saving" beats "Savings start"``) kept as text; None when
    the lines are not all of that shape. A value that starts like JSON but is not (``aliases: [not json``) is kept
    as text and reported at its line: the other keys still count."""

    pairs: dict[str, Any] = {}
    for number, line in enumerate(raw.split("\n"), start=2):
        if not line.strip():
            continue
        m = FLAT_PAIR.match(line)
        if m is None:
            return None
        value: Any = (m[2] or "").strip()
        if value.startswith(("[", "{", '"', "'")):  # JSON (ClawXMemory's aliases), YAML, or text in quotes
            value = _flow_value(m[1], value, path, number, diagnostics)
        pairs[m[1]] = {"true": True, "false": False}.get(value, value) if isinstance(value, str) else value
    return pairs


def _flow_value(key: str, value: str, path: str, number: int, diagnostics: Diagnostics) -> Any:
    """A value that starts like a list, a mapping or a quoted text: as JSON (``["a", "b"]``), else as YAML
    (``[daily, log]``), else the text itself, reported at its line when it looked like a list or mapping (the line
    YAML rejects: ``date: {{date}}``, a template's placeholder)."""
    import yaml

    try:
        return json.loads(value)
    except ValueError:
        pass
    try:
        return yaml.safe_load(value)
    except yaml.YAMLError:
        if value.startswith(("[", "{")):
            what = "is a template's placeholder, not a value" if value.startswith("{{") else "is not a valid list"
            diagnostics.warn(path, number, f"{key}: {value[:40]!r} {what}; kept as text", "front-matter")
        return value


def is_private(meta: dict[str, Any], path: str, diagnostics: Diagnostics) -> bool:
    """``private: true``; any other value than true/false is taken as private (and reported), never as public."""
    value = meta.get("private", False)
    if isinstance(value, bool):
        return value
    diagnostics.warn(path, 2, f"private: {value!r} is not true or false; the page is kept private", "front-matter")
    return True


def hide_private_blocks(body: str, path: str, start: int, diagnostics: Diagnostics) -> str:
    """Blank out every ``<!-- private -->`` ... ``<!-- /private -->`` span, keeping line numbers.

    Spans may sit inside one line or run over many; text around them stays.
    """
    if not PRIVATE_OPEN.search(body):
        return body
    out: list[str] = []
    pos = 0
    while (opened := PRIVATE_OPEN.search(body, pos)) is not None:
        out.append(body[pos : opened.start()])
        closed = PRIVATE_CLOSE.search(body, opened.end())
        end = closed.end() if closed else len(body)
        out.append("\n" * body.count("\n", opened.start(), end))
        if closed is None:
            line = start + body.count("\n", 0, opened.start())
            diagnostics.warn(path, line, "<!-- private --> is never closed; the rest of the file is hidden", "private")
        pos = end
    out.append(body[pos:])
    return "".join(out)
