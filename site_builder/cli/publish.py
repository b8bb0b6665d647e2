"""``memwiki publish``: build the site of a workspace kept in git and push it to a branch (``gh-pages``) that GitHub
Pages, or any host that serves a branch, publishes. The git side is ``io.pages_branch``; the site is built into
``.memwiki/publish/site``, so the workspace gains nothing but memwiki's own folder and a re-publish builds only
what changed."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import click

import site_builder
from site_builder.cli.options import base_url_option, report_problems, title_option, unusable, workspace_argument
from site_builder.io.pages_branch import (
    PublishError,
    Repository,
    Tips,
    check_branch_name,
    choose_parent,
    commit_site,
    find_tips,
    move_branch,
    open_repository,
    push_commit,
    uncommitted_changes,
)
from site_builder.io.reader import Workspace, WorkspaceError, open_workspace
from site_builder.io.staging import OutputError

SITE_FOLDER = ".memwiki/publish/site"  # in the workspace: where publish builds
MEMWIKI_FOLDERS = (".memwiki", "_site")  # what memwiki writes into a workspace: not changes to the memory
SHOWN_CHANGES = 5  # changed files named in the refusal; the rest are counted


@dataclass(frozen=True)
class Target:
    """Where the site goes: ``branch`` of ``remote``, pushed unless ``push`` is off."""

    remote: str
    branch: str
    push: bool
    force: bool


@dataclass(frozen=True)
class BuildAsked:
    """The ``build`` options ``publish`` passes on."""

    strict: bool
    search: bool
    reflect: bool
    cache: bool
    base_url: str | None
    title: str | None


@click.command("publish")
@workspace_argument
@click.option("--remote", default="origin", show_default=True, help="The git remote to push the site to.")
@click.option("--branch", default="gh-pages", show_default=True, help="The branch that holds the site.")
@click.option("-m", "--message", help="Commit message ({sha}: the workspace's commit); default names both.")
@click.option("--no-push", is_flag=True, help="Commit the site onto the branch here only; push it yourself.")
@click.option("--allow-dirty", is_flag=True, help="Publish even when the workspace has changes not committed.")
@click.option("--force", is_flag=True, help="Publish onto a branch memwiki did not make, or that diverged.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors: exit 1 and publish nothing.")
@click.option("--no-search", is_flag=True, help="Skip the Pagefind search index.")
@click.option("--no-reflect", is_flag=True, help="Do not run reflect first (publish the pages as committed).")
@click.option("--no-cache", is_flag=True, help="Parse every file again instead of reusing the build cache.")
@base_url_option
@title_option
def publish_command(
    workspace: Path,
    remote: str,
    branch: str,
    message: str | None,
    no_push: bool,
    allow_dirty: bool,
    force: bool,
    strict: bool,
    no_search: bool,
    no_reflect: bool,
    no_cache: bool,
    base_url: str | None,
    title: str | None,
) -> None:
    """Build WORKSPACE and push the site to a branch of its git repository, as a new commit on top of the last.

    Nothing is checked out: the workspace's files and git index stay as they are. On GitHub, set Settings > Pages
    > Source to "Deploy from a branch", gh-pages, / (root).
    """
    target = Target(remote, branch, not no_push, force)
    asked = BuildAsked(strict, not no_search, not no_reflect, not no_cache, base_url, title)
    try:
        opened = open_workspace(workspace)
        opened.require_usable()
        repo = open_repository(opened.root)
        dirty = _refuse_changes(opened.root, allow_dirty, "")
        check_branch_name(repo.top, branch)
        _refuse_checked_out(repo, branch)
        tips = find_tips(repo.top, remote, branch, ask_remote=target.push)
        parent = choose_parent(repo.top, tips, remote, branch, force=force)
        site = _build_site(opened, asked)
        dirty = _refuse_changes(opened.root, allow_dirty, "reflect changed") or dirty
        commit = commit_site(repo, site, parent, _message(message, repo.head, dirty))
        _deliver(repo, target, tips, commit)
    except WorkspaceError as exc:
        raise unusable(exc) from None
    except (PublishError, OutputError) as exc:
        raise click.ClickException(str(exc)) from None


def _refuse_changes(root: Path, allowed: bool, cause: str) -> bool:
    """Whether the workspace has changes not committed; refused unless ``allowed`` (``cause``: what made them)."""
    changed = uncommitted_changes(root, MEMWIKI_FOLDERS)
    if not changed or allowed:
        return bool(changed)
    named = ", ".join(changed[:SHOWN_CHANGES]) + (
        f" and {len(changed) - SHOWN_CHANGES} more" if changed[SHOWN_CHANGES:] else ""
    )
    if cause:
        raise PublishError(
            f"{cause} {named}: the site would match no commit; review and commit them, then publish again "
            "(or --no-reflect, or --allow-dirty)"
        )
    raise PublishError(
        f"the workspace has changes not committed ({named}): the site would match no commit; commit them, "
        "or publish the workspace as it is with --allow-dirty"
    )


def _refuse_checked_out(repo: Repository, branch: str) -> None:
    if repo.head_ref == f"refs/heads/{branch}":
        raise PublishError(
            f"the workspace is on branch {branch}, which publish would replace with the site: check out your "
            "memory's branch, or name another --branch"
        )


def _build_site(opened: Workspace, asked: BuildAsked) -> Path:
    """Build the site into the workspace's ``.memwiki/``, as ``memwiki build`` does; exit 1 when ``--strict``
    finds a problem."""
    from site_builder.build import build
    from site_builder.core.progress import Progress
    from site_builder.reflect.choose import ReflectorError, make_reflector

    try:
        reflector = make_reflector(opened.config, root=opened.root) if asked.reflect else None
        result = build(
            opened, opened.root / SITE_FOLDER, strict=asked.strict, search=asked.search,
            progress=Progress.for_terminal(), base_url=asked.base_url, title=asked.title, reflector=reflector,
            cache=asked.cache,
        )  # fmt: skip
    except ReflectorError as exc:
        raise PublishError(str(exc)) from None
    report_problems(result.diagnostics, asked.strict, opened.root)
    if not result.written:
        count = len(result.diagnostics.items)
        click.echo(f"Build failed under --strict: {count} problem(s); nothing was published.", err=True)
        sys.exit(1)
    if result.reflected is not None:
        click.echo(result.reflected.summary())
    built = "Up to date:" if result.up_to_date else "Built"
    click.echo(f"{built} {result.pages} pages ({result.files} files) in {result.output}")
    return result.output


def _message(asked: str | None, head: str, dirty: bool) -> str:
    """The commit's message: ``--message`` with ``{sha}`` as the workspace's commit, else one naming memwiki and it."""
    if asked is not None:
        return asked.replace("{sha}", head) + "\n"
    changes = ", with changes not committed" if dirty else ""
    return (
        f"Publish the memory wiki of {head[:12]}{changes}\n\n"
        f"Built by memwiki {site_builder.__version__} from commit {head}{changes}.\n"
    )


def _deliver(repo: Repository, target: Target, tips: Tips, commit: str) -> None:
    """Push ``commit`` (unless asked not to), then move the local branch to it, and say what was done."""
    pushing = target.push and commit != tips.remote
    if pushing:
        push_commit(repo.top, target.remote, target.branch, commit)
    if commit != tips.local:
        move_branch(repo.top, target.branch, commit, tips.local)
    click.echo(_said(repo, target, commit, pushing or commit != tips.local))


def _said(repo: Repository, target: Target, commit: str, changed: bool) -> str:
    """What ``_deliver`` did, in a line."""
    if not target.push:
        done = "Committed the site as" if changed else "Nothing to commit: the branch holds this site already,"
        return f"{done} {commit[:12]} on {target.branch}; git push {target.remote} {target.branch} publishes it."
    if not changed:
        return f"Nothing to publish: {target.branch} on {target.remote} holds this site already ({commit[:12]})."
    return f"Published the site of {repo.head[:12]} to {target.branch} on {target.remote} as {commit[:12]}."
