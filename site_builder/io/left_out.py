"""What a workspace holds that is not memory, left out of the site, recall and search: what ``[workspace] exclude``
names (gitignore-style patterns), and note templates (unless ``[workspace] keep_templates``): a folder named
``templates``, the folder Obsidian's Templates or Templater plugin reads templates from (``.obsidian/``), and a
file that holds a template's placeholder (``{{date}}``, ``{{title}}``, Templater's ``<% tp.… %>``) outside code.

``LeaveOut`` is the rule, decided when the workspace is opened; ``Workspace.left_out`` collects, by path, why each
file was left out, for the hygiene report and ``memwiki check``.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pathspec

from site_builder.core.config import CONFIG_NAME, Config
from site_builder.core.diagnostics import Diagnostics

TEMPLATE_FOLDERS = frozenset({"templates", "template", "_templates"})  # by name, at any depth, any case
# Where Obsidian's plugins keep their templates folder: the core Templates plugin, Templater and Daily notes (the
# last names one template file, without ``.md``).
OBSIDIAN_SETTINGS = {
    ".obsidian/templates.json": "folder",
    ".obsidian/plugins/templater-obsidian/data.json": "templates_folder",
    ".obsidian/daily-notes.json": "template",
}
# Obsidian's core template variables, and Templater's commands: what a note made from the template holds instead.
PLACEHOLDER = re.compile(r"\{\{\s*(?:date|time|title)\s*(?::[^}\n]*)?\}\}|<%[*_-]?\s*tp\.", re.IGNORECASE)
CODE = re.compile(r"^ {0,3}(```|~~~)")
SPAN = re.compile(r"`[^`\n]*`")


@dataclass(frozen=True)
class LeaveOut:
    """Which files are not memory: ``exclude``'s patterns, and templates unless ``keep_templates``; the folders and
    files Obsidian reads templates from (``obsidian``, workspace-relative, without a trailing ``/``)."""

    exclude: tuple[str, ...] = ()
    keep_templates: bool = False
    obsidian: tuple[str, ...] = ()

    @functools.cached_property
    def _excluded(self) -> pathspec.GitIgnoreSpec:
        return pathspec.GitIgnoreSpec.from_lines(self.exclude)

    def reason(self, rel: str) -> str:
        """Why the file at ``rel`` is not memory, or "" when it is (its text is not looked at: ``placeholder_line``)."""
        if self.exclude and self._excluded.match_file(rel):
            return f"[workspace] exclude in {CONFIG_NAME}"
        if self.keep_templates:
            return ""
        folders = rel.split("/")[:-1]
        for depth, name in enumerate(folders):
            if name.lower() in TEMPLATE_FOLDERS:
                return f"a note template (in {'/'.join(folders[: depth + 1])}/)"
        for place in self.obsidian:
            if rel == place or rel.removesuffix(".md") == place or rel.startswith(place + "/"):
                return f"a note template (Obsidian's templates: {place})"
        return ""

    def template_line(self, text: str) -> int:
        """The line of the first template placeholder in ``text`` outside code, 0 when none (or templates are kept)."""
        if self.keep_templates or ("{{" not in text and "<%" not in text):
            return 0
        fenced = False
        for number, line in enumerate(text.split("\n"), 1):
            if CODE.match(line):
                fenced = not fenced
            elif not fenced and PLACEHOLDER.search(SPAN.sub("", line)):
                return number
        return 0


def leave_out_of(root: Path, config: Config) -> LeaveOut:
    """The rule for the workspace at ``root`` with its settings: Obsidian's template places read from ``.obsidian/``."""
    if config.keep_templates:
        return LeaveOut(config.exclude, True)
    places = []
    for settings, key in OBSIDIAN_SETTINGS.items():
        try:
            value = json.loads((root / settings).read_text(encoding="utf-8")).get(key)
        except (OSError, ValueError, AttributeError):  # no such plugin, or settings it cannot use
            continue
        if isinstance(value, str) and value.strip("/ "):
            places.append(value.strip("/ "))
    return LeaveOut(config.exclude, False, tuple(places))


def check_patterns(rule: LeaveOut, memory: list[str], line: int, diagnostics: Diagnostics) -> None:
    """A warning at ``memwiki.toml:line`` for a pattern of ``[workspace] exclude`` that leaves out no memory file
    (a typo), and for patterns that together leave out every one (the site would be empty)."""
    if not rule.exclude or not memory:
        return
    for pattern in rule.exclude:
        one = pathspec.GitIgnoreSpec.from_lines([pattern])
        if not pattern.startswith("!") and not any(one.match_file(rel) for rel in memory):
            diagnostics.warn(CONFIG_NAME, line, f"[workspace] exclude: {pattern!r} matches no memory file", "config")
    if all(rule._excluded.match_file(rel) for rel in memory):
        diagnostics.warn(
            CONFIG_NAME, line, f"[workspace] exclude leaves out every memory file ({len(memory):,}): the site is empty",
            "config",
        )  # fmt: skip
