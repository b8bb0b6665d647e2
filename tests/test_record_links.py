"""Search records are linked at their pages' paths by a process of its own (``site.record_links``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from site_builder.site.record_links import link_records


def _records(tmp_path: Path) -> list[tuple[str, str]]:
    store = tmp_path / "store"
    store.mkdir()
    pairs = []
    for n, path in enumerate(["index.html", "memory/2025/2025-11-20.html", "bank/entities/ann lee.html"]):
        record = store / f"2025-{n}.html"
        record.write_text(f"record {n}")
        pairs.append((str(record), path))
    return pairs


def test_the_records_of_a_part_are_linked_at_their_pages_paths_by_a_process_of_their_own(tmp_path: Path) -> None:
    pairs = _records(tmp_path)
    into = tmp_path / "records"
    done = subprocess.run(
        [sys.executable, "-I", "-m", "site_builder.site.record_links", str(into)],
        input="\0".join(f"{source}\0{path}" for source, path in pairs).encode(),
        check=False,
    )
    assert done.returncode == 0
    for source, path in pairs:
        assert Path(source).samefile(into / path)  # a link, not a copy


def test_linking_the_records_gives_every_page_its_record(tmp_path: Path) -> None:
    pairs = _records(tmp_path)
    link_records(pairs, tmp_path / "records")
    assert {
        p.relative_to(tmp_path / "records").as_posix(): p.read_text() for p in (tmp_path / "records").rglob("*.html")
    } == {
        "index.html": "record 0",
        "memory/2025/2025-11-20.html": "record 1",
        "bank/entities/ann lee.html": "record 2",
    }
