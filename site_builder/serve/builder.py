"""serve's builds in a process of their own, forked before serve starts its threads (HTTP server, file watcher).

A process with other threads must not fork (``core.processes``), so builds run in serve's own process used one
core: on the large race corpus the whole site caught up with an edit in 22 s, where ``memwiki build`` takes 9 s.
The builder process has no other thread: its builds share render with a child and make recall beside it, as a
``memwiki build`` does. It keeps the last build's library, so the edited page is still shown first from it.

serve sends the builder each batch of changed files; the builder prints what the build says and sends back what
open pages must know (``LiveState``'s calls) and, last, the files reflect wrote. If the builder dies, serve
builds in its own process from then on.
"""

from __future__ import annotations

import atexit
import multiprocessing
import socket
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

import click

from site_builder.serve.server import LiveState, News


class Builder:
    """The builder process; ``build(changed, state)`` runs one build in it and plays its news on ``state``."""

    def __init__(
        self,
        run: Callable[[list[str] | None, News], list[Path]],
        inherited: list[socket.socket],
        idle: Callable[[], None] = lambda: None,
    ) -> None:
        """``run(changed, news)``: one build, called in the builder process with ``news`` that sends its calls back
        here; ``idle()``: called there after each build, once serve has heard it is done. ``inherited``: serve's
        sockets, closed in the builder (it serves nothing)."""
        context = multiprocessing.get_context("fork")
        self._here, there = context.Pipe()
        args = (run, idle, there, self._here, inherited)
        # Not a daemon: a daemon may not start children, and a build forks (render, recall). It ends when serve
        # closes its end of the pipe (``stop``), or dies.
        self._process = context.Process(target=_serve_builds, args=args)
        self._process.start()
        there.close()
        atexit.register(self.stop)  # whatever way serve ends (before multiprocessing waits for its children)

    def build(self, changed: list[str] | None, state: LiveState) -> list[Path] | None:
        """One build of the ``changed`` files (None: the first); the files reflect wrote, or None when the builder
        is gone (serve then builds in its own process)."""
        try:
            self._here.send(changed)
            while True:
                call, args = self._here.recv()
                if call == "done":
                    return [Path(path) for path in args]
                getattr(state, call)(*args[:-1], **args[-1])
        except (EOFError, OSError):
            click.echo("note: the builder process ended; building in serve's own process from now on", err=True)
            return None

    def stop(self) -> None:
        """Close serve's end of the pipe: the builder ends once its build is done. Safe to call again."""
        self._here.close()
        self._process.join(timeout=5)
        if self._process.is_alive():
            self._process.terminate()


class _StateOverPipe:
    """``LiveState``'s calls, sent to serve's process, where open pages wait on them."""

    def __init__(self, pipe: Connection) -> None:
        self._pipe = pipe

    def working(self, what: str) -> None:
        self._pipe.send(("working", [what, {}]))

    def show_first(self, pages: list[str]) -> None:
        self._pipe.send(("show_first", [pages, {}]))

    def publish(
        self, *, error: str | None = None, warnings: list[str] | None = None, rebuilt: bool, busy: str = ""
    ) -> None:
        self._pipe.send(("publish", [{"error": error, "warnings": warnings, "rebuilt": rebuilt, "busy": busy}]))


def _serve_builds(
    run: Callable[[list[str] | None, News], list[Path]],
    idle: Callable[[], None],
    pipe: Connection,
    other_end: Connection,
    inherited: list[socket.socket],
) -> None:
    other_end.close()  # serve's end: were it kept open here, the builder would never see serve end
    for sock in inherited:
        sock.close()
    state = _StateOverPipe(pipe)
    try:
        while True:
            changed = pipe.recv()
            wrote = run(changed, state)
            pipe.send(("done", [str(path) for path in wrote]))
            idle()
    except (EOFError, OSError, KeyboardInterrupt):  # serve ended, or Ctrl-C / SIGTERM: serve says "Stopped."
        pass
