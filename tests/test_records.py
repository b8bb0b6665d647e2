"""TinyClaw keeps memory as JSON records: each record is a line on the site, a dated fact, and a recall answer that
cites the record's own line."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

from site_builder.load import load
from tests.conftest import run, write_workspace

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "layouts" / "tinyclaw"


def test_records_are_dated_facts_at_their_own_lines(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURE, ws)
    library = load(ws).library
    facts = {(f.path, f.line): f for f in library.facts}
    stall = facts[("memory/reflections.jsonl", 1)]
    assert stall.kind == "B" and stall.date == dt.date(2026, 2, 10)
    assert "**failure** Queue stalled after the 08:00 deploy" in stall.content
    assert "→ run XAUTOCLAIM after every deploy" in stall.content
    refund = facts[("memory/episodes.jsonl", 2)]
    assert "**resolved** Asked to refund order 1187" in refund.content and "#refund" in refund.content
    assert "Ana Lima" in refund.content
    assert library.core is not None and library.core.path == "memory/knowledge.md"


def test_recall_cites_the_record_line(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURE, ws)
    result = run("recall", "queue stuck after deploy", "-w", str(ws), "--json", "--k", "5")
    sources = [r["source"] for r in json.loads(result.output)["results"]]
    assert "memory/episodes.jsonl#L1" in sources
    refund = run("recall", "how do I refund an order", "-w", str(ws), "--json", "--k", "5")
    assert any(r["source"].startswith("memory/skills/refund-order.md") for r in json.loads(refund.output)["results"])


def test_the_skill_index_links_each_skill(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURE, ws)
    out = tmp_path / "site"
    assert run("build", str(ws), "-o", str(out), "--no-search").exit_code == 0
    index = (out / "memory/skills/index.json.html").read_text()
    assert 'href="../../memory/skills/refund-order.html"' in index
    reflections = (out / "memory/reflections.jsonl.html").read_text()
    assert '<li class="record v-failure" id="L4">' in reflections and ">2026-02-14 18:05</time>" in reflections


def test_bad_records_warn_at_their_line_and_the_rest_still_load(tmp_path: Path) -> None:
    lines = [
        '{"ts":"2026-02-12T10:30:00Z","type":"insight","context":"c","lesson":"kept"}',
        "{not json",
        '["an", "array"]',
        '{"ts":"2026-02-13T10:30:00Z","type":"failure","context":"no lesson"}',
        '{"ts":"2026-02-14T10:30:00Z","type":"success","lesson":"also kept"}',
    ]
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/knowledge.md": "_No entries yet._\n",
            "memory/reflections.jsonl": "\n".join(lines) + "\n",
            "memory/skills/index.json": "[1, 2]",
        },
    )
    result = run("check", str(ws))
    assert "memory/reflections.jsonl:2: not a JSON record" in result.output
    assert "memory/reflections.jsonl:3: a record must be a JSON object" in result.output
    assert "memory/reflections.jsonl:4: record has no 'lesson'" in result.output
    assert "memory/skills/index.json:1: skills index must be a JSON object" in result.output
    assert result.exit_code == 1, "a bad record is input memwiki could not read"
    kept = [f.line for f in load(ws).library.facts]
    assert kept == [1, 5]


def test_a_fresh_knowledge_file_is_no_core_memory(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"memory/knowledge.md": "# Knowledge\n\n_No entries yet._\n"})
    assert load(ws).library.core is None
    assert run("build", str(ws), "-o", str(tmp_path / "s"), "--no-search").exit_code == 0
    assert "No core memory file" in (tmp_path / "s" / "index.html").read_text()


def test_context_rebuilds_tinyclaws_memory_block(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURE, ws)
    block = run("context", str(ws), "--format", "tinyclaw", "--query", "can I get a refund for my order").stdout
    assert block.startswith("[MEMORY]\n## Knowledge\n# Knowledge\n")
    assert block.rstrip().endswith("[/MEMORY]")
    recent = block.split("## Recent Reflections\n")[1].split("\n\n")[0].split("\n")
    assert recent[0].startswith("- [failure] Queue stalled after the 08:00 deploy: a deploy restarts")
    assert len(recent) == 4
    episodes = block.split("## Relevant Past Conversations\n")[1].split("\n\n")[0].split("\n")
    assert episodes[0].startswith("- [resolved] Asked to refund order 1187") and episodes[0].endswith(
        "(refund, customer)"
    )
    assert len(episodes) <= 3
    assert "### refund-order\n# Refund an order" in block
    assert "### reclaim-queue" not in block  # no word of the message matches it


def test_only_the_last_ten_reflections_are_loaded_and_bad_lines_count(tmp_path: Path) -> None:
    lines = [json.dumps({"type": "insight", "lesson": f"lesson {i}"}) for i in range(12)] + ["{broken"]
    ws = write_workspace(tmp_path / "ws", {"memory/reflections.jsonl": "\n".join(lines) + "\n"})
    block = run("context", str(ws), "--format", "tinyclaw").stdout
    assert "lesson 2\n" not in block and "lesson 3\n" in block and "lesson 11\n" in block
    assert block.count("- [insight]") == 9  # the broken last line took the tenth place


def test_budget_report_shows_the_tiers(tmp_path: Path) -> None:
    toebeans = FIXTURE.parent / "toebeans"
    report = run("context", str(toebeans), "--format", "toebeans", "--budget-report").output
    assert "Always loaded: 2 files" in report  # SOUL.md and USER.md
    assert "Listed by name: 2 files" in report  # the topic files
    assert "Found by search only: 3 files" in report  # the daily logs
    block = run("context", str(toebeans), "--format", "toebeans").stdout
    assert (
        block.startswith("# Soul\n") and "## Memory topics (read on demand)\n- organic-chemistry\n- study-plan" in block
    )


def test_the_tiers_count_the_tokens_of_the_bodies_as_they_are_now(tmp_path: Path) -> None:
    """A tier's tokens are its notes' bodies' (``Note.chars``, counted when a note is made: a note made again with
    another body, as the home page makes the core memory's halves, counts that body)."""
    import dataclasses

    from site_builder.core.tokens import estimate_tokens
    from site_builder.library.agent_view import tiers

    toebeans = FIXTURE.parent / "toebeans"
    library = load(toebeans).library
    for tier in tiers(library, "toebeans"):
        notes = [library.note(path) for path in tier.paths]
        texts = [n.path if tier.loaded == "listed" else n.body for n in notes if n is not None]
        assert tier.tokens == sum(map(estimate_tokens, texts)) > 0, tier.name
    note = library.notes[0]
    shorter = dataclasses.replace(note, body=note.body[:5])
    assert (note.chars, shorter.chars) == (len(note.body), 5)
