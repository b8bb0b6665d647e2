"""Golden builds of example_workspace/ and the layout fixtures (tests/fixtures/layouts/): the committed reference
output.

Regenerate after an intended change, then review the diff in git:

    python -m tests.golden
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from site_builder.build import build

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "example_workspace"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "layouts"
GOLDEN_ROOT = Path(__file__).resolve().parent / "golden"
GOLDEN = GOLDEN_ROOT / "example"
# Golden name -> workspace: our own format, and one workspace per memory system memwiki reads.
WORKSPACES = {"example": EXAMPLE, **{p.name: p for p in sorted(FIXTURES.iterdir()) if p.is_dir()}}
SUFFIXES = (".html", ".json", ".svg", ".css", ".js")


def build_example(out: Path) -> dict[str, bytes]:
    return build_golden("example", out)


def build_golden(name: str, out: Path) -> dict[str, bytes]:
    """Build a golden workspace without the search index (Pagefind's bytes are not ours), from a copy beside ``out``
    (of the same name): a build leaves its cache and recall index in the workspace, and tests that copy a fixture
    would take the index of another memwiki in with it."""
    workspace = out.parent / WORKSPACES[name].name
    shutil.copytree(WORKSPACES[name], workspace, ignore=shutil.ignore_patterns(".memwiki", "_site"))
    result = build(workspace, out, search=False)
    assert result.written
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and p.suffix in SUFFIXES and not p.relative_to(out).as_posix().startswith("_theme/")
    }


def main() -> int:
    for name in WORKSPACES:
        with tempfile.TemporaryDirectory() as tmp:
            files = build_golden(name, Path(tmp) / "site")
        golden = GOLDEN_ROOT / name
        if golden.exists():
            shutil.rmtree(golden)
        for rel, data in files.items():
            target = golden / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        print(f"wrote {len(files)} golden files to {golden.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
