"""memwiki serve under load: 200 clients on loopback while edits rebuild the site.

Every answer is a whole page of one build (never half written, never two builds in one page), no
client sees an older site after a newer one (the edited page, shown first, may run ahead of the rest of the site
for a moment), the server's memory stays bounded, and it stops by
itself on SIGTERM with open live-reload streams. The figures are printed (``pytest -s``).
"""

from __future__ import annotations

import http.client
import re
import signal
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import write_workspace
from tests.test_serve import Served, start, until

CLIENTS = 200
EDITS = 6
EDITED = "/memory/2025-11-03.html"  # shown first (``serve.preview``): it may run ahead of the site, never behind
PAGES = ["/", EDITED, "/bank/entities/peter.html", "/memory/2025-11-04.html", "/recall.json"]
VERSION = re.compile(rb"edit-(\d+)")


def day(edit: int) -> str:
    return (
        f"# Monday edit-{edit}\nPeter talked about kites (edit-{edit}).\n\n"
        f"## Retain\n- W @Peter: Peter owns kite edit-{edit}.\n"
    )


def peak_memory_kb(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmHWM:\s+(\d+) kB", status)
    assert found is not None
    return int(found[1])


class Load:
    """Clients that fetch pages in a loop until told to stop, and what they saw."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.requests = 0
        self.errors: list[str] = []
        self.partial: list[str] = []
        self.mixed: list[str] = []
        self.backwards: list[str] = []
        self.versions: Counter[int] = Counter()

    def client(self, number: int) -> None:
        newest_site = newest_edited = 0
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        index = number
        while not self.stop.is_set():
            path = PAGES[index % len(PAGES)]
            index += 1
            try:
                conn.request("GET", path)
                response = conn.getresponse()
                body = response.read()
                status = response.status
            except (OSError, http.client.HTTPException) as exc:
                with self.lock:
                    self.requests += 1
                    self.errors.append(f"{path}: {type(exc).__name__}: {exc}")
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                continue
            seen = {int(v) for v in VERSION.findall(body)}
            with self.lock:
                self.requests += 1
                if status != 200:
                    self.errors.append(f"{path}: HTTP {status}")
                elif path != "/recall.json" and not body.rstrip().endswith(b"</html>"):
                    self.partial.append(path)
                if len(seen) > 1:
                    self.mixed.append(f"{path}: {sorted(seen)}")
                for version in seen:
                    self.versions[version] += 1
                floor = max(newest_site, newest_edited) if path == EDITED else newest_site
                if seen and max(seen) < floor:
                    self.backwards.append(f"{path}: edit-{max(seen)} after edit-{floor}")
            if path == EDITED:
                newest_edited = max([newest_edited, *seen])
            else:
                newest_site = max([newest_site, *seen])
        conn.close()


@pytest.mark.slow
def test_two_hundred_clients_while_edits_rebuild(tmp_path: Path) -> None:
    files = {
        "memory/2025-11-03.md": day(0),
        "memory/2025-11-04.md": "# Tuesday\nQuiet day with @Peter.\n",
        "bank/entities/Peter.md": "# Peter\n\nBuilds kites.\n",
    }
    ws = write_workspace(tmp_path / "ws", files)
    server: Served = start(ws)
    try:
        streams = [server.states() for _ in range(20)]  # open pages waiting for a reload
        for stream in streams:
            assert next(stream)["version"] >= 1
        watch = streams[0]
        load = Load(server.port)
        before = peak_memory_kb(server.process.pid)
        started = time.monotonic()
        with ThreadPoolExecutor(CLIENTS) as pool:
            for number in range(CLIENTS):
                pool.submit(load.client, number)
            for edit in range(1, EDITS + 1):
                time.sleep(0.5)
                (ws / "memory/2025-11-03.md").write_text(day(edit), encoding="utf-8")
                until(watch, lambda state: state["busy"] == "rebuilding")
                until(watch, lambda state: not state["busy"] and state["error"] is None)
            time.sleep(0.5)
            load.stop.set()
        took = time.monotonic() - started
        peak = peak_memory_kb(server.process.pid)
        print(
            f"\nserve under load: {load.requests:,} requests from {CLIENTS} clients in {took:.1f} s, "
            f"{EDITS} rebuilds; {len(load.errors)} errors, {len(load.partial)} partial, {len(load.mixed)} mixed, "
            f"{len(load.backwards)} backwards; versions seen {dict(sorted(load.versions.items()))}; "
            f"peak memory {before / 1024:.0f} MB before, {peak / 1024:.0f} MB after"
        )
        assert load.errors == [], load.errors[:5]
        assert load.partial == [] and load.mixed == [] and load.backwards == []
        assert load.requests >= CLIENTS * 2
        assert EDITS in load.versions and 0 in load.versions  # the load ran before and after the rebuilds
        assert peak < 400 * 1024, f"peak memory {peak} kB"
        server.process.send_signal(signal.SIGTERM)  # the live-reload streams are still open
        server.process.wait(timeout=20)
        assert server.process.returncode == 0
        assert "Stopped." in server.stop()
    finally:
        if server.process.poll() is None:
            server.stop()
