"""memwiki's Jinja2 templates and theme files, and the partials rendered once per item rather than once per page."""

from __future__ import annotations

import contextlib
import functools
import os
from pathlib import Path

import jinja2

from site_builder.site.views import FactView, PageView

PACKAGE_DIR = Path(__file__).resolve().parents[1]  # site_builder/

# A fact as a list item: rendered once per fact through this partial, and reused by every page that lists the fact.
FACT_ITEM = "partials/fact.html"
# Partials rendered on their own, once per item, and what they show: template -> (name, view).
PARTS: dict[str, tuple[str, type]] = {FACT_ITEM: ("fact", FactView)}


def resource_dir(name: str) -> Path:
    """``templates`` or ``themes``: inside the installed wheel, or beside the source tree."""
    for candidate in (PACKAGE_DIR / name, PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"memwiki is missing its {name}/ folder; reinstall memwiki")


@functools.cache
def make_environment() -> jinja2.Environment:
    """The template environment, made once per process: templates compile once, not once per build (nor are
    their files looked at again: they are memwiki's own, not the workspace's)."""
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(resource_dir("templates")),
        auto_reload=False,
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=False,
        keep_trailing_newline=True,
    )
    environment.filters["thousands"] = thousands
    return environment


def keep_compiled_templates(folder: Path | None) -> None:
    """Keep the templates this build compiles in ``folder`` (``.memwiki/cache/memo/templates``), and take those compiled
    there already: compiling the templates an edit renders took 40 ms of it, loading them 5. None: this build keeps
    nothing (nor in the folder of an earlier build of this process)."""
    if folder is not None:
        with contextlib.suppress(OSError):
            folder.mkdir(parents=True, exist_ok=True)
    make_environment().bytecode_cache = _CompiledTemplates(str(folder)) if folder is not None else None


class _CompiledTemplates(jinja2.FileSystemBytecodeCache):
    """Jinja2's cache of compiled templates in a folder, where a template that cannot be kept only costs time."""

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        super().load_bytecode(bucket)
        with contextlib.suppress(OSError):  # used by this build: the memo store keeps it
            os.utime(self._get_cache_filename(bucket))


def thousands(count: int) -> str:
    """A count as people read it: ``29,368``."""
    return f"{count:,}"


def render_part(template: str, view: object) -> str:
    """The partial ``template`` (one of ``PARTS``) showing ``view``."""
    name, _ = PARTS[template]
    return make_environment().get_template(template).render({name: view})


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
