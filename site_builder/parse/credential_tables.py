"""Credentials in tables: each value a header or a row label names a credential (``| Service | Username |
Password |``, ``| Admin password | hunter2 |``), in Markdown tables (in a blockquote too, turned sideways, or
without a delimiter row) and HTML tables; one finding per table, naming its rows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from site_builder.parse.credential_labels import MARKUP, credential_label, kind_name, words
from site_builder.parse.credential_values import secret_spans, secret_value


@dataclass(frozen=True)
class Cell:
    start: int  # offsets in the text the row is in
    end: int

    def text(self, line: str) -> str:
        return line[self.start : self.end]


# The header of the column a row's label speaks of: ``| Field | Value |``, ``| Setting | Wert |``.
_VALUE_HEADERS = frozenset(
    (
        *words(
            "value values wert werte valor valores valeur valeurs valore waarde значение 值 内容 数值 値 details detail info data"
        ),
        "",
    )
)
QUOTED = re.compile(r"[ \t]*(?:>[ \t]?)*[ \t]*")  # a table in a blockquote (or indented in a list) starts after this
DELIMITER = re.compile(r"\|?\s*:?-{1,}:?\s*(?:\|\s*:?-{1,}:?\s*)*\|?\s*")


def cells(line: str) -> list[Cell]:
    """The cells of a table row: split at ``|`` outside code spans and not escaped (a password ``p|pe`` in back-ticks
    stays one cell, so it is redacted whole); in a blockquote, after its ``>``."""
    found: list[Cell] = []
    start = i = QUOTED.match(line).end()  # type: ignore[union-attr]  # it matches the empty string
    n = len(line)
    if line.startswith("|", i):
        start = i = i + 1
    while i < n:
        c = line[i]
        if c == "\\":
            i += 2
            continue
        if c == "`":
            run = len(line) - i - len(line[i:].lstrip("`"))
            close = line.find("`" * run, i + run)
            i = close + run if close != -1 else i + run
            continue
        if c == "|":
            found.append(Cell(start, i))
            start = i + 1
        i += 1
    if line[start:].strip():
        found.append(Cell(start, n))
    return found


@dataclass
class TableFinding:
    line: int  # the first line where a value was redacted
    rows: list[str]  # the row names (first cell) or "row N"
    columns: list[str]  # the labels that named the credentials


def table_blocks(lines: list[str]) -> Iterator[tuple[int, int, bool]]:
    """``(first, end, has_header)`` of each table: a header row and its delimiter row, then every row with a ``|``;
    or, without a delimiter, lines that start with ``|`` (in a blockquote too)."""
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if "|" not in line:
            i += 1
            continue
        below = lines[i + 1] if i + 1 < n else ""
        if "-" in below and "|" in below and DELIMITER.fullmatch(below, QUOTED.match(below).end()):  # type: ignore[union-attr]
            end = i + 2
            while end < n and "|" in lines[end] and lines[end].strip(" \t>"):
                end += 1
            yield i, end, True
            i = end
            continue
        end = i
        while end < n and _row_start(lines[end]):
            end += 1
        if end > i:
            yield i, end, False
            i = end
            continue
        i += 1


def _row_start(line: str) -> bool:
    at = QUOTED.match(line).end()  # type: ignore[union-attr]
    return line.startswith("|", at) and len(line.strip()) > 1


@dataclass
class Grid:
    """A table as rows of cells (``| … |`` rows, or an HTML table's ``<tr>``), over the text they are in."""

    text: str
    header: list[Cell] | None
    rows: list[list[Cell]]
    row_lines: list[int]  # the line of each row (0-based, in the text the grid is in)


def redact_grid(grid: Grid, marker: str) -> tuple[list[tuple[int, int, str]], TableFinding | None]:
    """The spans of the grid's text to replace (start, end, marker) for each value a header or row label names a
    credential, and what to report."""
    text = grid.text
    names = [c.text(text).strip() for c in grid.header] if grid.header else []
    header = [credential_label(name) for name in names]
    labelled = _labelled_columns(names)
    found = TableFinding(0, [], [])
    replaced: list[tuple[int, int, str]] = []
    for number, (row, line) in enumerate(zip(grid.rows, grid.row_lines, strict=True), 1):
        if not row:
            continue
        label_kind = credential_label(row[0].text(text))  # | Admin password | hunter2 |
        hits = []
        for index, cell in enumerate(row):
            kind, column = (header[index], names[index]) if index < len(header) else (None, "")
            if kind is None and label_kind and index >= 1 and (labelled is None or index in labelled):
                kind, column = label_kind, row[0].text(text)
            if kind is None:
                continue
            for a, b in secret_spans(cell.text(text), kind):
                hits.append((cell.start + a, cell.start + b, marker.format(kind=kind_name(kind))))
                name = MARKUP.sub("", column).strip()
                if name and name not in found.columns:
                    found.columns.append(name)
        if hits:
            replaced += hits
            found.line = found.line or line + 1
            first = MARKUP.sub("", row[0].text(text)).strip()
            named = first and not any(a < row[0].end and b > row[0].start for a, b, _ in hits)  # not the secret
            found.rows.append(first[:40] if named else f"row {number}")
    return replaced, (found if found.line else None)


def _labelled_columns(names: list[str]) -> set[int] | None:
    """The columns whose cells a row's label names (None: all of them): in a table of names and values (``| Field |
    Value |``) the value column; in a table turned sideways (``| | Router | NAS |``) every column; in ``| Secret |
    Owner |`` none (the first column lists secrets, the others speak of them)."""
    if not names or not MARKUP.sub("", names[0]).strip():
        return None
    return {i for i, name in enumerate(names) if i and MARKUP.sub("", name).strip().casefold() in _VALUE_HEADERS}


def redact_table(lines: list[str], first: int, end: int, has_header: bool, marker: str) -> TableFinding | None:
    """Redact, in place, each value of the ``| … |`` table at ``lines[first:end]`` that a header or a row label
    names a credential."""
    body = first
    if not has_header and _header_without_delimiter(lines[first]):
        has_header = True  # | Host | User | Password | written without its delimiter row
        body = first - 1
    if has_header:
        body += 2
    text = "\n".join(lines[first:end])
    starts = [0]
    for line in lines[first : end - 1]:
        starts.append(starts[-1] + len(line) + 1)
    row_cells = [
        [Cell(c.start + starts[i], c.end + starts[i]) for c in cells(lines[first + i])] for i in range(end - first)
    ]
    grid = Grid(
        text,
        row_cells[0] if has_header else None,
        row_cells[body - first :],
        list(range(body, end)),
    )
    replaced, found = redact_grid(grid, marker)
    if replaced:
        for row, line in enumerate(replace_all(text, replaced).split("\n")):
            lines[first + row] = line
    return found


def replace_all(text: str, spans: list[tuple[int, int, str]]) -> str:
    pieces, done = [], 0
    for a, b, marker in sorted(spans):
        if a < done:
            continue
        pieces += [text[done:a], marker]
        done = b
    return "".join([*pieces, text[done:]])


_HTML_TABLE = re.compile(r"<table\b.*?</table\s*>", re.S | re.I)
_HTML_ROW = re.compile(r"<tr\b[^>]*>(.*?)</tr\s*>", re.S | re.I)
_HTML_CELL = re.compile(r"<t([hd])\b[^>]*>(.*?)</t\1\s*>", re.S | re.I)


def html_grids(text: str) -> Iterator[Grid]:
    """The HTML tables of a text (``<table>``, ``<tr>``, ``<th>``/``<td>``) as grids over it."""
    for table in _HTML_TABLE.finditer(text):
        rows = []
        for row in _HTML_ROW.finditer(text, table.start(), table.end()):
            found = list(_HTML_CELL.finditer(text, row.start(1), row.end(1)))
            rows.append(([Cell(m.start(2), m.end(2)) for m in found], all(m[1].lower() == "h" for m in found)))
        if not rows:
            continue
        header = rows[0][0] if rows[0][1] else None
        body = rows[1:] if header is not None else rows
        lines = [text.count("\n", 0, cells_[0].start) if cells_ else 0 for cells_, _ in body]
        yield Grid(text, header, [cells_ for cells_, _ in body], lines)


def redact_html_tables(text: str, marker: str) -> tuple[str, list[TableFinding]]:
    """``text`` with the credentials of its HTML tables redacted, and one finding per table."""
    replaced: list[tuple[int, int, str]] = []
    findings = []
    for grid in html_grids(text):
        spans, found = redact_grid(grid, marker)
        replaced += spans
        if found is not None:
            findings.append(found)
    return (replace_all(text, replaced) if replaced else text), findings


def _header_without_delimiter(line: str) -> bool:
    """Does the first row of a table without a delimiter row name credentials (``| Host | User | Password |``),
    rather than hold one beside its label (``| Password | hunter2 |``)?"""
    row = cells(line)
    if not any(credential_label(cell.text(line)) for cell in row):
        return False
    label = credential_label(row[0].text(line))
    return not (label and len(row) > 1 and secret_value(row[1].text(line), label) is not None)
