"""The argument every command that reads a workspace takes (the site's commands and the agents')."""

from __future__ import annotations

from pathlib import Path

import click

workspace_argument = click.argument(
    "workspace", default=".", type=click.Path(file_okay=False, path_type=Path), required=False
)
