"""The example workspace and the layout fixtures build to exactly the committed golden output."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from tests.golden import GOLDEN_ROOT, WORKSPACES, build_example, build_golden


@pytest.mark.parametrize("name", list(WORKSPACES))
def test_workspace_matches_golden(tmp_path: Path, name: str) -> None:
    built = build_golden(name, tmp_path / "site")
    golden = GOLDEN_ROOT / name
    expected = {p.relative_to(golden).as_posix(): p.read_bytes() for p in sorted(golden.rglob("*")) if p.is_file()}
    assert sorted(built) == sorted(expected), "page list changed; run `python -m tests.golden`"
    for rel, data in built.items():
        if data != expected[rel]:
            diff = "\n".join(
                difflib.unified_diff(
                    expected[rel].decode().splitlines(), data.decode().splitlines(), rel, rel, lineterm=""
                )
            )
            raise AssertionError(f"{rel} differs from golden (run `python -m tests.golden`):\n{diff[:3000]}")


def test_example_shows_every_feature(tmp_path: Path) -> None:
    built = build_example(tmp_path / "site")
    days = [r for r in built if r.startswith("memory/20") and len(r) == len("memory/2025-11-27.html")]
    entities = [r for r in built if r.startswith("bank/entities/") and r != "bank/entities/index.html"]
    assert len(days) >= 45
    assert len(entities) >= 13
    everything = b"".join(built.values()).decode()
    for kind in "WBOS":
        assert f'class="fact k-{kind}"' in everything
    assert everything.count('<svg class="chart confidence"') >= 6
    assert (
        '<table tabindex="0">' in everything
        and '<pre tabindex="0"><code' in everything
        and "task-list-item" in everything
    )
    assert "No page yet" in built["bank/entities/rui.html"].decode()
    assert "From memory" in built["bank/entities/anna.html"].decode()
