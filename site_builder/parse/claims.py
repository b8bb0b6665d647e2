"""Claims in front matter, as OpenClaw's memory-wiki writes them (``../shared/LAYOUTS.md`` §8): each a statement
with its status, confidence and the lines that are its evidence.

    claims:
      - id: claim.alex.role
        text: Alex leads the platform team.
        status: supported            # as written: supported, contested, superseded, stale…
        confidence: 0.8
        evidence:
          - {sourceId: source.standup, path: sources/standup.md, lines: "3-4", note: "…"}

What cannot be read is a warning at the front matter's ``claims:`` line, and the rest is still read: claims that
are not a list, a claim without text, a confidence outside 0–1 or written as text (the claim is kept without
one), evidence lines that are no range (the evidence is kept without them).
"""

from __future__ import annotations

import re
from typing import Any

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Cited, Claim

LINES = re.compile(r"^\s*L?(\d+)\s*(?:[-–:]\s*L?(\d+))?\s*$")  # "12", "12-14", "L12-L14"


def read_claims(meta: dict[str, Any], path: str, line: int, diagnostics: Diagnostics) -> tuple[Claim, ...]:
    """The claims of a note's front matter (``line``: where ``claims:`` is written, for warnings)."""
    raw = meta.get("claims")
    if raw is None:
        return ()
    if not isinstance(raw, list):
        diagnostics.warn(path, line, "claims must be a list of claims; ignored", "claims")
        return ()
    claims = []
    for number, item in enumerate(raw, 1):
        if not isinstance(item, dict) or not str(item.get("text") or "").strip():
            diagnostics.warn(path, line, f"claim {number} has no text; ignored", "claims")
            continue
        label = str(item.get("id") or f"claim {number}")
        claims.append(
            Claim(
                id=label,
                text=str(item["text"]).strip(),
                status=str(item.get("status") or "").strip().casefold(),
                confidence=_confidence(item.get("confidence"), label, path, line, diagnostics),
                evidence=tuple(_evidence(item.get("evidence"), label, path, line, diagnostics)),
                line=line,
            )
        )
    return tuple(claims)


def _confidence(value: object, label: str, path: str, line: int, diagnostics: Diagnostics) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        diagnostics.warn(path, line, f"{label}: confidence {value!r} is not a number from 0 to 1; left out", "claims")
        return None
    return float(value)


def _evidence(value: object, label: str, path: str, line: int, diagnostics: Diagnostics) -> list[Cited]:
    if value is None:
        return []
    if not isinstance(value, list):
        diagnostics.warn(path, line, f"{label}: evidence must be a list; ignored", "claims")
        return []
    found = []
    for item in value:
        if not isinstance(item, dict) or not str(item.get("path") or "").strip():
            diagnostics.warn(path, line, f"{label}: evidence without a path; ignored", "claims")
            continue
        lines = str(item.get("lines") or "").strip()
        m = LINES.match(lines) if lines else None
        if lines and m is None:
            diagnostics.warn(path, line, f"{label}: evidence lines {lines!r} are not a line range; left out", "claims")
        first = int(m[1]) if m else 0
        last = int(m[2] or m[1]) if m else 0
        found.append(Cited(str(item["path"]).strip(), first, max(first, last), str(item.get("note") or "")))
    return found
