"""``memwiki init``: a new workspace with short example content, and (``--github-pages``) the workflow that publishes
it, with the pip spec a runner installs memwiki by."""

from __future__ import annotations

import datetime as dt
import shlex
from pathlib import Path

import click

from site_builder.core.config import parse_config
from site_builder.core.diagnostics import Diagnostics


@click.command("init")
@click.argument("directory", default=".", type=click.Path(path_type=Path), required=False)
@click.option("--title", default="My agent's memory", show_default=True, help="Site title for memwiki.toml.")
@click.option(
    "--github-pages",
    is_flag=True,
    help="Also add a GitHub Actions workflow that publishes to Pages (when GitHub can install this memwiki).",
)
def init_command(directory: Path, title: str, github_pages: bool) -> None:
    """Create a new workspace in DIRECTORY with short example content (existing files are kept)."""
    from site_builder.io.scaffold import scaffold_files, write_new_files

    if directory.exists() and not directory.is_dir():
        raise click.ClickException(f"{directory} exists and is not a folder")
    install = publish_spec(directory) if github_pages else None
    try:
        created, kept = write_new_files(directory, scaffold_files(title, dt.date.today(), install))
    except OSError as exc:
        raise click.ClickException(f"cannot write the workspace: {exc}") from None
    for rel in created:
        click.echo(f"  created {rel}")
    for rel in kept:
        click.echo(f"  kept    {rel} (already there)")
    where = shlex.quote(str(directory))
    click.echo(f"Next: memwiki serve {where}   (preview while you edit), or memwiki build {where}")
    if install:
        click.echo("Push to GitHub and set Settings > Pages > Source to 'GitHub Actions' to publish.")
    elif install is not None:
        click.echo(
            f"To publish: commit the workspace to a git repository with a remote on GitHub, run memwiki publish {where}"
            " and set Settings > Pages > Source to 'Deploy from a branch', gh-pages."
        )


def publish_spec(directory: Path) -> str:
    """The pip spec the Pages workflow installs: the workspace's ``[publish] install``, else the memwiki installed
    here as a runner can install it, else "" (no workflow: said on the terminal, with what to do instead)."""
    from site_builder.io.install_spec import installed_spec

    try:
        text: str | None = (directory / "memwiki.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = None
    if text is not None:
        chosen = parse_config(text, Diagnostics()).publish_install
        if chosen:
            click.echo(f"The Pages workflow installs {chosen} ([publish] install in memwiki.toml).")
            return chosen
    found = installed_spec()
    if found.spec:
        click.echo(f"The Pages workflow installs {found.spec}: {found.reason}.")
    else:
        click.echo(
            f"warning: no GitHub Pages workflow written: {found.reason}. Publish with memwiki publish (it pushes the "
            "site to a gh-pages branch), or set [publish] install in memwiki.toml to a pip spec GitHub can install, "
            'e.g. "memwiki @ git+https://github.com/OWNER/memwiki@COMMIT", and run memwiki init --github-pages again',
            err=True,
        )
    return found.spec
