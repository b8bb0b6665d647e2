"""Publishing: memwiki init (with the GitHub Pages workflow), the Atom feed, sitemap and canonical links."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from importlib import metadata
from pathlib import Path

import pytest
import yaml

from site_builder.build import build
from site_builder.io import install_spec
from site_builder.io.install_spec import InstallSpec, git_origin, spec_from_direct_url
from tests.conftest import EXAMPLE, run, write_workspace

ATOM = "{http://www.w3.org/2005/Atom}"


def child(element: ET.Element, path: str) -> ET.Element:
    found = element.find(path)
    assert found is not None, f"no {path} in <{element.tag}>"
    return found


def text(element: ET.Element, path: str) -> str:
    value = child(element, path).text
    assert value is not None, f"{path} in <{element.tag}> is empty"
    return value


def attribute(element: ET.Element, path: str, name: str) -> str:
    value = child(element, path).get(name)
    assert value is not None, f"{path} in <{element.tag}> has no {name}"
    return value


def test_init_scaffolds_a_workspace_that_builds_without_warnings(tmp_path: Path) -> None:
    ws = tmp_path / "new"
    result = run("init", str(ws), "--title", 'Ada "the" bot')
    assert result.exit_code == 0, result.output
    for rel in ("memory.md", "SOUL.md", "memwiki.toml", ".gitignore", "bank/opinions.md", "bank/entities/Sam.md"):
        assert (ws / rel).is_file(), rel
    assert len(list((ws / "memory").glob("*.md"))) == 1
    assert "_site/" in (ws / ".gitignore").read_text() and ".memwiki/" in (ws / ".gitignore").read_text()
    assert not (ws / ".github").exists()
    built = run("build", str(ws), "--no-search")
    assert built.exit_code == 0 and "0 warning(s)" in built.output
    assert "<title>Ada &#34;the&#34; bot</title>" in (ws / "_site/index.html").read_text(encoding="utf-8")


GITHUB_SPEC = "memwiki @ git+https://github.com/sam/memwiki@0123456789abcdef"


def memwiki_installed_from(monkeypatch: pytest.MonkeyPatch, spec: str, reason: str) -> None:
    """``init`` finds the memwiki running here installed as ``spec`` says ("": from nowhere GitHub reaches)."""
    monkeypatch.setattr(install_spec, "installed_spec", lambda: InstallSpec(spec, reason))


def test_init_never_overwrites_and_adds_the_pages_workflow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    memwiki_installed_from(monkeypatch, GITHUB_SPEC, "memwiki is installed from github.com/sam/memwiki")
    ws = write_workspace(tmp_path / "ws", {"memory.md": "# Mine\nDo not touch.\n"})
    result = run("init", str(ws), "--github-pages")
    assert result.exit_code == 0
    assert f"The Pages workflow installs {GITHUB_SPEC}" in result.output
    assert result.output.splitlines()[-1].startswith("Push to GitHub and set Settings > Pages > Source")
    assert "kept    memory.md (already there)" in result.output
    assert (ws / "memory.md").read_text() == "# Mine\nDo not touch.\n"
    workflow = yaml.safe_load((ws / ".github/workflows/memwiki.yml").read_text())
    steps = workflow["jobs"]["build"]["steps"]
    runs = " ".join(step.get("run", "") for step in steps)
    assert 'pip install "$spec"' in runs and "memwiki.toml" in runs
    assert 'memwiki build . --base-url "${{ steps.pages.outputs.base_url }}"' in runs
    assert any(step.get("uses", "").startswith("actions/upload-pages-artifact") for step in steps)
    assert workflow["jobs"]["deploy"]["steps"][0]["uses"].startswith("actions/deploy-pages")
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}


def test_init_writes_no_workflow_github_cannot_run_and_says_how_to_publish(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memwiki_installed_from(monkeypatch, "", "memwiki is installed from /home/sam/memwiki, which GitHub cannot reach")
    ws = tmp_path / "new"
    result = run("init", str(ws), "--github-pages")
    assert result.exit_code == 0 and not (ws / ".github").exists()
    assert "no GitHub Pages workflow written: memwiki is installed from /home/sam/memwiki" in result.output
    assert "set [publish] install in memwiki.toml" in result.output
    assert result.output.splitlines()[-1].startswith("To publish: commit the workspace to a git repository")
    assert f"memwiki publish {ws}" in result.output.splitlines()[-1]
    assert '# install = "memwiki @ git+https://github.com/OWNER/memwiki@COMMIT"' in (ws / "memwiki.toml").read_text()


def test_init_refuses_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    result = run("init", str(tmp_path / "f"))
    assert result.exit_code == 1 and "is not a folder" in result.output


def test_feed_lists_daily_logs_newest_first_with_working_links(tmp_path: Path) -> None:
    build(EXAMPLE, tmp_path / "site", search=False)
    feed = ET.parse(tmp_path / "site/feed.xml").getroot()
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == 48
    updated = [text(e, f"{ATOM}updated") for e in entries]
    assert updated == sorted(updated, reverse=True)
    assert text(feed, f"{ATOM}updated") == updated[0] == "2025-12-15T00:00:00Z"
    first = entries[0]
    assert text(first, f"{ATOM}title") == "Monday 15 December 2025"
    href = attribute(first, f"{ATOM}link", "href")
    assert (tmp_path / "site" / href).is_file()
    assert text(first, f"{ATOM}id").startswith("urn:uuid:")
    assert attribute(first, f"{ATOM}content", "{http://www.w3.org/XML/1998/namespace}base") == "memory/"
    link = re.search(r'href="(\.\./bank/entities/[^"#]+)"', text(first, f"{ATOM}content"))
    assert link and (tmp_path / "site" / "memory" / link[1]).resolve().is_file()  # resolves against memory/
    assert not (tmp_path / "site/sitemap.xml").exists()  # no base_url: a sitemap needs absolute URLs


def test_feed_links_work_for_days_in_any_folder(tmp_path: Path) -> None:
    """Each entry's content resolves against its own page's folder: OpenClaw's ``memory/daily/``, toebeans' days at the
    top of its memory folder, and ``memory/`` all link to the entity's page."""
    day = "# {0}\n\nTea with @Ana.\n"
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/2026-02-01.md": day.format("2026-02-01"),
            "memory/daily/2026-02-02.md": day.format("2026-02-02"),
            "2026-02-03.md": day.format("2026-02-03"),
            "bank/entities/Ana.md": "# Ana\n\nA friend.\n",
        },
    )
    build(ws, tmp_path / "site", search=False)
    site = tmp_path / "site"
    entries = ET.parse(site / "feed.xml").getroot().findall(f"{ATOM}entry")
    assert len(entries) == 3
    for entry in entries:
        page = site / attribute(entry, f"{ATOM}link", "href")
        base = child(entry, f"{ATOM}content").get("{http://www.w3.org/XML/1998/namespace}base", "")
        link = re.search(r'href="([^"#]*entities/ana\.html)"', text(entry, f"{ATOM}content"))
        assert link and (site / base / link[1]).resolve() == (site / "bank/entities/ana.html").resolve(), page


def test_base_url_gives_sitemap_canonical_links_and_feed_ids(tmp_path: Path) -> None:
    result = run(
        "build",
        str(EXAMPLE),
        "-o",
        str(tmp_path / "site"),
        "--no-search",
        "--no-reflect",
        "--base-url",
        "https://x.io/mem/",
    )
    assert result.exit_code == 0
    site = tmp_path / "site"
    urls = [
        u.text
        for u in ET.parse(site / "sitemap.xml").getroot().iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")
    ]
    assert "https://x.io/mem/memory/2025-11-28.html" in urls
    assert all(u and (site / u.removeprefix("https://x.io/mem/")).is_file() for u in urls)
    assert "https://x.io/mem/404.html" not in urls
    page = (site / "memory/2025-11-28.html").read_text(encoding="utf-8")
    assert '<link rel="canonical" href="https://x.io/mem/memory/2025-11-28.html">' in page
    feed = ET.parse(site / "feed.xml").getroot()
    assert feed.get("{http://www.w3.org/XML/1998/namespace}base") == "https://x.io/mem/"
    assert text(feed, f"{ATOM}entry/{ATOM}id") == "https://x.io/mem/memory/2025-12-15.html"


def test_private_days_stay_out_of_the_feed(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/2025-11-03.md": "# Mon\nPublic day.\n",
            "memory/2025-11-04.md": "---\nprivate: true\n---\n# Tue\nSENTINEL-FEED\n",
            "memory/2025-11-05.md": "# Wed\nOpen.\n<!-- private -->\nSENTINEL-BLOCK\n<!-- /private -->\n",
        },
    )
    build(ws, tmp_path / "site", search=False, base_url="https://x.io")
    for name in ("feed.xml", "sitemap.xml"):
        text = (tmp_path / "site" / name).read_text(encoding="utf-8")
        assert "SENTINEL" not in text and "2025-11-04" not in text


def test_404_links_are_absolute_when_the_host_is_known(tmp_path: Path) -> None:
    build(EXAMPLE, tmp_path / "site", search=False, base_url="https://x.io/mem")
    page = (tmp_path / "site/404.html").read_text(encoding="utf-8")
    assert 'href="https://x.io/mem/_theme/style.css"' in page
    assert 'href="https://x.io/mem/memory/index.html"' in page
    assert 'href="memory/' not in page


# -- the Pages workflow installs a memwiki that exists ----------------------------------------------------------

BASE_URL = "https://sam.github.io/memory"


def no_checkout(folder: Path) -> tuple[str, str] | None:
    return None


def a_checkout(folder: Path) -> tuple[str, str] | None:
    return ("https://github.com/sam/memwiki.git", "0123456789abcdef") if folder == Path("/src/memwiki") else None


def test_the_default_spec_is_the_memwiki_installed_here_as_a_runner_can_install_it() -> None:
    from_index = spec_from_direct_url(None, "0.3.0", no_checkout)  # memwiki is on no index a runner installs from
    assert from_index.spec == "" and "memwiki is not on PyPI" in from_index.reason
    from_git = {"url": "https://github.com/sam/memwiki", "vcs_info": {"vcs": "git", "commit_id": "abc123"}}
    assert (
        spec_from_direct_url(from_git, "0.3.0", no_checkout).spec
        == "memwiki @ git+https://github.com/sam/memwiki@abc123"
    )
    archive = {"url": "https://x.io/memwiki-0.3.0.tar.gz", "archive_info": {}}
    assert spec_from_direct_url(archive, "0.3.0", no_checkout).spec == "memwiki @ https://x.io/memwiki-0.3.0.tar.gz"
    checkout = {"url": "file:///src/memwiki", "dir_info": {"editable": True}}
    found = spec_from_direct_url(checkout, "0.3.0", a_checkout)
    assert found.spec == "memwiki @ git+https://github.com/sam/memwiki.git@0123456789abcdef"
    assert "/src/memwiki" in found.reason
    alone = spec_from_direct_url({"url": "file:///home/sam/memwiki", "dir_info": {}}, "0.3.0", no_checkout)
    assert alone.spec == "" and "/home/sam/memwiki, which GitHub Actions cannot reach" in alone.reason
    wheel = {"url": "file:///tmp/memwiki-0.3.0-py3-none-any.whl", "archive_info": {}}
    assert spec_from_direct_url(wheel, "0.3.0", no_checkout).spec == ""


def test_memwiki_run_from_its_source_folder_is_installed_from_that_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_installed(name: str) -> object:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "distribution", not_installed)
    monkeypatch.setattr(install_spec, "git_origin", lambda folder: ("https://github.com/sam/memwiki", "abc123"))
    found = install_spec.installed_spec()
    assert found.spec == "memwiki @ git+https://github.com/sam/memwiki@abc123"
    assert str(install_spec.SOURCE) in found.reason and (install_spec.SOURCE / "site_builder").is_dir()


def test_a_checkout_s_ssh_remote_is_installed_over_https(tmp_path: Path) -> None:
    git = ["git", "-C", str(tmp_path)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run(
        [*git, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x"], check=True
    )
    assert git_origin(tmp_path) is None  # no remote: nothing a runner can reach
    subprocess.run([*git, "remote", "add", "origin", "git@github.com:sam/memwiki.git"], check=True)
    head = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    assert git_origin(tmp_path) == ("https://github.com/sam/memwiki.git", head)


def run_build_steps(ws: Path, tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """The build job's ``run:`` steps, in order, in ``ws``, with the memwiki installed here: ``pip`` is a stand-in
    that records what it was asked to install (the runner's pip would fetch it). Returns the last step run and
    the pip arguments."""
    workflow = yaml.safe_load((ws / ".github/workflows/memwiki.yml").read_text(encoding="utf-8"))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    log = tmp_path / "pip.log"
    log.write_text("")
    pip = bin_dir / "pip"
    pip.write_text(f'#!/bin/sh\nfor a in "$@"; do echo "$a" >> {shlex.quote(str(log))}; done\n')
    pip.chmod(0o755)
    path = os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent), os.environ["PATH"]])
    done = subprocess.CompletedProcess[str]([], 0, "", "")
    for step in workflow["jobs"]["build"]["steps"]:
        if "run" not in step:
            continue
        script = step["run"].replace("${{ steps.pages.outputs.base_url }}", BASE_URL)
        assert "${{" not in script, script
        done = subprocess.run(
            ["bash", "-e", "-c", script], cwd=ws, env={**os.environ, "PATH": path}, capture_output=True, text=True
        )
        if done.returncode:
            break
    return done, log.read_text().split()


@pytest.mark.slow
def test_the_workflow_s_build_steps_install_the_configured_spec_and_build_the_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memwiki_installed_from(monkeypatch, GITHUB_SPEC, "memwiki is installed from github.com/sam/memwiki")
    ws = tmp_path / "ws"
    assert run("init", str(ws), "--github-pages").exit_code == 0
    assert f'install = "{GITHUB_SPEC}"' in (ws / "memwiki.toml").read_text(encoding="utf-8")
    done, pip_args = run_build_steps(ws, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert pip_args == ["install", *GITHUB_SPEC.split()]
    site = ws / "_site"  # what upload-pages-artifact uploads
    assert (site / "index.html").is_file() and (site / "pagefind").is_dir()
    assert f"{BASE_URL}/memory/" in (site / "sitemap.xml").read_text(encoding="utf-8")


def test_init_keeps_a_workspace_s_own_install_spec_for_the_workflow(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"memwiki.toml": '[publish]\ninstall = "memwiki @ git+https://x.io/m@v1"\n'})
    result = run("init", str(ws), "--github-pages")
    assert "installs memwiki @ git+https://x.io/m@v1 ([publish] install in memwiki.toml)" in result.output
    assert 'spec="${spec:-memwiki @ git+https://x.io/m@v1}"' in (ws / ".github/workflows/memwiki.yml").read_text()


def test_an_install_spec_that_is_not_text_is_reported_at_its_line(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"memwiki.toml": "[site]\ntitle = 'x'\n\n[publish]\ninstall = 3\n"})
    result = run("check", str(ws))
    assert "memwiki.toml:5: [publish] install must be text in quotes, not 3" in result.output
