"""The preview server: the site over HTTP, plus live reload.

The site is served from the output folder, which a build only replaces when it
succeeds, so a failed build leaves the last good site being served. Pages get a
small script injected on the fly (the files on disk are untouched) that listens
on ``/__memwiki/events`` (server-sent events) and reloads the page after a
rebuild, or shows the build error over the page.
"""

from __future__ import annotations

import errno
import json
import threading
from dataclasses import dataclass, field
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

LIVE_PREFIX = "/__memwiki/"
LIVE_JS = resources.files("site_builder.serve").joinpath("live.js").read_bytes()
NO_SITE = b"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>memwiki serve</title></head>
<body><h1>No site yet</h1><p>The first build has not succeeded; the error is shown below.</p></body></html>"""


class News(Protocol):
    """What a build tells open pages (``LiveState``'s calls; the builder process sends them over a pipe)."""

    def working(self, what: str) -> None: ...

    def show_first(self, pages: list[str]) -> None: ...

    def publish(
        self, *, error: str | None = None, warnings: list[str] | None = None, rebuilt: bool, busy: str = ""
    ) -> None: ...


@dataclass
class LiveState:
    """What open pages need to know: the build number, and the last error or warnings."""

    version: int = 0
    error: str | None = None
    warnings: list[str] = field(default_factory=list)
    busy: str = ""  # what the server is doing for the next version: "rebuilding", "updating search", or nothing
    only: list[str] = field(default_factory=list)  # the site paths this version changed, when not the whole site
    changed: threading.Condition = field(default_factory=threading.Condition)

    def publish(
        self, *, error: str | None = None, warnings: list[str] | None = None, rebuilt: bool, busy: str = ""
    ) -> None:
        """A build's outcome; ``busy``: what still follows it (search), in the same step, so that open pages never
        see the new version as done while its search is still being updated."""
        with self.changed:
            if rebuilt:
                self.version += 1
                self.only = []
            self.error = error
            self.warnings = warnings or []
            self.busy = busy
            self.changed.notify_all()

    def show_first(self, pages: list[str]) -> None:
        """A version in which only ``pages`` changed (the edited notes, before the rest of the site): those
        reload, other open pages wait for the whole site."""
        with self.changed:
            self.version += 1
            self.only = pages
            self.changed.notify_all()

    def working(self, what: str) -> None:
        """Tell open pages what is under way (``""``: nothing), without a new version."""
        with self.changed:
            self.busy = what
            self.changed.notify_all()

    def snapshot(self) -> dict[str, Any]:
        return {
            "version": self.version, "only": self.only, "error": self.error, "warnings": self.warnings[:50],
            "busy": self.busy,
        }  # fmt: skip


class LiveHandler(SimpleHTTPRequestHandler):
    """Static files from the site folder, plus the live-reload script and event stream."""

    state: LiveState
    site: Path

    def log_message(self, format: str, *args: Any) -> None:
        return  # keep the terminal for build messages

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        if path == LIVE_PREFIX + "live.js":
            self._send(LIVE_JS, "text/javascript; charset=utf-8")
        elif path == LIVE_PREFIX + "events":
            self._events()
        elif not self.site.is_dir():
            self._send(self._inject(NO_SITE), "text/html; charset=utf-8", HTTPStatus.SERVICE_UNAVAILABLE)
        elif path.endswith((".html", "/")):
            self._html(path)
        else:
            super().do_GET()

    def translate_path(self, path: str) -> str:
        # The folder is swapped on every build: resolve against its current path each time.
        self.directory = str(self.site)
        return super().translate_path(path)

    def _html(self, path: str) -> None:
        file = Path(self.translate_path(path))
        if file.is_dir():
            file = file / "index.html"
        if not file.is_file():
            missing = self.site / "404.html"
            body = missing.read_bytes() if missing.is_file() else b"<h1>Not found</h1>"
            self._send(self._inject(body), "text/html; charset=utf-8", HTTPStatus.NOT_FOUND)
            return
        self._send(self._inject(file.read_bytes()), "text/html; charset=utf-8")

    def _inject(self, html: bytes) -> bytes:
        tag = f'<script src="{LIVE_PREFIX}live.js?v={self.state.version}"></script>'.encode()
        at = html.rfind(b"</body>")
        return html[:at] + tag + html[at:] if at >= 0 else html + tag

    def _send(self, body: bytes, kind: str, status: HTTPStatus = HTTPStatus.OK) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        last: dict[str, Any] | None = None
        try:
            while True:
                with self.state.changed:
                    if self.state.snapshot() == last:
                        self.state.changed.wait(timeout=15)
                    snapshot = self.state.snapshot()
                if snapshot != last:
                    self.wfile.write(f"event: state\ndata: {json.dumps(snapshot)}\n\n".encode())
                    last = snapshot
                else:
                    self.wfile.write(b": ping\n\n")  # finds out when the page has gone
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return


class PreviewServer(ThreadingHTTPServer):
    """A thread per request, and room for many connections at once: the default backlog of 5 makes
    the sixth of many simultaneous page loads (a page and its assets, several tabs) wait seconds."""

    request_queue_size = 1024
    daemon_threads = True


class PortInUseError(OSError):
    """The port is taken by another program."""


def make_server(site: Path, state: LiveState, host: str, port: int) -> ThreadingHTTPServer:
    handler = type("Handler", (LiveHandler,), {"state": state, "site": site})
    try:
        server = PreviewServer((host, port), partial(handler, directory=str(site)))
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise PortInUseError(
                f"port {port} on {host} is already in use; stop the other server or pick --port"
            ) from exc
        raise
    return server
