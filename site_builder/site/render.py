"""Render the site: every page's view through its Jinja2 template, plus the theme's static files."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import jinja2

from site_builder.core.config import Config
from site_builder.core.model import Library
from site_builder.library.hygiene import Section
from site_builder.site.builder import PageBuilder
from site_builder.site.feeds import feed_page, sitemap_page
from site_builder.site.markdown import MarkdownRenderer
from site_builder.site.pages import collect_pages
from site_builder.site.views import PageView

PACKAGE_DIR = Path(__file__).resolve().parents[1]  # site_builder/


def resource_dir(name: str) -> Path:
    """``templates`` or ``themes``: inside the installed wheel, or beside the source tree."""
    for candidate in (PACKAGE_DIR / name, PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"memwiki is missing its {name}/ folder; reinstall memwiki")


@dataclass(frozen=True)
class RenderedSite:
    """Every file of the site by its path, and how many of them are pages."""

    files: dict[str, bytes]
    pages: int


def render_site(library: Library, config: Config, hygiene: list[Section], layouts: tuple[str, ...]) -> RenderedSite:
    """The whole site in memory: pages, feed, sitemap and theme files."""
    builder = PageBuilder(library, config, MarkdownRenderer())
    pages = collect_pages(builder, hygiene, layouts)
    feeds = [feed_page(builder), *filter(None, [sitemap_page(builder, pages)])]
    return RenderedSite(render_pages([*pages, *feeds], make_environment()) | theme_files(), len(pages))


@functools.cache
def make_environment() -> jinja2.Environment:
    """The template environment, made once per process: templates compile once, not once per build."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(resource_dir("templates")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=False,
        keep_trailing_newline=True,
    )


def render_pages(pages: list[PageView], env: jinja2.Environment) -> dict[str, bytes]:
    """Site path -> bytes for every page: its view rendered by the template it names, as ``page``."""
    return {page.chrome.url: env.get_template(page.template).render(page=page).encode("utf-8") for page in pages}


def theme_files(theme: str = "default") -> dict[str, bytes]:
    """The theme's CSS, JS and icons, placed under ``_theme/`` in the site."""
    folder = resource_dir("themes") / theme
    return {
        f"_theme/{path.relative_to(folder).as_posix()}": path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }
