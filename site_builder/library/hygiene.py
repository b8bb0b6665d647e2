"""The hygiene report: what a person should fix or look at in the workspace."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from operator import attrgetter
from typing import NamedTuple

from site_builder.core.diagnostics import WHOLE_WORKSPACE, Diagnostic, Diagnostics
from site_builder.core.library import Library
from site_builder.core.model import Note
from site_builder.core.note_paths import NotePaths
from site_builder.parse.file_links import written_path

STALE_AFTER_DAYS = 60


class Finding(NamedTuple):  # a named tuple: a heavy workspace has tens of thousands of opinions to review
    path: str
    line: int
    message: str


@dataclass(frozen=True)
class Section:
    title: str
    explanation: str
    findings: list[Finding]
    to_fix: bool = True  # False: what the site leaves out, said for the record (``check --strict`` passes)


def hygiene_report(library: Library, diagnostics: Diagnostics, left_out: dict[str, str] | None = None) -> list[Section]:
    """Sections in a fixed order; empty sections are kept so the report is complete. ``left_out``: the files the
    settings leave out (``io.left_out``), why by path: a last section when there are any."""
    by_code: dict[str, list[Diagnostic]] = {}
    for item in diagnostics.sorted():
        by_code.setdefault(item.code, []).append(item)

    def from_codes(*codes: str) -> list[Finding]:
        return [Finding(d.path, d.line, d.message) for c in codes for d in by_code.get(c, [])]

    placeholders = [
        Finding(e.url, 0, f"{e.name}: mentioned {_times(len(library.backlinks.get(e.key, [])))}, no page")
        for e in library.entities.values()
        if e.placeholder
    ]
    orphans = [
        Finding(e.note.path, 0, f"{e.name}: nothing links here")
        for e in library.entities.values()
        if e.note is not None and not library.backlinks.get(e.key)
    ]
    known = {"broken-link", "malformed-fact"}
    other = [Finding(d.path, d.line, d.message) for d in diagnostics.sorted() if d.code not in known]
    return [
        Section("Broken links", "Links to headings or pages that do not exist.", from_codes("broken-link")),
        Section(
            "Placeholder entities",
            "Mentioned but without a page in bank/entities/; memwiki generated one.",
            placeholders,
        ),
        Section("Orphan entities", "Entity pages that no note links to.", orphans),
        Section(
            "Malformed bullets",
            "Lines that look like Retain facts but do not parse; they are shown as plain text.",
            from_codes("malformed-fact"),
        ),
        Section(
            "Opinions to review",
            "Stale (no new evidence lately) or recently contradicted.",
            list(
                map(Finding._make, library.to_review if library.to_review is not None else opinions_to_review(library))
            ),
        ),
        *_claims_to_review(library),
        Section("Other warnings", "Everything else the build noticed.", other),
        *_left_out(left_out or {}),
    ]


def _left_out(left_out: dict[str, str]) -> list[Section]:
    """The files that are not memory, and why: no page, no recall, no search (a section only when there are any)."""
    if not left_out:
        return []
    findings = [Finding(path, 0, why) for path, why in sorted(left_out.items())]
    explanation = (
        "Files not published, searched or recalled: note templates, and what [workspace] exclude names "
        "(set [workspace] keep_templates = true to keep templates)."
    )
    return [Section("Left out", explanation, findings, to_fix=False)]


def _claims_to_review(library: Library) -> list[Section]:
    """The claims a page marks contested or superseded, and the contradictions and open questions its front
    matter lists (a memory-wiki vault's): a section only where some page has any."""
    findings = [
        Finding(note.path, claim.line, f"{claim.status}: {claim.text}")
        for note in library.notes
        for claim in note.claims
        if claim.status in ("contested", "superseded", "disputed", "refuted")
    ]
    for note in library.notes:
        for key in ("contradictions", "questions"):
            listed = note.meta.get(key)
            items = [listed] if isinstance(listed, str) else listed if isinstance(listed, list) else []
            findings += [Finding(note.path, 1, f"{key[:-1]}: {item}") for item in items if str(item).strip()]
    if not findings:
        return []
    return [Section("Claims to review", "Claims contested or superseded, contradictions and open questions.", findings)]


def broken_file_links(notes: list[Note]) -> list[Diagnostic]:
    """``[x](y.md)`` links whose file is not a note of the workspace."""
    paths = NotePaths(tuple(n.path for n in notes))
    return [
        Diagnostic(note.path, line, f"links to {written_path(note.path, target)}, which is not here", "broken-link")
        for note in notes
        for line, target in note.file_links
        if paths.markdown(target, note.path) is None
    ]


def future_dated(notes: list[Note], today: dt.date) -> list[Diagnostic]:
    """Notes dated after tomorrow (a day of slack for time zones): most likely a typo in the file name."""
    return [
        Diagnostic(
            note.path,
            1,
            f"dated {note.date.isoformat()} by its name, which is after today ({today.isoformat()}); a typo?",
            "date",
        )
        for note in notes
        if note.date is not None and (note.date - today).days > 1
    ]


def report_lines(sections: list[Section], workspace: str = WHOLE_WORKSPACE) -> list[str]:
    """The report as text: each section's title and count, then its findings at file:line.

    ``workspace``: the path to show for findings about the whole workspace.
    """
    lines = []
    for section in sections:
        lines.append(f"{section.title} ({len(section.findings)})")
        for finding in section.findings:
            where = f"{finding.path}:{finding.line}" if finding.line else finding.path
            lines.append(f"  {workspace if finding.path == WHOLE_WORKSPACE else where}: {finding.message}")
    return lines


def opinions_to_review(library: Library) -> list[tuple[str, int, str]]:
    """The opinions stale (no evidence in ``STALE_AFTER_DAYS`` before the newest day) or contradicted in the last 30
    days, as the report's findings (path, line, message). They depend on the library only (the newest day is one of
    its notes): worked out once per linked library and kept with it (``library.saved``; 70 ms on the large race
    corpus, which has 29,000)."""
    days = library.days
    if not days or days[-1].date is None:
        return []
    today: dt.date = days[-1].date
    findings = []
    stale_before, recent_from = today - dt.timedelta(days=STALE_AFTER_DAYS), today - dt.timedelta(days=30)
    for opinion in sorted(library.opinions, key=attrgetter("id")):  # each opinion's evidence looked through once
        last: dt.date | None = None
        contradicted = False
        for fact, stance in opinion.evidence:
            if fact.date:
                last = fact.date if last is None or fact.date > last else last
                contradicted = contradicted or (stance == "contradicts" and fact.date >= recent_from)
        where = opinion.origin
        if last is None or last < stale_before:
            since = last.isoformat() if last else "never"
            findings.append((where.path, where.line, f"'{opinion.statement}' is stale: last evidence {since}"))
        if contradicted:
            findings.append((where.path, where.line, f"'{opinion.statement}' was contradicted in the last 30 days"))
    return findings


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"
