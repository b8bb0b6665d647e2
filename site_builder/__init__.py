"""memwiki: render an agent's Markdown memory workspace into a static wiki."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("memwiki")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"
