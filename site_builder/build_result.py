"""What a build is asked (``BuildOptions``) and what it gives back (``BuildResult``): shared by ``build``, which decides
whether there is anything to build, and ``pipeline``, which builds."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.progress import Progress

if TYPE_CHECKING:
    from site_builder.load import Loaded
    from site_builder.reflect.reflector import Reflector
    from site_builder.reflect.run import ReflectResult
    from site_builder.site.pagefind import SearchRecords, SearchStats


@dataclass
class BuildResult:
    output: Path
    pages: int
    files: int
    written: bool
    loaded: Loaded | None  # None when the site was already up to date (nothing was read past the files)
    diagnostics: Diagnostics  # every problem of every stage
    search: SearchStats | None
    recall_report: str  # one line about recall.json
    timings: dict[str, float]
    reflected: ReflectResult | None = None
    up_to_date: bool = False  # the same input was built into this output before: nothing was done again
    records: SearchRecords | None = None  # the search records, when the index comes later


@dataclass(frozen=True)
class BuildOptions:
    """How to build (``build``'s keyword arguments)."""

    strict: bool
    search: bool
    progress: Progress
    base_url: str | None
    reflector: Reflector | None
    cache: bool
    search_later: bool
    settle: bool = True  # return only once the old site is removed (see ``build``)

    @property
    def settings(self) -> tuple[object, ...]:
        """The options the site depends on, beside the workspace's own settings: part of the input's key."""
        return (self.strict, self.search, type(self.reflector).__name__)
