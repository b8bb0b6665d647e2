"""TinyClaw's records as Markdown: ``reflections.jsonl``, ``episodes.jsonl`` and ``skills/index.json``.

Each JSONL record becomes one Markdown line at the same line number, so a
citation ``memory/reflections.jsonl#L3`` names the record a person finds on
line 3 of the file. Each record is also a Retain ``B`` fact (what the agent
lived through), dated by its ``ts``, so records reach entity pages, recall
and ``recall.json`` like any other fact. A line that is not a JSON object, or
lacks the fields the format needs, is a warning at its line and stays as text.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from site_builder.core.diagnostics import Diagnostics
from site_builder.parse.lines import printable

REFLECTION_TYPES = ("failure", "success", "insight")
OUTCOMES = ("resolved", "unresolved", "informational", "unknown")


def records_markdown(
    kind: str, path: str, text: str, diagnostics: Diagnostics
) -> tuple[str, dict[int, dict[str, Any]]]:
    """The file as Markdown (one line per record, same numbering) and its well-formed records by line."""
    if kind == "skills":
        return _skills_markdown(path, text, diagnostics)
    lines: list[str] = []
    records: dict[int, dict[str, Any]] = {}
    for number, raw in enumerate(text.split("\n"), 1):
        if not raw.strip():
            lines.append("")
            continue
        record = _record(raw, path, number, diagnostics)
        needed = ("lesson",) if kind == "reflections" else ("summary",)
        if record is None or not all(isinstance(record.get(k), str) and record[k].strip() for k in needed):
            if record is not None:
                diagnostics.warn(path, number, f"record has no {needed[0]!r}; shown as text", "record")
            lines.append(literal(raw))
            continue
        records[number] = record
        lines.append(_reflection_line(record) if kind == "reflections" else _episode_line(record))
    return "\n".join(lines), records


def _record(raw: str, path: str, number: int, diagnostics: Diagnostics) -> dict[str, Any] | None:
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        diagnostics.warn(path, number, f"not a JSON record ({exc.msg}); shown as text", "record")
        return None
    if not isinstance(value, dict):
        diagnostics.warn(path, number, "a record must be a JSON object; shown as text", "record")
        return None
    return value


def _reflection_line(record: dict[str, Any]) -> str:
    kind = str(record.get("type") or "insight")
    context = _text(record.get("context"))
    text = f"{context}: {_text(record['lesson'])}" if context else _text(record["lesson"])
    action = _text(record.get("action"))
    return f"- B: **{literal(kind)}** {text}" + (f" → {action}" if action else "") + _when(record)


def _episode_line(record: dict[str, Any]) -> str:
    outcome = str(record.get("outcome") or "unknown")
    tags = [str(t) for t in record.get("tags") or [] if isinstance(t, str | int)]
    who = " · ".join(_text(record.get(k)) for k in ("user", "agent") if _text(record.get(k)))
    line = f"- B: **{literal(outcome)}** {_text(record['summary'])}"
    line += f" ({', '.join('#' + literal(t) for t in tags)})" if tags else ""
    return line + (f" — {who}" if who else "") + _when(record)


def _skills_markdown(path: str, text: str, diagnostics: Diagnostics) -> tuple[str, dict[int, dict[str, Any]]]:
    """``{"skill-id": "description"}`` as a list linking each skill's page, one line per skill; the records are
    ``{"id", "description"}`` by line."""
    try:
        index = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        diagnostics.warn(path, exc.lineno, f"skills index is not valid JSON ({exc.msg})", "record")
        return "", {}
    if not isinstance(index, dict):
        diagnostics.warn(path, 1, "skills index must be a JSON object of skill id -> description", "record")
        return "", {}
    lines = ["# Skills", ""]
    records: dict[int, dict[str, Any]] = {}
    for skill, description in index.items():
        records[len(lines) + 1] = {"id": str(skill), "description": " ".join(str(description or "").split())}
        lines.append(f"- [{literal(str(skill))}]({literal(str(skill))}.md): {_text(description)}")
    return ("\n".join(lines) if index else "# Skills\n\nNo skills yet."), records


def record_date(record: dict[str, Any]) -> dt.date | None:
    """The day of a record's ``ts`` (ISO 8601, ``Z`` allowed), or None."""
    value = record.get("ts")
    if not isinstance(value, str):
        return None
    try:
        return dt.datetime.fromisoformat(value.replace("Z", "+00:00")).date()
    except ValueError:
        return None


def _when(record: dict[str, Any]) -> str:
    """`` (2026-02-10 09:12)`` from the record's ISO time stamp, as written when it is not one."""
    ts = record.get("ts")
    if not isinstance(ts, str) or not ts.strip():
        return ""
    try:
        return f" ({dt.datetime.fromisoformat(ts.replace('Z', '+00:00')):%Y-%m-%d %H:%M})"
    except ValueError:
        return f" ({literal(ts)})"


def _text(value: Any) -> str:
    return literal(printable(" ".join(str(value).split()))) if value not in (None, "") else ""


def literal(text: str) -> str:
    """Keep record text literal: no headings, lists, HTML or links of its own."""
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("`", "\\`")
