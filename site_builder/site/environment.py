"""memwiki's Jinja2 templates and theme files, and the partials rendered once per item rather than once per page;
the workspace's templates over memwiki's (``io.styling``) and its stylesheet."""

from __future__ import annotations

import contextlib
import functools
import os
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import jinja2

from site_builder.core.diagnostics import Diagnostic
from site_builder.io.reader import BadTemplates
from site_builder.io.styling import Styling, TemplateFile, resource_dir
from site_builder.site.views import FactView, PageView

# Where the workspace's stylesheet (``[site] css``) goes in the site: linked after the theme's, so its rules win.
CUSTOM_CSS = "_theme/custom.css"

# A fact as a list item: rendered once per fact through this partial, and reused by every page that lists the fact.
FACT_ITEM = "partials/fact.html"
# Partials rendered on their own, once per item, and what they show: template -> (name, view).
PARTS: dict[str, tuple[str, type]] = {FACT_ITEM: ("fact", FactView)}


@functools.cache
def make_environment() -> jinja2.Environment:
    """The template environment, made once per process: templates compile once, not once per build (nor are
    their files looked at again: they are memwiki's own; the workspace's come read with it, ``use_templates``)."""
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


class _WorkspaceTemplates(jinja2.BaseLoader):
    """The workspace's templates, by name, each with the path it was read from (errors name it)."""

    def __init__(self, templates: tuple[TemplateFile, ...]) -> None:
        self.by_name = {template.name: template for template in templates}

    def get_source(self, environment: jinja2.Environment, name: str) -> tuple[str, str, Callable[[], bool]]:
        found = self.by_name.get(name)
        if found is None:
            raise jinja2.TemplateNotFound(name)
        return found.text, found.path, lambda: True

    def list_templates(self) -> list[str]:
        return sorted(self.by_name)


_in_use: list[tuple[TemplateFile, ...]] = [()]  # the workspace templates the environment renders with now


def use_templates(templates: tuple[TemplateFile, ...]) -> None:
    """Render with the workspace's ``templates`` over memwiki's own (none: memwiki's alone), each compiled now: one
    that does not compile raises ``BadTemplates`` at its file:line before any page is made."""
    environment = make_environment()
    if templates == _in_use[0]:
        return
    builtin = jinja2.FileSystemLoader(resource_dir("templates"))
    # "memwiki/base.html" is memwiki's own base.html, for a template of the workspace's that extends it
    own = jinja2.PrefixLoader({"memwiki": builtin})
    loader = jinja2.ChoiceLoader([_WorkspaceTemplates(templates), builtin, own]) if templates else builtin
    environment.loader = loader
    if environment.cache is not None:
        environment.cache.clear()  # templates compiled from the loader before
    _in_use[0] = templates
    problems = []
    for template in templates:
        try:
            environment.get_template(template.name)
        except jinja2.TemplateSyntaxError as exc:
            problems.append(
                Diagnostic(template.path, exc.lineno, f"not a valid template: {exc.message}", "template", "error")
            )
    if problems:
        use_templates(())
        raise BadTemplates(problems)


@contextlib.contextmanager
def template_errors() -> Iterator[None]:
    """An error raised while rendering one of the workspace's templates (``{{ page.nope }}``) as ``BadTemplates``
    at its file:line; any other is raised as it is (memwiki's own templates are tested)."""
    try:
        yield
    except Exception as exc:
        names = {template.path: template.name for template in _in_use[0]}
        where = _last_line_in(exc.__traceback__, set(names)) if names else None
        if where is None:
            raise
        message = f"cannot be rendered: {type(exc).__name__}: {exc}"
        if isinstance(exc, RecursionError):  # memwiki's own is "memwiki/NAME"
            message += f"; does it extend itself? extend 'memwiki/{names[where[0]]}'"
        raise BadTemplates([Diagnostic(where[0], where[1], message, "template", "error")]) from None


def _last_line_in(trace: types.TracebackType | None, paths: set[str]) -> tuple[str, int] | None:
    """The innermost frame of ``trace`` in one of the templates at ``paths``: its path and line."""
    found = None
    while trace is not None:
        if trace.tb_frame.f_code.co_filename in paths:
            found = (trace.tb_frame.f_code.co_filename, trace.tb_lineno)
        trace = trace.tb_next
    return found


def styling_files(styling: Styling) -> dict[str, bytes]:
    """The workspace's stylesheet where the pages link it (``CUSTOM_CSS``), when it has one."""
    return {CUSTOM_CSS: styling.css} if styling.css is not None else {}


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
