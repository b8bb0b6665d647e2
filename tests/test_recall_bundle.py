"""recall.json, its per-entity shards, `memwiki context`, and time words in recall queries."""

from __future__ import annotations

import datetime as dt
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource

from site_builder.build import build
from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Fact, Opinion
from site_builder.core.tokens import estimate_tokens
from site_builder.io.reader import open_workspace
from site_builder.library.memory_block import recently_changed_first
from site_builder.library.recency import recent_first, recent_first_as_read
from site_builder.load import load
from site_builder.recall.search import RecallQuery, search
from site_builder.recall.time_words import time_window
from tests.conftest import EXAMPLE, open_index, run, write_workspace


def json_schema(name: str) -> dict[str, Any]:
    """The JSON Schema shipped with the package: ``recall`` or ``recall-entity``."""
    text = resources.files("site_builder.recall").joinpath("schemas", f"{name}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


SCHEMA = json_schema("recall")
ENTITY_SCHEMA = json_schema("recall-entity")
REGISTRY = Registry().with_resources(
    [(SCHEMA["$id"], Resource.from_contents(SCHEMA)), (ENTITY_SCHEMA["$id"], Resource.from_contents(ENTITY_SCHEMA))]
)
FACT_KEYS = ["id", "kind", "content", "entities", "date", "occurred", "confidence", "source", "url"]


def validate(data: object, schema: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(schema, registry=REGISTRY).validate(data)


@pytest.fixture(scope="module")
def example_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "_site"
    build(EXAMPLE, out, search=False)
    return out


def test_example_bundle_validates_and_fills_in_order(example_site: Path) -> None:
    data = json.loads((example_site / "recall.json").read_text(encoding="utf-8"))
    validate(data, SCHEMA)
    assert data["schema"] == "memwiki/recall@1"
    assert data["core"]["text"].startswith("# Core memory")
    assert len(data["opinions"]) == 7
    assert data["entities"][0]["summary"]
    budget = data["budget"]
    text = (example_site / "recall.json").read_text(encoding="utf-8")
    assert budget["estimated_tokens"] == estimate_tokens(text) <= budget["max_tokens"] == 4000
    # The example has more facts than fit: the newest come first and the rest are counted.
    assert budget["truncated"] and budget["omitted"]["facts"] > 0
    dates = [f["date"] for f in data["facts"]]
    assert dates == sorted(dates, reverse=True)
    for fact in data["facts"]:
        assert list(fact) == FACT_KEYS
        assert fact["url"] == fact["source"].replace(".md#", ".html#")


def test_the_other_files_are_listed_by_name_with_what_they_are_about(tmp_path: Path) -> None:
    files = {
        "MEMORY.md": "# Index\n\n- [Projects](PROJECTS.md)\n",
        "USER.md": "# User\n\nLin designs the savings app.\n",
        "PROJECTS.md": "# Projects\n\nPaper A is in user testing.\n",
        "memory/2026-04-09.md": "# 2026-04-09\n\nTested onboarding.\n",
        "notes/tone.md": "---\ndescription: How Lin wants copy written\n---\n# Tone\n\nShort and warm.\n",
    }
    build(write_workspace(tmp_path / "ws", files), tmp_path / "site", search=False)
    data = json.loads((tmp_path / "site" / "recall.json").read_text(encoding="utf-8"))
    validate(data, SCHEMA)
    assert [(f["source"], f["kind"], f["about"]) for f in data["files"]] == [
        ("PROJECTS.md", "standing", "Paper A is in user testing."),
        ("USER.md", "standing", "Lin designs the savings app."),
        ("notes/tone.md", "page", "How Lin wants copy written"),
    ]
    assert data["files"][2]["url"] == "notes/tone.html" and data["budget"]["omitted"]["files"] == 0


def test_every_fact_url_opens_at_its_line(example_site: Path) -> None:
    data = json.loads((example_site / "recall.json").read_text(encoding="utf-8"))
    for fact in data["facts"]:
        page, anchor = fact["url"].split("#")
        html = (example_site / page).read_text(encoding="utf-8")
        assert f'id="{anchor}"' in html, fact["url"]


def test_entity_shards_hold_all_detail(example_site: Path) -> None:
    shards = sorted((example_site / "recall/entities").glob("*.json"))
    assert len(shards) == 15
    total = 0
    for path in shards:
        shard = json.loads(path.read_text(encoding="utf-8"))
        validate(shard, ENTITY_SCHEMA)
        assert path.stem == shard["id"]
        total += len(shard["facts"])
    tidewater = json.loads((example_site / "recall/entities/tidewater.json").read_text(encoding="utf-8"))
    assert tidewater["source"] == "bank/entities/Tidewater.md"
    assert len(tidewater["facts"]) == 29
    assert any(r["name"] == "Marco" for r in tidewater["related"])
    rui = json.loads((example_site / "recall/entities/rui.json").read_text(encoding="utf-8"))
    assert rui["source"] is None and rui["mentions"]


def test_bundle_is_copied_into_the_workspace_and_deterministic(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory.md": "# Core\nI help @Peter.\n",
            "memory/2025-11-03.md": "# Mon\n## Retain\n- W @Peter: Lives in Lisbon.\n",
        },
    )
    build(ws, tmp_path / "a", search=False)
    first = (tmp_path / "a/recall.json").read_bytes()
    assert (ws / ".memwiki/recall.json").read_bytes() == first
    assert (ws / ".memwiki/recall/entities/peter.json").is_file()
    build(ws, tmp_path / "b", search=False)
    assert (tmp_path / "b/recall.json").read_bytes() == first
    assert not [p for p in (ws / ".memwiki").iterdir() if p.name.startswith(".")]


def test_the_bundle_in_the_workspace_changes_only_where_the_site_s_did(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory.md": "# Core\nI help @Peter.\n",
            "memory/2025-11-03.md": "# Mon\n## Retain\n- W @Peter: Lives in Lisbon.\n- W @Ana: Paints.\n",
            # entity pages of its own: linking does not read its prose, so a plain line leaves the library as it was
            "bank/entities/Ana.md": "# Ana\n",
        },
    )
    shards = ws / ".memwiki/recall/entities"
    build(ws, tmp_path / "site", search=False)
    folder, ana = shards.stat().st_ino, (shards / "ana.json").read_bytes()
    day = ws / "memory/2025-11-03.md"
    day.write_text(day.read_text(encoding="utf-8") + "A plain line.\n", encoding="utf-8")
    build(ws, tmp_path / "site", search=False)
    assert shards.stat().st_ino == folder  # every shard as it was: the folder is left in place
    day.write_text(day.read_text(encoding="utf-8") + "## Retain\n- W @Peter: Moved to Porto.\n", encoding="utf-8")
    build(ws, tmp_path / "site", search=False)
    assert shards.stat().st_ino != folder  # made anew, whole
    assert "Moved to Porto." in (shards / "peter.json").read_text(encoding="utf-8")
    assert (shards / "ana.json").read_bytes() == ana
    assert sorted(p.name for p in shards.iterdir()) == sorted(
        p.name for p in (tmp_path / "site/recall/entities").iterdir()
    )
    for shard in shards.iterdir():
        assert shard.read_bytes() == (tmp_path / "site/recall/entities" / shard.name).read_bytes()


def test_tiny_budget_keeps_core_first_and_reports_what_was_cut(tmp_path: Path) -> None:
    core = "# Core\n" + "".join(f"- Standing rule number {i} about replies.\n" for i in range(40))
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memwiki.toml": "[recall]\nmax_tokens = 300\n",
            "memory.md": core,
            "memory/2025-11-03.md": "# Mon\n## Retain\n- W @Peter: Lives in Lisbon.\n- O(c=0.6) @Peter: Likes tea.\n",
        },
    )
    result = run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search")
    assert result.exit_code == 0, result.output
    assert "recall.json: ~" in result.output and "of 300 tokens; left out" in result.output
    data = json.loads((tmp_path / "site/recall.json").read_text(encoding="utf-8"))
    validate(data, SCHEMA)
    assert data["budget"]["estimated_tokens"] <= 300
    assert data["budget"]["truncated"]
    assert data["budget"]["omitted"]["core_lines"] > 0
    assert data["core"]["text"].startswith("# Core\n- Standing rule number 0")
    assert data["opinions"] == [] and data["facts"] == []
    assert data["budget"]["omitted"]["opinions"] == 1


def test_private_text_never_reaches_the_bundle(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory.md": "# Core\nPublic.\n<!-- private -->\nSENTINEL-CORE\n<!-- /private -->\n",
            "memory/2025-11-03.md": "# Mon\n## Retain\n- W @Peter: SENTINEL-open? no: public fact.\n",
            "memory/2025-11-04.md": "---\nprivate: true\n---\n# Tue\n## Retain\n- W @Peter: SENTINEL-DAY.\n",
        },
    )
    build(ws, tmp_path / "site", search=False)
    for path in [*(tmp_path / "site").rglob("*.json"), *(ws / ".memwiki").rglob("*.json")]:
        text = path.read_text(encoding="utf-8")
        assert "SENTINEL-CORE" not in text and "SENTINEL-DAY" not in text, path


def test_strict_failure_writes_no_bundle(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"memory/2025-11-03.md": "# Mon\n## Retain\n- X broken bullet\n"})
    result = run("build", str(ws), "--strict", "--no-search")
    assert result.exit_code == 1
    assert not (ws / ".memwiki/recall.json").exists()


def test_context_block_within_budget_with_cited_query_hits() -> None:
    result = run("context", str(EXAMPLE), "--budget", "700", "--query", "lamps souk")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.startswith('<memory source="memwiki" title="Wren\'s memory" latest_day="2025-12-15">')
    assert text.rstrip().endswith("</memory>")
    assert estimate_tokens(text) <= 700
    assert "## Core memory (memory.md)" in text and "## Opinions" in text
    relevant = text.split("## Most relevant to: lamps souk", 1)[1]
    assert re.search(r"^- 2025-11-28 \[W\] Anna bought two brass lamps.*\(memory/2025-11-28\.md#L7\)$", relevant, re.M)
    assert text.index("## Core memory") < text.index("## Most relevant") < text.index("## Opinions")  # asked first
    assert "of 700 tokens; some lines were left out" in result.stderr


def test_a_query_s_lines_come_before_the_opinions_that_would_fill_a_small_budget() -> None:
    """With room for the core memory and little else, the block holds what the query asks, not only the opinions
    every block holds."""
    result = run("context", str(EXAMPLE), "--budget", "400", "--query", "kitchen tiles")
    relevant = result.stdout.split("## Most relevant to: kitchen tiles", 1)[1]
    assert "(memory/2025-09-08.md#L7)" in relevant  # "tiles not included" in the builder's quote
    assert estimate_tokens(result.stdout) <= 400


def test_context_without_query_lists_recent_facts_newest_first() -> None:
    result = run("context", str(EXAMPLE), "--budget", "100000")
    assert result.exit_code == 0
    recent = result.stdout.split("## Recent facts", 1)[1]
    dates = re.findall(r"^- (\d{4}-\d{2}-\d{2}) ", recent, re.M)
    assert dates and dates == sorted(dates, reverse=True)
    assert "left out" not in result.stderr


def test_context_rejects_a_stop_word_query() -> None:
    result = run("context", str(EXAMPLE), "--query", "the of and")
    assert result.exit_code == 1
    assert "only stop words" in result.output


TODAY = dt.date(2025, 12, 3)  # a Wednesday


@pytest.mark.parametrize(
    ("query", "window", "rest"),
    [
        ("what did Peter do yesterday", ("2025-12-02", "2025-12-02"), "what did Peter do"),
        ("invoices last week", ("2025-11-24", "2025-11-30"), "invoices"),
        ("tiles this month", ("2025-12-01", "2025-12-03"), "tiles"),
        ("trip last month", ("2025-11-01", "2025-11-30"), "trip"),
        ("lamps in November 2025", ("2025-11-01", "2025-11-30"), "lamps in"),
        ("lamps in November", ("2025-11-01", "2025-11-30"), "lamps in"),
        ("renovation in March", ("2025-03-01", "2025-03-31"), "renovation in"),
        ("harbor releases in 2024", ("2024-01-01", "2024-12-31"), "harbor releases"),
        ("swims the past 10 days", ("2025-11-23", "2025-12-03"), "swims"),
        ("notes 2 weeks ago", ("2025-11-16", "2025-11-22"), "notes"),
        ("anything recently", ("2025-11-03", "2025-12-03"), "anything"),
        ("on 2025-11-27", ("2025-11-27", "2025-11-27"), "on"),
        ("what did Peter buy on 3 June, 2023?", ("2023-06-03", "2023-06-03"), "what did Peter buy on  ?"),
        ("film on October 6, 2022", ("2022-10-06", "2022-10-06"), "film on"),
        ("book on 8th December, 2023", ("2023-12-08", "2023-12-08"), "book on"),
        ("photo shared on December 1,2023", ("2023-12-01", "2023-12-01"), "photo shared on"),
        (
            "started recently, as mentioned on 3 June, 2023",
            ("2023-06-03", "2023-06-03"),
            "started recently, as mentioned on",
        ),
        ("party on June 3", ("2025-06-03", "2025-06-03"), "party on"),
        ("party on December 24", ("2024-12-24", "2024-12-24"), "party on"),
        ("job in August, 2023", ("2023-08-01", "2023-08-31"), "job in"),
        (
            "where was John between August 11 and August 15 2023",
            ("2023-08-11", "2023-08-15"),
            "where was John between   and",
        ),
        ("trip from 2 March to 9 March 2024", ("2024-03-02", "2024-03-09"), "trip from   to"),
    ],
)
def test_time_words_become_a_window(query: str, window: tuple[str, str], rest: str) -> None:
    found, text = time_window(query, TODAY)
    assert found is not None
    assert (found[0].isoformat(), found[1].isoformat()) == window
    assert text == rest


@pytest.mark.parametrize("query", ["may I ask about Peter", "postgres indexes", "room 2024b", "may 2 people come"])
def test_words_that_are_not_times_are_left_alone(query: str) -> None:
    assert time_window(query, TODAY) == (None, query)


def test_time_words_lift_lines_dated_in_the_window(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/2025-10-02.md": "# Thu\n## Retain\n- W @Peter: Peter went swimming at the pool.\n",
            "memory/2025-11-27.md": "# Thu\n## Retain\n- W @Peter: Peter went swimming in the sea, then to the pool.\n",
            "memory/2025-11-28.md": "# Fri\nNothing about water.\n",
        },
    )
    index = open_index(open_workspace(ws), Diagnostics())
    plain = search(index, RecallQuery("swimming pool"))
    assert plain[0].path == "memory/2025-10-02.md"
    timed = search(index, RecallQuery("swimming pool last week", today=TODAY))
    assert timed[0].path == "memory/2025-11-27.md"
    only_time = search(index, RecallQuery("what happened last week", today=TODAY))
    dates = [h.date for h in only_time if h.date]
    assert len(dates) == len(only_time)  # every line of a time-only answer is dated
    assert dates == sorted(dates, reverse=True)
    assert set(dates) == {"2025-11-27", "2025-11-28"}
    assert "2025-10-02" not in dates
    assert load(ws).library.days  # the workspace itself is untouched and still loads


@pytest.mark.parametrize("seed", range(5))
def test_the_newest_facts_read_as_far_as_needed_are_the_newest_facts_sorted(seed: int) -> None:
    """What a context block reads (``recent_first_as_read``) is ``recent_first``, ties and undated facts included,
    whether it stops early or reads it all."""
    import random

    chance = random.Random(seed)
    days = [None, *(dt.date(2025, 1, 1) + dt.timedelta(days=n) for n in range(9))]
    facts = [
        Fact(
            f"f{n}", "W", f"fact {n}", (), f"memory/{chance.randrange(4)}.md", chance.randrange(30), chance.choice(days)
        )
        for n in range(chance.randrange(0, 600))
    ]
    everything = recent_first(facts)
    assert list(recent_first_as_read(facts)) == everything
    read = recent_first_as_read(facts)
    assert [next(read, None) for _ in range(40)] == (everything + [None] * 40)[:40]


@pytest.mark.parametrize("seed", range(5))
def test_the_opinions_a_context_block_reads_are_the_most_recently_changed_then_the_surest(seed: int) -> None:
    """The block's opinions, read as far as the budget goes (``recently_changed_first``): newest change first, the
    surest first on one day, then by id, the never changed last; the same whether read whole or in part."""
    import random

    chance = random.Random(seed)
    days = [None, *(dt.date(2025, 1, 1) + dt.timedelta(days=n) for n in range(6))]
    origin = Fact("f", "O", "x", (), "memory/a.md", 1, None)
    opinions = [
        Opinion(
            f"o{chance.randrange(50):02}", "x", (), chance.choice([0.2, 0.5, 0.9]), chance.choice(days), [], [], origin
        )
        for _ in range(chance.randrange(0, 300))
    ]
    expected = sorted(
        opinions,
        key=lambda o: (o.changed is None, -(o.changed.toordinal() if o.changed else 0), -o.confidence, o.id),
    )
    assert list(recently_changed_first(opinions)) == expected
    read = recently_changed_first(opinions)
    assert [next(read, None) for _ in range(20)] == (expected + [None] * 20)[:20]
