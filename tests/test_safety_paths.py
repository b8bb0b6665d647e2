"""Paths and atomic builds: nothing is read outside the workspace or written outside the output,
and a build killed at any moment leaves the previous site complete."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from site_builder.build import build
from site_builder.core.names import slugify
from tests.bench.gen_corpus import generate
from tests.conftest import run, write_workspace


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_symlinks_that_leave_the_workspace_are_skipped(tmp_path: Path) -> None:
    outside = write_workspace(
        tmp_path / "outside", {"secret.md": "# S\nOUTSIDE-SENTINEL\n", "dir/x.md": "# X\nOUTSIDE-DIR\n"}
    )
    ws = write_workspace(tmp_path / "ws", {"memory/2025-11-20.md": "# D\nHello.\n"})
    (ws / "memory" / "2025-11-21.md").symlink_to(outside / "secret.md")
    (ws / "bank").mkdir()
    (ws / "bank" / "entities").symlink_to(outside / "dir", target_is_directory=True)
    (ws / "memory.md").symlink_to(outside / "secret.md")
    result = run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search")
    assert result.exit_code == 0
    assert "memory/2025-11-21.md:1: warning: points outside the workspace (symlink); skipped" in result.output
    assert "bank/entities:1: warning: points outside the workspace (symlink); skipped" in result.output
    assert "memory.md:1: warning: points outside the workspace (symlink); skipped" in result.output
    everything = b"".join(snapshot(tmp_path / "site").values())
    assert b"OUTSIDE" not in everything
    assert snapshot(outside) == {"secret.md": b"# S\nOUTSIDE-SENTINEL\n", "dir/x.md": b"# X\nOUTSIDE-DIR\n"}


@pytest.mark.parametrize(
    "name", ["../../etc/passwd", "CON", "nul", "a/b", "a\\b", "x\x00y", "L" * 500, "..", ".hidden", "COM1.txt", "   "]
)
def test_entity_names_give_safe_slugs(name: str) -> None:
    slug = slugify(name)
    assert slug and len(slug) <= 90
    assert "/" not in slug and "\\" not in slug and "\x00" not in slug and not slug.startswith(".")
    assert slug.split(".")[0].lower() not in {"con", "nul", "prn", "aux", "com1", "lpt1"}


def test_hostile_entity_names_stay_inside_the_output(tmp_path: Path) -> None:
    log = "# D\n" + "".join(
        f"See [[{name}]].\n" for name in ["../../../escape", "CON", "a/b", "..\\..\\win", "x" * 400, "nul.txt"]
    )
    ws = write_workspace(tmp_path / "ws", {"memory/2025-11-20.md": log})
    out = tmp_path / "deep" / "site"
    result = run("build", str(ws), "-o", str(out), "--no-search")
    assert result.exit_code == 0 and "Traceback" not in result.output
    written = {p.resolve() for p in tmp_path.rglob("*") if p.is_file()}
    inside = {p for p in written if out.resolve() in p.parents or ws.resolve() in p.parents}
    assert written == inside
    assert not (tmp_path / "escape.html").exists()


def test_reflect_creates_no_file_for_an_unsafe_name(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/2025-11-20.md": "# D\n## Retain\n- W @CON: Device name.\n- W @CON: Reserved.\n",
            "bank/entities/Peter.md": "# Peter\n",
        },
    )
    result = run("reflect", str(ws))
    assert "'CON' is not a safe file name" in result.output
    assert sorted(p.name for p in (ws / "bank" / "entities").iterdir()) == ["Peter.md"]


@pytest.mark.slow
def test_a_build_killed_at_random_moments_leaves_a_complete_site(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    generate(ws, days=150, entities=40)
    out = tmp_path / "site"
    args = ["build", str(ws), "-o", str(out), "--no-search", "--no-reflect"]
    assert run(*args).exit_code == 0
    before = snapshot(out)
    (ws / "memory" / "2030-01-01.md").write_text("# New day\n\n## Retain\n- W @Entity00001: Brand new.\n")
    assert run("build", str(ws), "-o", str(tmp_path / "expected"), "--no-search", "--no-reflect").exit_code == 0
    after = snapshot(tmp_path / "expected")
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "site_builder", *args], check=True, capture_output=True)
    duration = time.perf_counter() - started
    out_before_kills = snapshot(out)
    assert out_before_kills == after
    # Each round: the old site in place, then a rebuild killed at a random moment.
    new_day = ws / "memory" / "2030-01-01.md"
    rng = random.Random(11)
    outcomes = []
    for _ in range(8):
        new_day.unlink()
        assert run(*args).exit_code == 0 and snapshot(out) == before
        new_day.write_text("# New day\n\n## Retain\n- W @Entity00001: Brand new.\n")
        process = subprocess.Popen(
            [sys.executable, "-m", "site_builder", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(rng.uniform(0.0, duration * 1.1))
        process.send_signal(signal.SIGKILL)
        process.wait()
        state = snapshot(out)
        assert state in (before, after), "a killed build left a partial site"
        outcomes.append("old" if state == before else "new")
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")]
    assert run(*args).exit_code == 0
    assert snapshot(out) == after
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")] == []
    print(f"kills: {outcomes}; leftovers before the clean-up build: {len(leftovers)}")


def test_the_old_site_goes_on_being_removed_after_a_build_that_does_not_wait(tmp_path: Path) -> None:
    """The ``memwiki`` process ends once the new site is in place (``settle=False``): the old site is removed by a
    process of its own, which the next build, started at once, neither waits for nor trips over."""
    ws = write_workspace(tmp_path / "ws", {"memory/2025-11-20.md": "# D\n\nLine.\n"})
    out = tmp_path / "site"
    build(ws, out, search=False)
    for n in range(4):
        (ws / "memory/2025-11-20.md").write_text(f"# D\n\nLine {n}.\n", encoding="utf-8")
        assert build(ws, out, search=False, settle=False).written
        assert f"Line {n}." in (out / "memory/2025-11-20.html").read_text(encoding="utf-8")
    deadline = time.monotonic() + 30
    while [p for p in tmp_path.iterdir() if p.name.startswith(".site.")] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")] == []


HOLD_LOCK = "import fcntl, sys, time; f = open(sys.argv[1], 'rb'); fcntl.flock(f, fcntl.LOCK_EX); print('locked', flush=True); time.sleep(10)"


def test_an_old_site_another_process_is_removing_is_left_to_it(tmp_path: Path) -> None:
    """A build started while the last one's old site is still being removed (its marker locked by the process at
    it) leaves that folder to that process instead of removing the same files beside it; a folder a killed build
    left (no one holding it) is removed."""
    pytest.importorskip("fcntl")
    from site_builder.io.staging import MARKER, MARKER_TEXT

    ws = write_workspace(tmp_path / "ws", {"memory/2025-11-20.md": "# D\n\nLine.\n"})
    out = tmp_path / "site"
    build(ws, out, search=False)
    left = tmp_path / ".site.tmp-1-0"
    (left / "memory").mkdir(parents=True)
    (left / "memory/2025-11-20.html").write_text("old", encoding="utf-8")
    (left / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
    # a removal at work: it holds the marker's lock (for ten seconds at most)
    with subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(left / MARKER)], stdout=subprocess.PIPE, text=True
    ) as holder:
        try:
            assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
            (ws / "memory/2025-11-20.md").write_text("# D\n\nLine 1.\n", encoding="utf-8")
            assert build(ws, out, search=False).written
            assert (left / "memory/2025-11-20.html").read_text(encoding="utf-8") == "old"
            assert holder.poll() is None  # the build did not wait for it
        finally:
            holder.kill()
    (ws / "memory/2025-11-20.md").write_text("# D\n\nLine 2.\n", encoding="utf-8")
    assert build(ws, out, search=False).written
    assert not left.exists()
    assert "Line 2." in (out / "memory/2025-11-20.html").read_text(encoding="utf-8")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux-only; elsewhere two renames")
def test_the_new_site_is_swapped_in_with_one_atomic_exchange(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from site_builder.io.staging import Staging

    out = tmp_path / "site"
    out.mkdir()
    (out / ".memwiki-site").write_text("x")
    (out / "old.html").write_text("old")
    staging = Staging(out)
    staging.write({"new.html": b"new"})

    def no_rename(self: Path, target: Path) -> None:
        raise AssertionError("a two-step rename leaves a moment without a site")

    monkeypatch.setattr(Path, "rename", no_rename)
    staging.commit()
    assert sorted(p.name for p in out.iterdir()) == [".memwiki-site", "new.html"]
    staging.settle()  # the old site is removed in a thread
    assert [p.name for p in tmp_path.iterdir()] == ["site"]


@pytest.mark.parametrize("rel", ["../outside.html", "a/../../outside.html", "away/page.html", "away", "a/.."])
def test_the_staged_site_is_never_written_outside_through_dots_or_a_link(tmp_path: Path, rel: str) -> None:
    from site_builder.io.staging import OutputError, Staging

    staging = Staging(tmp_path / "site")
    staging.write({"a/inside.html": b"ok"})  # its folder is checked once, then known
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (staging.path / "away").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(OutputError):
        staging.write({rel: b"no"})
    assert not list(elsewhere.iterdir()) and not (tmp_path / "outside.html").exists()
    staging.abort()


def test_links_left_in_the_last_site_are_neither_followed_nor_carried_into_the_next(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws", {"memory/2025-11-20.md": "# D\nHello @Ann.\n", "bank/entities/Ann.md": "# Ann\n"}
    )
    out = tmp_path / "site"
    assert run("build", str(ws), "-o", str(out), "--no-search").exit_code == 0
    elsewhere = write_workspace(tmp_path / "elsewhere", {"index.html": "ELSEWHERE", "memory/x.html": "ELSEWHERE"})
    (out / "index.html").unlink()
    (out / "index.html").symlink_to(elsewhere / "index.html")  # a page of the last site made a link by hand
    (out / "linked").symlink_to(elsewhere / "memory", target_is_directory=True)
    (ws / "memory/2025-11-20.md").write_text("# D\nHello @Ann, again.\n")
    assert run("build", str(ws), "-o", str(out), "--no-search").exit_code == 0
    assert [p for p in out.rglob("*") if p.is_symlink()] == []
    assert b"ELSEWHERE" not in (out / "index.html").read_bytes()
    assert snapshot(elsewhere) == {"index.html": b"ELSEWHERE", "memory/x.html": b"ELSEWHERE"}
