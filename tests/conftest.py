"""Shared helpers: tiny workspaces written inline, the CLI runner, and the real-browser harness."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import json
import os
import threading
from collections.abc import Callable, Generator, Iterator, Mapping
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from site_builder.cli import main
from site_builder.core.diagnostics import Diagnostics
from site_builder.io.reader import Workspace, stamp_workspace
from site_builder.recall.index import RecallIndex, index_path

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "example_workspace"


Files = Mapping[str, str | bytes]
MakeWorkspace = Callable[[Files], Path]
"""The ``workspace`` fixture: ``workspace({"memory.md": "..."})`` -> workspace path."""


def write_workspace(root: Path, files: Files) -> Path:
    """Write ``{relative path: content}`` under ``root`` and return it."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def run(*args: str) -> Result:
    """Run ``memwiki ARGS`` in-process; exceptions are never swallowed silently."""
    result = CliRunner().invoke(main, list(args), catch_exceptions=True)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def spy_on(monkeypatch: pytest.MonkeyPatch, module: object, name: str, record: Callable[..., Any]) -> list[Any]:
    """Replace ``module.name`` with a function that notes ``record(*args)`` of every call, then makes it: the list of
    what was noted, call by call."""
    noted: list[Any] = []
    real = getattr(module, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        noted.append(record(*args, **kwargs))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return noted


def recall_results(*args: str) -> list[dict[str, Any]]:
    """``memwiki recall ARGS --json``: its results, best first (the command must succeed)."""
    result = run("recall", *args, "--json")
    assert result.exit_code == 0, result.output
    results: list[dict[str, Any]] = json.loads(result.output)["results"]
    return results


def recall_sources(*args: str) -> list[str]:
    """``memwiki recall ARGS --json``: the citations of its results, best first."""
    return [r["source"] for r in recall_results(*args)]


@pytest.fixture
def workspace(tmp_path: Path) -> MakeWorkspace:
    """Factory: ``workspace({"memory.md": "..."})`` -> workspace path."""

    def make(files: Files) -> Path:
        return write_workspace(tmp_path / "ws", files)

    return make


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Remember each phase's report on the test item, so fixtures can tell a failed test (screenshots)."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def output_bytes(*folders: Path) -> bytes:
    """Every byte memwiki wrote under ``folders``, gzip files (Pagefind's index) decompressed, SQLite included."""
    import gzip

    chunks = []
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if not path.is_file():
                continue
            data = path.read_bytes()
            if data[:2] == b"\x1f\x8b":
                data = gzip.decompress(data)
            chunks.append(data)
    return b"\n".join(chunks)


# -- real-browser harness: Debian's Chromium driven by Playwright ---------------------------
# Without Chromium the browser tests skip with the reason; CI sets MEMWIKI_REQUIRE_BROWSER=1
# so that a missing browser fails them instead. A failing test saves a screenshot.

CHROMIUM = Path(os.environ.get("MEMWIKI_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = REPO / "test-artifacts"


def _browser_missing() -> str:
    if importlib.util.find_spec("playwright") is None:  # found, not imported: most runs never drive a browser
        return "the playwright package is not installed (pip install -e '.[test]')"
    if not CHROMIUM.is_file():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return ""


MISSING = _browser_missing()
if MISSING and os.environ.get("MEMWIKI_REQUIRE_BROWSER"):
    raise RuntimeError(f"browser tests are required here but cannot run: {MISSING}")
# A test that drives Chromium is marked ``@pytest.mark.browser``; the hook below skips it without
# Chromium. ``needs_browser`` is the same mark, kept for modules that say ``pytestmark = needs_browser``.
needs_browser = pytest.mark.browser


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects, so the marks added here count
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that uses the ``browser`` fixture is a browser test, marked or not; without Chromium it skips."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()) and item.get_closest_marker("browser") is None:
            item.add_marker(pytest.mark.browser)
        if MISSING and item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.skip(reason=f"browser tests skipped: {MISSING}"))


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return


class LoopbackServer(ThreadingHTTPServer):
    request_queue_size = 128  # Chromium opens many connections at once; the default backlog of 5 can refuse some


# Servers a test has finished with, closed once its page is: a page may still be fetching (its icon is fetched late),
# and a server closed under it resets the connection, which the page reports as an error.
_closing_after_the_test: list[ThreadingHTTPServer] | None = None


def _close(server: ThreadingHTTPServer) -> None:
    server.shutdown()
    server.server_close()


@pytest.fixture(autouse=True)
def _servers_close_after_the_page() -> Iterator[None]:
    """Autouse, so set up before ``page`` and torn down after it."""
    global _closing_after_the_test
    _closing_after_the_test = []
    try:
        yield
    finally:
        servers, _closing_after_the_test = _closing_after_the_test, None
        for server in servers:
            _close(server)


@contextlib.contextmanager
def serving(folder: Path, handler: type[SimpleHTTPRequestHandler] = QuietHandler) -> Iterator[str]:
    """``folder`` served on loopback; yields its base URL. Inside a test the server lives until the test's end."""
    server = LoopbackServer(("127.0.0.1", 0), functools.partial(handler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        if _closing_after_the_test is None:
            _close(server)
        else:
            _closing_after_the_test.append(server)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh page; console errors fail the test, and a failure leaves a screenshot."""
    context = browser.new_context(color_scheme="light")
    tab = context.new_page()
    errors: list[str] = []
    tab.on("console", lambda m: errors.append(f"console: {m.text} {m.location}") if m.type == "error" else None)
    tab.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    tab.set_default_timeout(10_000)
    yield tab
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / f"{request.node.name}.png"
        tab.screenshot(path=str(shot), full_page=True)
        print(f"screenshot: {shot}")
    context.close()
    assert errors == [], errors


def open_index(workspace: Workspace, diagnostics: Diagnostics) -> RecallIndex:
    """The workspace's recall index under ``.memwiki/``, brought up to date from its files as they stand now."""
    index = RecallIndex(index_path(workspace.root))
    index.refresh(workspace, stamp_workspace(workspace, diagnostics), diagnostics)
    return index
