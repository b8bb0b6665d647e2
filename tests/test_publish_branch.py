"""``memwiki publish``: the site built and pushed to a ``gh-pages`` branch with git alone, to a bare repository standing
for GitHub; every refusal says why, and nothing is half-pushed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import Result

from tests.conftest import run, write_workspace

WORKSPACE = {
    "memory.md": "# Core memory\n\nKeep replies short.\n",
    "memory/2026-01-02.md": "# 2026-01-02\n\nPlanted the tomatoes.\n",
    ".gitignore": ".memwiki/\n_site/\n",
}


@pytest.fixture(autouse=True)
def git_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """git as on a fresh machine: an identity from the environment, no global or system settings, and no
    repository above ``tmp_path``."""
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "Ada")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "ada@example.com")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "no-gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))


def git(where: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(where), *args], check=True, capture_output=True, text=True)
    return done.stdout.strip()


def tip(repo: Path, ref: str) -> str:
    """The commit ``ref`` points at in ``repo`` ("" when there is none)."""
    done = subprocess.run(["git", "-C", str(repo), "rev-parse", "-q", "--verify", ref], capture_output=True, text=True)
    return done.stdout.strip()


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A workspace committed to git, whose ``origin`` is a bare repository at ``tmp_path / "remote.git"``."""
    root = write_workspace(tmp_path / "ws", WORKSPACE)
    git(tmp_path, "init", "-q", "--bare", "remote.git")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "Memory")
    git(root, "remote", "add", "origin", str(tmp_path / "remote.git"))
    return root


def publish(ws: Path, *args: str) -> Result:
    return run("publish", str(ws), "--no-search", *args)


def commit_edit(ws: Path, line: str) -> None:
    with (ws / "memory/2026-01-02.md").open("a", encoding="utf-8") as log:
        log.write(f"\n{line}\n")
    git(ws, "commit", "-q", "-am", line)


@pytest.mark.slow
def test_publish_pushes_the_site_to_gh_pages_and_the_next_publish_goes_on_top(ws: Path, tmp_path: Path) -> None:
    bare = tmp_path / "remote.git"
    head = tip(ws, "HEAD")
    first = publish(ws)
    assert first.exit_code == 0, first.output
    files = git(bare, "ls-tree", "-r", "--name-only", "gh-pages").splitlines()
    assert {"index.html", "memory/2026-01-02.html", "_theme/style.css", ".nojekyll", ".memwiki-publish"} <= set(files)
    assert ".memwiki-site" not in files and not any(name.startswith("pagefind/") for name in files)
    published = tip(bare, "gh-pages")
    assert tip(ws, "refs/heads/gh-pages") == published and f"as {published[:12]}" in first.output
    assert head in git(bare, "log", "-1", "--format=%B", "gh-pages")  # the message names the workspace's commit
    assert git(ws, "status", "--porcelain") == "" and tip(ws, "HEAD") == head  # nothing checked out or staged

    commit_edit(ws, "Watered them.")
    second = publish(ws)
    assert second.exit_code == 0, second.output
    assert git(bare, "rev-parse", "gh-pages^") == published
    assert "Watered them." in git(bare, "show", "gh-pages:memory/2026-01-02.html")

    again = publish(ws)
    assert again.exit_code == 0 and "Nothing to publish" in again.output
    assert git(bare, "rev-parse", "gh-pages^") == published  # no empty commit


def test_the_search_index_is_published_with_the_site(ws: Path, tmp_path: Path) -> None:
    result = run("publish", str(ws), "--no-reflect")
    assert result.exit_code == 0, result.output
    files = git(tmp_path / "remote.git", "ls-tree", "-r", "--name-only", "gh-pages").splitlines()
    assert any(name.startswith("pagefind/") for name in files)


def test_a_refused_push_leaves_both_branches_as_they_were(ws: Path, tmp_path: Path) -> None:
    bare = tmp_path / "remote.git"
    assert publish(ws).exit_code == 0
    published = tip(bare, "gh-pages")
    hook = bare / "hooks/pre-receive"
    hook.write_text("#!/bin/sh\necho 'site frozen' >&2\nexit 1\n")
    hook.chmod(0o755)
    commit_edit(ws, "Watered them.")
    result = publish(ws)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "origin refused the push of gh-pages" in result.output and "site frozen" in result.output
    assert "nothing was published" in result.output
    assert tip(bare, "gh-pages") == published and tip(ws, "refs/heads/gh-pages") == published


def test_a_first_publish_refused_makes_no_local_branch(ws: Path, tmp_path: Path) -> None:
    hook = tmp_path / "remote.git/hooks/pre-receive"
    hook.write_text("#!/bin/sh\nexit 1\n")
    hook.chmod(0o755)
    result = publish(ws)
    assert result.exit_code == 1 and "refused the push" in result.output
    assert tip(ws, "refs/heads/gh-pages") == "" and tip(tmp_path / "remote.git", "gh-pages") == ""


def someone_else_publishes(tmp_path: Path, files: dict[str, str], *, branch: str = "gh-pages") -> str:
    """Another machine commits ``files`` on top of the remote's branch (a new branch when it has none) and pushes."""
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(tmp_path / "remote.git"), "other")
    if tip(other, f"origin/{branch}"):
        git(other, "checkout", "-q", branch)
    else:
        git(other, "checkout", "-q", "--orphan", branch)
        git(other, "rm", "-rq", "--cached", "--ignore-unmatch", ".")
    write_workspace(other, files)
    git(other, "add", *files)
    git(other, "commit", "-q", "-m", "by hand")
    git(other, "push", "-q", "origin", branch)
    return tip(other, "HEAD")


@pytest.mark.slow
def test_a_diverged_branch_is_refused_and_force_publishes_on_top_of_the_remote_s(ws: Path, tmp_path: Path) -> None:
    bare = tmp_path / "remote.git"
    assert publish(ws).exit_code == 0
    commit_edit(ws, "Watered them.")
    assert publish(ws, "--no-push").exit_code == 0  # ours: one commit the remote lacks
    ours = tip(ws, "refs/heads/gh-pages")
    theirs = someone_else_publishes(tmp_path, {"note.html": "theirs\n"})  # theirs: one commit we lack
    result = publish(ws)
    assert result.exit_code == 1 and "gh-pages here and gh-pages on origin have diverged" in result.output
    assert "--force" in result.output
    assert tip(bare, "gh-pages") == theirs and tip(ws, "refs/heads/gh-pages") == ours
    forced = publish(ws, "--force")
    assert forced.exit_code == 0, forced.output
    assert git(bare, "rev-parse", "gh-pages^") == theirs  # their commit stays in the history
    assert tip(ws, "refs/heads/gh-pages") == tip(bare, "gh-pages")


def test_a_branch_behind_the_remote_s_goes_on_from_the_remote_s(ws: Path, tmp_path: Path) -> None:
    """GitHub commits a CNAME onto the branch when a custom domain is set: publishing goes on from there and keeps it."""
    assert publish(ws).exit_code == 0
    theirs = someone_else_publishes(tmp_path, {"CNAME": "memory.example.com\n"})
    commit_edit(ws, "Watered them.")
    result = publish(ws)
    assert result.exit_code == 0, result.output
    bare = tmp_path / "remote.git"
    assert git(bare, "rev-parse", "gh-pages^") == theirs
    assert git(bare, "show", "gh-pages:CNAME") == "memory.example.com"


def test_a_branch_memwiki_did_not_make_is_replaced_only_when_forced(ws: Path, tmp_path: Path) -> None:
    bare = tmp_path / "remote.git"
    theirs = someone_else_publishes(tmp_path, {"index.html": "<p>my own page</p>\n"})
    result = publish(ws)
    assert result.exit_code == 1
    assert "branch gh-pages exists and was not made by memwiki publish (no .memwiki-publish file" in result.output
    assert tip(bare, "gh-pages") == theirs and tip(ws, "refs/heads/gh-pages") == ""
    forced = publish(ws, "--force")
    assert forced.exit_code == 0, forced.output
    assert git(bare, "rev-parse", "gh-pages^") == theirs
    assert "my own page" not in git(bare, "show", "gh-pages:index.html")


def test_a_workspace_with_changes_not_committed_is_refused(ws: Path, tmp_path: Path) -> None:
    (ws / "memory.md").write_text("# Core memory\n\nChanged.\n", encoding="utf-8")
    (ws / "memory/2026-01-03.md").write_text("# 2026-01-03\n\nNew day.\n", encoding="utf-8")
    result = publish(ws)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "the workspace has changes not committed (memory.md, memory/2026-01-03.md)" in result.output
    assert "--allow-dirty" in result.output
    assert tip(tmp_path / "remote.git", "gh-pages") == "" and not (ws / ".memwiki/publish").exists()  # not built
    allowed = publish(ws, "--allow-dirty")
    assert allowed.exit_code == 0, allowed.output
    assert "with changes not committed" in git(tmp_path / "remote.git", "log", "-1", "--format=%B", "gh-pages")
    assert (ws / "memory.md").read_text(encoding="utf-8") == "# Core memory\n\nChanged.\n"


def test_pages_reflect_changes_are_refused_until_committed(ws: Path, tmp_path: Path) -> None:
    write_workspace(
        ws, {"bank/entities/Ana.md": "# Ana\n", "memory/2026-01-04.md": "## Retain\n- W @Ana: Grows kale.\n"}
    )
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "Ana")
    result = publish(ws)
    assert result.exit_code == 1 and "reflect changed bank/entities/Ana.md" in result.output
    assert tip(tmp_path / "remote.git", "gh-pages") == ""
    git(ws, "commit", "-q", "-am", "Reflected")
    assert publish(ws).exit_code == 0


def test_no_push_commits_the_branch_here_only(ws: Path, tmp_path: Path) -> None:
    result = publish(ws, "--no-push", "-m", "Site of {sha}")
    assert result.exit_code == 0 and "git push origin gh-pages publishes it" in result.output
    assert tip(tmp_path / "remote.git", "gh-pages") == ""
    assert git(ws, "log", "-1", "--format=%B", "gh-pages") == f"Site of {tip(ws, 'HEAD')}"


def test_publish_without_git_or_a_usable_target_says_what_to_do(tmp_path: Path, ws: Path) -> None:
    loose = write_workspace(tmp_path / "loose", WORKSPACE)
    result = publish(loose)
    assert result.exit_code == 1 and "is not in a git repository" in result.output and "git init" in result.output
    assert not (loose / ".memwiki").exists()
    cases = {
        ("--remote", "nowhere"): "the repository has no remote 'nowhere'",
        ("--branch", "bad..name"): "--branch 'bad..name' is not a valid git branch name",
        ("--branch", "main"): "the workspace is on branch main, which publish would replace",
    }
    for args, said in cases.items():
        refused = publish(ws, *args)
        assert refused.exit_code == 1 and said in refused.output, refused.output
        assert "Traceback" not in refused.output
    assert tip(tmp_path / "remote.git", "gh-pages") == ""


def test_an_unreachable_remote_or_no_committer_is_said_before_building(
    ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    git(ws, "remote", "set-url", "origin", str(tmp_path / "gone.git"))
    result = publish(ws)
    assert result.exit_code == 1 and "git ls-remote failed: fatal:" in result.output and "gone.git" in result.output
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.delenv(f"GIT_{who}_NAME")
        monkeypatch.delenv(f"GIT_{who}_EMAIL")
    git(ws, "config", "user.useConfigOnly", "true")  # as where git cannot guess an address from the host's name
    result = publish(ws)
    assert result.exit_code == 1 and "set who commits: git config user.name and user.email" in result.output
    assert "Traceback" not in result.output and not (ws / ".memwiki/publish").exists()
