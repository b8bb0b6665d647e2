"""``memwiki publish``'s git side: a built site committed onto a branch of the workspace's repository (``gh-pages``)
and pushed, with git alone, as ``ghp-import`` and ``mkdocs gh-deploy`` do.

The commit is made with git's plumbing through an index of its own (``GIT_INDEX_FILE``): nothing is checked out, and
the workspace's working tree and index are never touched. The branch holds the site, a ``.nojekyll`` file (GitHub
Pages serves ``_theme/`` as it is) and a ``.memwiki-publish`` file that marks it as memwiki's: a branch without it
holds someone else's work and is only replaced when asked. A ``CNAME`` the branch has (a custom domain set on GitHub)
is kept. The local branch moves only once the remote has taken the commit, so a refused push leaves both as they were.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

PUBLISH_MARKER = ".memwiki-publish"
PUBLISH_MARKER_TEXT = (
    "This branch is written by memwiki publish: each publish replaces its files with the site built from the memory\n"
    "workspace, in a new commit. Edits made here are replaced by the next publish.\n"
)
SITE_MARKER = ".memwiki-site"  # the build's own marker (``io.staging``): not published
ADDED = {".nojekyll": "", PUBLISH_MARKER: PUBLISH_MARKER_TEXT}  # the files every publish adds to the site
KEPT_FROM_BRANCH = ("CNAME",)  # files GitHub writes into the branch, kept when the site has none


class PublishError(Exception):
    """Publishing cannot go on: the message says why and what to do; nothing was pushed."""


@dataclass(frozen=True)
class Repository:
    """The git repository a workspace is in, and the commit its checkout is at."""

    top: Path  # the working tree's top folder
    git_dir: Path
    head: str  # the checked-out commit
    head_ref: str  # "refs/heads/main"; "" when detached


@dataclass(frozen=True)
class Tips:
    """Where the branch stands: here (``local``) and on the remote (``remote``); "" where it does not exist."""

    local: str
    remote: str


def git(repo: Path, *args: str, env: Mapping[str, str] | None = None, text: str | None = None) -> str:
    """Run ``git -C repo ARGS`` and return its output, stripped; ``PublishError`` with git's words when it fails."""
    done = _run_git(repo, args, env, text)
    if done.returncode:
        hint = " (set who commits: git config user.name and user.email)" if "user.email" in done.stderr else ""
        raise PublishError(f"git {args[0]} failed: {_gist(done)}{hint}")
    return done.stdout.strip()


def _gist(done: subprocess.CompletedProcess[str]) -> str:
    """What a failed git command said, on one line: its ``fatal:`` and ``error:`` lines, else all it said."""
    lines = [line.strip() for line in (done.stderr or done.stdout).splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(("fatal:", "error:"))]
    return "; ".join(errors) or " ".join(lines) or f"exit status {done.returncode}"


def _run_git(
    repo: Path, args: tuple[str, ...], env: Mapping[str, str] | None, text: str | None
) -> subprocess.CompletedProcess[str]:
    command = ["git", "-C", str(repo), "-c", "core.autocrlf=false", "-c", "core.safecrlf=false", *args]
    try:
        return subprocess.run(
            command, check=False, capture_output=True, text=True, input=text, env={**os.environ, **(env or {})}
        )
    except OSError as exc:
        raise PublishError(f"cannot run git ({exc.strerror}); memwiki publish needs git installed") from None


def succeeds(repo: Path, *args: str) -> bool:
    """Whether ``git -C repo ARGS`` exits 0 (a question asked of git: is it an ancestor, does the object exist)."""
    return _run_git(repo, args, None, None).returncode == 0


def open_repository(workspace: Path) -> Repository:
    """The repository ``workspace`` is in, with a commit checked out."""
    if not succeeds(workspace, "rev-parse", "--git-dir"):
        raise PublishError(
            f"{workspace} is not in a git repository: memwiki publish pushes the site to a branch of the workspace's "
            "repository (git init, commit the memory, git remote add origin URL)"
        )
    top = Path(git(workspace, "rev-parse", "--show-toplevel"))
    git_dir = Path(git(workspace, "rev-parse", "--absolute-git-dir"))
    if not succeeds(workspace, "rev-parse", "--verify", "-q", "HEAD^{commit}"):
        raise PublishError(f"the repository at {top} has no commit yet: commit the workspace first")
    head = git(workspace, "rev-parse", "HEAD^{commit}")
    git(workspace, "var", "GIT_COMMITTER_IDENT")  # who commits: known before the site is built
    head_ref = _run_git(workspace, ("symbolic-ref", "-q", "HEAD"), None, None).stdout.strip()
    return Repository(top, git_dir, head, head_ref)


def uncommitted_changes(workspace: Path, leave: tuple[str, ...]) -> list[str]:
    """The workspace's files (repository paths) that differ from the commit checked out, untracked ones included,
    but for the folders in ``leave`` (relative to the workspace: memwiki's own)."""
    excluded = [f":(exclude){folder}" for folder in leave]
    args = ("status", "--porcelain=v1", "-z", "--untracked-files=all", "--", ".", *excluded)
    done = _run_git(workspace, args, None, None)
    if done.returncode:
        raise PublishError(f"git status failed: {done.stderr.strip()}")
    listed = done.stdout  # not stripped: each entry starts with its two status letters, a space for "unchanged"
    paths, entries = [], iter(listed.split("\0"))
    for entry in entries:
        if len(entry) > 3:
            paths.append(entry[3:])
            if entry[0] in "RC":
                next(entries, None)  # a rename's or copy's old path
    return paths


def check_branch_name(repo: Path, branch: str) -> None:
    if not branch or not succeeds(repo, "check-ref-format", f"refs/heads/{branch}"):
        raise PublishError(f"--branch {branch!r} is not a valid git branch name")


def find_tips(repo: Path, remote: str, branch: str, *, ask_remote: bool) -> Tips:
    """The branch's tips here and on ``remote`` (asked with ``ask_remote``, its commits fetched; else as last
    fetched)."""
    local = _tip(repo, f"refs/heads/{branch}")
    if not ask_remote:
        return Tips(local, _tip(repo, f"refs/remotes/{remote}/{branch}"))  # as last fetched
    if not succeeds(repo, "remote", "get-url", remote):
        raise PublishError(
            f"the repository has no remote {remote!r}: add one (git remote add {remote} URL), name another with "
            "--remote, or make the branch here only with --no-push"
        )
    listed = git(repo, "ls-remote", "--heads", remote, f"refs/heads/{branch}")
    remote_tip = listed.split()[0] if listed else ""
    if remote_tip and not succeeds(repo, "cat-file", "-e", f"{remote_tip}^{{commit}}"):
        git(repo, "fetch", "--quiet", "--no-tags", remote, f"refs/heads/{branch}")
    return Tips(local, remote_tip)


def _tip(repo: Path, ref: str) -> str:
    """The commit ``ref`` points at; "" when there is no such ref."""
    return _run_git(repo, ("rev-parse", "--verify", "-q", f"{ref}^{{commit}}"), None, None).stdout.strip()


def choose_parent(repo: Path, tips: Tips, remote: str, branch: str, *, force: bool) -> str:
    """The commit the new site goes on top of ("": the branch is new). The remote's tip when the local branch is
    behind it or missing; a branch that diverged from the remote's, or that memwiki did not make, only with
    ``force`` (then on top of the remote's: nothing it holds is lost from its history)."""
    local, far = tips.local, tips.remote
    if local and far and local != far and not succeeds(repo, "merge-base", "--is-ancestor", far, local):
        if not succeeds(repo, "merge-base", "--is-ancestor", local, far) and not force:
            raise PublishError(
                f"{branch} here and {branch} on {remote} have diverged (someone else published?): take theirs with "
                f"git branch -f {branch} {far[:12]} and publish again, or --force to publish on top of {remote}'s"
            )
        local = far  # behind the remote (or forced past ours): go on from the remote's
    parent = local or far
    for tip in {tips.local, far} - {""}:
        if not force and not succeeds(repo, "cat-file", "-e", f"{tip}:{PUBLISH_MARKER}"):
            raise PublishError(
                f"branch {branch} exists and was not made by memwiki publish (no {PUBLISH_MARKER} file at "
                f"{tip[:12]}); publishing would replace its files: name another --branch, or --force to replace them"
            )
    return parent


def commit_site(repo: Repository, site: Path, parent: str, message: str) -> str:
    """A commit of the folder ``site`` (with ``.nojekyll`` and the publish marker) on top of ``parent``; ``parent``
    itself when it holds that tree already. Nothing but git's object store is written."""
    with tempfile.TemporaryDirectory(prefix="memwiki-publish-") as scratch:
        index = {"GIT_INDEX_FILE": str(Path(scratch) / "index")}
        tree_of_site = ("--git-dir", str(repo.git_dir), "--work-tree", str(site))
        git(site, *tree_of_site, "add", "--all", "--force", "--", ".", env=index)
        git(site, *tree_of_site, "update-index", "--force-remove", "--", SITE_MARKER, env=index)
        blobs = {name: git(repo.top, "hash-object", "-w", "--stdin", text=text) for name, text in ADDED.items()}
        for name in KEPT_FROM_BRANCH:
            if parent and not (site / name).exists() and succeeds(repo.top, "cat-file", "-e", f"{parent}:{name}"):
                blobs[name] = git(repo.top, "rev-parse", f"{parent}:{name}")
        for name, blob in blobs.items():
            git(repo.top, "update-index", "--add", "--cacheinfo", f"100644,{blob},{name}", env=index)
        tree = git(repo.top, "write-tree", env=index)
    if parent and git(repo.top, "rev-parse", f"{parent}^{{tree}}") == tree:
        return parent
    return git(repo.top, "commit-tree", tree, *(["-p", parent] if parent else []), "-F", "-", text=message)


def push_commit(repo: Path, remote: str, branch: str, commit: str) -> None:
    """Push ``commit`` to ``remote``'s ``branch`` as a fast-forward (git refuses anything else)."""
    done = _run_git(repo, ("push", "--quiet", remote, f"{commit}:refs/heads/{branch}"), None, None)
    if done.returncode:
        said = " ".join(line.strip() for line in done.stderr.splitlines() if line.strip())  # the remote's reasons
        raise PublishError(
            f"{remote} refused the push of {branch} ({said or f'git push: exit status {done.returncode}'}); "
            f"nothing was published and {branch} here is as it was"
        )


def move_branch(repo: Path, branch: str, commit: str, was: str) -> None:
    """Point the local ``branch`` at ``commit``, if it still is where it ``was`` ("": absent)."""
    git(repo, "update-ref", "-m", "memwiki publish", f"refs/heads/{branch}", commit, was)
