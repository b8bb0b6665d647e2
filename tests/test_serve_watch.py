"""serve's watcher: a person's edit is noticed at once, even while memwiki writes under the workspace."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from site_builder.io.reader import open_workspace
from site_builder.serve.watch import Watcher
from tests.conftest import write_workspace

DAY = "# Monday\nPeter talked about kites.\n"


def test_an_edit_is_noticed_while_memwiki_writes_its_site(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"memory/2025-11-03.md": DAY})
    site = ws / "_site"
    site.mkdir()
    writing = threading.Event()
    writing.set()

    def write_site() -> None:  # memwiki's own writes under the workspace: a site made, the last one removed
        written = 0
        while writing.is_set():
            (site / f"page-{written}.html").write_text(str(written))  # each a new path, as in a site
            written += 1
            time.sleep(0.001)

    watcher = Watcher(open_workspace(ws))
    watcher.start()
    writer = threading.Thread(target=write_site)
    try:
        assert watcher.ready.wait(10)
        writer.start()
        time.sleep(0.2)
        edited = time.monotonic()
        (ws / "memory/2025-11-03.md").write_text(DAY + "Peter flies it on Sundays.\n", encoding="utf-8")
        batch = watcher.changes.get(timeout=10)
        noticed = time.monotonic() - edited
    finally:
        writing.clear()
        watcher.stop.set()
        if writer.is_alive():
            writer.join()
    assert {path for _, path in batch} == {str(ws / "memory/2025-11-03.md")}
    # The site's files are not what serve watches, yet watchfiles groups every event before it filters them:
    # with its default grouping (up to 1.6 s, while events keep coming) the edit waited 1.5 s here.
    assert noticed < 0.8, f"the edit was noticed {noticed:.2f} s late"
