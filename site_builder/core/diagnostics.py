"""Warnings about the workspace, each tied to a file and line (errors under ``--strict``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

# Codes of diagnostics that mean input was lost or misread: ``memwiki check`` fails on these.
PROBLEM_CODES = frozenset(
    {
        "broken-link",
        "malformed-fact",
        "date",
        "front-matter",
        "encoding",
        "io",
        "duplicate-entity",
        "path",
        "config",
        "private",
        "credential",
        "record",
    }
)


WHOLE_WORKSPACE = "."  # the path of a problem about the whole workspace; terminals show the workspace's own path


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem found in the workspace, e.g. ``memory/2025-11-27.md:12: bad confidence``.

    ``level`` is ``error`` only for what stops a command (settings it cannot use); the rest are warnings.
    """

    path: str
    line: int
    message: str
    code: str = "general"
    level: Literal["warning", "error"] = "warning"

    @property
    def where(self) -> str:
        """``path:line``, or only the path when the problem is about the whole file."""
        return f"{self.path}:{self.line}" if self.line else self.path

    def located(self, workspace: str = WHOLE_WORKSPACE) -> str:
        """``where``, with a problem about the whole workspace placed at the workspace's path."""
        return workspace if self.path == WHOLE_WORKSPACE else self.where


@dataclass
class Diagnostics:
    """Collects diagnostics from every stage; ``--strict`` fails when any were found."""

    items: list[Diagnostic] = field(default_factory=list)

    def warn(self, path: str, line: int, message: str, code: str = "general") -> None:
        self.items.append(Diagnostic(path, line, message, code))

    def error(self, path: str, line: int, message: str, code: str = "general") -> None:
        self.items.append(Diagnostic(path, line, message, code, "error"))

    def extend(self, other: Diagnostics) -> None:
        self.items.extend(other.items)

    def report(self, strict: bool = False, workspace: str = WHOLE_WORKSPACE) -> list[str]:
        """``file:line: warning: message`` lines in file order (``error`` under ``--strict``).

        ``workspace``: the path to show for problems about the whole workspace.
        """
        return [f"{d.located(workspace)}: {'error' if strict else d.level}: {d.message}" for d in self.sorted()]

    def sorted(self) -> list[Diagnostic]:
        """Unique diagnostics in file and line order, for stable reports."""
        return sorted(set(self.items), key=lambda d: (d.path, d.line, d.message))
