"""The ``memwiki`` command line: thin wrappers around ``build`` and friends."""

from __future__ import annotations

import gc
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

import site_builder
from site_builder.cli.agents import context_command, mcp_command, recall_command
from site_builder.cli.init import init_command
from site_builder.cli.options import base_url_option, title_option, workspace_argument
from site_builder.cli.options import report_problems as _report
from site_builder.cli.options import unusable as _unusable
from site_builder.cli.publish import publish_command
from site_builder.core.config import CONFIG_NAME
from site_builder.core.diagnostics import PROBLEM_CODES
from site_builder.io.folder_walk import SITE_FOLDER
from site_builder.io.reader import HIDDEN_SITE_FOLDER, Workspace, WorkspaceError, open_workspace
from site_builder.io.staging import MARKER, OutputError, check_output

if TYPE_CHECKING:
    from site_builder.build_result import BuildResult

# Heavy modules (the renderer, Pagefind, the anthropic SDK, watchfiles) are imported inside the
# commands that use them, so `memwiki recall` starts fast.


def _print_version(ctx: click.Context) -> None:
    """``--version``: the version is read from the package metadata only then (its import is slow)."""
    click.echo(f"memwiki, version {site_builder.__version__}")
    ctx.exit()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    "-V",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=lambda ctx, _, asked: _print_version(ctx) if asked else None,
    help="Show the version and exit.",
)
def main() -> None:
    """memwiki: see, search and reuse what an AI agent remembers.

    WORKSPACE is a folder of an agent's memory (Clawd, OpenClaw, TinyClaw, toebeans,
    ClawXMemory or Claude Code); it defaults to the current directory.
    """


provider_option = click.option(
    "--provider", type=click.Choice(["offline", "anthropic"]), help="Override [reflect] provider in memwiki.toml."
)
max_files_option = click.option(
    "--max-files",
    type=click.IntRange(min=0),
    help="With --provider anthropic: send Claude at most N notes to read this run (the most recent).",
)
OUTPUT_HELP = (
    f"Output folder (default: WORKSPACE/{SITE_FOLDER}; WORKSPACE/{HIDDEN_SITE_FOLDER} without a {CONFIG_NAME})."
)
ONE_SHOT = "one-shot"  # the context object of the ``memwiki`` process (``run``): it exits once a build is done


def run() -> None:
    """The ``memwiki`` command: ``main`` in a process of its own (tests and other callers call ``main``)."""
    main(obj=ONE_SHOT)


def _one_shot() -> bool:  # the ``memwiki`` process (``run``): it ends once its command is done
    return bool(click.get_current_context().find_root().obj == ONE_SHOT)


def _exit_built() -> None:
    """In the ``memwiki`` process, exit as soon as a build has said what it did, without freeing its model object by
    object first: a large workspace's library is over a million objects, a quarter of a second to free. Everything
    the build writes is written by then, and every process it started has ended but the one removing the old site
    (detached: it holds none of this process's pipes)."""
    if _one_shot():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


@main.command("build")
@workspace_argument
@click.option("-o", "--output", type=click.Path(path_type=Path), help=OUTPUT_HELP)
@click.option("--strict", is_flag=True, help="Treat warnings as errors: exit 1 and keep the previous site.")
@click.option("--open", "open_site", is_flag=True, help="Open the built site in a web browser.")
@click.option("--no-search", is_flag=True, help="Skip the Pagefind search index (faster).")
@click.option("--no-reflect", is_flag=True, help="Do not run reflect first (render the pages as they are).")
@click.option("--no-cache", is_flag=True, help="Parse every file again instead of reusing the build cache.")
@provider_option
@max_files_option
@base_url_option
@title_option
def build_command(
    workspace: Path,
    output: Path | None,
    strict: bool,
    open_site: bool,
    no_search: bool,
    no_reflect: bool,
    no_cache: bool,
    provider: str | None,
    max_files: int | None,
    base_url: str | None,
    title: str | None,
) -> None:
    """Reflect, then render WORKSPACE into a static wiki."""
    from site_builder.build import build
    from site_builder.core.progress import Progress
    from site_builder.reflect.choose import ReflectorError, make_reflector

    started = time.perf_counter()
    # The process ends with the build: the few cycles it leaves go with it. Collecting them cost 0.2-0.6 s of an
    # edit build on a ten-year workspace (a cold build's peak memory: +5 %).
    if _one_shot():
        gc.disable()
    try:
        opened = open_workspace(workspace, listed_next=True)
        reflector = None if no_reflect else make_reflector(opened.config, provider, opened.root, max_files=max_files)
        result = build(
            opened,
            output,
            strict=strict,
            search=not no_search,
            progress=Progress.for_terminal(),
            base_url=base_url,
            title=title,
            reflector=reflector,
            cache=not no_cache,
            settle=not _one_shot(),  # the old site's removal goes on once this process has ended
        )
    except WorkspaceError as exc:
        raise _unusable(exc) from None
    except (OutputError, ReflectorError) as exc:
        raise click.ClickException(str(exc)) from None
    _say_built(result, opened, strict, time.perf_counter() - started, default_output=output is None)
    if open_site:
        import webbrowser

        webbrowser.open((result.output / "index.html").as_uri())
    _exit_built()


def _say_built(result: BuildResult, opened: Workspace, strict: bool, took: float, *, default_output: bool) -> None:
    """What the build found, made and where, on the terminal; exit 1 when ``--strict`` kept the previous site."""
    diagnostics = result.diagnostics
    _report(diagnostics, strict, opened.root)
    count = len(diagnostics.items)
    if not result.written:
        click.echo(f"Build failed under --strict: {count} problem(s); the previous site is unchanged.", err=True)
        sys.exit(1)
    if result.reflected is not None:
        click.echo(result.reflected.summary())
    said = f"{took:.2f} s; {count} warning(s). Open {result.output / 'index.html'}"
    if result.up_to_date:
        click.echo(
            f"Up to date: nothing changed since the last build of {result.output} ({result.pages} pages), {said}"
        )
    else:
        click.echo(f"Built {result.pages} pages ({result.files} files) into {result.output} in {said}")
    click.echo(result.recall_report)
    if default_output:
        _say_where(opened)


def _say_where(opened: Workspace) -> None:
    """Why the site is in ``.memwiki/site/`` when it is, and that an earlier build's ``_site/`` is no longer kept up."""
    if opened.default_output.name == SITE_FOLDER:
        return
    click.echo(
        f"The site is in {HIDDEN_SITE_FOLDER}/: this workspace has no {CONFIG_NAME}, so memwiki adds only .memwiki/ "
        "to it (-o DIR builds elsewhere)."
    )
    if (opened.root / SITE_FOLDER / MARKER).is_file():
        click.echo(f"{SITE_FOLDER}/ holds an earlier build's site, no longer updated: remove it, or build with -o.")


@main.command("check")
@workspace_argument
@click.option("--strict", is_flag=True, help="Fail on any finding, not only on broken input.")
def check_command(workspace: Path, strict: bool) -> None:
    """Print the hygiene report; exit 1 when input is broken (any finding with --strict)."""
    from site_builder.core.progress import Progress
    from site_builder.library.hygiene import hygiene_report, report_lines
    from site_builder.library.inventory import inventory_lines
    from site_builder.load import load

    try:
        loaded = load(workspace, Progress.for_terminal())
    except WorkspaceError as exc:
        raise click.ClickException(str(exc)) from None
    diagnostics = loaded.problems()
    sections = hygiene_report(loaded.library, diagnostics, loaded.workspace.left_out)
    root = str(loaded.root)
    click.echo("\n".join([*inventory_lines(loaded.workspace, loaded.notes), *report_lines(sections, root)]))
    problems = [d for d in diagnostics.items if d.code in PROBLEM_CODES or d.level == "error"]
    findings = sum(len(s.findings) for s in sections if s.to_fix)
    click.echo(f"{findings} finding(s), {len(problems)} problem(s).")
    if problems or (strict and findings):
        sys.exit(1)


@main.command("reflect")
@workspace_argument
@click.option("--dry-run", is_flag=True, help="Print the changes as a unified diff and write nothing.")
@provider_option
@max_files_option
@click.option("--strict", is_flag=True, help="Exit 1 on any warning (a failed model call included).")
def reflect_command(workspace: Path, dry_run: bool, provider: str | None, max_files: int | None, strict: bool) -> None:
    """Regenerate entity pages and opinion histories in WORKSPACE from the facts.

    Only the blocks between <!-- memwiki:begin --> and <!-- memwiki:end --> change;
    everything a person wrote around them is kept byte for byte.
    """
    from site_builder.core.progress import Progress
    from site_builder.load import load
    from site_builder.reflect.choose import ReflectorError, make_reflector
    from site_builder.reflect_loaded import reflect_workspace

    try:
        open_workspace(workspace).require_usable()
        loaded = load(workspace, Progress.for_terminal())
        reflector = make_reflector(loaded.workspace.config, provider, root=loaded.root, max_files=max_files)
    except WorkspaceError as exc:
        raise _unusable(exc) from None
    except ReflectorError as exc:
        raise click.ClickException(str(exc)) from None
    _, result, found = reflect_workspace(loaded, reflector, dry_run=dry_run)
    if dry_run:
        click.echo(result.diff(), nl=False)
    _report(found, strict, loaded.root)
    click.echo(result.summary(dry_run))
    if strict and found.items:
        sys.exit(1)


@main.command("serve")
@workspace_argument
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (loopback by default).")
@click.option("-o", "--output", type=click.Path(path_type=Path), help=OUTPUT_HELP)
@click.option("--strict", is_flag=True, help="Treat warnings as build errors (shown on the page).")
@click.option("--no-reflect", is_flag=True, help="Do not run reflect before each build.")
@base_url_option
@title_option
def serve_command(
    workspace: Path,
    port: int,
    host: str,
    output: Path | None,
    strict: bool,
    no_reflect: bool,
    base_url: str | None,
    title: str | None,
) -> None:
    """Build WORKSPACE, serve it, rebuild on every change and reload open pages."""
    from site_builder.serve.loop import Given, serve_workspace

    try:
        opened = open_workspace(workspace)
        opened.require_usable()
        out = check_output(output or opened.default_output, opened.root)
        serve_workspace(opened, out, host, port, strict, Given(base_url, title), not no_reflect)
    except WorkspaceError as exc:
        raise _unusable(exc) from None
    except (OutputError, OSError) as exc:
        raise click.ClickException(str(exc)) from None


main.add_command(init_command)
main.add_command(publish_command)
main.add_command(recall_command)
main.add_command(mcp_command)
main.add_command(context_command)
