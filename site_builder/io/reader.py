"""The reader: the workspace opened and its files listed (with ``io.sources``, which reads the notes' texts, the only
module that reads the workspace from disk).

``open_workspace`` checks the folder and reads its settings once; ``note_entries`` lists every Markdown file
(``site_builder.io.layout`` says what kind each is) from the walk of ``io.folder_walk``, which refuses anything that
resolves outside the workspace; ``decode`` decodes text leniently so that a bad byte costs a warning, never the build.
"""

from __future__ import annotations

import dataclasses
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.core.config import CONFIG_NAME, Config, config_errors, parse_config, setting_line
from site_builder.core.diagnostics import Diagnostic, Diagnostics
from site_builder.io.folder_walk import SITE_FOLDER, SKIPPED_FOLDERS, inside, walk_files, walk_in_folder_order
from site_builder.io.layout import DEFAULT_LAYOUT, RECORD_FILES, Layout, detect
from site_builder.io.left_out import LeaveOut, check_patterns, leave_out_of
from site_builder.io.staging import MARKER
from site_builder.io.stamps import NoteEntry, stamps_of
from site_builder.io.styling import Styling, read_styling

HIDDEN_SITE_FOLDER = ".memwiki/site"  # and in one without: an agent's workspace memwiki did not set up


class WorkspaceError(Exception):
    """The workspace path cannot be used at all (missing, not a folder)."""


class NotAWorkspace(WorkspaceError):
    """The folder holds no memory files: building it would only litter it."""


class BadSettings(WorkspaceError):
    """``memwiki.toml`` has values memwiki cannot use; ``problems`` says where."""

    def __init__(self, problems: list[Diagnostic]) -> None:
        super().__init__(f"{CONFIG_NAME} has {len(problems)} error(s); fix them first (nothing was written)")
        self.problems = problems


class BadTemplates(BadSettings):
    """A template of the workspace's (``io.styling``) memwiki cannot render; ``problems`` says where."""

    def __init__(self, problems: list[Diagnostic]) -> None:
        WorkspaceError.__init__(
            self, f"{len(problems)} template(s) in error; fix them first (the site was not changed)"
        )
        self.problems = problems


@dataclass(frozen=True)
class Workspace:
    """An opened workspace folder: where it is, how it is laid out and its settings (read once)."""

    root: Path
    config: Config
    layout: Layout = DEFAULT_LAYOUT
    problems: tuple[Diagnostic, ...] = ()  # what reading memwiki.toml found
    holds_memory: bool = True  # False: no memory file and no memwiki.toml (a README, an empty folder)
    styling: Styling = field(default_factory=Styling)  # its stylesheet and templates over memwiki's
    leave_out: LeaveOut = field(default_factory=LeaveOut)  # which files are not memory (``io.left_out``)
    # Why each file listing or reading left out was (``leave_out``), by path: for the hygiene report.
    left_out: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    # The walk of its files made when it was opened, and what that walk found, when the opener lists its notes right
    # after (``open_workspace``'s ``listed_next``: the build command): handed to that listing (``note_entries``), not
    # walked twice; any later listing walks anew.
    first_walk: list[tuple[list[NoteEntry], Diagnostics]] = field(default_factory=list, compare=False, repr=False)

    @property
    def default_output(self) -> Path:
        """Where the site goes without ``-o``: ``_site/`` in a workspace set up for memwiki (its ``memwiki.toml``),
        else ``.memwiki/site/``, so that an agent's own workspace gains one folder to ignore, not a site beside its
        notes."""
        return self.root / (SITE_FOLDER if (self.root / CONFIG_NAME).is_file() else HIDDEN_SITE_FOLDER)

    def with_config(self, config: Config) -> Workspace:
        return dataclasses.replace(self, config=config)

    def with_title(self, title: str | None) -> Workspace:
        """The workspace with ``--title`` over its configured one (None or blank: as configured)."""
        if title is None or not title.strip():
            return self
        return self.with_config(dataclasses.replace(self.config, title=title.strip()))

    def with_base_url(self, base_url: str | None) -> Workspace:
        """The workspace with ``--base-url`` over its configured one (None: as configured)."""
        if base_url is None:
            return self
        return self.with_config(dataclasses.replace(self.config, base_url=base_url.rstrip("/")))

    def require_usable(self) -> None:
        """Raise ``NotAWorkspace`` or ``BadSettings`` when a command that writes should not go on."""
        if not self.holds_memory:
            raise NotAWorkspace(
                f"{self.root} is not a memory workspace: it holds no memory files (memory.md, MEMORY.md, "
                f"memory/YYYY-MM-DD.md, bank/, …) and no {CONFIG_NAME}; nothing was written. Point memwiki at "
                f"the folder that holds the agent's memory, or run `memwiki init {shlex.quote(str(self.root))}` "
                "to start one here."
            )
        errors = config_errors(self.problems)
        if errors:
            raise BadSettings(errors)


def open_workspace(path: str | Path | Workspace, *, listed_next: bool = False) -> Workspace:
    """Check the workspace folder and read its ``memwiki.toml`` (defaults when there is none). ``listed_next``: its
    notes are listed right after, once (a build): that listing takes the walk made now."""
    if isinstance(path, Workspace):
        return path
    opened, files, walked = _open(path)
    return dataclasses.replace(opened, first_walk=[(files, walked)]) if listed_next else opened


def open_workspace_stamped(path: str | Path) -> tuple[Workspace, dict[str, str]]:
    """The workspace and the stamps of its notes (see ``stamp_workspace``) from one walk of its folders."""
    workspace, files, _ = _open(path, ordered=False)
    leave_out = workspace.leave_out
    return workspace, stamps_of((rel, i) for rel, i in files if is_memory_file(rel) and not leave_out.reason(rel))


def _open(path: str | Path, ordered: bool = True) -> tuple[Workspace, list[NoteEntry], Diagnostics]:
    """The workspace, its files with their stats (sorted by path when ``ordered``) and what the walk found."""
    root = Path(path).expanduser()
    if not root.exists():
        raise WorkspaceError(f"workspace not found: {root}")
    if not root.is_dir():
        raise WorkspaceError(f"workspace is not a folder: {root}")
    root = root.resolve()
    diagnostics = Diagnostics()
    config_text = _read_config(root, diagnostics)
    config = parse_config(config_text, diagnostics)
    styling = read_styling(root, config, config_text, diagnostics)
    walked = Diagnostics()
    files = walk_files(root, walked) if ordered else walk_in_folder_order(root, walked)
    paths = [rel for rel, _ in files]
    layout = detect(paths, config.layout or None)
    holds_memory = (root / CONFIG_NAME).is_file() or _holds_memory(layout, paths)
    leave_out = leave_out_of(root, config)
    if leave_out.exclude:  # every command opens the workspace: the patterns are checked only where there are some
        memory = [rel for rel in paths if is_memory_file(rel)]
        check_patterns(leave_out, memory, setting_line(config_text or "", "workspace", "exclude"), diagnostics)
    opened = Workspace(root, config, layout, tuple(diagnostics.items), holds_memory, styling, leave_out)
    return opened, files, walked


def _holds_memory(layout: Layout, files: list[str]) -> bool:
    """Does any file look like an agent's memory (a layout's file, not only pages such as a README)?"""
    if layout.names or layout.core:
        return True
    return any(is_memory_file(rel) and layout.kind_of(rel) != "page" for rel in files)


def _read_config(root: Path, diagnostics: Diagnostics) -> str | None:
    """The text of ``memwiki.toml``, or None when the workspace has none."""
    config_path = root / CONFIG_NAME
    if config_path.is_file() and inside(root, config_path, diagnostics):
        return decode(config_path.read_bytes(), CONFIG_NAME, diagnostics)
    return None


def note_entries(workspace: Workspace, diagnostics: Diagnostics) -> list[NoteEntry]:
    """``(relative path, stat)`` of every note file, sorted by path (see ``io.folder_walk``); the files its settings
    leave out are in ``workspace.left_out``."""
    if workspace.first_walk:  # the walk made when the workspace was opened, once
        files, found = workspace.first_walk.pop()
        diagnostics.extend(found)
    else:
        files = walk_files(workspace.root, diagnostics)
    entries = []
    for rel, info in files:
        if is_memory_file(rel):
            if reason := workspace.leave_out.reason(rel):
                workspace.left_out[rel] = reason
            else:
                entries.append((rel, info))
    return entries


def is_memory_file(rel: str) -> bool:
    """Markdown notes, and the JSON files of layouts that keep memory in records (TinyClaw)."""
    if rel[-3:].lower() == ".md":
        return True
    return rel.rsplit("/", 1)[-1] in RECORD_FILES or rel.split("/")[-2:] == ["skills", "index.json"]


def is_listed(workspace: Workspace, rel: str) -> bool:
    """Would ``note_entries`` list ``rel`` (workspace-relative, POSIX, without ``.`` or ``..``) as a memory file?
    Checked along its own path, without walking the workspace: no dot-folder, dependency or output folder on the way,
    no symlink that leaves the workspace, a file memwiki reads as memory at the end, not left out."""
    parts = rel.split("/")
    if not is_memory_file(rel) or any(not part or part[0] == "." for part in parts) or workspace.leave_out.reason(rel):
        return False
    root = workspace.root
    here = root
    for depth, name in enumerate(parts, 1):
        here = here / name
        try:
            if here.is_symlink() and not inside(root, here, Diagnostics()):
                return False
            if depth == len(parts):
                return here.is_file()
            if not here.is_dir() or name in SKIPPED_FOLDERS or (here / MARKER).exists():
                return False
        except OSError:
            return False
    return False


def stamp_workspace(workspace: Workspace, diagnostics: Diagnostics) -> dict[str, str]:
    """``{relative path: "mtime_ns:size"}`` of every note: a cheap way to spot changed files."""
    return stamps_of(note_entries(workspace, diagnostics))


def decode(data: bytes, rel: str, diagnostics: Diagnostics) -> str:
    if b"\x00" in data[:8192]:
        diagnostics.warn(rel, 1, "looks like a binary file, not Markdown; its text is skipped", "encoding")
        return ""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        diagnostics.warn(rel, line, "not valid UTF-8; undecodable bytes are shown as \ufffd", "encoding")
        text = data.decode("utf-8-sig", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")
