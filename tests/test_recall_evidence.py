"""Recall that keeps distinct evidence in its k places: a Retain fact and the log line it restates are one
result, a person's own lines come before lines of others on questions about them, a line of the day that answers
the question best comes before an equal line of another day, and a day a question names ("on 3 June, 2023") lifts
that day's lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from site_builder.recall import evidence, expand, search
from tests.conftest import recall_results, run, write_workspace
from tests.test_mcp import start


def recall(*args: str) -> list[dict[str, Any]]:
    return recall_results(*args)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return write_workspace(
        tmp_path / "ws",
        {
            "memory.md": "# Memory\n\n- Friends: @Anna and @Ben.\n",
            "memory/2023-06-03.md": "# 2023-06-03\n\n"
            "- Ben: How was your weekend?\n"
            "- Anna: I adopted a grey cat named Biscuit from the shelter on Saturday!\n"
            "- Ben: Anna asked which yoga I practise: aerial yoga. I practise yoga daily.\n"
            "- Anna: I baked a lemon cake for the shelter volunteers.\n\n"
            "## Retain\n\n"
            "- W @Anna: Anna adopted a grey cat named Biscuit from the shelter.\n"
            "- W @Anna: Anna thinks the shelter volunteers deserve a thank-you party.\n",
            "memory/2023-05-01.md": "# 2023-05-01\n\n"
            + "".join(f"- {('Anna', 'Ben')[n % 2]}: Groceries list {n}: bread, milk.\n" for n in range(30)),
            "memory/2023-06-10.md": "# 2023-06-10\n\n"
            "- Anna: I baked a lemon cake again, with more lemon.\n"
            "- Anna: I practise kundalini yoga.\n",
        },
    )


def test_a_fact_and_the_log_line_it_restates_are_one_result(ws: Path) -> None:
    results = recall("Biscuit grey cat", str(ws))
    sources = [r["source"] for r in results]
    pair = {"memory/2023-06-03.md#L4", "memory/2023-06-03.md#L10"}
    assert len(pair & set(sources)) == 1  # one of them is the result...
    first = results[0]
    assert {first["source"], *first["also"]} == pair  # ...and cites the other
    assert all("also" not in r for r in results[1:])


@pytest.mark.slow  # 1.6 s
def test_the_mcp_search_cites_the_merged_line_too(ws: Path) -> None:
    for server in start(ws):
        results = server.ok("memory_search", {"query": "Biscuit grey cat"})["results"]
        assert (results[0]["citation"], results[0]["also"]) == ("memory/2023-06-03.md#L10", ["memory/2023-06-03.md#L4"])


def test_a_fact_that_only_shares_a_few_words_with_a_line_stays_its_own_result(ws: Path) -> None:
    results = recall("shelter volunteers", str(ws))
    sources = [r["source"] for r in results]
    # "Anna thinks the shelter volunteers are kind" is not what the cake line says, though both name the volunteers
    assert {"memory/2023-06-03.md#L11", "memory/2023-06-03.md#L6"} <= set(sources)


def test_the_terminal_answer_cites_the_merged_line_too(ws: Path) -> None:
    result = run("recall", "Biscuit grey cat", str(ws))
    assert result.exit_code == 0, result.output
    first = result.output.split("\n 2.")[0]
    assert "memory/2023-06-03.md#L4" in first and "memory/2023-06-03.md#L10" in first
    assert "(also memory/2023-06-03.md#L" in first


def test_a_question_about_a_person_puts_their_own_lines_first(ws: Path) -> None:
    results = recall("What yoga does Anna practise?", str(ws))
    # Ben's line says "yoga" three times, "practise" twice and names Anna, but it is Anna's own line the question is about.
    assert results[0]["source"] == "memory/2023-06-10.md#L4"


def test_the_speaker_lift_is_what_puts_their_lines_first(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "ENTITY_LIFT", 1.0)
    assert recall("What yoga does Anna practise?", str(ws))[0]["source"] == "memory/2023-06-03.md#L5"


def test_a_day_the_question_names_lifts_that_days_lines(ws: Path) -> None:
    assert recall("lemon cake", str(ws))[0]["source"] == "memory/2023-06-10.md#L3"
    assert recall("What cake did Anna bake on 3 June, 2023?", str(ws))[0]["source"] == "memory/2023-06-03.md#L6"
    assert recall("What cake did Anna bake on June 3, 2023?", str(ws))[0]["source"] == "memory/2023-06-03.md#L6"


def test_a_line_of_the_day_that_answers_best_comes_before_an_equal_line_of_another_day(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    unrelated = "".join(f"- Shopping list {n}: bread, milk.\n" for n in range(3))
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/2023-05-01.md": "# 2023-05-01\n\n" + "".join(f"- Groceries {n}: eggs.\n" for n in range(30)),
            "memory/2023-07-01.md": f"# 2023-07-01\n\n{unrelated}- The bridge needs repairs.\n{unrelated}",
            "memory/2023-07-05.md": f"# 2023-07-05\n\n- The flood hit the village.\n{unrelated}- The bridge needs repairs.\n{unrelated}",
        },
    )
    bridges = [r["source"] for r in recall("flood village bridge repairs", str(ws)) if "bridge" in r["content"]]
    assert bridges == ["memory/2023-07-05.md#L7", "memory/2023-07-01.md#L6"]
    monkeypatch.setattr(search, "NOTE_SUPPORT", 0.0)  # without it the two bridge lines tie, in path order
    bridges = [r["source"] for r in recall("flood village bridge repairs", str(ws)) if "bridge" in r["content"]]
    assert bridges == ["memory/2023-07-01.md#L6", "memory/2023-07-05.md#L7"]


@pytest.fixture
def bike(tmp_path: Path) -> Path:
    filler = "".join(f"- W @Me: Grocery run {n}: bread and milk from the shop.\n" for n in range(60))
    return write_workspace(
        tmp_path / "ws",
        {
            "memory/2025-11-01.md": f"# Sat\n\n## Retain\n\n{filler}",
            "memory/2025-11-10.md": "# Mon\n\n## Retain\n\n- W @Tom: Tom fixed my bike.\n"
            "- W @Sam: Sam rides her bike to work.\n- W @Sam: Sam's bike has a basket.\n",
            "memory/2025-11-12.md": "# Wed\n\n## Retain\n\n- W @Ana: Ana lives in Porto by the river.\n"
            "- W @Me: The bike shop on Main Street closed.\n",
            "memory/2025-11-20.md": "# Thu\n\n## Retain\n\n- W @Tom: Tom lives in Leeds by the canal.\n",
        },
    )


def test_a_second_hop_follows_the_entity_of_the_best_result(bike: Path) -> None:
    results = recall("Where does the person who fixed my bike live?", str(bike), "--k", "3")
    assert [r["source"] for r in results[:2]] == ["memory/2025-11-10.md#L5", "memory/2025-11-20.md#L5"]


def test_without_the_second_hop_the_other_half_of_the_answer_is_missing(
    bike: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(expand, "HOP_SHARE", 0.0)
    monkeypatch.setattr(search, "ANSWER_SUPPORT", 0.0)  # "where": any line naming a place (Leeds) would be lifted
    results = recall("Where does the person who fixed my bike live?", str(bike), "--k", "3")
    assert "memory/2025-11-20.md#L5" not in [r["source"] for r in results]


def test_an_entity_most_lines_are_about_is_not_followed(bike: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "Me" is about 61 of the 66 lines: following it would bring grocery runs "from the shop" up.
    # ("shop" is on most lines, so a grocery run it matches scores next to nothing.)
    results = recall("bike shop Main Street", str(bike), "--k", "5")
    assert results[0]["content"] == "The bike shop on Main Street closed."
    assert all(r["score"] < 0.01 for r in results if "Grocery" in r["content"])
    monkeypatch.setattr(expand, "HUB_SHARE", 1.0)
    results = recall("bike shop Main Street", str(bike), "--k", "5")
    assert any(r["score"] > 1 for r in results if "Grocery" in r["content"])


def test_the_line_after_a_question_answers_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory.md": "# Memory\n\n- Friends: @Anna and @Ben.\n",
            "memory/2023-05-01.md": "# 2023-05-01\n\n" + "".join(f"- Ben: Groceries {n}: eggs.\n" for n in range(30)),
            "memory/2023-07-17.md": "# 2023-07-17\n\n- Anna: Last weekend I had a picnic with friends.\n"
            "- Ben: Looks fun! What games did you all play at the picnic?\n"
            "- Anna: Charades and a scavenger hunt. We all had a good laugh!\n",
        },
    )

    def scores() -> dict[str, float]:
        return {r["source"]: r["score"] for r in recall("What games did Anna play at the picnic?", str(ws))}

    asked, answered = "memory/2023-07-17.md#L4", "memory/2023-07-17.md#L5"
    assert scores()[answered] > scores()[asked]  # "Charades" shares no word with the question, yet answers it
    sources = list(scores())
    assert sources.index(answered) < sources.index(asked)  # the answer is the evidence, so it comes first
    monkeypatch.setattr(search, "with_answers", lambda scored: scored)
    assert scores()[answered] < scores()[asked]


def _row(line: int, content: str, kind: str = "log") -> evidence.Row:
    entities = "anna" if kind == "W" else ""
    return ("memory/2023-06-03.md", line, content, "2023-06-03", kind, entities, None, None, None, -1.0)


def test_a_line_restated_by_many_facts_gains_from_one_of_them_only() -> None:
    planted = _row(3, "Anna: I planted tomatoes, basil and peppers in the garden.")
    watered = _row(4, "Anna: I watered the whole garden at dawn before work.")
    facts = [
        _row(10, "Anna planted tomatoes and basil in the garden.", "W"),
        _row(11, "Anna planted peppers and basil in the garden.", "W"),
        _row(12, "Anna planted tomatoes and peppers in the garden.", "W"),
    ]
    found = evidence.one_per_evidence([(13.0, watered), (10.0, planted), *((9.0, fact) for fact in facts)])
    assert [e.row[1] for e in found] == [4, 3]  # 10 + 0.3 * 9 is below 13; counting all three facts, 18.1 was above
    assert found[1].also == facts  # all three are still cited
    assert found[1].score == pytest.approx(10.0 + evidence.ALSO_SHARE * 9.0)


def test_a_line_restated_by_many_facts_is_one_result_citing_them_all(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/2023-06-03.md": "# 2023-06-03\n\n"
            "- Anna: I planted tomatoes, basil and peppers in the garden.\n\n"
            "## Retain\n\n"
            "- W @Anna: Anna planted tomatoes and basil in the garden.\n"
            "- W @Anna: Anna planted peppers and basil in the garden.\n"
            "- W @Anna: Anna planted tomatoes and peppers in the garden.\n",
        },
    )
    results = recall("What did Anna plant in the garden?", str(ws))
    assert len(results) == 1
    cited = {results[0]["source"], *results[0]["also"]}
    assert cited == {f"memory/2023-06-03.md#L{n}" for n in (3, 7, 8, 9)}
