"""What a reader sees around a line, for its recall row: the headings it sits under and the day they give it, the
header of its table, the list item (or lead-in) it hangs from.

A line read alone often does not say what it is about: ``| Panels | 14 solar panels |`` is a row of the table of
a page about the solar installation, ``- 90% → 3 channels`` an item under ``**My proposal: 1,000,000 sats**``,
``**What happened:** …`` a line of the section ``## 2026-05-12 — Komodo down``. A row of the recall index carries
that setting (``index_rows``): the table row reads "Panels: 14 solar panels", the list item has its parent item
beside its neighbours, and a line of a section headed by a date is dated by it when its file has no date.

Each function walks the note's searchable lines once.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from site_builder.core.model import Heading, Note
from site_builder.parse.link_syntax import plain_sentence

# A heading that starts with a time ("## 14:30 call with Bob", "# Session: 2026-01-16 14:30:00 UTC", "# 2026-03-06")
# stamps when its lines were written, not what they are about (the line's date and time say that): the headings a
# line sits under leave it out. A heading that starts with a day and goes on to say something ("## 2026-05-12 —
# Komodo down", a page of incidents or decisions) names an event: they keep what it says after the day.
TIMED_HEADING = re.compile(
    r"\W*(?:session\W*)?(?:\d{1,2}[:.h]\d\d|\d{4}-\d\d-\d\d\W*$|\d{4}-\d\d-\d\d\s+\d)", re.IGNORECASE
)
DAY_FIRST = re.compile(r"\W*\d{4}-\d\d-\d\d[\W_]*")
ISO_DAY = re.compile(r"(?<!\d)(\d{4})-(\d\d)-(\d\d)(?!\d)")
# A heading naming who or what does something ("Blockers", "Owners", "Reviewers") heads the lines that answer "what
# blocks…", "who owns…", "who reviews…": the stemmer keeps "blocker" and "block" apart, so the heading's column
# holds the verb too (doubled consonants undone: "Planners" -> "plan").
DOER = re.compile(r"\b([^\W\d_]{3,}?)(?:([b-df-hj-km-np-tv-xz])\2)?ers?\b", re.IGNORECASE)
TABLE_ROW = re.compile(r"^\s*\|")
TABLE_RULE = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
CELL_BAR = re.compile(r"(?<!\\)\|")
LIST_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s")
# A line that leads into the list below it: it ends with a colon, or it is bold throughout ("**My proposal: 1M**").
LEAD_IN = re.compile(r"^\s*(?:.*:\**|\*\*[^*]+\*\*)\s*$")
LONGEST_PARENT = 300  # characters of a parent item or lead-in a row keeps beside it


class Section(NamedTuple):
    """What the headings over a line say: their text (outermost first, without the ones that only stamp a time)
    and the day the nearest dated one names."""

    headings: str
    day: dt.date | None


def sections(note: Note, numbers: Sequence[int]) -> list[Section]:
    """For each line (``numbers``, in order), the headings it sits under: a heading's own line sits under the
    headings that hold it, not under itself."""
    chain: list[tuple[int, str, dt.date | None]] = []  # (level, text, day) of the headings open at the line
    out = []
    upcoming = iter(sorted(note.headings, key=lambda h: h.line))
    heading = next(upcoming, None)
    current = Section("", None)  # what ``chain`` says, worked out when it changes (most lines share it)
    for number in numbers:
        while heading is not None and heading.line < number:
            chain = [*(open_ for open_ in chain if open_[0] < heading.level), _opened(heading)]
            current = _said(chain)
            heading = next(upcoming, None)
        if heading is not None and heading.line == number:  # a heading sits under the headings that hold it
            out.append(_said([entry for entry in chain if entry[0] < heading.level]))
        else:
            out.append(current)
    return out


def _said(chain: list[tuple[int, str, dt.date | None]]) -> Section:
    said = " ".join(text for _, text, _ in chain if text)
    day = next((day for _, _, day in reversed(chain) if day), None)
    return Section(f"{said} {' '.join(_doers(said))}" if "er" in said else said, day)


def _opened(heading: Heading) -> tuple[int, str, dt.date | None]:
    text = "" if TIMED_HEADING.match(heading.text) else heading.text
    day = DAY_FIRST.match(text)
    return heading.level, text[day.end() :] if day else text, heading_day(heading.text)


def heading_day(text: str) -> dt.date | None:
    """The day an ISO date in a heading names ("## 2026-05-12 — Komodo down"), if it is a real day."""
    found = ISO_DAY.search(text)
    if found is None:
        return None
    try:
        return dt.date(int(found[1]), int(found[2]), int(found[3]))
    except ValueError:
        return None


def _doers(heading: str) -> Iterator[str]:
    """The verbs of the heading's agent nouns ("Blockers" -> "Block"), for the heading column (``DOER``)."""
    for found in DOER.finditer(heading):
        yield found[1] + (found[2] or "")


def table_rows(lines: Sequence[tuple[int, str]]) -> dict[int, tuple[str, str]]:
    """Each body row of a Markdown table (by line) as a reader reads it with its header, and the header's cells its
    reading does not already say (a row of two cells reads without them).

    A row of two cells is a label and its value: "Panels: 14 solar panels". A wider row names itself in its first
    cell and the rest by their header: "auto_qualify_min — Old: 9.0; New: 7.0". A row under an empty header is
    its cells."""
    rows: dict[int, tuple[str, str]] = {}
    header: list[str] | None = None
    previous = ""
    for number, text in lines:
        if not TABLE_ROW.match(text):
            header, previous = None, text
            continue
        if TABLE_RULE.match(text):
            header = cells(previous) if TABLE_ROW.match(previous) else []
        elif header is not None:
            read = read_row(header, cells(text))
            rows[number] = (read, " ".join(label for label in header if f"{label}:" not in read))
        previous = text
    return rows


def cells(row: str) -> list[str]:
    """The plain text of each cell of a table row (a bar escaped as ``\\|`` is inside a cell)."""
    parts = CELL_BAR.split(row.strip())
    if parts and not parts[0].strip():
        parts = parts[1:]
    if parts and not parts[-1].strip():
        parts = parts[:-1]
    return [plain_sentence(part.replace("\\|", "|")).replace("**", "").strip() for part in parts]


def read_row(header: list[str], row: list[str]) -> str:
    filled = [(header[i] if i < len(header) else "", cell) for i, cell in enumerate(row) if cell]
    if not filled:
        return ""
    if len(row) == 2 or not any(label for label, _ in filled[1:]):  # a label and its value
        return f"{filled[0][1]}: {' '.join(cell for _, cell in filled[1:])}".removesuffix(": ")
    rest = "; ".join(f"{label}: {cell}" if label else cell for label, cell in filled[1:])
    return f"{filled[0][1]} — {rest}" if rest else filled[0][1]


def parents(lines: Sequence[tuple[int, str]]) -> dict[int, str]:
    """The text each list item hangs from (by line): the item it is indented under, or for an item at the top of
    its list, the line that leads into the list ("**Key decisions:**", "My proposal: 1,000,000 sats")."""
    found: dict[int, str] = {}
    open_items: list[tuple[int, str]] = []  # (indent, text as written) of the items the current one may be under
    plain: dict[str, str] = {}  # an item's plain text, made once, when some item hangs from it
    lead_in = ""
    previous = ""
    for number, text in lines:
        item = LIST_ITEM.match(text)
        if item is None:
            if text.strip():
                open_items, lead_in = [], ""
                previous = text
            continue
        indent = len(item[1].expandtabs(4))
        while open_items and open_items[-1][0] >= indent:
            open_items.pop()
        if not open_items and not lead_in and previous and LEAD_IN.match(previous):
            lead_in = plain_sentence(previous).replace("**", "").strip()
        if open_items:
            over = open_items[-1][1]
            if over not in plain:
                plain[over] = plain_sentence(over)[:LONGEST_PARENT]
            found[number] = plain[over]
        elif lead_in:
            found[number] = lead_in[:LONGEST_PARENT]
        open_items.append((indent, text))
    return found


def front_matter_rows(note: Note) -> Iterator[tuple[int, str]]:
    """``(line, "key: value")`` of each front-matter field that says something in words: a text of three words or
    more ("description: Gemini CLI tested 2026-03-26. Net negative…"), not the note's name (its title, which its
    subject and page already carry), a tag list, a type or a date."""
    for key, line in note.fields.items():
        value = note.meta.get(key)
        named = key.lower() in ("name", "title") or key.lower().endswith("_name")
        if isinstance(value, str) and not named and len(value.split(None, 2)) > 2:  # three words or more
            yield line, f"{key}: {value.strip()}"
