"""The workspace's notes by folder, for the folder pages."""

from __future__ import annotations

from dataclasses import dataclass, field

from site_builder.core.model import Note


@dataclass
class Folder:
    """The notes directly in a folder and its sub-folders (relative paths)."""

    notes: list[Note] = field(default_factory=list)
    folders: set[str] = field(default_factory=set)


def folder_tree(notes: list[Note]) -> dict[str, Folder]:
    """Folder path ("" for the workspace root) -> what it holds; entity pages are listed by the entity index."""
    tree: dict[str, Folder] = {"": Folder()}
    for note in notes:
        if note.kind == "entity":
            continue
        parent, _, _ = note.path.rpartition("/")
        folder = tree.get(parent)
        if folder is not None:  # and the folders above it
            folder.notes.append(note)
            continue
        tree[parent] = Folder([note])
        while parent:
            above, _, _ = parent.rpartition("/")
            tree.setdefault(above, Folder()).folders.add(parent)
            parent = above
    return tree
