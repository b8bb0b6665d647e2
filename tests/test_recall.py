"""memwiki recall: cited, dated, ranked lines from the SQLite index, and its bad input."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, run, write_workspace

DAY1 = """# Monday
Peter talked about the kitchen tiles with Anna.
The weather was grey all day.

## Retain
- W @Peter: The tile quote is €2.1k for the kitchen.
- O(c=0.7) @Anna: Anna is easiest to reach in the mornings. ^mornings
"""
DAY2 = """# Tuesday
Went swimming at the Areeiro pool.

## Retain
- B @Peter: I booked the Marrakech trip for Nov 27–Dec 1, 2025.
"""


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path / "ws",
        {
            "memory/2025-11-03.md": DAY1,
            "memory/2025-11-04.md": DAY2,
            "bank/entities/Anna.md": "---\naliases: [Ania]\n---\n# Anna\nCeramicist.\n",
        },
    )


def recall_json(ws: Path, *args: str) -> dict[str, Any]:
    result = run("recall", *args, "--workspace", str(ws), "--json")
    assert result.exit_code == 0, result.output
    answer: dict[str, Any] = json.loads(result.output)
    return answer


def test_results_cite_one_line_with_date_kind_and_entities(ws: Path) -> None:
    results = recall_json(ws, "kitchen tiles quote")["results"]
    top = results[0]
    assert top["source"] == "memory/2025-11-03.md#L6"
    assert top["kind"] == "W"
    assert top["date"] == "2025-11-03"
    assert top["entities"] == ["peter"]
    assert "€2.1k" in top["content"]
    line = (ws / "memory/2025-11-03.md").read_text(encoding="utf-8").splitlines()[5]
    assert top["content"] in line
    assert any(r["source"] == "memory/2025-11-03.md#L2" and r["kind"] == "log" for r in results)


def test_stemming_matches_other_word_forms(ws: Path) -> None:
    assert recall_json(ws, "swim")["results"][0]["source"] == "memory/2025-11-04.md#L2"


def test_a_line_is_found_by_the_headings_it_sits_under(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "MEMORY.md": "# Long-term memory\n\n## Preferences\n\n### Group chat messages\n\n- Short, casual, no lists.\n"
            "- One paragraph with the useful link.\n\n## Kitchen\n\n- The kettle is broken.\n",
            "memory/2026-01-05.md": "# 2026-01-05\n\n## 14:30 preferences call\n\n- Nothing was decided.\n"
            "- I liked the casual tone of the group.\n",
            **{
                f"memory/2026-02-{day:02}.md": f"# Day {day}\n\n- Walked {day} km.\n- Read a chapter.\n"
                for day in range(1, 16)
            },
        },
    )
    results = recall_json(ws, "group chat messages", "--k", "3")["results"]
    # the heading is a line too, and the lines under it are found by it
    assert sorted(r["source"] for r in results) == ["MEMORY.md#L5", "MEMORY.md#L7", "MEMORY.md#L8"], results
    preferences = [r["source"] for r in recall_json(ws, "preferences")["results"]]
    assert set(preferences[:4]) == {"MEMORY.md#L3", "MEMORY.md#L5", "MEMORY.md#L7", "MEMORY.md#L8"}, preferences
    assert not any(p.startswith("memory/2026-01-05") for p in preferences)  # not a heading that stamps a time
    assert "MEMORY.md#L12" not in preferences  # a heading of its own: the kitchen is not a preference


def test_a_heading_naming_who_does_something_answers_the_verb(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "projects/launch.md": "# Launch\n\n## Blockers\n\n- Legal has not approved the consent copy.\n\n"
            "## Planners\n\n- Kai and Ana.\n\n## Numbers\n\n- 38% drop at the income step.\n",
            "memory/2026-02-01.md": "# Day\n\n- The launch is set for May.\n",
        },
    )
    assert [r["source"] for r in recall_json(ws, "what blocks it")["results"]] == ["projects/launch.md#L5"]
    assert [r["source"] for r in recall_json(ws, "who plans it")["results"]] == ["projects/launch.md#L9"]


def common_words_workspace(root: Path) -> Path:
    """28 days of 40 facts: half hold "budget", "review" and "studio", the others two of them; a fifth are about Bob."""
    days = {}
    for day in range(1, 29):
        facts = []
        for i in range(40):
            words = (
                ("budget", "review", "studio")
                if i % 2
                else [("budget review", "review studio", "budget studio")[i % 3]]
            )
            about = "@Bob" if i % 5 == 0 else "@Anna"  # Anna: 16 of the 20 facts a day that hold all three
            facts.append(f"- W {about}: Item {day * 100 + i}, the {' '.join(words)} notes.")
        days[f"memory/2025-11-{day:02d}.md"] = "# Day\n\n## Retain\n" + "\n".join(facts) + "\n"
    return write_workspace(root, days)


def test_words_on_most_lines_find_the_lines_holding_them_all_within_the_filters(tmp_path: Path) -> None:
    """Each word is on over half of the lines, where BM25 weighs a word least: the lines holding all come first."""
    ws = common_words_workspace(tmp_path / "ws")
    every = ("budget", "review", "studio")
    for args, wanted in (  # each leaves over 400 lines that hold every word, enough to rank only those
        ((), lambda r: True),
        (("--since", "2025-11-08"), lambda r: r["date"] >= "2025-11-08"),
        (("--entity", "Anna"), lambda r: r["entities"] == ["anna"]),
    ):
        results = recall_json(ws, "studio budget review", "--k", "20", *args)["results"]
        assert len(results) == 20, args
        assert all(wanted(r) and all(w in r["content"] for w in every) for r in results), args


def test_filters_by_kind_entity_alias_and_dates(ws: Path) -> None:
    assert {r["kind"] for r in recall_json(ws, "kitchen", "--kind", "log")["results"]} == {"log"}
    by_alias = recall_json(ws, "mornings reach", "--entity", "Ania")["results"]
    assert [r["source"] for r in by_alias] == ["memory/2025-11-03.md#L7"]
    late = recall_json(ws, "kitchen trip", "--since", "2025-11-04")["results"]
    assert late and all(r["date"] >= "2025-11-04" for r in late)
    early = recall_json(ws, "kitchen trip", "--until", "2025-11-03")["results"]
    assert early and all(r["date"] <= "2025-11-03" for r in early)


def test_queries_file_prints_one_json_object_per_line(ws: Path, tmp_path: Path) -> None:
    queries = tmp_path / "q.txt"
    queries.write_text("kitchen tiles\nthe of and\nMarrakech trip\n", encoding="utf-8")
    result = run("recall", "--workspace", str(ws), "--queries", str(queries), "--k", "3")
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert [line["query"] for line in lines] == ["kitchen tiles", "the of and", "Marrakech trip"]
    assert lines[1]["results"] == [] and "stop words" in lines[1]["error"]
    assert lines[2]["results"][0]["source"] == "memory/2025-11-04.md#L5"
    keys = {"source", "content", "date", "kind", "entities", "score", "occurred", "confidence"}
    assert set(lines[0]["results"][0]) == keys


def test_text_output_is_readable(ws: Path) -> None:
    result = run("recall", "Marrakech", "--workspace", str(ws))
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[:3] == [
        " 1. experience · 2025-11-04 · happens 2025-11-27 to 2025-12-01",
        "    I booked the Marrakech trip for Nov 27–Dec 1, 2025.",
        "    memory/2025-11-04.md#L5",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["", "--workspace"], "empty query"),
        (["the of", "--workspace"], "only stop words"),
        (["x", "--since", "last tuesday", "--workspace"], "is not a date"),
        (["x", "--entity", "Nobody", "--workspace"], "unknown entity 'Nobody'"),
    ],
)
def test_bad_queries_fail_with_a_clear_message(ws: Path, args: list[str], message: str) -> None:
    result = run("recall", *args, str(ws))
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


def test_workspace_without_facts_says_so(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = run("recall", "anything", "--workspace", str(tmp_path / "empty"))
    assert result.exit_code == 0
    assert "no facts or log lines" in result.output


def test_index_updates_when_a_file_changes(ws: Path) -> None:
    assert recall_json(ws, "zanzibar")["results"] == []
    (ws / "memory/2025-11-05.md").write_text("# Wed\nPlanning a zanzibar holiday.\n", encoding="utf-8")
    assert recall_json(ws, "zanzibar")["results"][0]["source"] == "memory/2025-11-05.md#L2"
    (ws / "memory/2025-11-05.md").unlink()
    assert recall_json(ws, "zanzibar")["results"] == []


def test_corrupt_index_is_rebuilt(ws: Path) -> None:
    recall_json(ws, "kitchen")
    index = ws / ".memwiki" / "recall.sqlite"
    index.write_bytes(b"this is not a database" * 100)
    assert recall_json(ws, "kitchen")["results"]
    sqlite3.connect(index).execute("SELECT count(*) FROM docs").fetchone()


@pytest.mark.slow  # waits out the index's 2 s SQLite lock timeout
def test_locked_index_still_answers(ws: Path) -> None:
    recall_json(ws, "kitchen")
    holder = sqlite3.connect(ws / ".memwiki" / "recall.sqlite")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        (ws / "memory/2025-11-05.md").write_text("# Wed\nA new zanzibar line.\n", encoding="utf-8")
        assert recall_json(ws, "zanzibar")["results"]
    finally:
        holder.rollback()
        holder.close()


def test_private_content_is_not_indexed(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/2025-11-03.md": "# D\nPublic kitchen.\n<!-- private -->\nsecret kitchen SENTINEL\n<!-- /private -->\n"
        },
    )
    results = recall_json(ws, "kitchen sentinel")["results"]
    assert all("SENTINEL" not in r["content"] for r in results)


LOCOMO = REPO.parent / "shared" / "locomo" / "locomo_dev.json"


@pytest.mark.slow
@pytest.mark.skipif(not LOCOMO.exists(), reason="../shared/locomo is not present (licensed data, not in the repo)")
def test_locomo_recall_beats_bm25(tmp_path: Path) -> None:
    memwiki = f"{sys.executable} -m site_builder"
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO.parent / "shared" / "bench" / "locomo_eval.py"),
            "--data",
            str(LOCOMO),
            "--work",
            str(tmp_path),
            "--conversations",
            "0",
            "--memwiki",
            memwiki,
        ],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    last = proc.stdout.strip().splitlines()[-1]
    ours, bm25 = (float(part.split("=")[1]) for part in last.split()[1:3])
    assert ours > bm25, last


def test_index_from_another_version_is_rebuilt(ws: Path) -> None:
    (ws / ".memwiki").mkdir()
    db = sqlite3.connect(ws / ".memwiki" / "recall.sqlite")
    db.executescript(
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('version', '2');"
        "CREATE TABLE files(path TEXT PRIMARY KEY, digest TEXT NOT NULL);"
    )
    db.close()
    assert recall_json(ws, "kitchen tiles quote")["results"][0]["source"] == "memory/2025-11-03.md#L6"


def test_an_index_of_another_version_is_rebuilt_although_its_stamps_still_match(ws: Path) -> None:
    """Upgrading memwiki: the old index's stamps describe the workspace as it is, but its rows are of another kind."""
    age(ws)
    assert recall_json(ws, "kitchen tiles quote")["results"]
    db = sqlite3.connect(ws / ".memwiki" / "recall.sqlite")
    db.execute("UPDATE meta SET value = 'older' WHERE key = 'version'")
    db.commit()
    db.close()
    assert recall_json(ws, "kitchen tiles quote")["results"][0]["source"] == "memory/2025-11-03.md#L6"


def age(ws: Path, seconds: int = 3600) -> None:
    """Date every note of ``ws`` an hour back: old enough for its stamp to be trusted."""
    past = time.time() - seconds
    for path in ws.rglob("*.md"):
        os.utime(path, (past, past))


def test_only_files_whose_stamp_changed_are_read_again(ws: Path) -> None:
    from site_builder.core.diagnostics import Diagnostics
    from site_builder.io.reader import open_workspace, stamp_workspace
    from tests.conftest import open_index

    age(ws)
    index = open_index(open_workspace(ws), Diagnostics())
    assert index.stale(stamp_workspace(open_workspace(ws), Diagnostics())) == []
    day = ws / "memory/2025-11-04.md"
    day.write_text(day.read_text(encoding="utf-8") + "- W @Peter: Bought flippers.\n", encoding="utf-8")
    assert index.stale(stamp_workspace(open_workspace(ws), Diagnostics())) == ["memory/2025-11-04.md"]
    assert recall_json(ws, "flippers")["results"][0]["source"] == "memory/2025-11-04.md#L6"


def test_a_file_written_just_now_is_read_again_until_its_stamp_can_be_trusted(ws: Path) -> None:
    from site_builder.core.diagnostics import Diagnostics
    from site_builder.io.reader import open_workspace, stamp_workspace
    from tests.conftest import open_index

    age(ws)
    (ws / "memory/2025-11-05.md").write_text("# Wed\nA line.\n", encoding="utf-8")
    index = open_index(open_workspace(ws), Diagnostics())
    assert index.stale(stamp_workspace(open_workspace(ws), Diagnostics())) == ["memory/2025-11-05.md"]


def test_an_edit_that_keeps_size_and_modification_time_is_found(ws: Path) -> None:
    """A same-size rewrite within the file system's clock tick leaves the stamp as it was: still found."""
    day = ws / "memory/2025-11-04.md"
    before = day.stat()
    assert recall_json(ws, "swimming")["results"]
    day.write_text(DAY2.replace("swimming", "climbing"), encoding="utf-8")
    os.utime(day, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert day.stat().st_size == before.st_size
    assert recall_json(ws, "swimming")["results"] == []
    assert recall_json(ws, "climbing")["results"][0]["source"] == "memory/2025-11-04.md#L2"


def test_edits_renames_and_deletions_of_old_files_are_found(ws: Path) -> None:
    age(ws)
    assert recall_json(ws, "swimming")["results"]  # the index now trusts every stamp (and their digest)
    day = ws / "memory/2025-11-04.md"
    day.write_text(DAY2.replace("swimming", "climbing"), encoding="utf-8")  # same size, a new modification time
    assert recall_json(ws, "climbing")["results"][0]["source"] == "memory/2025-11-04.md#L2"
    age(ws, 1800)
    day.rename(ws / "memory/2025-11-06.md")
    assert recall_json(ws, "climbing")["results"][0]["source"] == "memory/2025-11-06.md#L2"
    (ws / "memory/2025-11-06.md").unlink()
    assert recall_json(ws, "climbing")["results"] == []
    assert recall_json(ws, "kitchen tiles")["results"]


def test_a_damaged_index_page_is_rebuilt(ws: Path) -> None:
    recall_json(ws, "kitchen")
    index = ws / ".memwiki" / "recall.sqlite"
    data = bytearray(index.read_bytes())
    data[4096:] = b"\x5a" * (len(data) - 4096)  # keep the header page, damage every other one
    index.write_bytes(bytes(data))
    assert recall_json(ws, "kitchen tiles quote")["results"][0]["source"] == "memory/2025-11-03.md#L6"


def test_a_query_on_an_unchanged_workspace_imports_no_parser_renderer_or_sdk(ws: Path) -> None:
    age(ws)
    recall_json(ws, "kitchen")  # builds the index; the next process finds every stamp unchanged
    heavy = ("mistune", "jinja2", "yaml", "markdown", "pydantic", "anthropic", "mcp", "watchfiles", "jsonschema")
    code = (
        "import sys\nfrom site_builder.cli import main\n"
        f"try: main(['recall', 'kitchen tiles', '--workspace', {str(ws)!r}, '--json'])\nexcept SystemExit: pass\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {heavy!r} or m.startswith('site_builder.parse')"
        " or m in ('importlib.metadata', 'site_builder.library.link', 'site_builder.recall.bundle')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO).stdout
    assert '"source": "memory/2025-11-03.md#L6"' in out
    assert out.strip().splitlines()[-1] == "[]"


def test_the_answer_made_while_checking_is_kept_only_when_nothing_changed(ws: Path) -> None:
    """answer_fresh answers from the index as it stands while the workspace is statted; a change throws that away."""
    from site_builder.core.diagnostics import Diagnostics
    from site_builder.recall.ahead import answer_fresh
    from site_builder.recall.index import RecallIndex
    from site_builder.recall.query import RecallQuery
    from site_builder.recall.search import search

    asked: list[tuple[str | None, str | None]] = []

    def ask(index: RecallIndex) -> list[str]:
        asked.append(index.state())
        return [hit.source for hit in search(index, RecallQuery(text="zanzibar", k=5))]

    age(ws)
    assert answer_fresh(ws, Diagnostics(), ask)[2] == [] and len(asked) == 1  # no index yet: asked once, when fresh
    assert answer_fresh(ws, Diagnostics(), ask)[2] == [] and asked[1:] == asked[:1]  # unchanged: the early answer
    (ws / "memory/2025-11-05.md").write_text("# Wed\nPlanning a zanzibar holiday.\n", encoding="utf-8")
    assert answer_fresh(ws, Diagnostics(), ask)[2] == ["memory/2025-11-05.md#L2"] and len(asked) == 4
    age(ws)
    answer_fresh(ws, Diagnostics(), ask)  # the new file's stamp is trusted now: the digest changes once more
    (ws / "memory/2025-11-05.md").unlink()
    assert answer_fresh(ws, Diagnostics(), ask)[2] == [] and len(asked) == 8


def test_recall_in_a_missing_folder_makes_nothing(tmp_path: Path) -> None:
    result = run("recall", "kitchen", "--workspace", str(tmp_path / "missing"))
    assert result.exit_code == 1 and "workspace not found" in result.output
    assert not (tmp_path / "missing").exists()


def test_the_line_count_kept_for_the_second_hop_follows_edits(ws: Path) -> None:
    from site_builder.core.diagnostics import Diagnostics
    from site_builder.io.reader import open_workspace
    from tests.conftest import open_index

    def counts() -> tuple[int, int]:
        index = open_index(open_workspace(ws), Diagnostics())
        return index.count(), int(index.db.execute("SELECT count(*) FROM docs").fetchone()[0])

    first, actual = counts()
    assert first == actual > 0
    (ws / "memory/2025-11-05.md").write_text("# Wed\nOne line.\nAnd another.\n", encoding="utf-8")
    assert counts() == (actual + 2, actual + 2)  # a note's title is not a line of its own
    (ws / "memory/2025-11-05.md").unlink()
    assert counts() == (actual, actual)
