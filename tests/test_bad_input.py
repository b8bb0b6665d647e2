"""Bad input: a one-line message with file:line, the build goes on, --strict fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run, write_workspace

GOOD_DAY = "# Day\nAll fine with @Peter.\n"
PETER = "# Peter\n"

CASES: list[tuple[str, dict[str, str | bytes], str]] = [
    (
        "malformed bullet",
        {"memory/2025-11-20.md": "# D\n## Retain\n- W @Peter Prefers tea\n"},
        "memory/2025-11-20.md:3: warning: not a Retain fact",
    ),
    (
        "confidence too high",
        {"memory/2025-11-20.md": "# D\n## Retain\n- O(c=1.7) @Peter: x\n"},
        "memory/2025-11-20.md:3: warning: confidence c=1.7 is outside 0..1",
    ),
    (
        "confidence not a number",
        {"memory/2025-11-20.md": "# D\n## Retain\n- O(c=abc) @Peter: x\n"},
        "memory/2025-11-20.md:3: warning: confidence c='abc' is not a number",
    ),
    (
        "impossible log date",
        {"memory/2025-02-30.md": "# D\nText\n"},
        "memory/2025-02-30.md: warning: 2025-02-30 is not a real date",
    ),
    (
        "bad log name",
        {"memory/notes.md": "# D\nText\n"},
        "memory/notes.md: warning: daily log names must be YYYY-MM-DD.md",
    ),
    (
        "impossible date in a fact",
        {"memory/2025-11-20.md": "# D\n## Retain\n- W @Peter: Due 2025-02-30.\n"},
        "memory/2025-11-20.md:3: warning: date '2025-02-30' is not a real date",
    ),
    ("empty file", {"memory/2025-11-20.md": ""}, "memory/2025-11-20.md:1: warning: file is empty"),
    (
        "non-UTF-8 file",
        {"memory/2025-11-20.md": b"# D\nline two\ncaf\xe9\n"},
        "memory/2025-11-20.md:3: warning: not valid UTF-8",
    ),
    (
        "invalid YAML front matter",
        {"bank/entities/Anna.md": "---\naliases: [a, b\n---\n# Anna\n"},
        "bank/entities/Anna.md:",
    ),
    (
        "front matter not a mapping",
        {"bank/entities/Anna.md": "---\n- a\n- b\n---\n# Anna\n"},
        "bank/entities/Anna.md:2: warning: front matter must be a mapping",
    ),
    (
        "link to nothing",
        {"memory/2025-11-20.md": "# D\nSee [[Nowhere Land]].\n"},
        "memory/2025-11-20.md:2: warning: 'Nowhere Land' has no page",
    ),
    (
        "mention without page",
        {"memory/2025-11-20.md": "# D\nMet @Zed.\n"},
        "memory/2025-11-20.md:2: warning: 'Zed' has no page",
    ),
    (
        "missing heading",
        {"memory/2025-11-20.md": "# D\nSee [[Peter#Nope]].\n"},
        "memory/2025-11-20.md:2: warning: [[Peter#Nope]]: no heading 'Nope'",
    ),
    (
        "unclosed private block",
        {"memory/2025-11-20.md": "# D\n<!-- private -->\nsecret\n"},
        "memory/2025-11-20.md:2: warning: <!-- private --> is never closed",
    ),
    (
        "binary file named .md",
        {"memory/2025-11-20.md": b"\x00\x01\x02PNG"},
        "memory/2025-11-20.md:1: warning: looks like a binary file",
    ),
    ("bad config", {"memwiki.toml": "[site\ntitle = 1\n"}, "memwiki.toml:1: warning: not valid TOML"),
]


@pytest.mark.parametrize(("name", "files", "message"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_warns_with_location_and_strict_fails(
    tmp_path: Path, name: str, files: dict[str, str | bytes], message: str
) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {"memory.md": "# Core\n", "bank/entities/Peter.md": "# Peter\n\n## Working style\n", **files},
    )
    out = tmp_path / "site"
    result = run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect")
    assert result.exit_code == 0, result.output
    assert message in result.output, result.output
    assert "Traceback" not in result.output
    assert (out / "index.html").is_file()

    strict = run("build", str(ws), "-o", str(tmp_path / "strict"), "--strict", "--no-search", "--no-reflect")
    assert strict.exit_code == 1
    assert "error:" in strict.output
    assert not (tmp_path / "strict").exists()


def test_malformed_bullet_is_rendered_as_plain_text(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"memory/2025-11-20.md": "# D\n## Retain\n- W @Peter Prefers tea\n"})
    out = tmp_path / "site"
    run("build", str(ws), "-o", str(out), "--no-search")
    html = (out / "memory/2025-11-20.html").read_text(encoding="utf-8")
    assert "Prefers tea" in html
    assert 'id="L3"' in html


def test_two_entity_files_differing_in_case(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"bank/entities/Peter.md": "# Peter\n", "bank/entities/peter_.md": "# p\n"})
    result = run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search")
    assert "bank/entities/peter_.md: warning: same entity as bank/entities/Peter.md" in result.output


def test_empty_workspace_builds_an_empty_site(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    result = run("build", str(tmp_path / "ws"), "-o", str(tmp_path / "site"), "--no-search")
    assert result.exit_code == 0
    assert ".: warning: the workspace holds no memory files" in result.output
    assert (tmp_path / "site" / "index.html").is_file()


def test_missing_workspace_is_a_clear_cli_error(tmp_path: Path) -> None:
    result = run("build", str(tmp_path / "nope"))
    assert result.exit_code != 0
    assert "workspace not found" in result.output
    result = run("check", str(tmp_path / "nope"))
    assert result.exit_code != 0
    assert "workspace not found" in result.output


def test_output_folder_not_made_by_memwiki_is_not_wiped(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"memory.md": "# Core\n"})
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "thesis.txt").write_text("do not delete", encoding="utf-8")
    result = run("build", str(ws), "-o", str(precious), "--no-search")
    assert result.exit_code != 0
    assert "not made by memwiki" in result.output
    assert (precious / "thesis.txt").read_text(encoding="utf-8") == "do not delete"


@pytest.mark.parametrize("target", [".", ".."])
def test_output_may_not_be_or_contain_the_workspace(tmp_path: Path, target: str) -> None:
    ws = write_workspace(tmp_path / "ws", {"memory.md": "# Core\n"})
    result = run("build", str(ws), "-o", str(ws / target), "--no-search")
    assert result.exit_code != 0
    assert "is the workspace or contains it" in result.output
    assert (ws / "memory.md").is_file()


def test_check_exits_nonzero_on_broken_input_only(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"memory/2025-11-20.md": "# D\nMet @Zed.\n"})
    ok = run("check", str(ws))
    assert ok.exit_code == 0, ok.output
    assert "Placeholder entities (1)" in ok.output
    assert run("check", str(ws), "--strict").exit_code == 1
    (ws / "memory" / "2025-11-21.md").write_text("# D\n## Retain\n- W @Zed nope\n", encoding="utf-8")
    bad = run("check", str(ws))
    assert bad.exit_code == 1
    assert "memory/2025-11-21.md:3: not a Retain fact" in bad.output


def test_private_content_never_reaches_the_site(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/2025-11-20.md": "# D\nPublic line.\n<!-- private -->\nSENTINEL-A\n<!-- /private -->\nAfter.\n",
            "bank/entities/Secret.md": "---\nprivate: true\n---\n# Secret\nSENTINEL-B\n",
        },
    )
    out = tmp_path / "site"
    run("build", str(ws), "-o", str(out))
    for path in out.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert b"SENTINEL-A" not in data and b"SENTINEL-B" not in data, path
    html = (out / "memory/2025-11-20.html").read_text(encoding="utf-8")
    assert 'id="L6"' in html  # line numbers after the hidden block stay right
