"""Shared helpers: tiny workspaces written inline, and the CLI runner."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from site_builder.cli import main

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "example_workspace"


def write_workspace(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write ``{relative path: content}`` under ``root`` and return it."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def run(*args: str) -> Result:
    """Run ``memwiki ARGS`` in-process; exceptions are never swallowed silently."""
    result = CliRunner().invoke(main, list(args), catch_exceptions=True)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


@pytest.fixture
def workspace(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Factory: ``workspace({"memory.md": "..."})`` -> workspace path."""

    def make(files: dict[str, str | bytes]) -> Path:
        return write_workspace(tmp_path / "ws", files)

    return make


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    """Remember each phase's report on the test item, so fixtures can tell a failed test (screenshots)."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def output_bytes(*folders: Path) -> bytes:
    """Every byte memwiki wrote under ``folders``, gzip files (Pagefind's index) decompressed, SQLite included."""
    import gzip

    chunks = []
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if not path.is_file():
                continue
            data = path.read_bytes()
            if data[:2] == b"\x1f\x8b":
                data = gzip.decompress(data)
            chunks.append(data)
    return b"\n".join(chunks)
