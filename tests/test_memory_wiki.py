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
    alex = json.loads((root / ".memwiki/site/recall/entities/alex-doe.json").read_text(encoding="utf-8"))
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
    page = (root / ".memwiki/site/bank/entities/alex-doe.html").read_text(encoding="utf-8")
    assert '<p class="lede" data-pagefind-ignore>Platform lead; prefers async updates.</p>' in page
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
    names = {
        json.loads(p.read_text(encoding="utf-8"))["name"]
        for p in (root / ".memwiki/site/recall/entities").glob("*.json")
    }
    assert names == {"Komodo", "Roger Gimbel"}


CLAIMS = """---
pageType: entity
title: Alex Doe
claims:
  - id: claim.alex.role
    text: Alex leads the **platform** team.
    status: supported
    confidence: 0.8
    evidence:
      - {sourceId: source.standup, path: sources/standup.md, lines: "3-4", note: standup notes}
  - id: claim.alex.office
    text: Alex works from Lisbon.
    status: superseded
    confidence: high
    evidence:
      - {path: sources/standup.md, lines: "12-x"}
  - status: contested
questions: ["Does Alex still own the on-call rota?"]
---
# Alex Doe
"""


def test_claims_show_with_status_confidence_and_cited_lines_and_bad_ones_are_warned(workspace: MakeWorkspace) -> None:
    root = workspace(
        {
            **VAULT,
            "entities/alex-doe.md": CLAIMS,
            "sources/standup.md": "# Standup\n\nAlex runs\nthe platform team.\n",
            "entities/broken.md": "---\npageType: entity\ntitle: Broken\nclaims: not a list\n---\n# Broken\n",
        }
    )
    result = run("build", str(root), "--no-search")
    assert result.exit_code == 0
    page = (root / ".memwiki/site/bank/entities/alex-doe.html").read_text(encoding="utf-8")
    claims = page.split('<ul class="claims">', 1)[1].split("</ul>", 1)[0]
    assert "Alex leads the <strong>platform</strong> team." in claims
    assert "supported · confidence 0.80" in claims
    assert '<a href="../../sources/standup.html#L3" title="standup notes">sources/standup.md:3-4</a>' in claims
    assert "<s>Alex works from Lisbon.</s>" in claims and "superseded</span>" in claims
    check = run("check", str(root)).output
    assert "entities/alex-doe.md:4: claim.alex.office: confidence 'high' is not a number from 0 to 1" in check
    assert "entities/alex-doe.md:4: claim.alex.office: evidence lines '12-x' are not a line range" in check
    assert "entities/alex-doe.md:4: claim 3 has no text; ignored" in check
    assert "entities/broken.md:4: claims must be a list of claims; ignored" in check
    assert "Claims to review (2)" in check
    assert "entities/alex-doe.md:4: superseded: Alex works from Lisbon." in check
    assert "question: Does Alex still own the on-call rota?" in check
