"""Which pip spec installs, on a GitHub Actions runner, the memwiki running here.

pip records how a package was installed (``direct_url.json``, PEP 610): from an index (memwiki is not on PyPI,
so none a runner reaches), from a git URL (that URL at that commit), from an archive URL, or from a folder on this machine.
A folder is out of the runner's reach; when it is a git checkout with a remote, its remote at the checked-out commit
is. Nothing here reaches the network.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

from site_builder import __version__

# git@github.com:owner/repo.git -> https://github.com/owner/repo.git (a runner has no SSH key for it).
SCP_LIKE = re.compile(r"^(?:ssh://)?git@([^:/]+)[:/](.+)$")


SOURCE = Path(__file__).resolve().parents[2]  # the folder the running memwiki's package is in
GitOrigin = Callable[[Path], "tuple[str, str] | None"]


@dataclass(frozen=True)
class InstallSpec:
    """A pip requirement for memwiki ("" when none would work on a runner), and why it was chosen."""

    spec: str
    reason: str


def installed_spec() -> InstallSpec:
    """The spec of the memwiki installed here (see the module's docstring)."""
    try:
        recorded = metadata.distribution("memwiki").read_text("direct_url.json")
    except metadata.PackageNotFoundError:  # not installed: run from its source folder
        return spec_from_direct_url({"url": SOURCE.as_uri(), "dir_info": {}}, __version__, git_origin)
    return spec_from_direct_url(json.loads(recorded) if recorded else None, __version__, git_origin)


def spec_from_direct_url(direct: Mapping[str, object] | None, version: str, origin: GitOrigin) -> InstallSpec:
    """The spec for an install recorded as ``direct`` (None: installed from an index). memwiki is not on PyPI, the
    one index a runner installs from, so a version from an index is no spec a runner can install."""
    if not direct:
        return InstallSpec(
            "",
            f"memwiki {version} is installed from a package index, but memwiki is not on PyPI, where a runner installs from",
        )
    url = str(direct.get("url", ""))
    vcs = direct.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") == "git":
        commit = str(vcs.get("commit_id", ""))
        return InstallSpec(f"memwiki @ git+{url}@{commit}", f"memwiki is installed from {url} at {commit[:12]}")
    if "archive_info" in direct and not url.startswith("file:"):
        return InstallSpec(f"memwiki @ {url}", f"memwiki is installed from {url}")
    if "dir_info" in direct and url.startswith("file:"):
        folder = Path(unquote(urlparse(url).path))
        found = origin(folder)
        if found:
            remote, commit = found
            return InstallSpec(
                f"memwiki @ git+{remote}@{commit}",
                f"memwiki is installed from {folder}, a checkout of {remote} at {commit[:12]}",
            )
    where = unquote(urlparse(url).path) if url.startswith("file:") else url
    return InstallSpec("", f"memwiki is installed from {where}, which GitHub Actions cannot reach")


def git_origin(folder: Path) -> tuple[str, str] | None:
    """``(https URL of the remote "origin", commit checked out)`` of the git checkout ``folder``, else None."""
    try:
        remote = _git(folder, "config", "--get", "remote.origin.url")
        commit = _git(folder, "rev-parse", "HEAD")
    except (OSError, subprocess.CalledProcessError):
        return None
    if not remote or not commit:
        return None
    scp = SCP_LIKE.match(remote)
    if scp:
        remote = f"https://{scp[1]}/{scp[2]}"
    if not remote.startswith(("https://", "http://")):
        return None  # a path or a file:// remote: on this machine only
    return remote, commit


def _git(folder: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, check=True, timeout=10)
    return done.stdout.strip()
