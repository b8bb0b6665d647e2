"""Entities named in prose, and their unlinked mentions, where the workspace keeps no entity pages: built end to
end from small OpenClaw-style workspaces (``library.prose_entities``, ``parse.proper_names``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from site_builder.io.reader import open_workspace
from site_builder.load import load
from site_builder.mcp.live import LiveWorkspace
from site_builder.mcp.tools import MemoryTools, ToolError
from site_builder.parse.proper_names import proper_names
from tests.conftest import MakeWorkspace, run

FILES = {
    "MEMORY.md": (
        "# Memory\n\n"
        "- My human is Roger Gimbel, who runs the lab with Komodo and GitHub.\n"
        "- Heartbeat every hour; the heartbeat file is HEARTBEAT.md.\n"
    ),
    "memory/2026-02-10.md": (
        "# Tuesday\n\n"
        "- Fixed the deploy for Roger Gimbel; Komodo restarted twice.\n"
        "- Heartbeat: ok. The heartbeat ran at noon.\n"
        "- Asked Roger about the `Foo Bar` config at https://Example.com/Foo and roger@Example.com.\n"
        "- On Monday we pushed to GitHub.\n"
    ),
    "memory/2026-02-11.md": (
        "# Wednesday\n\n"
        "- Roger Gimbel approved the plan; then Komodo went down again.\n"
        "- Fixed the heartbeat. Updated the notes.\n"
        "- Pushed the fix to GitHub and told Roger.\n"
        "- Lunch with Zelda Quist.\n"
    ),
    "memory/2026-02-12.md": "# Thursday\n\n- Zelda Quist called; Zelda Quist again later.\n",
}


def entities_of(out: Path) -> dict[str, dict[str, object]]:
    return {
        data["name"]: data
        for path in sorted((out / "recall" / "entities").glob("*.json"))
        if (data := json.loads(path.read_text(encoding="utf-8")))
    }


def test_a_name_in_curated_memory_and_the_logs_is_an_entity_with_its_lines(workspace: MakeWorkspace) -> None:
    root = workspace(FILES)
    result = run("build", str(root), "--no-search")
    assert result.exit_code == 0, result.output
    found = entities_of(root / ".memwiki" / "site")
    assert set(found) == {"Roger Gimbel", "Komodo", "GitHub"}  # not Heartbeat, Fixed, Monday, Foo Bar, Zelda Quist
    roger = found["Roger Gimbel"]
    assert roger["aliases"] == ["Roger"]
    mentions = [m["source"] for m in roger["mentions"]]  # type: ignore[attr-defined]
    assert mentions == [
        "MEMORY.md#L3",
        "memory/2026-02-10.md#L3",
        "memory/2026-02-10.md#L5",
        "memory/2026-02-11.md#L3",
        "memory/2026-02-11.md#L5",
    ]
    assert roger["mentions"][1]["sentence"] == "Fixed the deploy for Roger Gimbel; Komodo restarted twice."  # type: ignore[index]
    assert {r["name"] for r in roger["related"]} == {"Komodo", "GitHub"}  # type: ignore[attr-defined]
    page = (root / ".memwiki" / "site" / "bank" / "entities" / "roger-gimbel.html").read_text(encoding="utf-8")
    assert "Named in the workspace" in page and "No page yet" not in page
    assert "Fixed the deploy for Roger Gimbel" in page
    assert not list(root.glob("bank/**/*.md"))  # nothing written into the workspace
    check = run("check", str(root))
    assert "Roger Gimbel" not in check.output  # not a placeholder to fix


def test_a_name_only_the_logs_write_is_no_entity(workspace: MakeWorkspace) -> None:
    library = load(workspace(FILES)).library
    assert "zelda-quist" not in library.entities  # three lines in two files, but never in the curated memory
    assert library.entities["komodo"].prose and not library.entities["komodo"].placeholder


def test_a_workspace_whose_logs_name_their_entities_keeps_its_own(workspace: MakeWorkspace) -> None:
    """Entity pages, and logs that mark what they are about (``@Komodo``): the entities are the ones written."""
    marked = {path: text.replace("Komodo", "@Komodo") for path, text in FILES.items()}
    files = {**marked, "bank/entities/Komodo.md": "# Komodo\n\nThe container manager.\n"}
    library = load(workspace(files)).library
    assert set(library.entities) == {"komodo"}
    assert all(link.syntax == "mention" for link in library.backlinks["komodo"])  # plain text is no link there


def test_entity_pages_beside_logs_in_prose_do_not_stop_reading_the_prose(workspace: MakeWorkspace) -> None:
    """A few entity pages, logs in prose (jarvis-globalcaos keeps bank/entities/ and writes prose): the names
    the prose repeats are entities too, and the pages' own entities are named in plain text."""
    files = {**FILES, "bank/entities/Komodo.md": "# Komodo\n\nThe container manager.\n"}
    library = load(workspace(files)).library
    assert {"komodo", "roger-gimbel", "github"} <= set(library.entities)
    assert {link.path for link in library.backlinks["komodo"]} >= {"memory/2026-02-10.md", "memory/2026-02-11.md"}


def test_proper_names_leave_out_what_is_not_prose() -> None:
    def names(line: str) -> list[tuple[str, bool]]:
        return [(name.text, name.opens) for name in proper_names(line)]

    assert names("- Met Roger Gimbel at the Home Assistant meetup.") == [
        ("Met Roger Gimbel", True),
        ("Roger Gimbel", False),
        ("Home Assistant", False),
    ]
    assert names("See `Foo Bar`, [[Anna]], @Bob, #Tag, MEMORY.md, src/Main.py, https://X.com/Y, a@B.com") == [
        ("See", True)
    ]
    assert names("call Bank of America, then Kala do Brasil (Porto).") == [
        ("Bank of America", False),
        ("Kala do Brasil", False),
        ("Porto", True),
    ]
    assert names("The AI Companies Are Losing report by Andrej Karpathy's team") == [("Andrej Karpathy", False)]
    assert names("use the Brave Search API Key and the Codex-provided URLs, I'm told; HIGH ACTIVITY MODE") == [
        ("Brave Search", False),
        ("Key", False),
    ]
    assert names("NVIDIA and GA4 and OpenClaw and phpIPAM, not TODO or CRM") == [
        ("NVIDIA", True),
        ("GA4", False),
        ("OpenClaw", False),
        ("phpIPAM", False),
    ]


def test_a_long_list_of_mentions_folds_the_older_notes(workspace: MakeWorkspace) -> None:
    days = {
        f"memory/2026-03-{day:02d}.md": f"# Day {day}\n\n- Called Roger Gimbel about the roof.\n- Then Roger again.\n"
        for day in range(1, 31)
    }
    root = workspace({"MEMORY.md": "# Memory\n\n- My human is Roger Gimbel.\n", **days})
    assert run("build", str(root), "--no-search").exit_code == 0
    page = (root / ".memwiki" / "site" / "bank" / "entities" / "roger-gimbel.html").read_text(encoding="utf-8")
    shown, folded = page.split('<details class="more-backlinks">')
    assert shown.count('class="backlink-group"') == 20  # the newest 20 days: 40 lines
    assert "21 more, in 11 older notes</summary>" in folded  # 10 days and MEMORY.md
    assert folded.count('class="backlink-group"') == 11
    assert "2026-03-30" in shown and "2026-03-10" in folded


def test_the_user_and_the_agent_their_profiles_name_are_entities(workspace: MakeWorkspace) -> None:
    root = workspace(
        {
            "USER.md": "# USER.md - About Your Human\n\n- **Name:** Oscar Serra\n- **What to call them:** Oscar\n",
            "IDENTITY.md": "# IDENTITY.md - Who Am I?\n\n- **Name:** Vader\n- **Creature:** AI enforcer\n",
            "MEMORY.md": "# Memory\n\n- Oscar prefers short answers.\n",
            "memory/2026-02-10.md": "# Tuesday\n\n- Oscar asked Vader for the report.\n",
        }
    )
    assert run("build", str(root), "--no-search").exit_code == 0
    found = entities_of(root / ".memwiki" / "site")
    assert found["Oscar Serra"]["aliases"] == ["Oscar"]
    assert found["Oscar Serra"]["id"] == "oscar-serra"
    assert [m["source"] for m in found["Oscar Serra"]["mentions"]] == [  # type: ignore[attr-defined]
        "MEMORY.md#L3",
        "USER.md#L3",  # his name, and what to call him: the page shows the profile's lines, not the profile
        "USER.md#L4",
        "memory/2026-02-10.md#L3",
    ]
    vader = [m["source"] for m in found["Vader"]["mentions"]]  # type: ignore[attr-defined]
    assert vader == ["IDENTITY.md#L3", "memory/2026-02-10.md#L3"]
    page = (root / ".memwiki" / "site" / "bank/entities/oscar-serra.html").read_text(encoding="utf-8")
    assert 'Written up in <a href="../../USER.html">USER.md</a>' in page
    profile = (root / ".memwiki" / "site" / "USER.html").read_text(encoding="utf-8")  # and the profile links back
    assert (
        '<h2 id="about-h">About</h2><p class="chips"><a class="chip" href="bank/entities/oscar-serra.html">' in profile
    )
    assert "Oscar Serra" not in run("check", str(root)).output  # no placeholder to fix


def test_the_first_name_of_a_user_called_by_a_nickname_is_the_user_too(workspace: MakeWorkspace) -> None:
    """A profile that calls its user "Lex" and names "Alex Morgan": "Alex", written alone in the logs, is the user."""
    root = workspace(
        {
            "memory/USER.md": "# User\n\n- **Name**: Alex Morgan\n- **Nickname**: Lex\n",
            "memory/2026-03-01.md": "# 2026-03-01\n\n- Alex asked for the weekly report.\n- Lex wants short replies.\n",
        }
    )
    library = load(root).library
    user = library.resolver.entity("Alex Morgan")
    assert user is not None and user.aliases == ("Lex", "Alex")
    assert ("memory/2026-03-01.md", 3) in [(link.path, link.line) for link in library.backlinks[user.key]]


def test_a_note_or_folder_named_like_an_entity_is_its_home(workspace: MakeWorkspace) -> None:
    root = workspace(
        {
            "MEMORY.md": "# Memory\n\n- Working on the roof.\n",
            "knowledge/people/roger-gimbel/summary.md": "# Roger Gimbel\n\nThe human; runs the lab.\n",
            "knowledge/tools/komodo.md": "# Komodo\n\nContainer manager on the Pi.\n",
            "memory/2026-02-10.md": "# Tuesday\n\n- Called Roger Gimbel; then Komodo restarted.\n",
            "memory/2026-02-11.md": "# Wednesday\n\n- Told Roger Gimbel that Komodo was down again.\n",
            "memory/2026-02-12.md": "# Thursday\n\n- Roger Gimbel fixed Komodo with me.\n",
        }
    )
    library = load(root).library
    assert library.entities["roger-gimbel"].home == "knowledge/people/roger-gimbel/summary.md"
    assert library.entities["komodo"].home == "knowledge/tools/komodo.md"  # named only in logs, but its home is kept


def test_memory_entity_answers_for_an_entity_named_in_prose(workspace: MakeWorkspace) -> None:
    tools = MemoryTools(LiveWorkspace(open_workspace(workspace(FILES))), allow_write=False)
    roger = tools.memory_entity("Roger")
    assert roger["name"] == "Roger Gimbel"
    assert [m["source"] for m in roger["mentions"]][:2] == ["MEMORY.md#L3", "memory/2026-02-10.md#L3"]
    with pytest.raises(ToolError):
        tools.memory_entity("Zelda Quist")  # named in the logs only


def test_handles_and_cjk_names_are_found_as_written_and_headings_name_entities(workspace: MakeWorkspace) -> None:
    root = workspace(
        {
            "USER.md": "# USER.md\n\n- **Name:** 馆长\n",
            "MEMORY.md": "# Memory\n\n- Talk with @santaclawd often.\n",
            "memory/2026-02-10.md": (
                "# Tuesday\n\n- 馆长说：我需要你\n- Replied to santaclawd's thread on disputes.\n"
                "- The clawd stays out of it.\n"  # not the handle: another word
            ),
            "memory/2026-02-11.md": "# Wednesday\n\n## 馆长给了 SSH 权限\n\n- Pinged @santaclawd again.\n",
            "memory/2026-02-12.md": "# Thursday\n\n- Quiet day; @santaclawd was away.\n",
        }
    )
    library = load(root).library
    user = library.resolver.entity("馆长")
    assert user is not None
    assert [(link.path, link.line) for link in library.backlinks[user.key]] == [
        ("USER.md", 3),
        ("memory/2026-02-10.md", 3),
        ("memory/2026-02-11.md", 3),  # the heading names the user
    ]
    assert [(link.path, link.line) for link in library.backlinks["santaclawd"]] == [
        ("MEMORY.md", 3),
        ("memory/2026-02-10.md", 4),
        ("memory/2026-02-11.md", 5),
        ("memory/2026-02-12.md", 3),
    ]


def test_a_registry_of_connections_names_one_entity_per_item(workspace: MakeWorkspace) -> None:
    root = workspace(
        {
            "MEMORY.md": (
                "# Memory\n\n## Key Connections\n"
                "- **drainfun** — agent rest architecture.\n"
                "- **Holly** — Security researcher, RFC collab.\n\n"
                "## Lessons\n"
                "- **Memory decay** — a feature, not a bug.\n"
                "- **Autonomy** — earned, not given.\n"
            ),
            "memory/2026-02-10.md": "# Tuesday\n\n- Replied to drainfun.\n",
        }
    )
    library = load(root).library
    assert {e.name for e in library.entities.values()} == {"drainfun", "Holly"}  # not the lessons
    assert [(link.path, link.line) for link in library.backlinks["drainfun"]] == [
        ("MEMORY.md", 4),
        ("memory/2026-02-10.md", 3),
    ]


def test_many_mentions_are_drawn_by_month_and_a_home_says_what_it_is(workspace: MakeWorkspace) -> None:
    days = {
        f"memory/2026-{month:02d}-{day:02d}.md": "# Day\n\n- Called Roger Gimbel.\n- Roger Gimbel called back.\n"
        for month, day in [(2, d) for d in range(1, 11)] + [(3, d) for d in range(1, 21)]
    }
    home = "# Roger Gimbel\n\nThe human this agent works for; runs the **lab**.\n"
    root = workspace({"MEMORY.md": "# Memory\n", "people/roger-gimbel.md": home, **days})
    assert run("build", str(root), "--no-search").exit_code == 0
    page = (root / ".memwiki" / "site" / "bank" / "entities" / "roger-gimbel.html").read_text(encoding="utf-8")
    assert (
        '<p class="lede" data-pagefind-ignore>The human this agent works for; runs the <strong>lab</strong>.</p>'
        in page
    )
    chart = page.split('<svg class="chart months"', 1)[1].split("</svg>", 1)[0]
    assert "<title>2026-02: 20</title>" in chart and "<title>2026-03: 40</title>" in chart


def test_a_capitalised_word_after_chinese_text_is_inside_a_sentence() -> None:
    """Chinese has no capitals: a capital after its text or punctuation proves a name, as inside an English
    sentence (xiaoqi writes "与 Florentina、Grey-Area、HelixYoda 等", "**作者**: Ronin")."""
    found = [
        (n.text, n.opens) for line in ("与 Florentina、HelixYoda 等", "- **作者**: Ronin") for n in proper_names(line)
    ]
    assert found == [("Florentina", False), ("HelixYoda", False), ("Ronin", False)]
    assert [(n.text, n.opens) for n in proper_names("Status: Complete")] == [("Status", True), ("Complete", True)]


def test_a_registry_is_a_list_under_a_heading_about_things_of_one_kind(workspace: MakeWorkspace) -> None:
    """ "## 中文 Agent 社区" lists agents (a singular word last, as headings say what they are about); "## Tool
    Execution Display" lists the parts of a display, and "**Status**", a word the notes write in lower case, is
    no one's name."""
    page = (
        "# Notes\n\n## 中文 Agent 社区\n\n- **clawty_yusen** — 给 VC 打工\n- **beijingxiaoshuai** — 北京\n\n"
        "## Tool Execution Display\n\n- **Status** — ✓ success\n- **Quorble** — what ran\n\n"
        "The status is shown; the status bar too.\n\n"
        "## lobster (Workflow Engine for AI Agents)\n\n**Why it matters:**\n\n"  # a label says what its list is
        "- **Declarative-first** — the repo is the truth\n- **Hive-mind** — shared memory\n\n"
        "**Agents on it:**\n\n- **Zorblat** — runs the nightly jobs\n- **Quimby** — reviews\n"
    )
    library = load(workspace({"MEMORY.md": "# Memory\n\n- Notes in notes.md.\n", "notes.md": page})).library
    assert {"clawty-yusen", "beijingxiaoshuai", "zorblat", "quimby"} <= set(library.entities)
    assert not {"status", "quorble", "declarative-first", "hive-mind"} & set(library.entities)


def test_names_in_prose_of_an_entity_kept_as_a_page_are_that_entity(workspace: MakeWorkspace) -> None:
    """A page's title names its entity (``# Oscar Serra`` on ``Oscar.md``, ``# Aleksandra (Sasha) Marchenko``),
    a longer name its page gives starts with is it (``Marcus Alexander``), a name written joined is it
    (``DoloresCannon``) and so is the short form of that (``Dolores``); a name and the same with a web domain are
    one (``SerraVision``, ``SerraVision.ai``)."""
    days = {
        f"memory/2026-02-1{n}.md": (
            f"# Day {n}\n\n- Oscar Serra asked; Aleksandra Marchenko and Marcus Alexander came by.\n"
            "- Read Dolores Cannon again; Dolores writes well. SerraVision shipped, see SerraVision.ai for it.\n"
        )
        for n in range(3)
    }
    pages = {
        "bank/entities/Oscar.md": "# Oscar Serra\n\nThe owner.\n",
        "bank/entities/Sasha.md": "# Aleksandra (Sasha) Marchenko\n\nOscar's wife.\n",
        "bank/entities/Marcus.md": "# Marcus\n\nFull name: Marcus Alexander Serra.\n",
        "bank/entities/DoloresCannon.md": "# DoloresCannon\n\nAn author.\n",
        "MEMORY.md": "# Memory\n\n- Oscar Serra and Marcus Alexander; Dolores Cannon; SerraVision, SerraVision.ai.\n",
    }
    files = {**days, **pages, "bank/entities/Marcus.md": "---\naliases: [Marcus Alexander Serra]\n---\n# Marcus\n"}
    library = load(workspace(files)).library
    keys = set(library.entities)
    assert {"oscar", "sasha", "marcus", "dolorescannon"} <= keys
    assert not {"oscar-serra", "aleksandra-marchenko", "marcus-alexander", "dolores-cannon", "dolores"} & keys
    assert len({"serravision", "serravision.ai"} & keys) == 1
    assert {"Oscar Serra"} <= set(library.entities["oscar"].aliases)
    assert {"Aleksandra Marchenko", "Sasha"} & set(library.entities["sasha"].aliases) == {"Aleksandra Marchenko"}
    assert {link.path for link in library.backlinks["oscar"]} >= {"memory/2026-02-10.md", "memory/2026-02-11.md"}


def test_a_word_with_accents_written_in_lower_case_is_a_common_word(workspace: MakeWorkspace) -> None:
    """Words are counted in lower case in any alphabet with case: "Después" beside "después" is no name."""
    line = "- Revisé el nodo, y Después lo reinicié; después, Auditoría pasó y la auditoría también.\n"
    files = {f"memory/2026-03-0{n}.md": f"# Día {n}\n\n{line}{line}" for n in range(1, 4)}
    library = load(workspace({**files, "MEMORY.md": "# Memoria\n\n" + line})).library
    assert not {"despues", "después", "auditoria", "auditoría"} & set(library.entities)


def test_a_subject_that_is_a_common_word_is_a_topic_where_the_prose_is_read(workspace: MakeWorkspace) -> None:
    """jarvis-globalcaos writes ``- W @Budget: …`` beside prose about its budget: a topic, no entity (no page for
    reflect to write); a handle written as it is (``@clove``) and a name (``@Zelda``) stay entities."""
    day = "# Day\n\n- The budget is tight; budget talks with clove and Zelda went well.\n- W @Budget: Spend less.\n"
    days = {f"memory/2026-02-1{n}.md": day + f"- @clove and @Zelda on the budget, day {n}.\n" for n in range(3)}
    prose = {f"memory/2026-02-2{n}.md": "# Day\n\n- Spoke with Zelda about the budget.\n" for n in range(4)}
    files = {**days, **prose, "bank/entities/Oscar.md": "# Oscar\n", "MEMORY.md": "# Memory\n\n- Budget talks.\n"}
    library = load(workspace(files)).library
    assert "budget" not in library.entities
    assert {"clove", "zelda"} <= set(library.entities)


def test_a_lower_case_handle_written_where_names_go_is_an_entity(workspace: MakeWorkspace) -> None:
    root = workspace(
        {
            "MEMORY.md": "# Memory\n\n- Kit, a fox on Clawk. Keep up with the regulars.\n",
            "IDENTITY.md": "# IDENTITY.md\n\n- **Name:** Kit\n",
            "memory/2026-03-04.md": "# 2026-03-04\n\n- kit_fox posted the receipts spec; kit_fox replied twice.\n",
            "memory/2026-03-01.md": (
                "# 2026-03-01\n\n- alphasenpai — UTC not block height for migration windows.\n"
                "- molt_zero replied about memory persistence.\n"
                "- The event replied with nothing; the completion posted twice.\n"  # no one: things that happen
                "- Explicitly said no to the re-audit; re-audit replied to again later.\n"
            ),
            "memory/2026-03-02.md": (
                "# 2026-03-02\n\n- Thread with alphasenpai on receipts; alphasenpai liked it.\n"
                "- **作者**: molt_zero (172 karma)\n- event posted again; completion replied; re-audit mentioned.\n"
                "- `@codebot` in code; mail me at kit@example.com.\n"
            ),
            "memory/2026-03-03.md": "# 2026-03-03\n\n- Quiet. alphasenpai and molt_zero were away; the event and the audit too.\n"
            "- **rachel-caretta** — asked for the ASR test set; ae617f42c fixed it.\n"
            "- Clawk reply (7099eee2): rachel-caretta — the locale post.\n- **ae617f42c** — the fix.\n",
            "memory/2026-03-05.md": "# 2026-03-05\n\n- rachel-caretta again. Reverted ae617f42c.\n- **ae617f42c** — reverted.\n",
        }
    )
    library = load(root).library
    named = ("alphasenpai", "molt-zero", "rachel-caretta", "event", "completion", "ae617f42c")
    handles = {key for key in library.entities if key in named}
    assert handles == {"alphasenpai", "molt-zero", "rachel-caretta"}  # not things that happen, nor a commit
    assert library.resolver.entity("re-audit") is None and library.resolver.entity("codebot") is None
    kit = library.resolver.entity("Kit")
    assert kit is not None and library.resolver.entity("kit_fox") == kit  # the agent's own handle is one of its names
    assert [(link.path, link.line) for link in library.backlinks["molt-zero"]] == [
        ("memory/2026-03-01.md", 4),
        ("memory/2026-03-02.md", 4),
        ("memory/2026-03-03.md", 3),
    ]


def test_a_table_whose_first_column_is_of_names_names_one_entity_per_row(workspace: MakeWorkspace) -> None:
    root = workspace(
        {
            "MEMORY.md": "# Memory\n\n- Kit, a fox on Clawk.\n",
            "memory/research/agents.md": (
                "# 值得关注的 Agent\n\n| 名字 | 描述 | Karma |\n|------|------|-------|\n"
                "| **eudaemon_0** | Security daemon | 26994 |\n| **m0ther** | 胖红鱼，温柔灵魂 | 71329 |\n"
                "| Kit (me) | a fox | 10 |\n| Zora (new) | a cat | 3 |\n| Unknown (55be6579) | OSINT | 1 |\n\n"  # asides
                "| Setting | Value |\n|---|---|\n| **timeout** | 30 s |\n| **retries** | 3 |\n"  # not names
            ),
            "memory/2026-03-01.md": "# 2026-03-01\n\n- Read m0ther's post on kindness; its author unknown, its date unknown.\n",
        }
    )
    library = load(root).library
    assert {"eudaemon-0", "m0ther", "kit", "zora"} <= set(library.entities)
    assert not {"timeout", "retries", "setting", "unknown", "unknown-55be6579", "kit-me"} & set(library.entities)
    assert ("memory/2026-03-01.md", 3) in [(link.path, link.line) for link in library.backlinks["m0ther"]]


def test_a_name_inside_a_longer_run_of_capitals_is_a_mention_and_a_camel_cased_name_stays_one(
    workspace: MakeWorkspace,
) -> None:
    root = workspace(
        {
            "MEMORY.md": "# Memory\n\n- We post on Moltbook and run on OpenClaw daily.\n",
            "memory/2026-02-10.md": (
                "# Tuesday\n\n## Moltbook Suspension Pattern\n\n- Moltbook suspended us; the OpenClaw gateway held.\n"
                "- Ran openclaw doctor, then openclaw status, then openclaw logs.\n"  # the command, in lower case
            ),
            "memory/2026-02-11.md": (
                "# Wednesday\n\n- Updated the Personal Moltbook OpenClaw notes.\n- Back on Moltbook, and on OpenClaw.\n"
            ),
        }
    )
    library = load(root).library
    moltbook, openclaw = library.resolver.entity("Moltbook"), library.resolver.entity("OpenClaw")
    assert moltbook is not None and openclaw is not None  # "openclaw" three times in lower case: still a name
    assert [(link.path, link.line) for link in library.backlinks[moltbook.key]] == [
        ("MEMORY.md", 3),
        ("memory/2026-02-10.md", 3),  # the heading names Moltbook among other words
        ("memory/2026-02-10.md", 5),
        ("memory/2026-02-11.md", 3),  # "Personal Moltbook OpenClaw": both
        ("memory/2026-02-11.md", 4),
    ]
    assert ("memory/2026-02-11.md", 3) in [(link.path, link.line) for link in library.backlinks[openclaw.key]]


def test_handles_in_chinese_prose_with_capitals_and_in_camel_case_are_entities(workspace: MakeWorkspace) -> None:
    root = workspace(
        {
            "MEMORY.md": "# Memory\n\n- 记忆系统基于 radishzz 的方案。\n",
            "memory/2026-02-10.md": (
                "# 2月10日\n\n- radishzz 的方案很简洁。\n- **作者：** CooperK_bot\n- systemd 服务已配置。\n"
                "- SixerDemon liked the post; mladaily replied.\n- **lobchan:** a quiet board.\n"
            ),
            "memory/2026-02-11.md": (
                "# 2月11日\n\n- 与 radishzz 方案的区别。\n- **作者：** CooperK_bot (30 karma)\n- 配置 systemd 自启。\n"
                "- sixerdemon replied; mladaily liked it.\n- Commented on mladaily's post; sixerdemon again.\n"
                "- **MAX_DEPTH** — the limit; MAX_DEPTH replied.\n- Explicitly said so, basically replied.\n"
                "- **lobchan posts:** 1, on lobchan.\n"
            ),
            "memory/2026-02-12.md": "# 2月12日\n\n- CooperK_bot 又发帖了。mladaily; sixerdemon liked it.\n- Explicit is better. SixerDemon posted.\n",
        }
    )
    library = load(root).library
    found = {key for key in library.entities}
    # "radishzz 的方案" is radishzz's plan; a "_" inside makes "CooperK_bot" no word of prose; "SixerDemon" is no word
    # of the language; "mladaily" ends in -ly but is no adverb
    assert {"radishzz", "cooperk-bot", "sixerdemon", "mladaily", "lobchan"} <= found  # a bold label in lower case
    assert not found & {"systemd", "max-depth", "explicitly", "basically"}
    sixer = library.resolver.entity("SixerDemon")
    assert sixer is not None and sixer.key == "sixerdemon"
    # a handle joined by "_" is no run of capitals the scan reads: its lines are found as it is written
    assert [(link.path, link.line) for link in library.backlinks["cooperk-bot"]] == [
        ("memory/2026-02-10.md", 4),
        ("memory/2026-02-11.md", 4),
        ("memory/2026-02-12.md", 3),
    ]


def test_a_folder_of_things_kept_a_folder_each_gives_each_an_entity_with_its_page_as_home(
    workspace: MakeWorkspace,
) -> None:
    root = workspace(
        {
            "MEMORY.md": "# Memory\n\n- See the projects.\n",
            "memory/projects/index.md": "# Projects\n\n- All of them.\n",
            "memory/projects/gantry-robot-arm/index.md": "# 🤖 Project: Gantry Robot Arm\n\n**Owner:** Oscar\n",
            "memory/projects/workshop-legalization/index.md": "# Workshop Legalization (Mas Mestre)\n\nPermits.\n",
            "memory/projects/openclaw/index.md": "# OpenClaw Self-Improvement\n\nFixes.\n",
            "memory/projects/openclaw/ui-fixes/index.md": "# UI Fixes\n\nA part of it.\n",
            "memory/projects/openclaw/security-levels/index.md": "# Security Levels\n\nAnother part.\n",
            "memory/projects/inventions/index.md": "# Inventions\n\n- The list.\n",
            "memory/projects/inventions/dog-toilet/index.md": "# dog-toilet\n\n*Placeholder.*\n",
            "memory/projects/inventions/piano-led/README.md": "# Piano LED Device\n\nLights.\n",
            "memory/topics/ideas.md": "# Ideas\n\n- A page, not a folder.\n",
            "memory/days/2026-02-06/index.md": "# Friday\n\n- A day kept as a folder.\n",
            "memory/days/2026-02-07/index.md": "# Saturday\n\n- Another.\n",
            "memory/2026-02-07.md": "# 2026-02-07\n\n- Worked on the BlueGrass Dog Toilet and the Gantry Robot Arm.\n",
        }
    )
    library = load(root).library
    homes = {e.name: (e.home, e.aliases) for e in library.entities.values() if e.home.startswith("memory/projects/")}
    assert homes == {
        "Gantry Robot Arm": ("memory/projects/gantry-robot-arm/index.md", ()),  # its key is the folder's name
        "Workshop Legalization": ("memory/projects/workshop-legalization/index.md", ()),
        "OpenClaw Self-Improvement": ("memory/projects/openclaw/index.md", ()),  # "openclaw" names what it is about
        "Dog Toilet": ("memory/projects/inventions/dog-toilet/index.md", ()),  # "inventions" is a kind of them
        "Piano LED Device": ("memory/projects/inventions/piano-led/README.md", ("piano-led",)),
    }  # not the parts of a thing ("UI Fixes"), nor "Inventions"
    assert library.resolver.entity("Friday") is None and library.resolver.entity("2026-02-06") is None  # days
    dog = library.resolver.entity("dog-toilet")
    assert dog is not None
    assert ("memory/2026-02-07.md", 3) in [(link.path, link.line) for link in library.backlinks[dog.key]]


def test_a_name_that_starts_with_another_is_its_own_when_written_often(workspace: MakeWorkspace) -> None:
    drive_lines = "".join(f"- Synced folder {n} to Google Drive today.\n" for n in range(5))
    root = workspace(
        {
            "MEMORY.md": "# Memory\n\n- We use Google for mail and Codex for code; backups go to Google Drive.\n",
            "memory/2026-02-10.md": (
                f"# Tuesday\n\n{drive_lines}- Asked Google again; ran the Codex CLI.\n- The drive was full; a drive died.\n"
                "- Just google it; google it again.\n- Then Google went down.\n"
            ),
            "memory/2026-02-11.md": f"# Wednesday\n\n{drive_lines}- Used Codex and the Codex CLI; mailed Google.\n- Then Google was slow.\n- Then Google was up.\n",
        }
    )
    library = load(root).library
    drive = library.resolver.entity("Google Drive")
    # on 11 lines: a name of its own, though "google" and "drive" are written in lower case too ("Google" on more)
    assert drive is not None and drive.key == "google-drive"
    assert library.resolver.entity("Codex") is not None and library.resolver.entity("Codex CLI") is None  # on 2
    codex_cli = ("memory/2026-02-10.md", 8)
    assert codex_cli in [(link.path, link.line) for link in library.backlinks["codex"]]  # Codex's line


def test_a_surname_read_only_inside_a_full_name_is_no_entity_of_its_own(workspace: MakeWorkspace) -> None:
    root = workspace(
        {
            "MEMORY.md": "# Memory\n\n- Tony Carbone leads the funding group.\n",
            "memory/2026-03-10.md": "# Tuesday\n\n- Tony Carbone called.\n- Tony Carbone sent the scope.\n",
            "memory/2026-03-11.md": "# Wednesday\n\n- Tony Carbone replied; we met Tony Carbone again.\n",
        }
    )
    library = load(root).library
    assert library.resolver.entity("Tony Carbone") is not None
    assert library.resolver.entity("Carbone") is None  # "Tony Carbone" opening a sentence also reads as "Carbone"


def test_a_name_written_as_a_files_name_is_no_entity(workspace: MakeWorkspace) -> None:
    """ "README", as in "README.md", names a file; "Claude" stays a name though "CLAUDE.md" is a file too."""
    root = workspace(
        {
            "MEMORY.md": "# Memory\n\n- Keep the README short, says Claude.\n- Rules live in CLAUDE.md.\n",
            "memory/2026-03-01.md": "# 2026-03-01\n\n- Updated the README and README.md links.\n- We asked Claude again.\n",
            "memory/2026-03-02.md": "# 2026-03-02\n\n- The README lists every tool, and Claude agreed.\n- README done.\n",
        }
    )
    library = load(root).library
    assert "claude" in library.entities
    assert "readme" not in library.entities


def test_a_capitalised_common_word_is_a_name_only_where_written_alone_among_words_in_lower_case(
    workspace: MakeWorkspace,
) -> None:
    """A small workspace never writes "manager" or "phase" in lower case: the language's common words
    (``core.common_words``) tell them from names. "Slack" is one too, but the prose writes it as a name
    ("posted on Slack"); "Manager" only in titles ("R&D Manager"), "Phase" before a number, "ALWAYS" in capitals."""
    line = (
        "- Oscar Manager review; Phase 2 started. Then we posted on Slack and asked on Slack again. Verify ALWAYS.\n"
        "- 2. **Defense in Depth:** layers. We told Zelda ALWAYS; Zelda agreed, and Zelda said so to us.\n"
    )
    files = {f"memory/2026-03-0{n}.md": f"# Day {n}\n\n{line}" for n in range(1, 4)}
    library = load(workspace({**files, "MEMORY.md": "# Memory\n\n" + line})).library
    assert {"slack", "zelda"} <= set(library.entities)
    assert not {"manager", "phase", "always", "depth", "zelda-always"} & set(library.entities)


def test_a_name_no_language_has_is_one_written_once_alone_inside_a_sentence(workspace: MakeWorkspace) -> None:
    """ "Datadog" is no word of any language the workspace is written in and never written in lower case: once
    inside a sentence is enough, as for a name of several words; a word of the language needs two."""
    files = {
        "MEMORY.md": "# Memory\n\n- We applied to Datadog and to Glowbrick.\n- **Datadog**: observability.\n",
        "applications.md": "# Applications\n\n- **Datadog** — applied 2026-03-02.\n- **Glowbrick** — applied.\n",
        "memory/2026-03-02.md": "# Day\n\n- Datadog replied.\n- Glowbrick replied.\n",
    }
    library = load(workspace(files)).library
    assert {"datadog", "glowbrick"} <= set(library.entities)
    line = "- Rogue wins. Rogue loses. Rogue again.\n"
    files = {"MEMORY.md": "# Memory\n\n- We played Rogue.\n" + line, "memory/2026-03-02.md": "# Day\n\n" + line}
    assert "rogue" not in load(workspace(files)).library.entities


def test_days_of_the_week_in_the_plural_are_no_names() -> None:
    assert [name.text for name in proper_names("We meet on Mondays and Fridays with Zelda.")] == ["Zelda"]


def test_a_common_word_written_where_names_go_is_no_handle(workspace: MakeWorkspace) -> None:
    """ "- **information** — …" and "information replied" as a handle would be: a word of the language is none."""
    line = "- **information** — inbound, new. information replied; pixelmoth replied.\n- **pixelmoth** — a regular.\n"
    files = {f"memory/2026-03-0{n}.md": f"# Day {n}\n\n{line}" for n in range(1, 4)}
    library = load(workspace({**files, "MEMORY.md": "# Memory\n\n" + line})).library
    assert "pixelmoth" in library.entities and "information" not in library.entities


def test_a_name_of_common_words_is_a_label_unless_written_as_names_are(workspace: MakeWorkspace) -> None:
    """ "Illusion of Control" in title case is a label; "Water Funnel", written after words in lower case
    ("the Water Funnel venture"), is a name."""
    line = "- Illusion of Control: Many Bodies. Maddie and the Water Funnel venture; we pitched Water Funnel.\n"
    files = {f"memory/2026-03-0{n}.md": f"# Day {n}\n\n{line}" for n in range(1, 4)}
    library = load(workspace({**files, "MEMORY.md": "# Memory\n\n" + line})).library
    assert "water-funnel" in library.entities
    assert not {"illusion-of-control", "many-bodies"} & set(library.entities)


def test_an_author_the_notes_cite_is_no_entity(workspace: MakeWorkspace) -> None:
    """A research-minded agent cites its sources ("Granovetter (1973)", "Pirolli & Card, 1999", "Singh et al."):
    references, not the people and things the memory deals with."""
    line = "- Weak ties: Granovetter (1973) and Pirolli & Card, 1999; Singh et al. agree; we asked Zelda about Granovetter.\n"
    files = {f"memory/2026-03-0{n}.md": f"# Day {n}\n\n{line}- Zelda replied.\n" for n in range(1, 4)}
    library = load(workspace({**files, "MEMORY.md": "# Memory\n\n" + line})).library
    assert "zelda" in library.entities
    assert not {"granovetter", "pirolli", "singh"} & set(library.entities)


def test_a_journal_cited_with_its_year_is_no_entity(workspace: MakeWorkspace) -> None:
    """ "(Sharpe & Tyndall 2025, Cogn Sci)", "Sci Rep 2015)", "arXiv 2506.02739": where a finding was published;
    "the Lisbon 2026 trip" is a name and a year."""
    line = (
        "- Vigilance (Sharpe & Tyndall 2025, Cogn Sci); ants (Franks et al, Sci Rep 2015); agents (Zhou, arXiv "
        "2506.02739); then Zelda planned the Lisbon 2026 trip with Otto, and Lisbon again.\n"
    )
    files = {f"memory/2026-03-0{n}.md": f"# Day {n}\n\n{line}" for n in range(1, 4)}
    library = load(workspace({**files, "MEMORY.md": "# Memory\n\n" + line})).library
    assert {"zelda", "lisbon"} <= set(library.entities)
    assert not {"cogn-sci", "sci-rep", "arxiv"} & set(library.entities)


def test_a_name_a_concept_is_named_after_is_no_entity(workspace: MakeWorkspace) -> None:
    """ "Gall's Law", "the Brier score", "Simpson diversity", "the Regression Theorem": concepts named after
    someone, not the people the memory deals with; "Keenable feedback" is Keenable's."""
    line = (
        "- By Gall's Law we start small; the Brier score fell, Simpson diversity rose, as the Regression Theorem "
        "says, and the Wilson CI held. Keenable feedback came in and Zelda read the Keenable feedback twice.\n"
    )
    files = {f"memory/2026-03-0{n}.md": f"# Day {n}\n\n{line}" for n in range(1, 4)}
    library = load(workspace({**files, "MEMORY.md": "# Memory\n\n" + line})).library
    assert {"zelda", "keenable"} <= set(library.entities)
    assert not {"gall", "brier", "simpson", "regression-theorem", "wilson"} & set(library.entities)


def test_a_name_written_as_code_is_no_entity(workspace: MakeWorkspace) -> None:
    """`getUpdates`, `X-API-Key: …`, the cron `SEO Sitemap`: identifiers, headers and job names the notes write
    as code, even where the prose writes them too."""
    line = (
        "- Polled `getUpdates` and sent `X-API-Key: abc`; the cron `SEO Sitemap` ran. Zelda saw getUpdates, "
        "X-API-Key and SEO Sitemap in the logs, with Zelda's Otto.\n"
    )
    files = {f"memory/2026-03-0{n}.md": f"# Day {n}\n\n{line}" for n in range(1, 4)}
    library = load(workspace({**files, "MEMORY.md": "# Memory\n\n" + line})).library
    assert "zelda" in library.entities
    assert not {"getupdates", "x-api-key", "seo-sitemap"} & set(library.entities)


def test_a_name_listed_among_names_inside_a_sentence_is_one(workspace: MakeWorkspace) -> None:
    """ "applied at 3 orgs (Anthropic, Datadog, Freedom)": a word of no language listed after another name inside a
    sentence is a name, as one written alone is, though the sentence names it only once, and so is one after the
    article opening a sentence ("A Quixel job posted"); a word of the language ("Freedom") is not made one so."""
    days = "- Datadog: replied. Freedom: replied. Quixel: replied.\n"
    files = {f"memory/2026-03-0{n}.md": f"# Day {n}\n\n{days}" for n in range(1, 3)}
    line = "- We applied at 3 orgs (Anthropic, Datadog, Freedom).\n- A Quixel job posted in March. A Freedom job too.\n"
    library = load(workspace({**files, "MEMORY.md": "# Memory\n\n" + line})).library
    assert {"datadog", "quixel"} <= set(library.entities)
    assert "freedom" not in library.entities


def test_a_name_the_notes_abbreviate_is_one_and_its_abbreviation_names_it(workspace: MakeWorkspace) -> None:
    """ "Agent Continuity Protocol (ACP)": words of the language in title case, but a name the notes give an
    abbreviation to; the lines that write "ACP" speak of it too."""
    files = {
        "memory/2026-03-01.md": "# Day\n\n- Found the Agent Continuity Protocol (ACP) today.\n- ACP level: minimal.\n",
        "memory/2026-03-02.md": "# Day\n\n- Read the Agent Continuity Protocol again; agent protocol continuity.\n",
        "MEMORY.md": "# Memory\n\n- We follow the Agent Continuity Protocol (ACP) v0.1.\n- Agents need protocols.\n",
    }
    root = workspace(files)
    result = run("build", str(root), "--no-search")
    assert result.exit_code == 0, result.output
    acp = entities_of(root / ".memwiki" / "site")["Agent Continuity Protocol"]
    assert acp["aliases"] == ["ACP"]
    assert "memory/2026-03-01.md#L4" in {m["source"] for m in acp["mentions"]}  # type: ignore[attr-defined]


def test_a_word_made_of_a_common_one_is_a_word_of_the_language(workspace: MakeWorkspace) -> None:
    """ "Dreamless" ("dream" + "less") and "Inventor" ("invent" + "or") are rarer than the commonest words but
    words of the language all the same: names only where written as names are, twice; "Quixotl" is no word."""
    days = "- Dreamless again. Inventor again. Quixotl again.\n"
    files = {f"memory/2026-03-0{n}.md": f"# Day {n}\n\n{days}" for n in range(1, 3)}
    line = "- We had a Dreamless night; the Inventor called and the Quixotl team too.\n"
    library = load(workspace({**files, "MEMORY.md": "# Memory\n\n" + line})).library
    assert "quixotl" in library.entities
    assert not {"dreamless", "inventor"} & set(library.entities)


def test_the_end_of_a_name_read_only_inside_it_is_no_entity_of_its_own(workspace: MakeWorkspace) -> None:
    """ "Daily Zorb Report" opening its lines also reads as "Zorb Report" (the first word of a sentence may be no
    name's): never written without the rest, that is no entity of its own."""
    files = {
        f"memory/2026-03-0{n}.md": f"# Day {n}\n\n- Daily Zorb Report sent.\n- Daily Zorb Report read.\n"
        for n in range(1, 6)
    }
    memory = (
        "# Memory\n\n- Daily Zorb Report: at 9.\n- The Daily Zorb Report goes out.\n- We read the Daily Zorb Report.\n"
    )
    library = load(workspace({**files, "MEMORY.md": memory})).library
    assert "daily-zorb-report" in library.entities
    assert "zorb-report" not in library.entities


def test_a_page_titled_by_a_name_and_common_words_is_that_names_home(workspace: MakeWorkspace) -> None:
    """A Claude Code memory "Zorbnet Gateway Setup" (``type: reference``) is about Zorbnet: Zorbnet is an entity
    with that page as its home, named there and in the index beside it, however seldom; "Session Arc" is no name."""
    setup = (
        "---\nname: Zorbnet Gateway Setup\ndescription: the gateway\ntype: reference\n---\n\n"
        "Zorbnet v2 installed at ~/.zorbnet.\n"
    )
    session = "---\nname: Session Arc Notes\ndescription: a day\ntype: project\n---\n\nSession Arc went well.\n"
    index = (
        "- [Zorbnet Gateway Setup](reference_zorbnet_setup.md) — Zorbnet v2, port 18789\n"
        "- [Session Arc Notes](project_session.md) — Session Arc of the day\n"
    )
    files = {"MEMORY.md": index, "reference_zorbnet_setup.md": setup, "project_session.md": session}
    library = load(workspace(files)).library
    assert library.entities["zorbnet"].home == "reference_zorbnet_setup.md"
    assert "session" not in library.entities


def test_a_common_word_a_table_of_names_gives_is_a_name_where_the_prose_writes_it_so(workspace: MakeWorkspace) -> None:
    """ "| Max | AI Agent |" in a table of names: Max, an agent, written as names are in the logs ("talked with Max
    today"), is an entity though "max" is a common word; "Unknown", a row the prose never names, is not."""
    table = (
        "# Contacts\n\n| Name | Type |\n|------|------|\n| Max | AI Agent |\n| Unknown | Agent |\n| Zelda | Human |\n"
    )
    days = "# Day\n\n- We talked with Max today; max 5 tries, unknown error.\n"
    files = {"MEMORY.md": table, "memory/2026-03-01.md": days, "memory/2026-03-02.md": days}
    library = load(workspace(files)).library
    assert "max" in library.entities
    assert "unknown" not in library.entities


def test_a_lower_case_name_written_with_its_version_is_one(workspace: MakeWorkspace) -> None:
    """ "strfry v1.0.4", "Published zapkit v2.1", "video-ultimate v2.0": a package, skill or tool named with its
    version, in lower case, though made of common words."""
    days = (
        "# Day\n\n- Installed strfry v1.0.4 on the node; strfry restarted.\n- Published zapkit v2.1 today.\n"
        "- Shipped video-ultimate v2.0: the ultimate video skill.\n"
    )
    memory = "# Memory\n\n- Relay: strfry v1.0.4, port 7777.\n- Skills: zapkit v2.1, video-ultimate v2.0.\n"
    files = {"MEMORY.md": memory, "memory/2026-03-01.md": days, "memory/2026-03-02.md": days}
    library = load(workspace(files)).library
    assert {"strfry", "zapkit", "video-ultimate"} <= set(library.entities)  # words of the language, but versioned


def test_a_full_name_whose_given_name_is_no_word_is_one_at_a_sentences_start(workspace: MakeWorkspace) -> None:
    """ "Jeffrey Long" opens each line that names him, and "long" is a word: "Jeffrey", capitalised as given names
    are and never written otherwise, tells a name; "Great Long" (a word first) does not."""
    days = "# Day\n\n- Jeffrey Long: long talk on near-death studies.\n- Great Long: a long day.\n"
    memory = "# Memory\n\n- Jeffrey Long wrote the book.\n- Great Long walks.\n"
    files = {"MEMORY.md": memory, "memory/2026-03-01.md": days, "memory/2026-03-02.md": days}
    library = load(workspace(files)).library
    assert "jeffrey-long" in library.entities
    assert "great-long" not in library.entities


def test_a_word_shouted_often_beside_its_lower_case_is_no_name(workspace: MakeWorkspace) -> None:
    """ "the receipt is PROVISIONAL" on ten lines, "a provisional receipt" on three: a word shouted (of no 10,000
    commonest), not a name, however often; "ZORBCO", never in lower case, is one."""
    days = "# Day\n\n- The receipt is PROVISIONAL until ZORBCO signs.\n- Still PROVISIONAL for ZORBCO.\n"
    files = {f"memory/2026-03-0{n}.md": days for n in range(1, 6)}
    memory = "# Memory\n\n- A provisional receipt, provisional twice, provisional again.\n" + days
    library = load(workspace({**files, "MEMORY.md": memory})).library
    assert "zorbco" in library.entities
    assert "provisional" not in library.entities


def test_the_common_words_of_the_language_the_notes_are_written_in_are_no_names(workspace: MakeWorkspace) -> None:
    """A workspace written in Spanish shouts "SIEMPRE" and "OBLIGATORIA": Spanish words, not names
    (an English one would not know them); "Daniel", written among them, is one."""
    line = "- Hablé con Daniel: verificar SIEMPRE y dar pruebas; lectura OBLIGATORIA para el nodo, dijo Daniel.\n"
    files = {f"memory/2026-03-0{n}.md": f"# Día {n}\n\n{line}- Daniel aprobó el plan de la semana.\n" for n in range(4)}
    library = load(workspace({**files, "MEMORY.md": "# Memoria\n\n" + line})).library
    assert "daniel" in library.entities
    assert not {"siempre", "obligatoria", "daniel-siempre"} & set(library.entities)


def test_a_name_the_prose_shortens_is_the_registrys_full_name(workspace: MakeWorkspace) -> None:
    """A contacts table lists "Tristany Serra"; the notes call him "Tristany": one entity, not two."""
    table = "# Contacts\n\n| Name | Role |\n|---|---|\n| Tristany Serra | CEO |\n| Zelda Quist | CTO |\n| Oscar Vall | R&D |\n"
    line = "- We met Tristany about the budget; Tristany agreed, and we told Tristany again.\n"
    files = {f"memory/2026-03-0{n}.md": f"# Day {n}\n\n{line}" for n in range(1, 4)}
    library = load(workspace({**files, "bank/contacts.md": table, "MEMORY.md": "# Memory\n\n" + line})).library
    assert "tristany" not in library.entities
    tristany = library.resolver.entity("Tristany")
    assert tristany is not None and tristany.key == "tristany-serra" and tristany.aliases == ("Tristany",)


def test_the_users_full_name_in_the_logs_makes_their_first_name_theirs(workspace: MakeWorkspace) -> None:
    """The profile says only "Miguel"; the logs write "João Miguel Marques Silva" and call him "João": João is
    Miguel. "Vader Calrissian", a persona, does not take the agent's name "Vader" as a short form."""
    day = (
        "- João Miguel Marques Silva greeted me; then João asked for the report and João approved it.\n"
        "- Vader Calrissian wrote the article for Vader.\n- We said Calrissian signs as a copywriter.\n"
    )
    files = {f"memory/2026-03-0{n}.md": f"# Day {n}\n\n{day}" for n in range(1, 4)}
    files |= {
        "USER.md": "# USER.md\n\n- Name: Miguel\n",
        "IDENTITY.md": "# IDENTITY.md\n\n- **Name:** Vader\n",
        "MEMORY.md": "# Memory\n\n- Miguel likes short answers; we call him João too.\n- Vader Calrissian: our copywriter.\n",
    }
    entities = load(workspace(files)).library.entities
    assert "joão" not in entities and "João" in entities["miguel"].aliases
    assert entities["vader-calrissian"].aliases == ("Calrissian",)


def test_a_service_named_by_a_common_word_is_named_only_where_names_are_written(workspace: MakeWorkspace) -> None:
    """A registry of services lists "hear" (speech to text) and "NAS": their pages list the registry's lines and the
    table's rows that name them, not "I could hear the fans"."""
    services = (
        "# Services\n\n## Containers\n\n- **hear** (Docker GPU) — Whisper ASR\n- **NAS** — backups\n"
        "- **speakr** — TTS\n- **omada** — Wi-Fi controller\n"
    )
    table = "# Infra\n\n| Name | Host | State |\n|---|---|---|\n| hear | gpu-01 | running |\n| NAS | nas-01 | up |\n"
    day = "# Day\n\n## Hear the Fans\n\n- I could hear the fans; restarted omada and speakr.\n"
    files = {"services.md": services, "infra.md": table, "memory/2026-03-01.md": day, "memory/2026-03-02.md": day}
    root = workspace(files)
    assert run("build", str(root), "--no-search").exit_code == 0
    found = entities_of(root / ".memwiki" / "site")
    assert [m["source"] for m in found["hear"]["mentions"]] == ["infra.md#L5", "services.md#L5"]  # type: ignore[attr-defined]
    assert [m["source"] for m in found["NAS"]["mentions"]] == ["infra.md#L6", "services.md#L6"]  # type: ignore[attr-defined]


def test_a_name_also_run_as_a_command_is_a_name_where_written_alone_as_often(workspace: MakeWorkspace) -> None:
    """ "claude" is run as a command as often as "Claude" is asked for help: a word of no language, written alone
    in sentences as often as in lower case, is a name ("Relay", a word of the language, is not)."""
    line = "- We asked Claude for a review; then claude ran the job and relay restarted, as Relay said.\n"
    files = {f"memory/2026-03-0{n}.md": f"# Day {n}\n\n{line}" for n in range(1, 4)}
    library = load(workspace({**files, "MEMORY.md": "# Memory\n\n" + line})).library
    assert "claude" in library.entities and "relay" not in library.entities


def test_a_form_of_a_common_word_is_a_word_of_the_language(workspace: MakeWorkspace) -> None:
    """ "Deploying" is not among the commonest words, "deploy" is: capitalised in a title ("Docker in Deploying
    mode") and once alone, it is a word of the language, as "Deploy" would be."""
    line = "- Docker in Deploying mode today, with Zelda; Zelda agreed and we told Zelda.\n"
    files = {f"memory/2026-03-0{n}.md": f"# Day {n}\n\n{line}" for n in range(1, 4)}
    memory = "# Memory\n\n- the runs were Deploying.\n" + line
    library = load(workspace({**files, "MEMORY.md": memory})).library
    assert "zelda" in library.entities and "deploying" not in library.entities


REAL = Path(__file__).resolve().parents[2] / "shared" / "real"


@pytest.mark.slow
@pytest.mark.skipif(not (REAL / "jarvis-globalcaos").is_dir(), reason="../shared/real is not present")
def test_the_entities_found_in_prose_do_not_depend_on_the_hash_seed(tmp_path: Path) -> None:
    """jarvis-globalcaos's "Alexander" ends several names: which of them was looked at first once depended on the
    order Python's sets iterate in (208 entities, 209 under PYTHONHASHSEED=2)."""
    root = tmp_path / "ws"
    shutil.copytree(REAL / "jarvis-globalcaos", root, ignore=shutil.ignore_patterns(".memwiki"))
    code = (
        "import sys; from site_builder.load import load; "
        "print(sorted((k, e.aliases) for k, e in load(sys.argv[1], cache=False).library.entities.items()))"
    )
    found = [
        subprocess.run(
            [sys.executable, "-c", code, str(root)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
        ).stdout
        for seed in (0, 2)
    ]
    assert found[0] == found[1]
