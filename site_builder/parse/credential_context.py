"""Values that are credentials because of where they are written: a table column or row
(``credential_tables``), a list item's label, a definition's term, a front-matter key, a list under a heading that
names credentials, a PIN in a sentence. Which labels name a credential: ``credential_labels``; which values are
the secret: ``credential_values``.

Agents keep a home server's logins the way people do::

    | Service | Username | Password |        - **API key:** `3f9c…`
    |---------|----------|----------|        - password — changeme
    | Plex    | admin    | hunter2  |        ---\\napi_key: 3f9c…\\n---

There the label says what the value is, so the value needs no shape of its own: under a password, any single
word is the password ("admin", "changeme"); under a token, key or secret, a value that looks random (hex or
base64 of 24 characters, letters and digits mixed). What stays readable: names of secrets (``OPENCLAW_HOOKS_TOKEN``,
``getBearerToken(req)``, ``$TOKEN``), placeholders (``<your password>``, ``—``, ``see 1Password``), prose (a
cell of several words: "Claude Code OAuth — same as …"), public keys and key ids.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Any

from site_builder.parse.credential_labels import (
    CODE,
    KEY,
    LABEL_CORES,
    NORMALISE,
    NOT_THE_SECRET,
    PHRASE,
    PIN,
    credential_label,
    kind_name,
)
from site_builder.parse.credential_tables import redact_html_tables, redact_table, replace_all, table_blocks
from site_builder.parse.credential_values import Span, secret_spans

NEWLINE = re.compile(r"\n")


def word_trie(words: tuple[str, ...]) -> str:
    """A pattern that matches any of ``words``, as a trie (``pass|passwd|pwd`` -> ``p(?:ass(?:wd)?|wd)``)."""
    tree: dict[str, dict[str, Any]] = {}
    for word in words:
        node = tree
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def pattern(node: dict[str, Any]) -> str:
        branches = [re.escape(char) + pattern(below) for char, below in sorted(node.items()) if char]
        if not branches:
            return ""
        joined = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
        return f"(?:{joined})?" if "" in node else joined

    return pattern(tree)


MARKER = "[redacted: {kind}]"
# Where a label that the context pass reads may occur: every label word contains one of these, lower-cased.
CONTEXT_CORES = (
    *LABEL_CORES, "pin", "clave", "ключ", "токен", "schlüssel", "chave", "llave", "pw", "recovery", "backup", "2fa",
    "seed", "mnemonic", "助记词", "恢复码", "备用码", "passcode", "combination", "door code", "alarm code", "gate code",
    "lock code", "garage code", "entry code", "access code", "safe code",
)  # fmt: skip
# One pass finds them all: a trie of the words (``re`` tries one branch per first letter, not every word).
CONTEXT_CORE = re.compile(word_trie(CONTEXT_CORES))


@dataclass(frozen=True)
class Finding:
    line: int  # 1-based line of the text where the secret starts (a table: its first redacted row)
    kind: str
    rows: tuple[str, ...] = ()  # a table's: the rows whose values were redacted
    columns: tuple[str, ...] = ()  # a table's: the headers or row labels that named them

    def describe(self) -> str:
        """What the warning says: ``looks like a credential (password); …`` or, once for a table, its rows."""
        if not self.rows:
            return f"looks like a credential ({self.kind}); it is redacted from every output, but remove it from the workspace"
        rows = ", ".join(self.rows[:6]) + (f" and {len(self.rows) - 6} more" if len(self.rows) > 6 else "")
        named = " / ".join(self.columns[:4])
        return (
            f"a table holds credentials ({named}) in {len(self.rows)} row(s): {rows}; they are redacted from every "
            "output, but remove them from the workspace"
        )


# A label first in its line or list item, then ``:``, ``=`` or a dash, then the value to the end of the line:
# ``- **Password:** x``, ``password — x``, ``api_key: x`` (front matter), ``> PIN: 1234``.
ITEM = re.compile(
    r"^(?P<lead>[ \t]*(?:(?:[-*+>]|\d+[.)])[ \t]+)*(?:\[[ xX]\][ \t]+)?)"
    r"(?P<label>[*_`]{0,2}[^\s:=：—–|*`][^:=：—–|\n]{0,46}?[*_`]{0,2})"
    r"(?P<sep>[ \t]*(?::=|[:=：])[*_]{0,2}[ \t]*|[*_]{0,2}[ \t]+(?:[—–]|--?)[ \t]+)"
    r"(?P<value>[^\n]+)$"
)


def item_secrets(line: str) -> tuple[str, list[Span]] | None:
    """The kind and spans of the secrets in a line whose label names a credential, or None."""
    m = ITEM.match(line)
    if m is None:
        return None
    kind = credential_label(m["label"])
    if kind is None:
        return None
    spans = secret_spans(m["value"], kind)
    return (kind, [(m.start("value") + a, m.start("value") + b) for a, b in spans]) if spans else None


DEFINITION = re.compile(r"^[ \t]*:[ \t]+(?P<value>.+)$")  # a definition list's ``: value`` below its term
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$")
BULLET = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?P<item>.+)$")


def definition_secrets(term: str, line: str) -> tuple[str, list[Span]] | None:
    """``VPN secret`` then ``: Dn4Hs8Kq1Zx``: the secrets of a definition whose term names a credential."""
    m = DEFINITION.match(line)
    kind = credential_label(term) if m and "|" not in term else None
    if m is None or kind is None:
        return None
    spans = secret_spans(m["value"], kind)
    return (kind, [(m.start("value") + a, m.start("value") + b) for a, b in spans]) if spans else None


def section_secrets(lines: list[str], heading: int) -> list[tuple[int, str, list[Span]]]:
    """Under a heading that names credentials (``## Passwords``, ``### GitHub recovery codes``), each list item's
    secret, ``(line, kind, spans)``: the item's value (``- Plex: hunter2x``) or the item itself (``- 7f3a9-c2e81``),
    when it looks made up (letters and digits; a password alone does not say so here). To the next heading of the
    same level or higher."""
    m = HEADING.match(lines[heading])
    kind = credential_label(m[2]) if m else None
    if m is None or kind is None:
        return []
    level = len(m[1])
    judged = kind if kind in (CODE, PHRASE, PIN) else KEY
    found = []
    for number in range(heading + 1, len(lines)):
        line = lines[number]
        above = HEADING.match(line)
        if above and len(above[1]) <= level:
            break
        item = BULLET.match(line)
        if item is None or item_secrets(line) is not None:
            continue
        labelled = ITEM.match(line)
        if labelled and any(w in NOT_THE_SECRET for w in NORMALISE.split(labelled["label"].casefold().strip("*_` "))):
            continue  # - Fingerprint: …, - Public key: …, - Path: …
        start = labelled.start("value") if labelled else item.start("item")
        spans = secret_spans(line[start:], judged)
        if spans:
            found.append((number, judged, [(start + a, start + b) for a, b in spans]))
    return found


def replace_spans(line: str, spans: list[Span], marker: str) -> str:
    """``line`` with each span replaced by ``marker``."""
    return replace_all(line, [(a, b, marker) for a, b in spans])


# A PIN or a lock's code in a sentence: "The alarm PIN is 902318", "the safe combination is 31-17-42".
CODE_SENTENCE = re.compile(
    r"(?i)\b(?:pin(?:[ -]?code)?|passcode|(?:door|alarm|gate|safe|lock|garage|entry|access)[ -]code|"
    r"(?:safe|lock)[ -]combination|combination)(?:\s+(?:is|was|=)\s+|\s*[:=]\s*)\**`?(\d{4,8}|\d{1,3}(?:-\d{1,3}){2,5})\b"
)


def codes_in_sentence(line: str) -> list[Span]:
    """The PINs and lock codes a sentence gives (``CODE_SENTENCE``)."""
    low = line.lower()
    if "pin" not in low and "code" not in low and "combination" not in low:
        return []  # most lines: no look with the pattern, which ignores case
    return [m.span(1) for m in CODE_SENTENCE.finditer(line)]


def redact_in_context(text: str, lower: str, findings: list[Finding]) -> str:
    """Values a table's header or row label, a list item's label, a definition's term, a front-matter key or a
    heading over a list names as credentials."""
    if "<t" in lower:
        text, in_html = redact_html_tables(text, MARKER)
        findings += [Finding(t.line, "table", tuple(t.rows), tuple(t.columns)) for t in in_html]
        lower = text.lower() if in_html else lower
    lines = text.split("\n")
    changed = False
    if "|" in text:
        for first, end, has_header in table_blocks(lines):
            if not CONTEXT_CORE.search("\n".join(lines[first:end]).lower()):
                continue
            table = redact_table(lines, first, end, has_header, MARKER)
            if table is not None:
                findings.append(Finding(table.line, "table", tuple(table.rows), tuple(table.columns)))
                changed = True
    for number in _lines_with_cores(text, lower):
        found = [(number, *hit)] if (hit := item_secrets(lines[number])) else []
        if not found and number + 1 < len(lines) and (hit := definition_secrets(lines[number], lines[number + 1])):
            found = [(number + 1, *hit)]
        if not found and lines[number].lstrip().startswith("#"):
            found = section_secrets(lines, number)
        if not found and (codes := codes_in_sentence(lines[number])):
            found = [(number, PIN, codes)]
        for at, kind, spans in found:
            lines[at] = replace_spans(lines[at], spans, f"[redacted: {kind_name(kind)}]")
            findings.append(Finding(at + 1, kind_name(kind)))
            changed = True
    return "\n".join(lines) if changed else text


def _lines_with_cores(text: str, lower: str) -> list[int]:
    """The 0-based numbers of the lines where a label word may occur (``lower``: the text lower-cased)."""
    if len(lower) != len(text):
        return list(range(text.count("\n") + 1))
    starts = [0, *(m.end() for m in NEWLINE.finditer(text))]
    numbers: list[int] = []
    at = 0
    while (m := CONTEXT_CORE.search(lower, at)) is not None:
        if m.group() == "pin" and lower[m.start() - 1 : m.start()].isalpha():
            at = m.end()  # "opinion", "spinning": not a PIN
            continue
        number = bisect.bisect_right(starts, m.start()) - 1
        numbers.append(number)
        if number + 1 >= len(starts):
            break
        at = starts[number + 1]  # the next line: one look at each line is enough
    return numbers
