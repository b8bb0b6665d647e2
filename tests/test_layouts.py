"""Memory as agents really write it: every Markdown file reaches the site, the core memory is found whatever the
layout calls it, dates in file names and paths put files on their day, folders become sections."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from site_builder.load import load
from tests.conftest import run, write_workspace

REAL = Path(__file__).resolve().parents[2] / "shared" / "real"

OPENCLAW = {
    "MEMORY.md": "# Long-term memory\n\n- Tim prefers answers under five lines.\n",
    "SOUL.md": "# Soul\n\nCalm and precise.\n",
    "AGENTS.md": "# Agents\n\nRead MEMORY.md first.\n",
    "USER.md": "# User\n\n- **Name**: Tim Okafor\n",
    "memory/2026-01-16.md": "# 2026-01-16\n\nFixed the queue worker.\n",
    "memory/2026-01-16-1430.md": (
        "# Session: 2026-01-16 14:30:00 UTC\n\n- **Session Key**: agent:main:main\n- **Source**: telegram\n\n"
        "## Conversation Summary\n\nuser: the queue is stuck again\nassistant: restarted the consumer group\n"
    ),
    "memory/dreaming/rem/2026-01-17.md": "# REM\n\nA pattern: queue stalls follow deploys.\n",
    "memory/context-digest.md": "# Digest\n\nWhat matters this month: the queue.\n",
    "knowledge/queues/backpressure.md": "# Backpressure\n\nShed load before the broker does.\n",
    "knowledge/index.md": "# Knowledge index\n\nStart with backpressure.\n",
}


def build(ws: Path, out: Path) -> str:
    result = run("build", str(ws), "-o", str(out), "--no-search")
    assert result.exit_code == 0, result.output
    return result.output


def test_every_markdown_file_becomes_a_page(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", OPENCLAW)
    out = tmp_path / "site"
    build(ws, out)
    for page in [
        "MEMORY.html",
        "AGENTS.html",
        "USER.html",
        "memory/2026-01-16-1430.html",
        "memory/dreaming/rem/2026-01-17.html",
        "memory/context-digest.html",
        "knowledge/queues/backpressure.html",
        "knowledge/index.html",  # a folder's index.md is the folder's page
    ]:
        assert (out / page).is_file(), page
    assert "Start with backpressure" in (out / "knowledge/index.html").read_text()
    assert not (out / "knowledge/index.md.html").exists()


def test_core_memory_of_an_openclaw_workspace_is_on_the_home_page_and_in_context(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", OPENCLAW)
    build(ws, tmp_path / "site")
    home = (tmp_path / "site" / "index.html").read_text()
    assert "Tim prefers answers under five lines." in home
    assert 'href="MEMORY.html">Open core memory' in home
    for standing in ("AGENTS.html", "USER.html", "SOUL.html"):
        assert f'href="{standing}"' in home
    context = run("context", str(ws))
    assert "## Core memory (MEMORY.md)" in context.output
    assert "Tim prefers answers under five lines." in context.output


def test_the_whole_core_memory_is_in_context_without_a_budget(tmp_path: Path) -> None:
    long_core = "# Memory\n\n" + "".join(f"- lesson {i}: keep the queue drained before deploys\n" for i in range(600))
    ws = write_workspace(tmp_path / "ws", {"MEMORY.md": long_core, "memory/2026-01-16.md": "# D\n\nx\n"})
    assert "lesson 599:" in run("context", str(ws)).output
    assert "lesson 599:" not in run("context", str(ws), "--budget", "2000").output


def test_files_of_one_day_share_that_day(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", OPENCLAW)
    out = tmp_path / "site"
    build(ws, out)
    day = (out / "memory/2026-01-16.html").read_text()
    assert 'href="../memory/2026-01-16-1430.html"' in day  # the session, listed on the day's page
    session = (out / "memory/2026-01-16-1430.html").read_text()
    assert 'href="../memory/2026-01-16.html"' in session  # and the way back to it
    timeline = (out / "memory/index.html").read_text()
    assert timeline.count('class="weekday"') == 2  # two days (16th, 17th), not three files
    assert 'href="../memory/context-digest.html"' in timeline  # memory/'s undated file is listed there
    assert "2 days" in (out / "index.html").read_text()


def test_folders_are_sections_with_index_pages_and_breadcrumbs(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", OPENCLAW)
    out = tmp_path / "site"
    build(ws, out)
    knowledge = (out / "knowledge/index.html").read_text()
    assert 'href="../knowledge/queues/index.html"' in knowledge
    assert "Start with backpressure" in knowledge  # its index.md, with the folder listed below it
    assert 'href="../knowledge/index.html"' not in knowledge.split("In this folder", 1)[1]  # not listing itself
    page = (out / "knowledge/queues/backpressure.html").read_text()
    assert (
        '<a href="../../knowledge/index.html">knowledge</a> › <a href="../../knowledge/queues/index.html">queues'
        in page
    )
    assert 'href="knowledge/index.html"' in (out / "index.html").read_text()


def test_layouts_are_detected_and_check_says_what_it_read(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {**OPENCLAW, "memory/state.json": "{}", "memory/2026-02-30.md": "# x\n"})
    result = run("check", str(ws))
    assert "Layouts: openclaw; core memory: MEMORY.md" in result.output
    assert "Read: 11 file(s) (" in result.output
    assert "session 1" in result.output and "dream 1" in result.output
    assert "Not read: 1 file(s) memwiki does not read (memory/state.json)" in result.output
    assert "memory/2026-02-30.md:1: 2026-02-30 in the file name is not a real date" in result.output
    assert result.exit_code == 0, "a file's name is never a problem that fails check"


def test_a_layout_can_be_forced_and_a_wrong_name_is_reported_at_its_line(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {**OPENCLAW, "memwiki.toml": '[workspace]\nlayout = "toebeans"\n'})
    assert load(ws).workspace.layout.names == ("toebeans",)
    (ws / "memwiki.toml").write_text('[site]\ntitle = "x"\n[workspace]\nlayout = "hermes"\n')
    loaded = load(ws)
    assert loaded.workspace.layout.names == ("openclaw",)  # detected instead
    assert any(
        (d.where, d.level) == ("memwiki.toml:4", "error") and "layout must be one of" in d.message
        for d in loaded.problems().items
    )


@pytest.mark.parametrize(
    ("files", "core"),
    [
        ({"memory.md": "# Core\n", "bank/world.md": "# W\n"}, "memory.md"),
        ({"memory/knowledge.md": "# K\n", "memory/reflections.jsonl": "{}\n"}, "memory/knowledge.md"),
        ({"memory/USER.md": "# U\n", "memory/2026-03-06.md": "# Daily Log - 2026-03-06\n"}, "memory/USER.md"),
        (
            {"global/User/user-profile.md": "# P\n", "global/MEMORY.md": "# Global Memory\n"},
            "global/User/user-profile.md",
        ),
    ],
)
def test_core_memory_of_each_layout(tmp_path: Path, files: dict[str, str], core: str) -> None:
    library = load(write_workspace(tmp_path / "ws", files)).library
    assert library.core is not None and library.core.path == core


def test_retain_as_agents_write_it(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/2026-02-03.md": (
                "# Day\n\n## Retain (Facts for Long-Term Memory)\n\n- W @OpenClaw: hybrid search is 70/30\n"
                "O(c=0.9) @Oscar: prefers trust-first\n\n### 18. Voice calibrated\n- **Issue:** MP3 broke\n"
                "- B @Voice: switched to Opus\n\n## Retain Items Processed\n- ✅ W @OpenClaw: done\n"
            ),
            "bank/opinions.md": "# Opinions\n\nO(c=0.95) @Oscar: Prefers direct communication\n",
        },
    )
    loaded = load(ws)
    facts = {(f.path, f.line): f.kind for f in loaded.library.facts}
    assert facts == {
        ("memory/2026-02-03.md", 5): "W",
        ("memory/2026-02-03.md", 6): "O",
        ("memory/2026-02-03.md", 10): "B",
        ("bank/opinions.md", 3): "O",
    }
    assert [d for d in loaded.problems().items if d.code == "malformed-fact"] == []


def test_flat_front_matter_is_read_and_a_broken_list_still_warns(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "MEMORY.md": "# Index\n",
            "feedback_letters.md": "---\nname: Cover letters: length and tone\ntype: feedback\n---\n# Letters\n",
            "bank/entities/Anna.md": "---\naliases: [a, b\n---\n# Anna\n",
        },
    )
    loaded = load(ws)
    note = loaded.library.note("feedback_letters.md")
    assert note is not None and note.meta == {"name": "Cover letters: length and tone", "type": "feedback"}
    problems = [d.where for d in loaded.problems().items if d.code == "front-matter"]
    assert problems == ["bank/entities/Anna.md:2"]
    anna = loaded.library.note("bank/entities/Anna.md")
    assert anna is not None and anna.meta == {"aliases": "[a, b"}  # kept as text, not the whole header lost


def test_flat_front_matter_with_quotes_yaml_rejects_keeps_every_key(tmp_path: Path) -> None:
    header = (
        "---\nproject_name: Savings app\nstatus: in_progress\n"
        'description: "Start saving" beats "Savings start"\naliases: ["储蓄", "savings"]\n---\n# Project\n'
    )
    ws = write_workspace(
        tmp_path / "ws", {"global/User/user-profile.md": "# Me\n", "Project/savings/project.meta.md": header}
    )
    loaded = load(ws)
    note = loaded.library.note("Project/savings/project.meta.md")
    assert note is not None
    assert note.meta == {
        "project_name": "Savings app",
        "status": "in_progress",
        "description": '"Start saving" beats "Savings start"',
        "aliases": ["储蓄", "savings"],
    }
    assert [d for d in loaded.problems().items if d.code == "front-matter"] == []


@pytest.mark.slow
@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/real is not present")
@pytest.mark.parametrize("name", ["xiaoqi", "claudecode-apppipeline"])
def test_real_workspace_every_file_reaches_the_site_and_nothing_is_written(tmp_path: Path, name: str) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(REAL / name, ws)
    before = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file() and ".memwiki" not in p.parts}
    out = tmp_path / "site"
    build(ws, out)
    missing = [
        p.relative_to(ws).as_posix()
        for p in ws.rglob("*.md")
        if not (out / load(ws).library.note_by_path[p.relative_to(ws).as_posix()].url).is_file()
    ]
    assert missing == []
    after = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file() and ".memwiki" not in p.parts}
    assert after == before
    assert "MEMORY.md" in (out / "index.html").read_text()


def test_links_to_markdown_files_lead_to_their_pages_and_broken_ones_are_reported(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "MEMORY.md": "# M\n\nSee [backpressure](knowledge/queues/backpressure.md#why) and [gone](notes/gone.md).\n",
            "knowledge/queues/backpressure.md": "# Backpressure\n\n## Why\n\nBack to [memory](../../MEMORY.md).\n",
            "knowledge/code.md": "# Code\n\nNot a link: `[x](y.md)`.\n",
            "knowledge/agents.md": "# A\n\n[abs](/home/me/.openclaw/workspace/MEMORY.md) [root](knowledge/code.md)\n",
            "knowledge/tools.md": "# T\n\n[code](code.md:3) [skill](/home/me/.openclaw/workspace/skills/k/SKILL.md:14)\n",
        },
    )
    out = tmp_path / "site"
    build(ws, out)
    tools = (out / "knowledge/tools.html").read_text()  # a file:line link opens at the line; a lost one is broken
    assert 'href="../knowledge/code.html#L3"' in tools and "skills/k/SKILL.md is not on this site" in tools
    memory = (out / "MEMORY.html").read_text()
    assert 'href="knowledge/queues/backpressure.html#why"' in memory
    assert '<a class="file missing" href="#" title="notes/gone.md is not on this site">gone</a>' in memory
    assert 'href="../../MEMORY.html"' in (out / "knowledge/queues/backpressure.html").read_text()
    agents = (out / "knowledge/agents.html").read_text()  # absolute and workspace-relative links found too
    assert 'href="../MEMORY.html"' in agents and 'href="../knowledge/code.html"' in agents
    check = run("check", str(ws))
    assert "MEMORY.md:3: links to notes/gone.md, which is not here" in check.output
    assert (
        "knowledge/tools.md:3: links to /home/me/.openclaw/workspace/skills/k/SKILL.md, which is not here"
        in check.output
    )
    assert "Broken links (2)" in check.output
    assert check.exit_code == 1


def test_promoted_memories_and_the_dream_diary_link_the_lines_they_cite(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "MEMORY.md": (
                "# M\n\n## Promoted From Short-Term Memory (2026-05-14)\n\n"
                "- Fixed ssh perms. [score=0.806 recalls=3 source=memory/2026-05-13.md:4-5]\n"
                "- Lost. [score=0.5 source=memory/2026-05-01.md:L2-L3]\n"
            ),
            "memory/2026-05-13.md": "# 2026-05-13\n\n- one\n- two\n- three\n",
            "DREAMS.md": (
                "# Dream Diary\n\n<!-- openclaw:dreaming:diary:start -->\n---\n\n*May 14, 2026*\n\n"
                "What Happened\n1. Perms fixed. [memory/2026-05-13.md:3, memory/2026-05-13.md:5]\n"
                "<!-- openclaw:dreaming:diary:end -->\n"
            ),
        },
    )
    out = tmp_path / "site"
    build(ws, out)
    memory = (out / "MEMORY.html").read_text()
    assert '[score=0.806 recalls=3 source=<a class="citation" href="memory/2026-05-13.html#L4"' in memory
    assert 'title="2026-05-13, lines 4–5">memory/2026-05-13.md:4-5</a>]' in memory
    assert '<a class="citation missing" href="#"' in memory
    diary = (out / "DREAMS.html").read_text()
    assert '<section class="dream-diary" aria-label="Dream diary">' in diary and "<details" not in diary
    assert '[<a class="citation" href="memory/2026-05-13.html#L3"' in diary
    assert ', <a class="citation" href="memory/2026-05-13.html#L5"' in diary
    assert "MEMORY.md:6: links to memory/2026-05-01.md, which is not here" in run("check", str(ws)).output


DREAMY_DAY = (
    "# 2026-01-16\n\nMorning notes.\n\n## Light Sleep\n<!-- openclaw:dreaming:light:start -->\n"
    "- Candidate: queue stalls follow deploys\n<!-- openclaw:dreaming:light:end -->\n\nEvening notes.\n"
)


def test_dreaming_blocks_are_collapsed_and_kept_out_of_recall_json(tmp_path: Path) -> None:
    core = "# Memory\n\n- Tim likes short answers.\n<!-- openclaw:dreaming:rem:start -->\n- Dreamt: Tim likes owls\n"
    ws = write_workspace(tmp_path / "ws", {"MEMORY.md": core, "memory/2026-01-16.md": DREAMY_DAY})
    out = tmp_path / "site"
    build(ws, out)
    day = (out / "memory/2026-01-16.html").read_text()
    assert '<details class="dreaming"><summary>Dreaming (light): machine notes</summary>' in day
    assert day.index("<details") < day.index("queue stalls follow deploys") < day.index("</details>")
    assert day.index("</details>") < day.index("Evening notes.")
    home = (out / "MEMORY.html").read_text()
    assert home.count("<details") == home.count("</details>") == 1  # a block never closed ends with the note
    bundle = (out / "recall.json").read_text()
    assert "Tim likes short answers." in bundle
    assert "owls" not in bundle


def test_reflect_writes_only_where_the_workspace_keeps_memwikis_folders(tmp_path: Path) -> None:
    day = "# D\n\n## Retain\n- W @Oscar: runs Ubuntu\n- O(c=0.8) @Oscar: likes short answers\n\nPinged @everyone and @kit_fox.\n"
    ws = write_workspace(tmp_path / "ws", {**OPENCLAW, "memory/2026-01-18.md": day})
    before = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}
    assert run("reflect", str(ws)).exit_code == 0
    assert {p: p.read_bytes() for p in ws.rglob("*") if p.is_file() and ".memwiki" not in p.parts} == before
    (ws / "bank" / "entities").mkdir(parents=True)
    (ws / "bank" / "entities" / "Tim.md").write_text("# Tim\n")
    assert run("reflect", str(ws)).exit_code == 0
    made = sorted(p.relative_to(ws).as_posix() for p in (ws / "bank").rglob("*.md"))
    assert made == ["bank/entities/Oscar.md", "bank/entities/Tim.md", "bank/opinions.md"]  # fact subjects only


def test_context_in_openclaws_format_is_memory_and_the_last_two_days(tmp_path: Path) -> None:
    files = {**OPENCLAW, "memory/2026-01-14.md": "# 14\n\nold day\n", "memory/2026-01-15.md": "# 15\n\nyesterday\n"}
    block = run("context", str(write_workspace(tmp_path / "ws", files)), "--format", "openclaw").stdout
    assert block.startswith("## MEMORY.md\n\n# Long-term memory")
    assert "## memory/2026-01-15.md" in block and "## memory/2026-01-16.md" in block
    assert "old day" not in block and "queue stalls follow deploys" not in block  # no dreams, no older days


def test_only_names_that_matter_become_entities(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "MEMORY.md": "# M\n\nThanks @i.am.teke.\n",
            "memory/2026-01-16.md": (
                "# D\n\n## Retain\n- W @Oscar: runs Ubuntu\n\n## Notes\n"
                "Asked @kit_fox about `@decorators`; npm i @aws-sdk/client-s3; mail bob@example.com.\n"
                '[[reply_to_current]] Pinged @everyone. JSON-LD: "@type": "Person". See [[knowledge/x|the notes]].\n'
            ),
            "memory/2026-01-17.md": "# D\n\n@kit_fox again, and [[Nobody]].\n",
            "knowledge/x.md": "# X\n",
        },
    )
    library = load(ws).library
    assert sorted(e.name for e in library.entities.values()) == ["Nobody", "Oscar", "kit_fox"]  # [[Nobody]]: a link
    out = tmp_path / "site"
    build(ws, out)
    memory = (out / "MEMORY.html").read_text()
    assert '<span class="handle">@i.am.teke</span>' in memory  # seen once: text, not a link
    day = (out / "memory/2026-01-16.html").read_text()
    assert "[[reply_to_current]] Pinged @everyone." in day
    assert 'href="../knowledge/x.html" title="X">the notes</a>' in day


def test_a_forced_layout_takes_its_own_core_memory_and_two_claims_are_reported(tmp_path: Path) -> None:
    files = {
        "MEMORY.md": "# Index\n",
        "memory/knowledge.md": "# Knowledge\n\nThe shop opens at 7.\n",
        "memory/2026-03-01.md": "# 2026-03-01\n\nBaked.\n",
        "memory/reflections.jsonl": '{"ts": "2026-03-01T09:00:00Z", "type": "insight", "content": "Bake early."}\n',
    }
    ws = write_workspace(tmp_path / "ws", files)
    detected = load(ws)
    assert detected.workspace.layout.core == "MEMORY.md"
    claims = [(d.where, d.message) for d in detected.problems().items if d.code == "layout"]
    assert claims == [
        (
            "memory/knowledge.md:1",
            "also looks like core memory; memwiki shows MEMORY.md as the core memory and this file as a page "
            "(set [workspace] layout in memwiki.toml to choose)",
        )
    ]
    (ws / "memwiki.toml").write_text('[workspace]\nlayout = "tinyclaw"\n', encoding="utf-8")
    forced = load(ws)
    assert forced.workspace.layout.core == "memory/knowledge.md"
    note = forced.library.note("memory/knowledge.md")
    assert note is not None and note.kind == "core"
    assert [d for d in forced.problems().items if d.code == "layout"] == []


def test_a_note_named_like_one_of_memwikis_pages_gets_a_page_of_its_own(tmp_path: Path) -> None:
    notes = ["facts", "graph", "agent", "hygiene", "search", "facts-2024", "hygiene-routine", "bank/opinions-2"]
    ws = write_workspace(
        tmp_path / "ws",
        {
            **{f"{name}.md": f"# {name}\n\nMy own note called {name}.\n" for name in notes},
            "memory/2025-11-03.md": "# Mon\n\n## Retain\n- W @Anna: Anna likes tea.\n",
        },
    )
    out = tmp_path / "site"
    build(ws, out)
    for name in notes:
        assert f"My own note called {name}." in (out / f"{name}.md.html").read_text(encoding="utf-8"), name
    # memwiki's own pages are still its own
    assert "Retain fact" in (out / "facts.html").read_text(encoding="utf-8")
    assert "<h1>Hygiene report</h1>" in (out / "hygiene.html").read_text(encoding="utf-8")
    assert "What the agent sees" in (out / "agent.html").read_text(encoding="utf-8")


def test_a_folders_index_is_its_page_and_its_readme_is_shown_below_its_listing(tmp_path: Path) -> None:
    files = {
        "MEMORY.md": "# Memory\n\n- Tools: [[tools]]; people: [[knowledge/people/README|people]].\n",
        "knowledge/tools/index.md": "# Tools\n\nThe tools we use, see [Git](git.md).\n",
        "knowledge/tools/git.md": "# Git\n\nVersion control.\n",
        "knowledge/people/README.md": "# People\n\nWho we work with: [Anna](anna.md).\n",
        "knowledge/people/anna.md": "# Anna\n\nPotter in Lisbon.\n",
    }
    ws = write_workspace(tmp_path / "ws", files)
    out = tmp_path / "site"
    build(ws, out)
    assert not list(out.rglob("*.md.html"))
    tools = (out / "knowledge/tools/index.html").read_text()
    assert "The tools we use" in tools and 'href="../../knowledge/tools/git.html"' in tools
    listing = tools.split("In this folder", 1)[1].split("</section>", 1)[0]
    assert "git.html" in listing and "tools/index.html" not in listing  # the page does not list itself
    assert '<a href="../../knowledge/index.html">knowledge</a></nav>' in tools  # the way up starts above it
    assert 'href="knowledge/tools/index.html"' in (out / "MEMORY.html").read_text()  # [[tools]] opens it
    people = (out / "knowledge/people/index.html").read_text()
    readme = people.split('class="folder-readme"', 1)[1]
    assert 'href="../../knowledge/people/README.html">README.md</a>' in readme
    assert 'Who we work with: <a class="file" href="../../knowledge/people/anna.html"' in readme  # links hold
    assert (out / "knowledge/people/README.html").is_file()  # and it keeps its own page

    (ws / "knowledge/tools/make.md").write_text("# Make\n\nBuilds.\n", encoding="utf-8")  # the listing follows
    build(ws, out)
    assert 'href="../../knowledge/tools/make.html"' in (out / "knowledge/tools/index.html").read_text()
