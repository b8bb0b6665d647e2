"""OpenClaw memory-wiki vaults (``../shared/LAYOUTS.md`` §8): ``WIKI.md`` is the core memory, each ``pageType:
entity`` page an entity whose home it is, and links by path to it are its mentions."""

from __future__ import annotations

import json

from site_builder.io.reader import open_workspace
from tests.conftest import MakeWorkspace, run

ALEX = """---
pageType: entity
id: entity.alex-doe
title: Alex Doe
aliases: [Alex, "@alexd"]
entityType: person
---
# Alex Doe

Platform lead; prefers async updates.
"""
VAULT = {
    "WIKI.md": "# Wiki\n\nThe compiled vault. See [[entities/alex-doe|Alex Doe]] and [[concepts/retention]].\n",
    "index.md": "# Index\n\n- [[entities/alex-doe]]\n",
    "entities/alex-doe.md": ALEX,
    "concepts/retention.md": "---\npageType: concept\ntitle: Retention\n---\n# Retention\n\nAlex keeps logs.\n",
}


def test_a_vault_is_a_layout_with_its_entities_and_their_mentions(workspace: MakeWorkspace) -> None:
    root = workspace(VAULT)
    opened = open_workspace(root)
    assert opened.layout.names == ("memory-wiki",) and opened.layout.core == "WIKI.md"
    assert run("build", str(root), "--no-search").exit_code == 0
    alex = json.loads((root / "_site/recall/entities/alex-doe.json").read_text(encoding="utf-8"))
    assert (alex["name"], alex["type"], alex["aliases"], alex["source"]) == (
        "Alex Doe",
        "person",
        ["Alex", "@alexd"],
        "entities/alex-doe.md",
    )
    assert [m["source"] for m in alex["mentions"]] == [
        "WIKI.md#L3",
        "concepts/retention.md#L7",
        "entities/alex-doe.md#L8",  # its home's own heading: the page shows what it says first, not all of it
        "index.md#L3",
    ]
    page = (root / "_site/bank/entities/alex-doe.html").read_text(encoding="utf-8")
    assert '<p class="lede">Platform lead; prefers async updates.</p>' in page
    assert not (root / "bank").exists()  # nothing written into the vault


def test_a_page_in_an_entities_folder_at_any_depth_is_an_entity(workspace: MakeWorkspace) -> None:
    root = workspace(
        {
            "MEMORY.md": "# Memory\n\n- See [[second-brain/entities/komodo]].\n",
            "second-brain/entities/komodo.md": "# Komodo\n\nContainer manager on the Pi.\n",
            "second-brain/entities/roger-gimbel.md": "---\nname: Roger Gimbel\n---\nThe human.\n",
        }
    )
    assert run("build", str(root), "--no-search").exit_code == 0
    names = {json.loads(p.read_text(encoding="utf-8"))["name"] for p in (root / "_site/recall/entities").glob("*.json")}
    assert names == {"Komodo", "Roger Gimbel"}
