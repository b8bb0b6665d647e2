"""The Retain grammar: ``- <K>[(c=<0..1>)] [@Entity ...]: <fact>``.

``parse_fact_line`` turns one bullet into a ``ParsedFact`` or explains, in one
sentence, why a bullet that looks like a fact is not one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from site_builder.parse.link_syntax import BLOCK_ID

KINDS = "WBOS"
FACT_LINE = re.compile(
    r"^(?P<indent>[ \t]*)[-*+][ \t]+(?P<kind>[A-Za-z])(?:\((?P<params>[^)]*)\))?"
    r"(?P<entities>(?:[ \t]+@[^\s:]+)*)[ \t]*:(?:[ \t]+(?P<content>.*))?$"
)
LOOKS_LIKE_FACT = re.compile(r"^[ \t]*[-*+][ \t]+[WBOS](?:\(|[ \t]+@|:)")
BULLET = re.compile(r"^[ \t]*[-*+][ \t]+\S")
# A fact written without its bullet, as agents do: ``O(c=0.8) @Oscar: prefers short answers``.
BARE_FACT = re.compile(r"^[ \t]*[WBOS](?:\([^)]*\))?(?:[ \t]+@[^\s:]+)*[ \t]*:[ \t]+\S")
# ``## Retain``, ``## Retain (Facts for Long-Term Memory)``, ``### Retain:``; not "Retain Items Processed".
RETAIN_HEADING = re.compile(r"^retain\s*(?:\(.*\))?\s*:?$", re.IGNORECASE)
ENTITY_TOKEN = re.compile(r"^@(?P<name>[^\W\d_][\w\-.]*[\w]|[^\W\d_])$")
FORMAT_HINT = "expected '- K[(c=0.9)] [@Entity]: text' with K one of W, B, O, S"


@dataclass(frozen=True)
class ParsedFact:
    kind: str
    content: str
    entities: tuple[str, ...]
    confidence: float | None
    block_id: str | None


class FactSyntaxError(ValueError):
    """A bullet that looks like a Retain fact but does not parse."""


def parse_fact_line(line: str) -> ParsedFact:
    """Parse one Retain bullet; raise ``FactSyntaxError`` with a readable reason."""
    m = FACT_LINE.match(line)
    if not m:
        raise FactSyntaxError(f"not a Retain fact ({FORMAT_HINT})")
    kind = m["kind"]
    if kind not in KINDS:
        raise FactSyntaxError(f"unknown fact kind {kind!r} ({FORMAT_HINT})")
    confidence = _parse_params(m["params"], kind)
    entities = []
    for token in (m["entities"] or "").split():
        tm = ENTITY_TOKEN.match(token)
        if not tm:
            raise FactSyntaxError(f"bad entity name {token!r} before the colon")
        entities.append(tm["name"])
    content = (m["content"] or "").strip()
    block_id = None
    bm = BLOCK_ID.search(" " + content)
    if bm:
        block_id = bm["block_id"]
        content = BLOCK_ID.sub("", " " + content).strip()
    if not content:
        raise FactSyntaxError("fact has no text after the colon")
    return ParsedFact(kind, content, tuple(entities), confidence, block_id)


def _parse_params(params: str | None, kind: str) -> float | None:
    if params is None:
        return None
    confidence = None
    for part in params.split(","):
        key, sep, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or key != "c":
            raise FactSyntaxError(f"unknown parameter {part.strip()!r} (only c=<0..1> is allowed)")
        try:
            confidence = float(value)
        except ValueError:
            raise FactSyntaxError(f"confidence c={value!r} is not a number") from None
        if not 0.0 <= confidence <= 1.0 or confidence != confidence:
            raise FactSyntaxError(f"confidence c={value} is outside 0..1")
    if kind != "O" and confidence is not None:
        raise FactSyntaxError(f"confidence only applies to O facts, not {kind}")
    return confidence
