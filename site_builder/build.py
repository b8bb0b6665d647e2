"""``build()``: the whole pipeline, one line per stage, each timed.

read -> parse -> model -> render -> recall bundle -> write (staged) -> search
index -> swap in, then the recall bundle is copied to ``WORKSPACE/.memwiki/``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from site_builder.core.config import Config, parse_config
from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Library
from site_builder.core.progress import Progress
from site_builder.io.reader import open_workspace, read_config, read_raw, read_workspace
from site_builder.io.writer import Staging, check_output, write_derived
from site_builder.library.hygiene import Section, hygiene_report
from site_builder.library.link import build_library
from site_builder.parse.note import parse_note
from site_builder.recall.bundle import Bundle, make_bundle
from site_builder.reflect.run import Reflector, ReflectResult, reflect, write_changes
from site_builder.site.feeds import feed_page, sitemap_page
from site_builder.site.markdown import MarkdownRenderer
from site_builder.site.pagefind import SearchIndexError, SearchStats, index_site
from site_builder.site.pages import PageBuilder, collect_pages
from site_builder.site.render import make_environment, render_pages, theme_files


@dataclass
class Loaded:
    """A workspace read, parsed and linked: what every command starts from."""

    root: Path
    config: Config
    library: Library
    diagnostics: Diagnostics


@dataclass
class BuildResult:
    output: Path
    pages: int
    files: int
    written: bool
    loaded: Loaded
    search: SearchStats | None
    recall: Bundle
    timings: dict[str, float]
    reflected: ReflectResult | None = None


def load_config(workspace: str | Path) -> Config:
    """Just the settings of a workspace (defaults when it has no memwiki.toml or cannot be read)."""
    diagnostics = Diagnostics()
    return parse_config(read_config(open_workspace(workspace), diagnostics), diagnostics)


def load(workspace: str | Path, progress: Progress | None = None) -> Loaded:
    """read -> parse -> model."""
    progress = progress or Progress()
    diagnostics = Diagnostics()
    root = open_workspace(workspace)
    with progress.stage("read"):
        files = read_workspace(root, diagnostics)
        config = parse_config(files.config_text, diagnostics)
    with progress.stage("parse"):
        notes = [parse_note(source, diagnostics) for source in files.files]
    with progress.stage("model"):
        library = build_library(notes, diagnostics)
    return Loaded(root, config, library, diagnostics)


def reflect_workspace(
    loaded: Loaded, reflector: Reflector, progress: Progress | None = None, dry_run: bool = False
) -> tuple[Loaded, ReflectResult]:
    """Run reflect and write its changes; returns the workspace loaded again if anything changed."""
    diagnostics = loaded.diagnostics
    result = reflect(loaded.library, reflector, lambda rel: read_raw(loaded.root, rel), diagnostics)
    if dry_run:
        return loaded, result
    cache = reflector.cache_files()
    if cache:
        try:
            write_derived(loaded.root / ".memwiki", cache)
        except OSError as exc:
            diagnostics.warn(".memwiki", 0, f"reflect cache not saved: {exc}", "io")
    if not result.changes:
        return loaded, result
    write_changes(loaded.root, result, diagnostics)
    again = load(loaded.root, progress)
    again.diagnostics.items = [*again.diagnostics.items, *(d for d in diagnostics.items if d.code == "reflect")]
    return again, result


def build(
    workspace: str | Path,
    output: str | Path | None = None,
    *,
    strict: bool = False,
    search: bool = True,
    progress: Progress | None = None,
    base_url: str | None = None,
    reflector: Reflector | None = None,
) -> BuildResult:
    """Reflect (when a reflector is given), then build the site.

    Under ``strict`` any warning leaves the previous site untouched.
    """
    progress = progress or Progress()
    root = open_workspace(workspace)
    out = check_output(Path(output) if output else root / "_site", root)
    loaded = load(root, progress)
    reflected = None
    if reflector is not None:
        with progress.stage("reflect"):
            loaded, reflected = reflect_workspace(loaded, reflector, progress)
    if base_url is not None:
        loaded.config = dataclasses.replace(loaded.config, base_url=base_url.rstrip("/"))
    with progress.stage("render"):
        sections: list[Section] = hygiene_report(loaded.library, loaded.diagnostics)
        builder = PageBuilder(loaded.library, loaded.config, MarkdownRenderer())
        pages = collect_pages(builder, sections)
        feeds = [feed_page(builder), *filter(None, [sitemap_page(builder, pages)])]
        files = render_pages([*pages, *feeds], make_environment()) | theme_files()
    with progress.stage("recall"):
        bundle = make_bundle(loaded.library, loaded.config.title, loaded.config.recall_max_tokens)
        files |= bundle.files()
    if strict and loaded.diagnostics.items:
        return BuildResult(out, len(pages), 0, False, loaded, None, bundle, progress.timings, reflected)
    with progress.stage("write"):
        staging = Staging(out)
        staging.write(files)
    stats = None
    try:
        if search:
            with progress.stage("index"):
                stats = index_site(staging.path)
    except SearchIndexError as exc:
        loaded.diagnostics.warn(".", 0, f"search index not built: {exc}", "search")
    except BaseException:
        staging.abort()
        raise
    if strict and loaded.diagnostics.items:
        staging.abort()
        return BuildResult(out, len(pages), 0, False, loaded, stats, bundle, progress.timings, reflected)
    staging.commit()
    try:
        write_derived(root / ".memwiki", bundle.files())
    except OSError as exc:
        loaded.diagnostics.warn(".memwiki", 0, f"recall.json not copied into the workspace: {exc}", "io")
    return BuildResult(out, len(pages), len(files), True, loaded, stats, bundle, progress.timings, reflected)
