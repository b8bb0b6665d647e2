"""What the commands that read a workspace share: the argument that names it, and how they say it is unusable."""

from __future__ import annotations

from pathlib import Path

import click

from site_builder.core.diagnostics import Diagnostics
from site_builder.io.reader import BadSettings, NotAWorkspace, WorkspaceError

workspace_argument = click.argument(
    "workspace", default=".", type=click.Path(file_okay=False, path_type=Path), required=False
)
base_url_option = click.option(
    "--base-url",
    help="Absolute URL the site is hosted at (feed, sitemap, canonical links); overrides [site] base_url.",
)
title_option = click.option(
    "--title",
    help="The site's title; overrides [site] title (default: the agent's name from IDENTITY.md, else 'memwiki').",
)


class Unusable(click.ClickException):
    """The workspace cannot be built as it is (not a memory workspace, settings in error): exit 2, nothing written."""

    exit_code = 2


def unusable(exc: WorkspaceError) -> click.ClickException:
    """The exception to raise for ``exc``: exit 2 when the folder or its settings are unusable, else 1."""
    if isinstance(exc, BadSettings):
        for problem in exc.problems:
            click.echo(f"{problem.where}: error: {problem.message}", err=True)
        return Unusable(str(exc))
    if isinstance(exc, NotAWorkspace):
        return Unusable(str(exc))
    return click.ClickException(str(exc))


def report_problems(diagnostics: Diagnostics, strict: bool, workspace: Path) -> None:
    """Each of a build's problems on stderr, ``file:line: warning: message``."""
    for line in diagnostics.report(strict, str(workspace)):
        click.echo(line, err=True)
