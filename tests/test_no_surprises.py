"""No surprises: a folder that is not a workspace is left alone, settings are checked, messages say where."""

from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path

import pytest

from site_builder.core.config import parse_config
from site_builder.core.diagnostics import Diagnostics
from tests.conftest import EXAMPLE, REPO, run, write_workspace

DAY = {"memory/2026-11-20.md": "# Fri\n\nTalked to @Anna.\n", "bank/entities/Anna.md": "# Anna\n"}


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("files", [{}, {"README.md": "# My project\n"}, {"README.md": "# x\n", "docs/a.md": "# a\n"}])
@pytest.mark.parametrize("command", ["build", "serve"])
def test_a_folder_without_memory_is_refused_and_left_alone(tmp_path: Path, files: dict[str, str], command: str) -> None:
    folder = write_workspace(tmp_path / "folder", files)
    folder.mkdir(exist_ok=True)
    before = tree(tmp_path)
    result = run(command, str(folder), *(["--port", "0"] if command == "serve" else ["--no-search"]))
    assert result.exit_code == 2, result.output
    assert f"{folder.resolve()} is not a memory workspace" in result.output
    assert "run `memwiki init" in result.output
    assert tree(tmp_path) == before  # nothing written: no _site/, no .memwiki/
    assert sorted(p.name for p in folder.iterdir()) == sorted({Path(f).parts[0] for f in files})
    result = run("build", str(folder), "-o", str(tmp_path / "elsewhere"), "--no-search")
    assert result.exit_code == 2 and not (tmp_path / "elsewhere").exists()


def test_memwiki_init_makes_the_folder_a_workspace(tmp_path: Path) -> None:
    folder = write_workspace(tmp_path / "folder", {"README.md": "# My project\n"})
    assert run("init", str(folder)).exit_code == 0
    result = run("build", str(folder), "--no-search")
    assert result.exit_code == 0, result.output
    assert (folder / "_site/index.html").is_file()


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        (
            "[recall]\nmax_tokens = -5\n",
            "memwiki.toml:2: error: [recall] max_tokens must be from 50 to 1,000,000, not -5",
        ),
        ("[site]\ntitle = 1\n", "memwiki.toml:2: error: [site] title must be text in quotes, not 1"),
        (
            "[site]\n\nrecent_days = true\n",
            "memwiki.toml:3: error: [site] recent_days must be a whole number, not true",
        ),
        ("[site]\nrecent_days = 0\n", "memwiki.toml:2: error: [site] recent_days must be from 1 to 3,650, not 0"),
        (
            "[site]\nbase_url = 'me.github.io'\n",
            "memwiki.toml:2: error: [site] base_url must be an absolute http(s) URL",
        ),
        ("[site]\nlanguage = 'Deutsch'\n", "memwiki.toml:2: error: [site] language must be a language tag like 'en'"),
        ("[reflect]\nprovider = 'openai'\n", "memwiki.toml:2: error: [reflect] provider must be one of 'offline', "),
        ("[workspace]\nlayout = 'hermes'\n", "memwiki.toml:2: error: [workspace] layout must be one of 'clawd-v2', "),
        (
            "[site]\ntitle = 'x'\n[recall]\nmax_tokens = 'many'\n",
            "memwiki.toml:4: error: [recall] max_tokens must be a",
        ),
        ("site = 3\n", "memwiki.toml:1: error: [site] must be a table of settings"),
        ("[site\ntitle = 1\n", "memwiki.toml:1: error: not valid TOML"),
    ],
)
def test_a_setting_memwiki_cannot_use_is_an_error_at_its_line_and_nothing_is_written(
    tmp_path: Path, toml: str, message: str
) -> None:
    ws = write_workspace(tmp_path / "ws", {**DAY, "memwiki.toml": toml})
    before = tree(tmp_path)
    for command in (["build", "--no-search"], ["serve", "--port", "0"], ["reflect"]):
        result = run(command[0], str(ws), *command[1:])
        assert result.exit_code == 2, (command, result.output)
        assert message in result.output, result.output
        assert "memwiki.toml has 1 error(s); fix them first (nothing was written)" in result.output
        assert "Traceback" not in result.output
    assert tree(tmp_path) == before
    check = run("check", str(ws))
    assert check.exit_code == 1 and message.split(": error: ")[1] in check.output


def test_every_error_in_the_settings_is_reported_at_once(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {**DAY, "memwiki.toml": "[site]\ntitle = ''\n\n[recall]\nmax_tokens = 0\n"})
    result = run("build", str(ws), "--no-search")
    assert result.exit_code == 2
    assert "memwiki.toml:2: error: [site] title must not be empty, not ''" in result.output
    assert "memwiki.toml:5: error: [recall] max_tokens must be from 50" in result.output


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("[site]\ntitel = 'Wren'\n", "memwiki.toml:2: warning: unknown setting 'titel' in [site] is ignored; "
         "did you mean [site] title?"),
        ("[reflekt]\nprovider = 'offline'\n", "memwiki.toml:1: warning: unknown setting 'reflekt' is ignored; "
         "did you mean [reflect]?"),
        ("max_tokens = 300\n", "memwiki.toml:1: warning: unknown setting 'max_tokens' is ignored; "
         "did you mean [recall] max_tokens?"),
        ("[recall]\ncolour = 'blue'\n", "memwiki.toml:2: warning: unknown setting 'colour' in [recall] is ignored; "
         "memwiki reads [site] title, [site] base_url"),
    ],
)  # fmt: skip
def test_an_unknown_setting_is_a_warning_naming_the_closest_known_one(tmp_path: Path, toml: str, message: str) -> None:
    ws = write_workspace(tmp_path / "ws", {**DAY, "memwiki.toml": toml})
    result = run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search")
    assert result.exit_code == 0, result.output
    assert message in result.output


def test_valid_settings_are_used(tmp_path: Path) -> None:
    toml = "[site]\ntitle = 'Wren'\nrecent_days = 2\nbase_url = 'https://x.example/m/'\n[recall]\nmax_tokens = 300\n"
    ws = write_workspace(tmp_path / "ws", {**DAY, "memwiki.toml": toml})
    result = run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search")
    assert result.exit_code == 0 and "warning" not in result.output.replace("0 warning(s)", ""), result.output
    assert "of 300 tokens" in result.output
    assert "<title>Wren" in (tmp_path / "site/index.html").read_text(encoding="utf-8")
    assert "https://x.example/m/index.html" in (tmp_path / "site/sitemap.xml").read_text(encoding="utf-8")


def test_a_log_dated_after_tomorrow_is_a_warning(tmp_path: Path) -> None:
    today = dt.date.today()
    tomorrow, later = today + dt.timedelta(days=1), today + dt.timedelta(days=2)
    files = {
        **DAY,
        f"memory/{tomorrow}.md": "# Tomorrow\n",
        f"memory/{later}.md": "# Later\n",
        "memory/2030-06-01.md": "#\n",
    }
    ws = write_workspace(tmp_path / "ws", files)
    result = run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search")
    assert f"memory/{later}.md:1: warning: dated {later} by its name, which is after today ({today})" in result.output
    assert "memory/2030-06-01.md:1: warning: dated 2030-06-01" in result.output
    assert f"memory/{tomorrow}.md" not in result.output  # a day of slack: the agent may live east of here


def test_check_strict_fails_on_any_finding(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {**DAY, "bank/entities/Nobody.md": "# Nobody\n"})  # an orphan: a finding
    check = run("check", str(ws))
    assert check.exit_code == 0, check.output
    assert re.search(r"Orphan entities \(1\)\n  bank/entities/Nobody.md: Nobody: nothing links here", check.output)
    assert "1 finding(s), 0 problem(s)." in check.output
    assert run("check", str(ws), "--strict").exit_code == 1
    clean = write_workspace(tmp_path / "clean", DAY)
    assert run("check", str(clean), "--strict").exit_code == 0


def test_the_example_builds_without_a_warning(tmp_path: Path) -> None:
    ws = tmp_path / "example"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("_site", ".memwiki"))
    result = run("build", str(ws), "--no-search")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output.replace("0 warning(s)", ""), result.output
    assert run("build", str(ws), "--no-search", "--strict").exit_code == 0


def test_the_settings_shown_in_the_readme_and_written_by_init_are_valid(tmp_path: Path) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    shown = re.search(r"```toml\n(.*?)```", readme, re.S)
    assert shown is not None
    found = Diagnostics()
    parse_config(shown[1], found)
    assert found.items == []
    assert run("init", str(tmp_path / "new")).exit_code == 0
    parse_config((tmp_path / "new/memwiki.toml").read_text(encoding="utf-8"), found)
    assert found.items == []
