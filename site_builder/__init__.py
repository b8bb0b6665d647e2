"""memwiki: render an agent's Markdown memory workspace into a static wiki.

The sub-packages follow the data flow, one way:

    io (read) -> parse -> library (model) -> reflect -> site (render, Pagefind)
    -> recall (bundle, index, search) -> io (write)

``core`` holds what every stage shares; ``build.py`` runs the stages in order and
``cli.py`` is the command line over it; ``serve`` previews and rebuilds on change.
``docs/internals.md`` walks through it.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("memwiki")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"
