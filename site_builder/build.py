"""``build()``: the site of a workspace, unless the last build was of the same input into the same, untouched
output folder; then nothing is done and the last build's report is given again. The same input is told from the
notes' stamps when they can vouch for their texts (nothing is read), else from their texts.

read -> same input as the last build? -> the stages (``site_builder.pipeline``, imported only when there is
something to build: a build with nothing to do starts in half the time)
"""

from __future__ import annotations

import dataclasses
import gc
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from site_builder.build_result import BuildOptions, BuildResult
from site_builder.core.diagnostics import Diagnostics
from site_builder.core.progress import Progress
from site_builder.io.build_cache import LastBuild, in_place, last_build, save_last_build
from site_builder.io.build_lock import build_lock
from site_builder.io.listing import input_key, list_notes, load_known
from site_builder.io.memo_store import MemoStore
from site_builder.io.reader import Workspace, open_workspace
from site_builder.io.staging import check_output
from site_builder.site.pagefind import SearchStats  # the last build's stats are one (loading them imports it)

if TYPE_CHECKING:
    from site_builder.reflect.reflector import Reflector


def build(
    workspace: str | Path | Workspace,
    output: str | Path | None = None,
    *,
    strict: bool = False,
    search: bool = True,
    progress: Progress | None = None,
    base_url: str | None = None,
    title: str | None = None,
    reflector: Reflector | None = None,
    cache: bool = True,
    search_later: bool = False,
    settle: bool = True,
) -> BuildResult:
    """Reflect (when a reflector is given), then build the site. Under ``strict`` any warning keeps the old site.
    ``search_later``: the new site keeps the last search index, and ``site.search_indexing.update_search`` brings it up to date after
    (serve: the edited page reloads first). The old site is removed by a process of its own once the new one is in
    place; without ``settle`` the build does not wait for it (a process that ends with the build: the ``memwiki``
    command), and a build that finds it not done yet finishes it."""
    opened = open_workspace(workspace)
    opened.require_usable()  # nothing is written into a folder that holds no memory, or with settings in error
    options = BuildOptions(strict, search, progress or Progress(), base_url, reflector, cache, search_later, settle)
    with build_lock(opened.root / ".memwiki", lambda message: print(f"memwiki: {message}", file=sys.stderr)):
        try:
            return _build(opened.with_base_url(base_url).with_title(title), output, options)
        finally:
            gc.unfreeze()  # the model the build froze can be collected again (serve builds again and again)


def _build(opened: Workspace, output: str | Path | None, options: BuildOptions) -> BuildResult:
    out = check_output(Path(output) if output else opened.default_output, opened.root)
    memwiki_dir = opened.root / ".memwiki"
    with options.progress.stage("read"):
        listing = list_notes(opened, options.settings)
        last = last_build(memwiki_dir, out) if options.cache else None
        if last is not None and listing.stamps and listing.stamps == last.stamps and in_place(last):
            return _up_to_date(out, last, options.progress)  # told by the stamps: no file read
        sources = listing.read(opened, load_known(memwiki_dir) if options.cache else None)
    key = input_key(opened, sources, listing.problems, options.settings)
    if last is not None and last.key == key and in_place(last):
        if listing.stamps and listing.stamps != last.stamps:  # files touched, not changed: stamps vouch next time
            save_last_build(MemoStore.of(memwiki_dir, cache=True), dataclasses.replace(last, stamps=listing.stamps))
        return _up_to_date(out, last, options.progress)
    from site_builder.pipeline import make_site  # the stages: only now (see the module's note)

    return make_site(opened, out, listing, sources, key, options, last.site_files if last is not None else None)


def _up_to_date(out: Path, last: LastBuild, progress: Progress) -> BuildResult:
    """Nothing to do: what the last build made and said."""
    search = last.search if isinstance(last.search, SearchStats) else None
    return BuildResult(
        out, last.pages, last.site_files, True, None, Diagnostics(list(last.diagnostics)), search, last.recall_report,
        progress.timings, up_to_date=True,
    )  # fmt: skip
