"""ClawXMemory's projects: a folder with ``project.meta.md``, its memory files, feedback rules and archive.

``projects/<id>/project.meta.md`` names the project (``project_name``, ``status``,
``aliases``…); ``Project/*.md`` hold its state in sections such as ``## Current
Stage`` or ``## Next Steps``; ``Feedback/*.md`` are rules for working on it; files
under an ``Archive/`` folder are kept but no longer current. ``projects/_tmp``
holds unsorted items the same way, without a meta file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from site_builder.core.model import Heading, Note

# The sections of a project's memory files, in the order a reader wants them.
STATE_SECTIONS = ("Current Stage", "Next Steps", "Blockers", "Decisions", "Constraints", "Timeline")
UNSORTED = "_tmp"


@dataclass(frozen=True)
class Section:
    """One section of a note: its heading and the Markdown under it (to the next heading of its level or higher)."""

    note: Note
    heading: Heading
    text: str


@dataclass
class Project:
    folder: str
    meta: Note | None
    name: str
    status: str = ""
    aliases: list[str] = field(default_factory=list)
    created: str = ""
    updated: str = ""
    files: list[Note] = field(default_factory=list)  # Project/*.md, newest first
    feedback: list[Note] = field(default_factory=list)  # Feedback/*.md
    archived: list[Note] = field(default_factory=list)  # anything under an Archive/ folder

    def state(self) -> list[Section]:
        """The state sections of its memory files, in ``STATE_SECTIONS`` order (newest file first within one)."""
        found = [s for note in self.files for s in sections(note) if s.heading.text.casefold() in _STATE_KEYS]
        return sorted(found, key=lambda s: _STATE_KEYS[s.heading.text.casefold()])


_STATE_KEYS = {name.casefold(): i for i, name in enumerate(STATE_SECTIONS)}


def find_projects(notes: list[Note]) -> dict[str, Project]:
    """Project folder -> project, for every folder holding ``project.meta.md`` and for ``projects/_tmp``."""
    metas = {n.path.rpartition("/")[0]: n for n in notes if n.kind == "project"}
    folders = set(metas) | {
        n.path.split(f"/{UNSORTED}/")[0] + f"/{UNSORTED}"
        for n in notes
        if f"/{UNSORTED}/" in n.path and n.path.split(f"/{UNSORTED}/")[0].rsplit("/", 1)[-1] == "projects"
    }
    found = {}
    for folder in sorted(folders):
        meta = metas.get(folder)
        inside = [n for n in notes if n.path.startswith(folder + "/") and n is not meta]
        project = _project(folder, meta)
        for note in sorted(inside, key=lambda n: (_updated(n), n.path), reverse=True):
            rest = note.path[len(folder) + 1 :].split("/")
            if "Archive" in rest[:-1]:
                project.archived.append(note)
            elif note.kind == "feedback":
                project.feedback.append(note)
            elif rest[0] == "Project":
                project.files.append(note)
        found[folder] = project
    return found


def sections(note: Note) -> list[Section]:
    """Every heading of the note with the text under it."""
    lines = note.body.split("\n")
    out = []
    for i, heading in enumerate(note.headings):
        end = next((h.line for h in note.headings[i + 1 :] if h.level <= heading.level), note.body_start + len(lines))
        text = "\n".join(lines[heading.line + 1 - note.body_start : end - note.body_start]).strip()
        out.append(Section(note, heading, text))
    return out


def section(note: Note, title: str) -> Section | None:
    return next((s for s in sections(note) if s.heading.text.casefold() == title.casefold()), None)


def _project(folder: str, meta: Note | None) -> Project:
    if meta is None:
        return Project(folder, None, "Unsorted project memory")
    values = meta.meta
    name = _text(values.get("project_name")) or meta.title
    return Project(
        folder,
        meta,
        name,
        status=_text(values.get("status")),
        aliases=_aliases(values.get("aliases")),
        created=_text(values.get("created_at"))[:10],
        updated=_text(values.get("updated_at"))[:10],
    )


def _aliases(value: object) -> list[str]:
    """``["Paper A", "储蓄改版"]`` as front matter gives it: a list, or a JSON array left as text."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            return [a.strip() for a in str(value).strip("[]").split(",") if a.strip()]
    return [str(a) for a in value if str(a).strip()] if isinstance(value, list) else []


def _updated(note: Note) -> str:
    return _text(note.meta.get("updated_at") or note.meta.get("captured_at"))


def _text(value: object) -> str:
    return str(value).strip() if value not in (None, "") else ""
