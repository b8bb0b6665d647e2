"""Pages for what other memory systems keep: TinyClaw's reflections, episodes and skills, ClawXMemory's projects
with their feedback rules, and the page that shows what each system's agent sees."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from tests.conftest import run, write_workspace

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "layouts"


def build_fixture(tmp_path: Path, name: str) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURES / name, ws)
    out = tmp_path / "site"
    result = run("build", str(ws), "-o", str(out), "--no-search")
    assert result.exit_code == 0, result.output
    return out


def cards(page: str) -> list[str]:
    return re.findall(r'<li class="record (v-[\w-]+)"', page)


def test_reflections_are_a_timeline_of_cards_at_their_lines_filterable_by_type(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/knowledge.md": "# Knowledge\n\n- Opens at 07:00.\n",
            "memory/reflections.jsonl": (
                '{"ts":"2026-02-10T09:12:00Z","type":"failure","context":"Deploy","lesson":"Queue stalled",'
                '"action":"reclaim"}\n'
                '{"ts":"2026-02-11T16:40:00Z","type":"success","lesson":"Pre-split orders"}\n'
                "not json at all\n"
                '{"ts":"2026-02-12T10:30:00Z","type":"insight","lesson":"Refunds are reschedules"}\n'
            ),
            "memory/2026-02-10.md": "# 2026-02-10\n\nDeploy day.\n",
        },
    )
    out = tmp_path / "site"
    assert run("build", str(ws), "-o", str(out), "--no-search").exit_code == 0
    page = (out / "memory/reflections.jsonl.html").read_text()
    assert cards(page) == ["v-failure", "v-success", "v-unreadable", "v-insight"]
    assert '<li class="record v-failure" id="L1">' in page and 'id="L4"' in page
    assert '<p class="record-context">Deploy</p>' in page and "→</span> reclaim" in page
    # the record's time links to its day's page when there is one
    assert (
        '<a href="../memory/2026-02-10.html"><time datetime="2026-02-10T09:12:00Z">2026-02-10 09:12</time></a>' in page
    )
    for choice in ("all", "failure", "success", "insight"):
        assert f'id="rf-{choice}"' in page
    assert "not json at all" in page


def test_episodes_link_their_tags_to_a_page_per_tag(tmp_path: Path) -> None:
    out = build_fixture(tmp_path, "tinyclaw")
    page = (out / "memory/episodes.jsonl.html").read_text()
    assert cards(page) == ["v-resolved", "v-resolved", "v-informational", "v-unresolved"]
    assert '<a class="chip" href="../memory/episode-tags/queue.html">#queue</a>' in page
    assert '<p class="record-who muted">Tim Okafor · main</p>' in page
    queue = (out / "memory/episode-tags/queue.html").read_text()
    assert "<h1>Episodes tagged #queue</h1>" in queue and "2 episodes" in queue
    # newest first, each pointing at its line on the episodes page
    assert queue.index("queue depth alert") < queue.index("Order queue stuck")
    assert (
        'href="../../memory/episodes.jsonl.html#L1"' in queue and 'href="../../memory/episodes.jsonl.html#L4"' in queue
    )
    assert not (out / "memory/episode-tags/missing.html").exists()


def test_a_tinyclaw_home_links_its_records_and_shows_no_empty_cards(tmp_path: Path) -> None:
    home = (build_fixture(tmp_path, "tinyclaw") / "index.html").read_text(encoding="utf-8")
    loaded = home[home.index('id="standing-h"') : home.index("</section>", home.index('id="standing-h"'))]
    assert re.findall(r'<a href="([^"]+)">(Reflections|Episodes|Skills)</a>', loaded) == [
        ("memory/reflections.jsonl.html", "Reflections"),
        ("memory/episodes.jsonl.html", "Episodes"),
        ("memory/skills/index.json.html", "Skills"),
    ]
    for empty in ("Recent days", "Opinions at a glance"):  # it has no logs or opinions
        assert empty not in home
    assert 'href="bank/entities/priya.html">Priya</a>' in home  # named in its prose: who approves the refunds


def test_skills_are_a_library_with_their_descriptions(tmp_path: Path) -> None:
    out = build_fixture(tmp_path, "tinyclaw")
    library = (out / "memory/skills/index.html").read_text()
    assert re.search(
        r'<a href="../../memory/skills/refund-order.html">Refund an order</a> <span class="muted">skill · How to',
        library,
    )
    skill = (out / "memory/skills/refund-order.html").read_text()
    assert '<p class="lede">How to handle a refund request: offer a reschedule first, then ask Priya</p>' in skill
    index = (out / "memory/skills/index.json.html").read_text()
    assert 'href="../../memory/skills/reclaim-queue.html"' in index


def test_a_project_page_gathers_its_state_rules_and_archive(tmp_path: Path) -> None:
    out = build_fixture(tmp_path, "clawxmemory")
    page = (out / "projects/project_3f9a0c21be/index.html").read_text()
    assert "<h1>Paper A: savings app redesign</h1>" in page
    assert "<dt>Status</dt><dd>active</dd>" in page and "<dd>Paper A, 储蓄改版</dd>" in page
    assert "<dt>Updated</dt><dd>2026-04-09</dd>" in page
    titles = re.findall(r'<section class="card">\s*<h2>([^<]+)</h2>', page)
    assert titles == ["Current Stage", "Next Steps", "Blockers", "Decisions", "Timeline"]
    assert "Legal has not approved the new consent copy." in page
    assert 'href="../../projects/project_3f9a0c21be/Project/current-stage.html#blockers"' in page
    assert "Write button labels as verbs" in page and "How to apply" in page
    assert (
        "Archived (1)" in page
        and 'href="../../projects/project_3f9a0c21be/Project/Archive/old-onboarding.html"' in page
    )
    assert "Retired in March 2026." not in page  # an archived file is listed, not shown as the project's state
    listing = (out / "projects/index.html").read_text()
    assert "Paper A: savings app redesign (active)</a>" in listing and "Unsorted project memory</a>" in listing
    unsorted = (out / "projects/_tmp/index.html").read_text()
    assert "分享设计时发 Figma 链接，不发截图。" in unsorted


def test_check_counts_the_new_kinds(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURES / "clawxmemory", ws)
    output = run("check", str(ws)).output
    assert "project 1" in output and "feedback rule" not in output and "feedback 2" in output


def test_the_agent_page_shows_each_systems_tiers_and_block(tmp_path: Path) -> None:
    out = build_fixture(tmp_path, "toebeans")
    page = (out / "agent.html").read_text()
    assert '<h2 id="agent-toebeans">toebeans</h2>' in page
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th><td class="align-right">(\d+)</td>', page)
    assert rows == [("Always loaded", "2"), ("Listed by name", "2"), ("Found by search only", "3")]
    assert "memwiki context --format toebeans" in page and "## Memory topics (read on demand)" in page
    assert 'href="memory/organic-chemistry.html"' in page
    own = tmp_path / "own"
    write_workspace(own, {"memory.md": "# Core\n\n- Sam likes tea.\n"})
    assert run("build", str(own), "-o", str(tmp_path / "own-site"), "--no-search").exit_code == 0
    assert '<h2 id="agent-memwiki">memwiki</h2>' in (tmp_path / "own-site/agent.html").read_text()


def test_a_tier_of_many_files_lists_its_folders_with_their_files_and_tokens(tmp_path: Path) -> None:
    days = {f"memory/2025-{1 + i // 28:02d}-{1 + i % 28:02d}.md": f"# Day {i}\n\nA plain line.\n" for i in range(210)}
    ws = write_workspace(
        tmp_path / "ws",
        {"memory.md": "# Core\n\n- Sam likes tea.\n", "notes/a.md": "# A\n\nText.\n", "TOOLS.md": "# Tools\n", **days},
    )
    out = tmp_path / "site"
    assert run("build", str(ws), "-o", str(out), "--no-search").exit_code == 0
    page = (out / "agent.html").read_text()
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th><td class="align-right">([\d,]+)</td>', page)
    assert rows == [("Always loaded", "1"), ("Listed by name", "0"), ("Found by search only", "212")]
    assert "Found by search only: 212 files, by folder" in page
    assert '<a href="memory/index.html">memory/</a> <span class="muted">210 files, ~' in page
    assert '<a href="notes/index.html">notes/</a> <span class="muted">1 file, ~' in page
    assert '<a href="TOOLS.html">TOOLS.md</a>' in page  # the workspace's own files are listed still
    assert "memory/2025-01-01.html" not in page
    small = write_workspace(tmp_path / "small", {"memory.md": "# Core\n", **dict(list(days.items())[:5])})
    assert run("build", str(small), "-o", str(tmp_path / "small-site"), "--no-search").exit_code == 0
    assert 'href="memory/2025-01-01.html"' in (tmp_path / "small-site/agent.html").read_text()


def test_the_site_is_titled_by_its_settings_else_its_agent_else_its_folder(tmp_path: Path) -> None:
    files = {"MEMORY.md": "# Memory\n\n- Likes tea.\n", "IDENTITY.md": "# IDENTITY.md\n\n- **Name:** Vader\n"}
    ws = write_workspace(tmp_path / "home-server", files)

    def title(*args: str) -> str:
        assert run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search", *args).exit_code == 0
        found = re.search(r"<title>([^<]*)</title>", (tmp_path / "site" / "index.html").read_text(encoding="utf-8"))
        assert found is not None
        return found[1]

    assert title() == "Vader"  # the agent's name, from its identity
    assert title("--title", "Vader's <memory>") == "Vader&#39;s &lt;memory&gt;"  # given, and escaped
    (ws / "memwiki.toml").write_text('[site]\ntitle = "Home lab"\n', encoding="utf-8")
    assert title() == "Home lab"
    (ws / "memwiki.toml").unlink()
    (ws / "IDENTITY.md").unlink()
    assert title() == "home-server"  # no identity: the folder's name (a clone's is the repository's)
    (ws / "SOUL.md").write_text(
        "# SOUL.md - Who You Are\n\nYou're not a chatbot.\n\nI am Beans, a study companion.\n", encoding="utf-8"
    )
    assert title() == "Beans"  # the agent its persona names
    (ws / "SOUL.md").unlink()
    plain = write_workspace(tmp_path / "workspace", files)  # OpenClaw's folder: says nothing of whose memory it is
    (plain / "IDENTITY.md").unlink()
    assert run("build", str(plain), "-o", str(tmp_path / "plain"), "--no-search").exit_code == 0
    assert "<title>memwiki</title>" in (tmp_path / "plain" / "index.html").read_text(encoding="utf-8")
    (ws / "IDENTITY.md").write_text("# IDENTITY.md\n\n- **Name:** 小七\n", encoding="utf-8")
    context = run("context", str(ws), "--budget", "200")
    assert 'title="小七"' in context.stdout


def test_a_days_excerpt_is_what_happened_not_a_line_that_records_a_value(tmp_path: Path) -> None:
    log = (
        "# 2026-03-12\n\n- **Session Key**: agent:main:discord:direct:691315817366945832\n- Agent ID: `vader`\n"
        "- Duration: 42m\n时间：2026-02-28 04:01:00 GMT+8\n- Started: 2026-03-12 09:30\n"
        "- Pushed the SSH key to both Proxmox hosts and checked the backups.\n"
    )
    ws = write_workspace(tmp_path / "ws", {"MEMORY.md": "# Memory\n\n- Likes tea.\n", "memory/2026-03-12.md": log})
    assert run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search").exit_code == 0
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    day = re.search(r'<time datetime="2026-03-12">.*?<p>(.*?)</p>', home, re.S)
    assert day is not None and day[1].startswith("Pushed the SSH key"), day
