"""The workspace's own look: ``[site] css`` linked after the theme's stylesheets, and templates that override
memwiki's (``.memwiki/templates/``, ``templates/``), with bad input reported at file:line and cached builds that
follow an edit of either."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from site_builder.io.reader import open_workspace
from site_builder.serve.watch import workspace_filter
from tests.conftest import MakeWorkspace, run

FILES = {
    "memory.md": "# Memory\n\n- Sam likes tea in [[Porto]].\n",
    "memory/2026-01-01.md": "# 2026-01-01\n\n## Retain\n- W @Sam: Moved to Porto.\n",
    "memory/2026-01-02.md": "# 2026-01-02\n\nMet @Sam at the harbour.\n",
    "bank/entities/Sam.md": "# Sam\n\nA friend.\n",
}
CSS = ":root { --accent: #c2185b; }\n"
TOML = '[site]\ntitle = "Styled"\ncss = "style/wiki.css"\n'
BUILTIN_FOOTER = "Rendered by memwiki from the workspace's Markdown"
BUILD = ("--no-search", "--no-reflect")


def builtin_base() -> str:
    return (Path(__file__).resolve().parents[1] / "templates" / "base.html").read_text(encoding="utf-8")


def footer_base(text: str) -> str:
    """memwiki's ``base.html`` with ``text`` for its footer."""
    return builtin_base().replace(BUILTIN_FOOTER, text)


def site_bytes(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def stylesheets(html: str) -> list[str]:
    return re.findall(r'<link rel="stylesheet" href="([^"]+)">', html)


def test_the_workspace_stylesheet_is_copied_and_linked_last_on_every_page(
    workspace: MakeWorkspace, tmp_path: Path
) -> None:
    ws = workspace({**FILES, "memwiki.toml": TOML, "style/wiki.css": CSS})
    out = tmp_path / "site"
    result = run("build", str(ws), "-o", str(out), *BUILD)
    assert result.exit_code == 0, result.output
    assert (out / "_theme/custom.css").read_text() == CSS
    pages = sorted(out.rglob("*.html"))
    assert len(pages) > 10
    for page in pages:
        links = stylesheets(page.read_text(encoding="utf-8"))
        root = "../" * (len(page.relative_to(out).parts) - 1)
        assert links[-1] == f"{root}_theme/custom.css", page  # after the theme's, graph.css included
        assert links[:2] == [f"{root}_theme/style.css", f"{root}_theme/layout.css"], page
    assert stylesheets((out / "graph.html").read_text())[-2:] == ["_theme/graph.css", "_theme/custom.css"]


def test_a_site_without_the_setting_links_no_stylesheet_of_its_own(workspace: MakeWorkspace, tmp_path: Path) -> None:
    ws = workspace({**FILES, "memwiki.toml": TOML, "style/wiki.css": CSS})
    out = tmp_path / "site"
    assert run("build", str(ws), "-o", str(out), *BUILD).exit_code == 0
    assert (out / "_theme/custom.css").is_file()
    (ws / "memwiki.toml").write_text('[site]\ntitle = "Styled"\n')  # the setting taken away: the file goes too
    assert run("build", str(ws), "-o", str(out), *BUILD).exit_code == 0
    assert not (out / "_theme/custom.css").exists()
    assert "custom.css" not in (out / "index.html").read_text()


@pytest.mark.parametrize(
    ("css", "problem"),
    [
        ("../outside.css", "must be a path inside the workspace"),
        ("/etc/site.css", "must be a path inside the workspace"),
        ("style/../../outside.css", "must be a path inside the workspace"),
        ("~/site.css", "must be a path inside the workspace"),
        ("style/wiki.txt", "must name a .css file"),
        ("style/missing.css", "'style/missing.css' is not a file in the workspace"),
        ("style", "must name a .css file"),
    ],
)
def test_a_bad_stylesheet_stops_the_build_at_its_line_of_memwiki_toml(
    workspace: MakeWorkspace, tmp_path: Path, css: str, problem: str
) -> None:
    ws = workspace({**FILES, "memwiki.toml": f'[site]\ntitle = "Styled"\n\ncss = "{css}"\n', "style/wiki.css": CSS})
    (tmp_path / "outside.css").write_text(CSS)
    out = tmp_path / "site"
    result = run("build", str(ws), "-o", str(out), *BUILD)
    assert result.exit_code == 2
    assert f"memwiki.toml:4: error: [site] css {problem}" in result.output
    assert "Traceback" not in result.output
    assert not out.exists()
    assert not (ws / ".memwiki").exists()  # nothing written, not even the cache


def test_a_stylesheet_that_links_outside_the_workspace_is_refused(workspace: MakeWorkspace, tmp_path: Path) -> None:
    ws = workspace({**FILES, "memwiki.toml": TOML})
    (tmp_path / "secret.css").write_text(CSS)
    (ws / "style").mkdir()
    (ws / "style/wiki.css").symlink_to(tmp_path / "secret.css")
    result = run("build", str(ws), "-o", str(tmp_path / "site"), *BUILD)
    assert result.exit_code == 2
    assert "memwiki.toml:3: error: [site] css 'style/wiki.css' leads outside the workspace" in result.output


def test_a_template_named_like_a_builtin_one_overrides_it_and_a_note_template_is_left_out(
    workspace: MakeWorkspace, tmp_path: Path
) -> None:
    ws = workspace(
        {
            **FILES,
            "templates/base.html": footer_base("Kept by the workspace"),
            "templates/daily-note.md": "# Daily note\n\nWhat happened today.\n",
            "templates/card.html": "{{ nothing at all",  # named like no template of memwiki's: not read
        }
    )
    out = tmp_path / "site"
    result = run("build", str(ws), "-o", str(out), *BUILD)
    assert result.exit_code == 0, result.output
    for page in ("index.html", "memory/2026-01-02.html", "bank/entities/sam.html", "hygiene.html"):
        html = (out / page).read_text()
        assert "Kept by the workspace" in html and BUILTIN_FOOTER not in html, page
    assert "card.html" not in result.output
    # The note template beside them is a note template, not a page template: left out, and said so.
    assert not (out / "templates/daily-note.html").exists()
    assert "templates/daily-note.md" in (out / "hygiene.html").read_text()


def test_memwiki_own_templates_folder_comes_first_and_says_what_it_does_not_use(
    workspace: MakeWorkspace, tmp_path: Path
) -> None:
    ws = workspace(
        {
            **FILES,
            "templates/base.html": footer_base("From templates/"),
            ".memwiki/templates/base.html": footer_base("From .memwiki/templates/"),
            ".memwiki/templates/partials/fact.html": '<li class="my-fact">{{ fact.html | safe }}</li>\n',
            ".memwiki/templates/bse.html": "a typo",
        }
    )
    out = tmp_path / "site"
    result = run("build", str(ws), "-o", str(out), *BUILD)
    assert result.exit_code == 0, result.output
    html = (out / "memory/2026-01-01.html").read_text()
    assert "From .memwiki/templates/" in html and "From templates/" not in html
    assert '<li class="my-fact">Moved to' in (out / "bank/entities/sam.html").read_text()
    assert ".memwiki/templates/bse.html: warning: overrides no template of memwiki's" in result.output


@pytest.mark.slow  # 0.8 s
@pytest.mark.parametrize(
    ("broken", "where", "problem"),
    [
        ("{% if %}", 53, "not a valid template: Expected an expression"),
        ("{{ page | no_such_filter }}", 53, "not a valid template: No filter named 'no_such_filter'"),
        ("{{ page.chrome.nope }}", 53, "cannot be rendered: UndefinedError:"),
    ],
)
def test_a_broken_template_stops_the_build_at_its_line_and_keeps_the_site(
    workspace: MakeWorkspace, tmp_path: Path, broken: str, where: int, problem: str
) -> None:
    ws = workspace({**FILES, "templates/base.html": builtin_base()})
    out = tmp_path / "site"
    assert run("build", str(ws), "-o", str(out), *BUILD).exit_code == 0
    before = site_bytes(out)
    lines = builtin_base().split("\n")
    assert lines[where - 1] == "{% block main %}{% endblock %}"
    lines[where - 1] += broken
    (ws / "templates/base.html").write_text("\n".join(lines))
    result = run("build", str(ws), "-o", str(out), *BUILD)
    assert result.exit_code == 2
    assert f"templates/base.html:{where}: error: {problem}" in result.output
    assert "1 template(s) in error; fix them first (the site was not changed)" in result.output
    assert "Traceback" not in result.output
    assert site_bytes(out) == before


@pytest.mark.slow  # 0.7 s
def test_a_cached_build_follows_an_edit_of_a_template_or_the_stylesheet(
    workspace: MakeWorkspace, tmp_path: Path
) -> None:
    ws = workspace(
        {**FILES, "memwiki.toml": TOML, "style/wiki.css": CSS, ".memwiki/templates/base.html": footer_base("First")}
    )
    out = tmp_path / "site"
    assert run("build", str(ws), "-o", str(out), *BUILD).exit_code == 0
    assert "First" in (out / "memory/2026-01-02.html").read_text()
    (ws / ".memwiki/templates/base.html").write_text(footer_base("Second"))
    (ws / "style/wiki.css").write_text(CSS + "body { margin: 0; }\n")
    result = run("build", str(ws), "-o", str(out), *BUILD)
    assert result.exit_code == 0 and "Up to date" not in result.output
    for page in out.rglob("*.html"):
        assert "First" not in page.read_text(), page
    assert "Second" in (out / "memory/2026-01-02.html").read_text()
    assert (out / "_theme/custom.css").read_text().endswith("body { margin: 0; }\n")
    cold = tmp_path / "cold"
    assert run("build", str(ws), "-o", str(cold), *BUILD, "--no-cache").exit_code == 0
    assert site_bytes(out) == site_bytes(cold)
    (ws / ".memwiki/templates/base.html").unlink()  # memwiki's own again
    assert run("build", str(ws), "-o", str(out), *BUILD).exit_code == 0
    assert BUILTIN_FOOTER in (out / "memory/2026-01-02.html").read_text()


def test_serve_rebuilds_for_the_stylesheet_and_the_templates(workspace: MakeWorkspace) -> None:
    ws = workspace({**FILES, "memwiki.toml": TOML, "style/wiki.css": CSS})
    accept = workspace_filter(open_workspace(ws))
    edited = ["style/wiki.css", "templates/base.html", ".memwiki/templates/partials/fact.html", "memory.md"]
    ignored = [".memwiki/cache/memo/x.pickle", "templates/card.html", "_site/_theme/custom.css"]
    assert [rel for rel in edited + ignored if accept(1, str(ws / rel))] == edited  # type: ignore[arg-type]


def test_a_template_extends_memwikis_own_by_its_memwiki_name(workspace: MakeWorkspace, tmp_path: Path) -> None:
    ws = workspace(
        {
            **FILES,
            "templates/base.html": '{% extends "memwiki/base.html" %}{% block scripts %}<!-- mine -->{% endblock %}',
        }
    )
    out = tmp_path / "site"
    result = run("build", str(ws), "-o", str(out), *BUILD)
    assert result.exit_code == 0, result.output
    html = (out / "memory/2026-01-02.html").read_text()
    assert "<!-- mine -->" in html and "Met <a" in html and BUILTIN_FOOTER in html
    (ws / "templates/base.html").write_text('{% extends "base.html" %}')  # itself: a clear message, no traceback
    result = run("build", str(ws), "-o", str(out), *BUILD)
    assert result.exit_code == 2
    assert "templates/base.html:1: error: cannot be rendered: RecursionError" in result.output
    assert "extend 'memwiki/base.html'" in result.output
