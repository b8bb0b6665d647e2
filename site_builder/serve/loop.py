"""``memwiki serve``: build, serve over HTTP, rebuild on every change and reload open pages."""

from __future__ import annotations

import signal
import socket
import threading
import time
from pathlib import Path
from typing import NamedTuple

import click

from site_builder.build import build
from site_builder.core.collector import cycle_collection_paused
from site_builder.core.processes import can_fork
from site_builder.io.reader import BadSettings, Workspace, WorkspaceError, open_workspace
from site_builder.io.staging import OutputError
from site_builder.load import Loaded, load
from site_builder.reflect.choose import ReflectorError, make_reflector
from site_builder.serve.builder import Builder
from site_builder.serve.preview import preview_pages
from site_builder.serve.server import LiveState, News, make_server
from site_builder.serve.watch import Watcher
from site_builder.site.pagefind import SearchIndexError
from site_builder.site.search_indexing import update_search


class Given(NamedTuple):
    """What the command line sets over ``memwiki.toml`` (None: as configured)."""

    base_url: str | None = None
    title: str | None = None


def serve_workspace(
    workspace: Workspace, out: Path, host: str, port: int, strict: bool, given: Given, reflect: bool
) -> None:
    """Serve until Ctrl-C or SIGTERM; every batch of edits rebuilds (reflect first, unless told not to), in the
    builder process (``serve.builder``) when one can be forked."""
    state = LiveState()
    server = make_server(out, state, host, port)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    builds = _Builds(workspace.root, out, state, strict, given, reflect)
    builds.start_builder([server.socket])  # before any thread starts
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://{host}:{server.server_address[1]}/"
    watcher = Watcher(workspace)
    watcher.start()
    try:
        watcher.ignore_own_writes(builds.build(None))
        watcher.ready.wait(timeout=10)
        click.echo(f"Serving {out} at {url} ; edits to {workspace.root} rebuild and reload open pages. Ctrl-C stops.")
        for changes in watcher.batches():
            names = sorted({Path(p).relative_to(workspace.root).as_posix() for _, p in changes})
            click.echo(f"Changed: {', '.join(names[:5])}{' …' if len(names) > 5 else ''}")
            watcher.ignore_own_writes(builds.build(names))
    except KeyboardInterrupt:
        pass
    finally:
        # A second Ctrl-C while serve stops (at most the builder's 5 s) does not break off the stopping.
        handlers = {stopping: signal.signal(stopping, signal.SIG_IGN) for stopping in (signal.SIGINT, signal.SIGTERM)}
        builds.stop()
        watcher.stop.set()
        server.shutdown()
        server.server_close()
        for stopping, handler in handlers.items():
            signal.signal(stopping, handler)
    click.echo("Stopped.")


class _Builds:
    """Serve's builds, in the builder process when there is one (else here), and what the last one read."""

    def __init__(self, root: Path, out: Path, state: LiveState, strict: bool, given: Given, reflect: bool) -> None:
        self.root, self.out, self.state = root, out, state
        self.strict, self.given, self.reflect = strict, given, reflect
        self.last: Loaded | None = None  # what the last build read: the next edit's page is shown from it first
        self.unread = False  # the last build found the site up to date: it read nothing the next edit's page needs
        self.builder: Builder | None = None

    def start_builder(self, inherited: list[socket.socket]) -> None:
        """Fork the builder process, when one can be (``inherited``: the sockets it closes)."""
        self.builder = Builder(self.build_once, inherited, self.when_idle) if can_fork() else None

    def build(self, changed: list[str] | None) -> list[Path]:
        """Build after ``changed`` (None: the first build), in the builder process when it still runs, else here;
        the files reflect wrote into the workspace."""
        if self.builder is not None:
            wrote = self.builder.build(changed, self.state)
            if wrote is not None:
                return wrote
            self.builder = None
        wrote = self.build_once(changed, self.state)
        self.when_idle()
        return wrote

    def build_once(self, changed: list[str] | None, news: News) -> list[Path]:
        """One build, the edited pages shown first from what the last build read."""
        # under --strict only a site without warnings is shown
        if changed is not None and self.last is not None and not self.strict:
            show_edited_first(self.last, changed, self.out, news)
        # Let go before the next is made: two libraries are not held at once, and freeing one (0.9 s on the large
        # race corpus) does not hold back the word that the build is done, which serve waits for to take the
        # next edit.
        self.last = None
        wrote, self.last, self.unread = rebuild(self.root, self.out, news, self.strict, self.given, self.reflect)
        return wrote

    def when_idle(self) -> None:
        """Once serve has heard a build is done, while no edit waits: after a build that found the site up to date
        (serve's first, most often), the workspace read as that build left it, so that the next edit's page is
        shown from it first, as after any other build."""
        if self.unread and not self.strict:
            self.unread = False
            self.last = read_quietly(self.root)

    def stop(self) -> None:
        """Stop the builder process, if there is one."""
        if self.builder is not None:
            self.builder.stop()


def show_edited_first(last: Loaded, changed: list[str], out: Path, state: News) -> None:
    """The pages of the edited notes, rendered and reloaded before the full rebuild (see ``serve.preview``)."""
    # A full collection over the last build's library takes seconds (1.8 s on the large race corpus), and one is
    # due after a build (it unfroze its model): the pages are shown before the collector may run again, not after.
    with cycle_collection_paused():
        started = time.perf_counter()
        state.working("rebuilding")
        try:
            pages = preview_pages(last, changed, out)
        except Exception as exc:  # the full build that follows shows the site right, or says what is wrong
            click.echo(f"note: the edited page waits for the full build ({type(exc).__name__}: {exc})", err=True)
            return
        if pages:
            state.show_first(pages)
            click.echo(f"Showed {', '.join(pages[:3])} in {time.perf_counter() - started:.2f} s; rebuilding the rest…")


def rebuild(
    root: Path, out: Path, state: News, strict: bool, given: Given, reflect: bool
) -> tuple[list[Path], Loaded | None, bool]:
    """One build for serve; returns the workspace files reflect wrote (not a reason to build again), what the
    build read (the next edit's page is shown from it first), or None when it did not read the workspace, and
    whether that is because the site was up to date (the workspace can then be read as the site shows it).

    The workspace is opened again each time: ``memwiki.toml`` may be what changed.
    """
    started = time.perf_counter()
    state.working("rebuilding")
    try:
        workspace = open_workspace(root)
        reflector = make_reflector(workspace.config, root=root) if reflect else None
        result = build(workspace, out, strict=strict, reflector=reflector, search_later=True, **given._asdict())
    except (WorkspaceError, OutputError, ReflectorError) as exc:
        lines = [f"{p.where}: error: {p.message}" for p in exc.problems] if isinstance(exc, BadSettings) else []
        message = "\n".join([*lines, str(exc)])
        click.echo(message if lines else f"error: {exc}", err=True)
        state.publish(error=message, rebuilt=False)
        return [], None, False
    except Exception as exc:  # a bug in memwiki: keep serving the last good site and say what broke
        message = f"{type(exc).__name__}: {exc} (this is a memwiki bug; please report it)"
        click.echo(f"error: {message}", err=True)
        state.publish(error=message, rebuilt=False)
        return [], None, False
    for line in result.diagnostics.report(strict, str(root)):
        click.echo(line, err=True)
    lines = [f"{d.located(str(root))}: {d.message}" for d in result.diagnostics.sorted()]
    wrote = [root / rel for rel in result.reflected.changes] if result.reflected else []
    if not result.written:
        click.echo(
            f"Build failed under --strict ({len(lines)} problem(s)); still serving the last good site.", err=True
        )
        state.publish(error="\n".join(lines), rebuilt=False)
        return wrote, None, False
    click.echo(f"Built {result.pages} pages in {time.perf_counter() - started:.2f} s; {len(lines)} warning(s).")
    records = result.records  # the search records, when search catches up after the pages
    state.publish(
        warnings=lines, rebuilt=True, busy="updating search" if records is not None else ""
    )  # pages reload now
    if records is not None:
        try:
            update_search(out, root, records)
        except SearchIndexError as exc:
            click.echo(f"warning: search not updated: {exc}", err=True)
        state.working("")
    return wrote, result.loaded, result.up_to_date


def read_quietly(root: Path) -> Loaded | None:
    """The workspace read, parsed and linked from the build cache (``load``: it writes nothing), or None when it
    cannot be: the next edit then waits for the full build, which says what is wrong."""
    try:
        return load(root)  # parsed and linked with the cycle collector paused, as every load
    except Exception:
        return None
