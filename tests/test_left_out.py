"""What is not memory is left out of the site, search and recall, and said so: note templates (a templates folder,
Obsidian's templates folder, a file with a template's placeholder) and what ``[workspace] exclude`` names."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import output_bytes, recall_sources, run, write_workspace

MEMORY = "# Memory\n\n- The roof needs new tiles.\n"
DAY = "# 2026-01-02\n\n- Met Ana about the roof tiles.\n"
TEMPLATE = "---\ntags: [daily, log]\ndate: {{date}}\n---\n# {{date}}\n\n- Zanzibar placeholder line\n"


def vault(tmp_path: Path, **more: str) -> Path:
    files = {
        "MEMORY.md": MEMORY,
        "memory/2026-01-02.md": DAY,
        "templates/daily-note.md": TEMPLATE,  # a templates folder
        "Extras/Tmpl/meeting.md": "# Meeting\n\n- Zanzibar agenda\n",  # Obsidian's templates folder (below)
        ".obsidian/templates.json": '{"folder": "Extras/Tmpl", "dateFormat": "YYYY-MM-DD"}',
        "memory/weekly.md": "# Weekly\n\nWeek of {{date:YYYY-MM-DD}}: Zanzibar review\n",  # a placeholder
        "memory/jinja.md": "# Jinja\n\n```\n{{date}}\n```\n\nWrite `{{title}}` for Zanzibar pages.\n",  # in code only
    }
    return write_workspace(tmp_path / "ws", {**files, **more})


def site_files(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("*.html")}


def test_note_templates_get_no_page_and_are_listed_in_hygiene(tmp_path: Path) -> None:
    root = vault(tmp_path)
    result = run("build", str(root), "-o", str(tmp_path / "site"), "--no-search")
    assert result.exit_code == 0, result.output
    pages = site_files(tmp_path / "site")
    assert "memory/2026-01-02.html" in pages and "memory/jinja.html" in pages  # placeholders only in code: a note
    assert not {"templates/daily-note.html", "Extras/Tmpl/meeting.html", "memory/weekly.html"} & pages
    assert "warning:" not in result.output  # the template's front matter is not read, so not warned about
    hygiene = (tmp_path / "site" / "hygiene.html").read_text()
    assert "Left out" in hygiene and "Nothing to fix" in hygiene  # left out is said, not a finding to fix
    assert "templates/daily-note.md" in hygiene and "a note template (in templates/)" in hygiene
    assert "Extras/Tmpl/meeting.md" in hygiene and "Obsidian&#39;s templates: Extras/Tmpl" in hygiene
    assert "memory/weekly.md" in hygiene and "a placeholder at line 3" in hygiene
    assert "Zanzibar" not in (tmp_path / "site" / "index.html").read_text()


def test_templates_are_not_recalled_and_check_passes_strict(tmp_path: Path) -> None:
    root = vault(tmp_path)
    assert {source.split("#")[0] for source in recall_sources("Zanzibar", str(root))} == {"memory/jinja.md"}
    checked = run("check", str(root), "--strict")
    assert checked.exit_code == 0, checked.output  # left out is said, not a finding to fix
    assert "Left out: 3 file(s) (Extras/Tmpl/meeting.md, memory/weekly.md, templates/daily-note.md)" in checked.output


def test_keep_templates_publishes_them(tmp_path: Path) -> None:
    root = vault(tmp_path, **{"memwiki.toml": "[workspace]\nkeep_templates = true\n"})
    assert run("build", str(root), "-o", str(tmp_path / "site"), "--no-search").exit_code == 0
    pages = site_files(tmp_path / "site")
    assert {"templates/daily-note.html", "Extras/Tmpl/meeting.html", "memory/weekly.html"} <= pages
    assert "Left out" not in (tmp_path / "site" / "hygiene.html").read_text()


def test_exclude_patterns_leave_files_out_as_git_would(tmp_path: Path) -> None:
    settings = '[workspace]\nexclude = ["drafts/", "**/scratch-*.md", "!memory/scratch-keep.md"]\n'
    root = vault(
        tmp_path,
        **{
            "memwiki.toml": settings,
            "drafts/idea.md": "# Idea\n",
            "deep/drafts/more.md": "# More\n",
            "memory/scratch-1.md": "# S\n",
            "memory/scratch-keep.md": "# Keep\n",
        },
    )
    result = run("build", str(root), "-o", str(tmp_path / "site"), "--no-search")
    assert result.exit_code == 0 and "warning:" not in result.output, result.output
    pages = site_files(tmp_path / "site")
    assert "memory/scratch-keep.html" in pages
    assert not {"drafts/idea.html", "deep/drafts/more.html", "memory/scratch-1.html"} & pages
    assert "[workspace] exclude in memwiki.toml" in (tmp_path / "site" / "hygiene.html").read_text()


def test_an_invalid_pattern_stops_the_build_at_its_line(tmp_path: Path) -> None:
    root = vault(tmp_path, **{"memwiki.toml": '[site]\ntitle = "M"\n\n[workspace]\nexclude = ["ok/", "bad\\\\"]\n'})
    result = run("build", str(root), "-o", str(tmp_path / "site"))
    assert result.exit_code != 0
    assert "memwiki.toml:5: error: [workspace] exclude holds a pattern that is not a valid glob: 'bad\\\\'" in (
        result.output
    )
    assert not (tmp_path / "site").exists() and "Traceback" not in result.output
    for wrong, said in (("exclude = 'drafts/'", "must be a list in brackets"), ("exclude = [3]", "must list patterns")):
        write_workspace(root, {"memwiki.toml": f"[workspace]\n{wrong}\n"})
        result = run("build", str(root), "-o", str(tmp_path / "site"))
        assert result.exit_code != 0 and f"memwiki.toml:2: error: [workspace] exclude {said}" in result.output


def test_patterns_that_match_nothing_or_everything_are_warned_about(tmp_path: Path) -> None:
    root = vault(tmp_path, **{"memwiki.toml": '[workspace]\nexclude = ["nothing-here/"]\n'})
    result = run("build", str(root), "-o", str(tmp_path / "site"), "--no-search")
    assert "memwiki.toml:2: warning: [workspace] exclude: 'nothing-here/' matches no memory file" in result.output
    write_workspace(root, {"memwiki.toml": '[workspace]\nexclude = ["*.md"]\n'})
    result = run("build", str(root), "-o", str(tmp_path / "site"), "--no-search")
    assert "memwiki.toml:2: warning: [workspace] exclude leaves out every memory file (6): the site is empty" in (
        result.output
    )


@pytest.mark.slow  # 0.8 s
def test_a_cached_build_follows_a_changed_exclusion_and_template(tmp_path: Path) -> None:
    root = vault(tmp_path, **{"drafts/idea.md": "# Idea\n"})
    cached, fresh = tmp_path / "cached", tmp_path / "fresh"
    steps = [
        {"memwiki.toml": '[workspace]\nexclude = ["drafts/"]\n'},
        {"memory/weekly.md": "# Weekly\n\nWeek 2: Zanzibar review\n"},  # no placeholder now: a note
        {"memwiki.toml": "[workspace]\n"},
        {"memory/2026-01-02.md": DAY + "\n{{time}}\n"},  # a placeholder now: left out
    ]
    assert run("build", str(root), "-o", str(cached), "--no-search").exit_code == 0
    for step in steps:
        write_workspace(root, step)
        assert run("build", str(root), "-o", str(cached), "--no-search").exit_code == 0
        assert run("build", str(root), "-o", str(fresh), "--no-search", "--no-cache").exit_code == 0
        assert output_bytes(cached) == output_bytes(fresh), step
    assert "memory/weekly.html" in site_files(cached) and "drafts/idea.html" in site_files(cached)
    assert "memory/2026-01-02.html" not in site_files(cached)
