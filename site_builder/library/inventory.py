"""What a workspace holds, as ``memwiki check`` tells it: the layouts found, the files read by kind, and the
files memwiki does not read."""

from __future__ import annotations

from collections import Counter

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Note
from site_builder.io.folder_walk import walk_files
from site_builder.io.reader import Workspace

# Files that are never memory: pictures, fonts, archives, memwiki's own settings.
NOT_MEMORY = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".ico", ".pdf", ".zip", ".gz", ".woff", ".woff2")
EXAMPLES = 8


def inventory_lines(workspace: Workspace, notes: list[Note]) -> list[str]:
    """``Layouts: …``, ``Read: N files (…by kind)``, and the files not read, a few by name."""
    layout = workspace.layout
    names = ", ".join(layout.names) or "none recognised (every Markdown file is read as a page)"
    lines = [f"Layouts: {names}; core memory: {layout.core or 'none'}"]
    kinds = Counter(n.kind for n in notes)
    by_kind = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items(), key=lambda kc: (-kc[1], kc[0])))
    lines.append(f"Read: {len(notes)} file(s) ({by_kind})" if notes else "Read: no Markdown files")
    read = {n.path for n in notes} | set(workspace.left_out)
    skipped = [
        rel
        for rel, _ in walk_files(workspace.root, Diagnostics())
        if rel not in read and rel != "memwiki.toml" and not rel.lower().endswith(NOT_MEMORY)
    ]
    if workspace.left_out:
        lines.append(f"Left out: {len(workspace.left_out)} file(s) ({_examples(sorted(workspace.left_out))})")
    if skipped:
        lines.append(f"Not read: {len(skipped)} file(s) memwiki does not read ({_examples(skipped)})")
    return lines


def _examples(paths: list[str]) -> str:
    return ", ".join(paths[:EXAMPLES]) + (", …" if len(paths) > EXAMPLES else "")
