"""memwiki: render an agent's Markdown memory workspace into a static wiki.

The sub-packages follow the data flow, one way:

    io (read) -> parse -> library (model) -> reflect -> site (render, Pagefind)
    -> recall (bundle, index, search) -> io (write)

``core`` holds what every stage shares; ``load.py`` reads, parses and links (what every command starts from),
``reflect_loaded.py`` runs reflect on it, ``build.py`` runs the stages in order and ``cli`` is the command line over them; ``serve`` previews and rebuilds
on change.
``docs/internals.md`` walks through it.
"""

from __future__ import annotations

import functools


@functools.cache
def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # slow to import: only when asked

    try:
        return version("memwiki")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0.0.0"


def __getattr__(name: str) -> str:
    """``site_builder.__version__``, read from the installed package's metadata on first use."""
    if name == "__version__":
        return _version()
    raise AttributeError(f"module 'site_builder' has no attribute {name!r}")
