"""Warnings and errors about the workspace, each tied to a file and line."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Level = Literal["warning", "error"]

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
    }
)


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem found in the workspace, e.g. ``memory/2025-11-27.md:12: bad confidence``."""

    path: str
    line: int
    message: str
    level: Level = "warning"
    code: str = "general"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.level}: {self.message}"


@dataclass
class Diagnostics:
    """Collects diagnostics from every stage; ``--strict`` fails when any were found."""

    items: list[Diagnostic] = field(default_factory=list)

    def warn(self, path: str, line: int, message: str, code: str = "general") -> None:
        self.items.append(Diagnostic(path, line, message, "warning", code))

    def error(self, path: str, line: int, message: str, code: str = "general") -> None:
        self.items.append(Diagnostic(path, line, message, "error", code))

    def extend(self, other: Diagnostics) -> None:
        self.items.extend(other.items)

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.level == "warning"]

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.level == "error"]

    def report(self, strict: bool = False) -> list[str]:
        """``file:line: warning: message`` lines in file order (``error`` under ``--strict``)."""
        return [
            f"{d.path}{f':{d.line}' if d.line else ''}: {'error' if strict else d.level}: {d.message}"
            for d in self.sorted()
        ]

    def sorted(self) -> list[Diagnostic]:
        """Unique diagnostics in file and line order, for stable reports."""
        return sorted(set(self.items), key=lambda d: (d.path, d.line, d.message))
