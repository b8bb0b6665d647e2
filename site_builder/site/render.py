"""Render page views to HTML with Jinja2 and gather the theme's static files."""

from __future__ import annotations

from pathlib import Path

import jinja2

from site_builder.site.views import PageView

PACKAGE_DIR = Path(__file__).resolve().parents[1]  # site_builder/


def resource_dir(name: str) -> Path:
    """``templates`` or ``themes``: inside the installed wheel, or beside the source tree."""
    for candidate in (PACKAGE_DIR / name, PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"memwiki is missing its {name}/ folder; reinstall memwiki")


def make_environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(resource_dir("templates")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=False,
        keep_trailing_newline=True,
    )


def render_pages(pages: list[PageView], env: jinja2.Environment) -> dict[str, bytes]:
    """Site path -> HTML bytes for every page."""
    out = {}
    for page in pages:
        html = env.get_template(page.template).render(page=page)
        out[page.url] = html.encode("utf-8")
    return out


def theme_files(theme: str = "default") -> dict[str, bytes]:
    """The theme's CSS, JS and icons, placed under ``_theme/`` in the site."""
    folder = resource_dir("themes") / theme
    return {
        f"_theme/{path.relative_to(folder).as_posix()}": path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }
