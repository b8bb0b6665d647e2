"""Golden build of example_workspace/: the committed reference output.

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
GOLDEN = Path(__file__).resolve().parent / "golden" / "example"
SUFFIXES = (".html", ".json", ".svg", ".css", ".js")


def build_example(out: Path) -> dict[str, bytes]:
    """Build the example without the search index (Pagefind's bytes are not ours)."""
    result = build(EXAMPLE, out, search=False)
    assert result.written
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and p.suffix in SUFFIXES and not p.relative_to(out).as_posix().startswith("_theme/")
    }


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        files = build_example(Path(tmp) / "site")
    if GOLDEN.exists():
        shutil.rmtree(GOLDEN)
    for rel, data in files.items():
        target = GOLDEN / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    print(f"wrote {len(files)} golden files to {GOLDEN.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
