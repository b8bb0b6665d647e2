"""Recall that resolves who and when: aliases, one result per opinion, readable times, time words, --now."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import recall_results, run, write_workspace

MORNINGS = "- O(c={c}) @Sam: Sam prefers meetings in the morning."


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    days = {
        f"memory/2025-11-{day:02d}.md": f"# Day {day}\nCoffee with the team.\n\n## Retain\n{MORNINGS.format(c=c)}\n"
        for day, c in zip(range(1, 7), (0.5, 0.6, 0.6, 0.7, 0.8, 0.75), strict=True)
    }
    return write_workspace(
        tmp_path / "ws",
        {
            **days,
            "memory/2025-11-07.md": "# Fri\n@Maggie asked for a pre-read before the board meeting.\n\n## Retain\n"
            "- B @Peter: I booked the Marrakech trip for Nov 27–Dec 1, 2025.\n",
            "memory/2025-11-08.md": "# Sat\n" + "".join(f"Lunch note {n} about the lunch.\n" for n in range(15)),
            "bank/entities/Margaret.md": "---\naliases: [Maggie]\n---\n# Margaret\nChairs the board.\n",
        },
    )


def recall(*args: str) -> list[dict[str, Any]]:
    return recall_results(*args)


def test_entity_filter_and_ranking_resolve_aliases(ws: Path) -> None:
    by_name = recall("pre-read", str(ws), "--entity", "Margaret")
    assert [r["source"] for r in by_name] == ["memory/2025-11-07.md#L2"]
    # "@Maggie" is Margaret; her page's line sits under her name ("# Margaret"): both are about her, before the rest.
    assert {r["source"] for r in recall("Margaret", str(ws))[:2]} == {
        "memory/2025-11-07.md#L2",
        "bank/entities/Margaret.md#L5",
    }


def test_lines_that_name_an_entity_either_way_rank_above_the_lines_beside_them(tmp_path: Path) -> None:
    days = {
        f"memory/2025-10-{day:02d}.md": f"# Day {day}\nWent running in the park.\nCooked dinner at home.\n"
        for day in range(1, 21)
    }
    ws = write_workspace(
        tmp_path / "ws",
        {
            **days,
            "bank/entities/Margaret.md": "---\naliases: [Maggie]\n---\n# Margaret\nChairs the board.\n",
            "memory/2025-11-03.md": "# Mon\n@Margaret asked for a pre-read.\nLunch with @Tom about the budget.\n",
            "memory/2025-11-04.md": "# Tue\n@Maggie booked the big room.\nThe printer broke again.\n",
        },
    )
    margaret, maggie = "@Margaret asked for a pre-read.", "@Maggie booked the big room."
    by_name = [r["content"] for r in recall("Margaret", str(ws))]
    assert set(by_name[:3]) == {margaret, maggie, "Chairs the board."}  # her page's lines are about her too
    by_alias = recall("Maggie", str(ws))
    assert by_alias[0]["content"] == maggie
    found = {r["content"]: r["score"] for r in by_alias}
    assert found[margaret] > found.get("Cooked dinner at home.", 0) and found[margaret] > 1


def test_an_entity_shard_holds_lines_that_name_it_by_alias(ws: Path, tmp_path: Path) -> None:
    assert run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search").exit_code == 0
    shard = json.loads((ws / ".memwiki/recall/entities/margaret.json").read_text(encoding="utf-8"))
    assert [m["source"] for m in shard["mentions"]] == ["memory/2025-11-07.md#L2"]


def test_an_opinion_restated_six_times_is_one_result_with_its_current_confidence(ws: Path) -> None:
    opinions = [r for r in recall("Sam meetings morning", str(ws)) if r["kind"] == "O"]
    assert len(opinions) == 1
    assert opinions[0]["source"] == "memory/2025-11-06.md#L5"
    assert (opinions[0]["confidence"], opinions[0]["history"]) == (0.75, 6)


def test_context_prints_a_restated_opinion_once(ws: Path) -> None:
    result = run("context", str(ws), "--query", "Sam meetings morning")
    assert result.exit_code == 0
    relevant = result.output.split("## Most relevant to:")[1].split("\n## ")[0]
    assert relevant.count("Sam prefers meetings in the morning.") == 1
    assert "confidence 0.75, 6 points" in relevant


def test_text_output_shows_kind_confidence_day_and_when_it_happens(ws: Path) -> None:
    result = run("recall", "Sam mornings Marrakech trip", str(ws))
    assert result.exit_code == 0
    assert " 1. experience · 2025-11-07 · happens 2025-11-27 to 2025-12-01\n" in result.output
    assert ". opinion · confidence 0.75 (6 points) · 2025-11-06\n    Sam prefers meetings in the morning.\n" in (
        result.output
    )


def test_ten_results_by_default(ws: Path) -> None:
    assert len(recall("lunch", str(ws))) == 10
    assert len(recall("lunch", str(ws), "--k", "12")) == 12


@pytest.mark.parametrize(
    ("args", "days"),
    [
        (["--since", "yesterday", "--now", "2025-11-08"], {"2025-11-07", "2025-11-08"}),
        (["--until", "last week", "--now", "2025-11-05"], {"2025-11-01", "2025-11-02"}),
        (["--since", "2d", "--now", "2025-11-08"], {"2025-11-06", "2025-11-07", "2025-11-08"}),
        (["--since", "in November 2025", "--until", "2025-11-01"], {"2025-11-01"}),
    ],
)
def test_since_and_until_take_time_words(ws: Path, args: list[str], days: set[str]) -> None:
    found = recall("coffee team lunch pre-read trip", str(ws), "--k", "50", *args)
    assert {r["date"] for r in found} == days


def test_now_sets_the_day_query_time_words_count_from(ws: Path) -> None:
    found = recall("what happened yesterday", str(ws), "--now", "2025-11-08")
    assert found and {r["date"] for r in found} == {"2025-11-07"}


def test_the_workspace_may_follow_the_query_or_come_with_w(ws: Path, tmp_path: Path) -> None:
    assert recall("pre-read", str(ws)) == recall("pre-read", "-w", str(ws))
    both = run("recall", "pre-read", str(ws), "-w", str(tmp_path))
    assert both.exit_code == 2 and "two workspaces" in both.output
    queries = tmp_path / "q.txt"
    queries.write_text("pre-read\n", encoding="utf-8")
    batch = run("recall", "--queries", str(queries), str(ws))
    assert batch.exit_code == 0 and json.loads(batch.output)["results"][0]["source"] == "memory/2025-11-07.md#L2"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--since", "2025-11-05", "--until", "2025-11-01"], "is after --until"),
        (["--now", "soon"], "--now 'soon' is not a date"),
        (["--until", "next blue moon"], "is not a date"),
    ],
)
def test_bad_times_are_explained(ws: Path, args: list[str], message: str) -> None:
    result = run("recall", "coffee", str(ws), *args)
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output


def test_a_time_alone_shows_an_opinion_as_it_stood_then(ws: Path) -> None:
    opinions = [r for r in recall("what happened last week", str(ws), "--now", "2025-11-05") if r["kind"] == "O"]
    assert [(o["source"], o["confidence"], o["history"]) for o in opinions] == [("memory/2025-11-02.md#L5", 0.6, 2)]


def test_entity_finds_the_lines_that_name_an_entity_in_plain_text_and_follows_their_edits(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "MEMORY.md": "# Memory\n\n- Keep up with alphasenpai and Roger Gimbel on receipts.\n"
            "- Roger Gimbel runs the lab.\n",
            "memory/2026-03-01.md": "# 2026-03-01\n\n- alphasenpai — UTC for the migration window.\n"
            "- Roger Gimbel approved the receipts plan.\n",
            "memory/2026-03-02.md": "# 2026-03-02\n\n- alphasenpai liked the receipts post.\n- Tea.\n",
        },
    )
    out = tmp_path / "site"

    def entity_lines(name: str, query: str) -> list[str]:
        return sorted(r["source"] for r in recall(query, "--workspace", str(ws), "--entity", name, "--k", "20"))

    assert run("build", str(ws), "-o", str(out), "--no-search").exit_code == 0
    assert entity_lines("alphasenpai", "alphasenpai") == [
        "MEMORY.md#L3",
        "memory/2026-03-01.md#L3",
        "memory/2026-03-02.md#L3",
    ]
    assert entity_lines("alphasenpai", "migration") == ["memory/2026-03-01.md#L3"]
    assert entity_lines("Roger", "receipts") == ["MEMORY.md#L3", "MEMORY.md#L4", "memory/2026-03-01.md#L4"]  # by part
    (ws / "memory/2026-03-02.md").write_text("# 2026-03-02\n\n- Tea.\n- alphasenpai replied.\n", encoding="utf-8")
    assert run("build", str(ws), "-o", str(out), "--no-search").exit_code == 0
    moved = ["MEMORY.md#L3", "memory/2026-03-01.md#L3", "memory/2026-03-02.md#L4"]
    assert entity_lines("alphasenpai", "alphasenpai") == moved
    assert run("build", str(ws), "-o", str(out), "--no-search").exit_code == 0  # nothing changed: the same lines
    assert entity_lines("alphasenpai", "alphasenpai") == moved
