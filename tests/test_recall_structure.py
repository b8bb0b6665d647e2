"""Recall reads a line with what a reader sees around it: its table's header, the item it hangs from, the headings
over it and the day they name, a front-matter field with its key; curated memory over logs, prose over samples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from site_builder.core.tokens import estimate_tokens
from site_builder.recall.asks_about import opening_with
from tests.conftest import recall_results, recall_sources, run, write_workspace

# Days of other things, as any workspace has: in a handful of lines every word is too common for BM25 to weigh.
FILLER = {
    f"memory/2026-01-{day:02d}.md": f"# 2026-01-{day:02d}\n\n- Walked {day} km.\n- Read a chapter.\n"
    for day in range(1, 13)
}


def test_a_table_row_reads_with_its_header(tmp_path: Path) -> None:
    page = (
        "# Solar\n\n| Item | Details |\n|---|---|\n| Panels | 14 solar panels |\n| Inverter | 5 kW hybrid |\n\n"
        "| Setting | Old | New | Why |\n|---|---|---|---|\n| auto_qualify_min | 9.0 | 7.0 | 9.0 was impossible |\n"
    )
    ws = write_workspace(tmp_path / "ws", {**FILLER, "projects/house/solar.md": page})
    top = recall_results("How many panels?", str(ws))[0]
    assert (top["source"], top["content"]) == ("projects/house/solar.md#L5", "Panels: 14 solar panels")
    row = recall_results("auto_qualify_min", str(ws))[0]
    assert row["content"] == "auto_qualify_min — Old: 9.0; New: 7.0; Why: 9.0 was impossible"
    # the header's words find the rows under it
    rows = {"projects/house/solar.md#L5", "projects/house/solar.md#L6"}
    assert rows <= set(recall_sources("details", str(ws), "--k", "3"))


def test_a_wide_rows_labels_count_once(tmp_path: Path) -> None:
    """A row read as "Haiku — Alias: haiku" already says its header's words: they are not its context as well, or
    a table with an "Alias" column would outrank the line that says which alias the node uses."""
    page = "# Models\n\n| Model | Alias | Cost |\n|---|---|---|\n" + "".join(
        f"| {name} 4.5 | `{name.lower()}` | {cost} |\n" for name, cost in (("Haiku", "$"), ("Sonnet", "$$"))
    )
    log = "# 2026-01-31\n\n- Installed the wallet.\n- LND configured in `lnd.conf` (alias: ClaudioNode)\n"
    ws = write_workspace(tmp_path / "ws", {**FILLER, "AGENTS.md": page, "memory/2026-01-31.md": log})
    assert recall_sources("What alias does my LND node use?", str(ws))[0] == "memory/2026-01-31.md#L4"
    assert recall_results("haiku", str(ws))[0]["content"] == "Haiku 4.5 — Alias: `haiku`; Cost: $"


def test_a_list_item_is_found_by_the_item_or_lead_in_it_hangs_from(tmp_path: Path) -> None:
    log = (
        "# 2026-02-05\n\nLong talk about money today, and other things.\n\n"
        "**My proposal to Daniel: 1,000,000 sats**\n"
        "- Opening three channels, 300K each.\n- A small trading pot.\n- Keep the rest.\n\n"
        "- Garden\n  - Planted tomatoes.\n  - Watered the figs.\n"
    )
    ws = write_workspace(tmp_path / "ws", {**FILLER, "memory/2026-02-05.md": log})
    found = recall_sources("proposal to Daniel", str(ws), "--k", "10")
    assert "memory/2026-02-05.md#L7" in found  # two lines below the lead-in: only the lead-in says "proposal"
    found = recall_sources("garden", str(ws), "--k", "3")
    assert {"memory/2026-02-05.md#L11", "memory/2026-02-05.md#L12"} <= set(found)  # items under "Garden"


def test_a_heading_is_a_line_and_its_day_dates_the_section(tmp_path: Path) -> None:
    incidents = (
        "# Incidents\n\n## 2026-05-12 — Komodo down because MongoDB would not start\n\n"
        "**What happened:** the dashboard returned 502 all morning.\n\n**Recovery:** upgraded the database.\n\n"
        "## 2026-03-01 — Printer jam\n\nPaper stuck in tray two.\n"
    )
    ws = write_workspace(tmp_path / "ws", {**FILLER, "memory/incidents.md": incidents})
    results = recall_results("What happened to Komodo on 2026-05-12?", str(ws), "--k", "3")
    assert results[0]["source"] == "memory/incidents.md#L3"  # the heading itself
    assert {r["date"] for r in results if r["source"].startswith("memory/incidents.md")} == {"2026-05-12"}
    lines = {r["source"]: r["date"] for r in recall_results("tray", str(ws))}
    assert lines["memory/incidents.md#L11"] == "2026-03-01"  # a line is dated by the heading it sits under
    # a page's title is not a line of its own; a heading that only stamps a time is not either
    assert "memory/incidents.md#L1" not in recall_sources("incidents", str(ws), "--k", "20")


def test_a_front_matter_field_is_a_line_with_its_key(tmp_path: Path) -> None:
    memory = (
        "---\nname: Gemini collaboration\ndescription: Gemini CLI was tested and judged net negative for this repo\n"
        "type: feedback\ntags: [tools, review]\n---\n\nUse it only for stateless tasks.\n"
    )
    ws = write_workspace(tmp_path / "ws", {**FILLER, "feedback_gemini.md": memory})
    top = recall_results("net negative", str(ws))[0]
    assert (top["source"], top["content"]) == (
        "feedback_gemini.md#L3",
        "description: Gemini CLI was tested and judged net negative for this repo",
    )
    assert not any(s.endswith(("#L2", "#L5")) for s in recall_sources("gemini tools", str(ws), "--k", "20"))


def test_curated_memory_ranks_over_an_older_log_and_prose_over_sample_code(tmp_path: Path) -> None:
    files = {
        **FILLER,
        "MEMORY.md": "# Memory\n\n## Models\n\n- Default model: sonnet-5 for every agent run.\n\n## Network\n\n"
        "- The gateway listens on port 18789.\n",
        "memory/2026-01-20.md": "# 2026-01-20\n\n- Default model: opus-3 for every agent run, for now.\n",
        "knowledge/howto.md": "# How to run a server\n\n```python\nserver.listen(port=8080)  # the gateway port\n```\n",
    }
    ws = write_workspace(tmp_path / "ws", files)
    assert recall_sources("default model for agent runs", str(ws))[:2] == ["MEMORY.md#L5", "memory/2026-01-20.md#L3"]
    assert recall_sources("gateway port", str(ws))[0] == "MEMORY.md#L9"


def test_an_empty_answer_says_why_and_what_to_try(tmp_path: Path) -> None:
    profile = "# User\n\n## Identity\n- **Name**: Noor Haddad\n- **Location**: Montreal\n"
    ws = write_workspace(tmp_path / "ws", {**FILLER, "memory/USER.md": profile})
    last_week = run("recall", "what happened last week", str(ws), "--now", "2026-06-10")
    assert last_week.exit_code == 0
    assert "No line is dated from 2026-06-01 to 2026-06-07" in last_week.output
    assert "from 2026-01-01 to 2026-01-12" in last_week.output and "--now 2026-01-12" in last_week.output
    about = run("recall", "timezone", str(ws), "--entity", "user", "--json")
    answer = json.loads(about.output)
    assert answer["results"] == [] and "lines about 'user' matches 'timezone'" in answer["note"]
    assert "unknown" not in answer["note"]
    words = run("recall", "zanzibar", str(ws))
    assert "No line matches 'zanzibar'" in words.output
    # a first name is the one entity whose name holds it: the lines about Noor Haddad, the user
    assert recall_sources("Montreal", str(ws), "--entity", "Noor")[0] == "memory/USER.md#L5"
    unknown = run("recall", "kiln", str(ws), "--entity", "Nobody")
    assert unknown.exit_code == 1 and "unknown entity 'Nobody'" in unknown.output


def test_a_budget_smaller_than_the_core_memory_keeps_room_for_the_query(tmp_path: Path) -> None:
    core = "# Memory\n\n" + "".join(
        f"- Standing rule {n}: keep the weekly report short and plain.\n" for n in range(60)
    )
    log = "# 2026-01-20\n\n- Booked the ferry to Zanzibar for March.\n"
    ws = write_workspace(tmp_path / "ws", {**FILLER, "MEMORY.md": core, "memory/2026-01-20.md": log})
    result = run("context", str(ws), "--budget", "300", "--query", "ferry to Zanzibar")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert estimate_tokens(text) <= 300
    assert "Booked the ferry to Zanzibar" in text  # the query's line, though the core memory alone is larger
    assert text.index("## Most relevant to") < text.index("## Core memory (MEMORY.md)")
    kept = text.count("- Standing rule")
    assert 0 < kept < 60
    assert f"(Left out for the budget: the last {60 - kept} of 62 lines of MEMORY.md;" in text
    # a budget the core memory fits: the core memory first, whole, and no note
    roomy = run("context", str(ws), "--budget", "5000", "--query", "ferry to Zanzibar").stdout
    assert roomy.index("## Core memory") < roomy.index("## Most relevant") and "Left out" not in roomy


def test_a_question_about_a_thing_finds_where_memory_says_what_it_is(tmp_path: Path) -> None:
    logs = {
        f"memory/2026-03-{day:02d}.md": f"# 2026-03-{day:02d}\n\n- @funwolf liked a post.\n- Fixed the {day} cron jobs.\n"
        "- Wrote the weekly digest.\n- Reviewed two pull requests.\n"
        for day in range(1, 21)
    }
    memory = (
        "# Memory\n\n## Key Connections\n"
        "- **funwolf** — Email and discovery agent; says APIs gatekeep and email routes, prefers plain SMTP.\n"
        "- **santaclawd** — Trust scoring and attestation.\n\n## Replies\n\n"
        "**funwolf:**\n\n- agreed that plain SMTP beats every API for discovery, and said so in two threads.\n\n"
        'funwolf: "APIs gatekeep."\n'  # a lead-in and a quote: not what it is
    )
    ws = write_workspace(tmp_path / "ws", {**logs, "MEMORY.md": memory, "USER.md": "- **Name:** 馆长\n- 住在上海。\n"})
    questions = ("What do we know about funwolf?", "Who is funwolf?", "Tell me about funwolf", "¿Quién es funwolf?")
    for question in (*questions, "¿Qué sabemos de funwolf?", "Wer ist funwolf?", "Qui est funwolf ?"):
        assert recall_sources(question, str(ws))[0] == "MEMORY.md#L4", question
    assert recall_sources("关于馆长，我们知道些什么？", str(ws))[0] == "USER.md#L1"


def test_a_line_is_found_by_the_folders_and_name_of_its_file(tmp_path: Path) -> None:
    solar = "# Solar\n\n| Item | Details |\n|---|---|\n| Panels | 14 solar panels |\n| Battery | 10 kWh |\n"
    garden = "# Garden\n\n- 14 fruit trees planted.\n"
    files = {
        **FILLER,
        "projects/home-olivella/solar-energy/index.md": solar,
        "projects/home-sitges/garden.md": garden,
    }
    ws = write_workspace(tmp_path / "ws", files)
    assert (
        recall_sources("How many panels at Olivella?", str(ws))[0] == "projects/home-olivella/solar-energy/index.md#L5"
    )


def test_a_query_that_names_a_day_prefers_that_days_lines_to_curated_memory(tmp_path: Path) -> None:
    files = {
        **FILLER,
        "MEMORY.md": "# Memory\n\n- The backup job runs nightly at 02:00.\n- The backup job writes to the NAS.\n",
        "memory/2026-01-20.md": "# 2026-01-20\n\n- Long day of meetings and reviews with the team, then the backup job failed.\n",
    }
    ws = write_workspace(tmp_path / "ws", files)
    assert recall_sources("backup job", str(ws))[0].startswith("MEMORY.md")  # curated memory first
    assert recall_sources("What happened to the backup job on 2026-01-20?", str(ws))[0] == "memory/2026-01-20.md#L3"


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("EmberCF: 实质性学习理论", True),
        ("**作者：** EmberCF (Critical Fallibilism)", True),
        ("**主题：** EmberCF 的实质性学习理论", False),  # EmberCF's theory: something of it
        ("**EmberCF 的回应：**", False),  # leads into the lines below
        ('EmberCF: "We correct."', False),  # what it said
    ],
)
def test_which_lines_say_what_a_thing_is(line: str, says: bool) -> None:
    assert opening_with("EmberCF")(("p.md", 1, line)) is says
