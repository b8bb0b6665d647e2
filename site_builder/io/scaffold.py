"""``memwiki init``: a new workspace with short example content, ready to build and publish.

Existing files are never overwritten: ``init`` only adds what is missing, so it
is safe to run in a folder that already holds some memory.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

GITIGNORE = """# memwiki output and derived index (rebuilt from the Markdown)
_site/
.memwiki/
"""

WORKFLOW = """# Builds the memory wiki with memwiki and publishes it to GitHub Pages.
# In the repository settings, set Pages > Source to "GitHub Actions".
name: Publish memory wiki

on:
  push:
    branches: [main]
  workflow_dispatch:

permissions:
  contents: read
  pages: write
  id-token: write

concurrency:
  group: pages
  cancel-in-progress: true

jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      - id: pages
        uses: actions/configure-pages@v5
      - name: Install memwiki
        # pip installs [publish] install of memwiki.toml (a version, or a git URL at a commit), else the spec below.
        run: |
          spec=$(python -c 'import tomllib; print(tomllib.load(open("memwiki.toml", "rb")).get("publish", {}).get("install", ""))' || true)
          spec="${spec:-DEFAULT}"
          echo "Installing $spec"
          pip install "$spec"
      - name: Build
        run: memwiki build . --base-url "${{ steps.pages.outputs.base_url }}"
      - uses: actions/upload-pages-artifact@v3
        with:
          path: _site

  deploy:
    needs: build
    runs-on: ubuntu-latest
    environment:
      name: github-pages
      url: ${{ steps.deployment.outputs.page_url }}
    steps:
      - id: deployment
        uses: actions/deploy-pages@v4
"""


def scaffold_files(title: str, today: dt.date, install: str | None) -> dict[str, str]:
    """Relative path -> text of every file a new workspace starts with; with an ``install`` spec (None: no
    publishing), the GitHub Pages workflow that installs it ("": none a runner can install, so no workflow)."""
    day = today.isoformat()
    settings = f'[site]\ntitle = "{_toml(title)}"\n# base_url = "https://you.github.io/memory"\n\n'
    settings += (
        '[recall]\nmax_tokens = 4000\n\n[reflect]\nprovider = "offline"  # or "anthropic" (needs ANTHROPIC_API_KEY)\n'
    )
    if install is not None:
        settings += "\n" + publish_settings(install)
    files = {
        "memwiki.toml": settings,
        ".gitignore": GITIGNORE,
        "memory.md": "# Core memory\n\nLoaded at the start of every session. Keep it short.\n\n"
        "## Who I work with\n- @Sam is the person I assist.\n\n"
        "## Standing instructions\n- Keep replies short unless asked for detail.\n",
        "SOUL.md": "# Soul\n\nWho the assistant is and how it speaks. Written by a person; memwiki never changes it.\n",
        f"memory/{day}.md": f"# {day}\n\nSet up this memory workspace with @Sam.\n\n## Retain\n"
        f"- B @Sam: I created the memory workspace on {day}.\n"
        "- O(c=0.7) @Sam: Sam prefers short replies. ^short-replies\n",
        "bank/world.md": "# World\n\nObjective facts that stay true.\n",
        "bank/experience.md": "# Experience\n\nWhat I did, in the first person.\n",
        "bank/opinions.md": "# Opinions\n\nBeliefs with a confidence. Restate one with the same `^id` to move it.\n\n"
        "- O(c=0.7) @Sam: Sam prefers short replies. ^short-replies\n",
        "bank/entities/Sam.md": "---\ntype: person\naliases: [Samantha]\n---\n# Sam\n\nThe person I assist.\n",
    }
    if install:
        files[".github/workflows/memwiki.yml"] = WORKFLOW.replace("DEFAULT", _shell(install))
    return files


def publish_settings(install: str) -> str:
    """memwiki.toml's ``[publish]`` table: the spec the Pages workflow installs, commented out when unknown."""
    text = (
        "[publish]\n# What the GitHub Pages workflow installs with pip: a version once memwiki is published\n"
        '# ("memwiki==0.2.0"), or a git URL at a commit ("memwiki @ git+https://github.com/OWNER/memwiki@COMMIT").\n'
    )
    if install:
        return text + f'install = "{_toml(install)}"\n'
    return text + '# install = "memwiki @ git+https://github.com/OWNER/memwiki@COMMIT"\n'


def _shell(text: str) -> str:
    """``text`` inside the workflow's double-quoted shell string."""
    return re.sub(r'(["$`\\])', r"\\\1", text)


def write_new_files(root: Path, files: dict[str, str]) -> tuple[list[str], list[str]]:
    """Create the files that do not exist yet; returns (created, kept) relative paths."""
    created, kept = [], []
    for rel, text in files.items():
        path = root / rel
        if path.exists() or path.is_symlink():
            kept.append(rel)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8", newline="\n") as handle:  # "x": never replace a file
            handle.write(text)
        created.append(rel)
    return created, kept


def _toml(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')
