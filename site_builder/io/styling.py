"""The workspace's own look: the stylesheet ``[site] css`` names, and the templates it keeps over memwiki's.

A template overrides the built-in one of the same name (``note.html``, ``partials/fact.html``…) from
``.memwiki/templates/`` or, second, the workspace's ``templates/``. Obsidian keeps *note* templates in a
``templates/`` folder (``templates/daily-note.md``): only a file named exactly like a built-in template is read
there, so a note template is never taken for a page template. Read when the workspace is opened
(``io.reader.open_workspace``), like ``memwiki.toml``: what is read is part of the build's input, so an edit of the
stylesheet or of a template builds again.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from site_builder.core.config import CONFIG_NAME, Config, setting_line
from site_builder.core.diagnostics import Diagnostics

PACKAGE_DIR = Path(__file__).resolve().parents[1]  # site_builder/
# Where a workspace keeps the templates that override memwiki's, the first one found winning.
TEMPLATE_FOLDERS = (".memwiki/templates", "templates")


class TemplateFile(NamedTuple):
    """A template of the workspace that overrides a built-in one."""

    name: str  # the built-in template it stands for: ``note.html``, ``partials/fact.html``
    path: str  # where it is, relative to the workspace: ``.memwiki/templates/note.html``
    text: str


@dataclass(frozen=True)
class Styling:
    """What the workspace adds to memwiki's look: its stylesheet's bytes (None: none set) and its templates."""

    css: bytes | None = None
    templates: tuple[TemplateFile, ...] = ()

    @property
    def digest(self) -> str:
        """A digest of the templates (not the stylesheet: pages only link it): "" when there are none."""
        if not self.templates:
            return ""
        return hashlib.sha256(repr(self.templates).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def resource_dir(name: str) -> Path:
    """``templates`` or ``themes``: inside the installed wheel, or beside the source tree."""
    for candidate in (PACKAGE_DIR / name, PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"memwiki is missing its {name}/ folder; reinstall memwiki")


@functools.cache
def builtin_templates() -> tuple[str, ...]:
    """The names of memwiki's own templates (``base.html``, ``partials/fact.html``…), sorted."""
    folder = resource_dir("templates")
    return tuple(sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()))


def read_styling(root: Path, config: Config, config_text: str | None, diagnostics: Diagnostics) -> Styling:
    """The workspace's stylesheet and template overrides; a stylesheet that is not a file inside the workspace is an
    error at its line of memwiki.toml (the commands that write stop), a file of ``.memwiki/templates/`` named like
    no template a warning."""
    css = None
    if config.css:
        css = _stylesheet(root, config.css, diagnostics, setting_line(config_text or "", "site", "css"))
    names = builtin_templates()
    found: dict[str, TemplateFile] = {}
    for folder in TEMPLATE_FOLDERS:
        if not (root / folder).is_dir():
            continue
        if folder.startswith("."):
            _unknown_templates(root, folder, names, diagnostics)
        for name in names:
            text = None if name in found else _template_text(root, f"{folder}/{name}", diagnostics)
            if text is not None:
                found[name] = TemplateFile(name, f"{folder}/{name}", text)
    return Styling(css, tuple(found[name] for name in sorted(found)))


def _stylesheet(root: Path, css: str, diagnostics: Diagnostics, line: int) -> bytes | None:
    path = root / css
    problem = ""
    if not path.is_file():
        problem = "is not a file in the workspace"
    elif not _inside(root, path):
        problem = "leads outside the workspace (a symlink)"
    else:
        try:
            return path.read_bytes()
        except OSError as exc:
            problem = f"cannot be read ({exc.strerror or exc})"
    diagnostics.error(CONFIG_NAME, line, f"[site] css {css!r} {problem}", "config")
    return None


def _unknown_templates(root: Path, folder: str, names: tuple[str, ...], diagnostics: Diagnostics) -> None:
    """A file of memwiki's own templates folder that overrides nothing: a typo, most likely (``bse.html``)."""
    for path in sorted((root / folder).rglob("*")):
        name = path.relative_to(root / folder).as_posix()
        if path.is_file() and name not in names:
            diagnostics.warn(
                f"{folder}/{name}", 0, "overrides no template of memwiki's, so it is not used; they are "
                + ", ".join(names), "template",
            )  # fmt: skip


def _template_text(root: Path, rel: str, diagnostics: Diagnostics) -> str | None:
    """The text of the template at ``rel``, None when there is none there (or none memwiki may read)."""
    path = root / rel
    if not path.is_file():
        return None
    if not _inside(root, path):
        diagnostics.warn(rel, 0, "leads outside the workspace (a symlink); not used", "template")
        return None
    try:
        data = path.read_bytes()
    except OSError as exc:
        diagnostics.warn(rel, 0, f"cannot be read ({exc.strerror or exc}); not used", "template")
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        diagnostics.warn(rel, line, "not valid UTF-8; undecodable bytes are shown as \ufffd", "encoding")
        return data.decode("utf-8-sig", errors="replace")


def _inside(root: Path, path: Path) -> bool:
    """Does ``path`` resolve inside ``root`` (a symlink may lead out)?"""
    try:
        resolved = path.resolve()
    except OSError:
        return False
    return root in resolved.parents
