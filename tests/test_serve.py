"""memwiki serve: serves the site, rebuilds on change, reports errors, stops cleanly."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from site_builder.site.render_jobs import PARALLEL_FROM
from tests.conftest import write_workspace

DAY = "# Monday\nPeter talked about kites.\n\n## Retain\n- W @Peter: Peter owns a green kite.\n"


class Served:
    def __init__(self, process: subprocess.Popen[str], port: int) -> None:
        self.process = process
        self.port = port
        self.streams: list[http.client.HTTPConnection] = []

    def stop(self) -> str:
        for conn in self.streams:
            conn.close()
        if self.process.poll() is None:
            self.process.kill()
        out, _ = self.process.communicate(timeout=30)
        return out

    def get(self, path: str) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            return response.status, response.read().decode("utf-8")
        finally:
            conn.close()

    def states(self) -> Iterator[dict[str, Any]]:
        """Parsed `state` events from the live-reload stream."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)  # < the 15 s keep-alive ping
        self.streams.append(conn)
        conn.request("GET", "/__memwiki/events")
        stream = conn.getresponse()
        assert stream.getheader("Content-Type") == "text/event-stream"
        while True:
            line = stream.readline().decode()
            if line.startswith("data: "):
                yield json.loads(line[6:])


def until(states: Iterator[dict[str, Any]], done: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    """The states the stream sends up to the first that is ``done`` (the stream may skip states in between)."""
    seen = []
    for state in states:
        seen.append(state)
        if done(state):
            return seen
    raise AssertionError(f"the stream ended: {seen}")


def start(ws: Path, *args: str) -> Served:
    process = subprocess.Popen(
        [sys.executable, "-m", "site_builder", "serve", str(ws), "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    said: list[str] = []  # what it printed before giving up, for the failure message
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        said.append(line)
        found = re.search(r"at http://127\.0\.0\.1:(\d+)/", line)
        if found:
            return Served(process, int(found[1]))
        if not line and process.poll() is not None:
            break
    process.kill()
    out, _ = process.communicate()
    raise AssertionError("memwiki serve did not start:\n" + "".join(said) + out)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Served, Path]]:
    ws = write_workspace(tmp_path / "ws", {"memory/2025-11-03.md": DAY, "bank/entities/Peter.md": "# Peter\n"})
    server = start(ws, "--strict", "--no-reflect")
    yield server, ws
    server.stop()


@pytest.mark.slow  # 1.4 s
def test_serves_pages_with_the_live_script_but_leaves_files_alone(served: tuple[Served, Path]) -> None:
    server, ws = served
    status, html = server.get("/memory/2025-11-03.html")
    assert status == 200 and "Peter owns a green kite." in html
    assert '<script src="/__memwiki/live.js?v=1"></script></body>' in html
    assert "live.js" not in (ws / ".memwiki/site/memory/2025-11-03.html").read_text(encoding="utf-8")
    status, script = server.get("/__memwiki/live.js")
    assert status == 200 and "EventSource" in script
    status, _ = server.get("/no/such/page.html")
    assert status == 404


@pytest.mark.slow  # 2.0 s
def test_an_edit_rebuilds_and_bumps_the_version(served: tuple[Served, Path]) -> None:
    server, ws = served
    states = server.states()
    assert next(states)["version"] == 1
    day = ws / "memory/2025-11-03.md"
    day.write_text(DAY + "- W @Peter: Peter also owns a red kite.\n", encoding="utf-8")
    assert next(states) == {"version": 1, "error": None, "warnings": [], "only": [], "busy": "rebuilding"}
    # the new version first (open pages reload) while search is still being brought up to date, then done
    seen = until(states, lambda state: state["version"] == 2 and not state["busy"])
    assert seen[0]["version"] == 2 and seen[0]["busy"] in ("", "updating search")
    assert {"version": 2, "error": None, "warnings": [], "only": [], "busy": "updating search"} in seen[:2]
    _, html = server.get("/memory/2025-11-03.html")
    assert "Peter also owns a red kite." in html
    status, listed = server.get("/pagefind/parts.json")
    assert status == 200
    for part in json.loads(listed)["parts"]:
        assert server.get(f"/pagefind/{part}/pagefind-entry.json")[0] == 200


@pytest.mark.slow  # 1.7 s
def test_a_failed_build_is_shown_and_the_last_good_site_stays(served: tuple[Served, Path]) -> None:
    server, ws = served
    states = server.states()
    assert next(states)["error"] is None
    (ws / "memory/2025-11-03.md").write_text(DAY + "- Q @Peter broken bullet\n", encoding="utf-8")
    assert next(states)["busy"] == "rebuilding"
    state = next(states)
    assert state["version"] == 1 and state["busy"] == ""
    assert "memory/2025-11-03.md:6" in state["error"]
    _, html = server.get("/memory/2025-11-03.html")
    assert "Peter owns a green kite." in html and "broken bullet" not in html
    (ws / "memory/2025-11-03.md").write_text(DAY, encoding="utf-8")
    assert next(states)["busy"] == "rebuilding"
    seen = until(states, lambda state: state["version"] == 2 and not state["busy"])
    assert seen[-1] == {"version": 2, "error": None, "warnings": [], "only": [], "busy": ""}


@pytest.mark.slow  # 1.5 s
def test_ctrl_c_stops_cleanly(served: tuple[Served, Path]) -> None:
    server, _ = served
    server.process.send_signal(signal.SIGINT)
    try:
        server.process.wait(timeout=90)  # stopping waits for the builder (5 s at most) and the server: slow under load
    except subprocess.TimeoutExpired:
        raise AssertionError("serve did not stop on Ctrl-C:\n" + server.stop()) from None
    out = server.stop()
    assert server.process.returncode == 0, out
    assert "Stopped." in out and "Traceback" not in out


def test_a_busy_port_gets_a_clear_message(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"memory/2025-11-03.md": DAY})
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "site_builder", "serve", str(ws), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert f"port {port} on 127.0.0.1 is already in use" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow  # two 1 s waits for a rebuild that must not come
def test_reflect_writes_do_not_cause_a_second_rebuild(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"memory/2025-11-03.md": DAY, "bank/entities/Peter.md": "# Peter\n"})
    server = start(ws)  # reflect on: the first build writes Peter.md's generated block
    try:
        assert "<!-- memwiki:begin entity" in (ws / "bank/entities/Peter.md").read_text(encoding="utf-8")
        time.sleep(1.0)
        states = server.states()
        assert next(states)["version"] == 1
        (ws / "memory/2025-11-03.md").write_text(DAY + "- W @Peter: Peter bought a kite.\n", encoding="utf-8")
        assert next(states)["busy"] == "rebuilding"
        # the day's page first, then the whole site: this rebuild rewrites Peter.md again...
        version = until(states, lambda state: state["version"] >= 2 and not state["only"])[-1]["version"]
        time.sleep(1.0)
        assert next(server.states())["version"] == version  # ...which is not a reason for another one
        _, html = server.get("/bank/entities/peter.html")
        assert "Peter bought a kite." in html
    finally:
        server.stop()


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _running(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    try:
        return "\nState:\tZ" not in status.read_text()
    except OSError:
        return False


needs_a_builder = pytest.mark.skipif(
    not Path("/proc/self/stat").exists() or len(os.sched_getaffinity(0)) < 2,
    reason="reads /proc; serve forks its builder only where a second core makes it worth it",
)


@pytest.mark.slow  # 3.8 s
@needs_a_builder
def test_builds_run_in_a_builder_process_and_serve_goes_on_without_it(tmp_path: Path) -> None:
    """serve forks its builder before its threads start, so builds use both cores (a workspace of enough days that
    render and recall fork); if the builder dies, serve builds in its own process and open pages still get every
    edit."""
    days = {
        f"memory/2025-{1 + i // 28:02d}-{1 + i % 28:02d}.md": f"# Day {i}\n\n- Met @Ana about tiles.\n"
        for i in range(1, 240)
    }
    ws = write_workspace(tmp_path / "ws", {"memory/2025-11-03.md": DAY, **days})
    assert len(days) + 1 >= PARALLEL_FROM
    server = start(ws, "--no-reflect")
    try:
        builders = _children(server.process.pid)
        assert len(builders) == 1, builders
        states = server.states()
        assert next(states) == {"version": 1, "error": None, "warnings": [], "only": [], "busy": ""}
        (ws / "memory/2025-01-02.md").write_text("# Day 1\n\n- Met @Ana about the kiln.\n", encoding="utf-8")
        until(states, lambda state: state["version"] >= 2 and not state["busy"] and not state["only"])
        assert next(server.states())["error"] is None  # built in the builder, which forked for render and recall
        _, html = server.get("/bank/entities/ana.html")
        assert "the kiln" in html
        os.kill(builders[0], signal.SIGKILL)
        (ws / "memory/2025-11-03.md").write_text(DAY + "- W @Peter: Peter flies it on Sundays.\n", encoding="utf-8")
        until(states, lambda state: state["version"] >= 2 and not state["busy"] and not state["only"])
        _, html = server.get("/memory/2025-11-03.html")
        assert "Peter flies it on Sundays." in html
    finally:
        out = server.stop()
    assert "building in serve's own process from now on" in out and "Traceback" not in out


@pytest.mark.slow  # 1.5 s
@needs_a_builder
def test_the_builder_ends_with_serve_even_when_serve_is_killed(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"memory/2025-11-03.md": DAY})
    server = start(ws, "--no-reflect")
    (builder,) = _children(server.process.pid)
    server.process.kill()  # no chance to stop its builder: the builder sees the pipe close
    server.stop()
    deadline = time.monotonic() + 20
    while _running(builder) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running(builder), "the builder outlived serve"
