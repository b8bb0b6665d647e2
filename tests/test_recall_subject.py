"""Recall knows who a whole note is about: an entity's page is about the entity, the user's profile about the user,
and "the user" is the person the profile names."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from site_builder.core.model import Note
from site_builder.library.subject import profile_names
from tests.conftest import recall_results, recall_sources, write_workspace

LAYOUTS = Path(__file__).resolve().parent / "fixtures" / "layouts"

DAYS = {
    f"memory/2026-02-{day:02d}.md": f"# Day {day}\n@Oscar asked about the {topic}.\nThe user wants it done {when}.\n"
    for day, topic, when in zip(
        range(1, 13),
        ("router", "garden", "invoice", "backup", "car", "roof", "taxes", "dog", "school", "boiler", "printer", "van"),
        (
            "today",
            "soon",
            "this week",
            "by Friday",
            "later",
            "now",
            "monthly",
            "daily",
            "first",
            "next",
            "again",
            "too",
        ),
        strict=True,
    )
}
PROFILE = (
    "# USER.md - About Your Human\n\n- **Name:** Oscar Serra\n- **What to call them:** Oscar\n"
    "- **Pronouns:**\n- **Location:** Olivella, near Sitges, Spain\n- **Timezone:** Europe/Madrid\n"
)
PAGE = "# Oscar Serra\n\n## Core facts\n\n- Telecom engineer, 5 masters degrees\n- Lives at Carrer Major 7, Olivella\n"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return write_workspace(tmp_path / "ws", {**DAYS, "USER.md": PROFILE, "bank/entities/Oscar.md": PAGE})


def test_a_line_of_an_entitys_page_answers_a_question_naming_the_entity(ws: Path) -> None:
    # "Lives at …" does not say "Oscar", and eleven lines that do are about other things: his page's line is about
    # him all the same.
    assert recall_sources("Where does Oscar live?", str(ws))[0] == "bank/entities/Oscar.md#L6"
    results = recall_results("Olivella", str(ws), "--entity", "Oscar")
    assert {r["source"] for r in results[:2]} == {"bank/entities/Oscar.md#L6", "USER.md#L6"}
    assert all(r["entities"] == ["oscar"] for r in results)  # the lines beside them are about him too


def test_the_user_is_who_the_profile_names(ws: Path) -> None:
    # "the user" is Oscar: his profile, his page and the lines about him answer; "user" alone is one of his names.
    top = recall_sources("Which timezone is the user in?", str(ws))
    assert top[0] == "USER.md#L7"
    where = recall_sources("Where does the user live?", str(ws))[:4]
    assert {"USER.md#L6", "bank/entities/Oscar.md#L6"} <= set(where)
    assert recall_sources("timezone", str(ws), "--entity", "user")[0] == "USER.md#L7"
    assert recall_sources("router", str(ws), "--entity", "Oscar Serra") == ["memory/2026-02-01.md#L2"]


def test_a_profile_that_names_nobody_is_about_the_user(tmp_path: Path) -> None:
    # Claude Code's memories of the user say ``type: user``; none says the user's name.
    ws = write_workspace(
        tmp_path / "ws",
        {
            "MEMORY.md": "# Memory\n\n- [Role](user_role.md) — the user's role\n",
            "user_role.md": "---\nname: Role\ndescription: what they do\ntype: user\n---\n\nData scientist at a bank.\n",
            "project_bank.md": "---\nname: Bank\ndescription: the bank project\ntype: project\n---\n\n"
            "The bank wants a new fraud model.\nThe data scientist on call changes weekly.\n",
            # more lines, as any workspace has: in six lines "bank" is too common for BM25 to weigh it at all
            **{f"project_day_{day}.md": f"# Day {day}\n\nWalked {day} km.\nRead a chapter.\n" for day in range(8)},
        },
    )
    assert recall_sources("What does the user do at the bank?", str(ws))[0] == "user_role.md#L7"


def test_a_chinese_question_about_the_user_is_about_the_person_the_profile_names(tmp_path: Path) -> None:
    days = {f"memory/2026-03-{day:02d}.md": "# 日志\n小李住在北京。\n" for day in range(1, 11)}
    profile = "# USER.md\n\n## Profile\n- 姓名：张伟\n- 住在上海浦东的一个老小区里。\n"
    ws = write_workspace(tmp_path / "ws", {**days, "memory/USER.md": profile})
    assert "memory/USER.md#L5" in recall_sources("用户住在哪里", str(ws))[:2]  # his name's line may come first


@pytest.mark.parametrize(
    ("body", "names"),
    [
        (PROFILE, ("Oscar", "Oscar Serra")),
        ("# User\n\n- **Name**: Tim Okafor\n", ("Tim Okafor",)),
        ("- Name: Miguel\n- What to call them: Miguel\n- Pronouns: \n", ("Miguel",)),
        ("- **Name:** 馆长\n- **What to call them:** 馆长（图书馆长）\n", ("馆长",)),
        ("## Profile\n- 姓名：张伟\n- 称呼：小张\n", ("小张", "张伟")),
        ("- **Name:** Ilya (he/him)\n- **Preferred name:** Ilya, or Allen\n", ("Ilya",)),
        ("# USER.md\n\n## Basic Info\n- **Name:** Oscar Serra\n\n## Family\n- **Name:** Sasha\n", ("Oscar Serra",)),
        ("## Identity\n- **Name**: Noor\n### Pets\n- Name: Biscuit\n", ("Noor",)),
        ("# About\n\n## Family\n- Name: Sasha (wife)\n- Name: Elisenda (daughter)\n", ()),
        # A fresh template, a placeholder, a sentence: no name.
        ("- **Name:**\n- **What to call them:**\n", ()),
        ("- **Name:** _(optional)_\n- Name: Unknown\n", ()),
        ("- Name: the person who set up this machine and pays for the server\n", ()),
        ("The user's name is not known yet.\n", ()),
    ],
)
def test_the_names_a_profile_gives_the_user(body: str, names: tuple[str, ...]) -> None:
    assert profile_names(Note("USER.md", "standing", "User", body, 1)) == names


def test_a_projects_files_are_about_the_project_its_meta_file_names(tmp_path: Path) -> None:
    # ClawXMemory: "Paper A" is an alias in project.meta.md; the blocker sits in Project/current-stage.md, which
    # does not say "Paper A" (it says project_id in its front matter).
    ws = tmp_path / "ws"
    shutil.copytree(LAYOUTS / "clawxmemory", ws)
    blocker = "projects/project_3f9a0c21be/Project/current-stage.md#L20"
    assert recall_sources("What blocks Paper A?", str(ws))[0] == blocker
    assert recall_sources("next steps for Paper A", str(ws))[0] == blocker.replace("#L20", "#L17")
    assert blocker in recall_sources("what blocks the savings app redesign", str(ws))[:5]  # its name after the colon


def test_a_first_recall_before_any_build_finds_the_lines_naming_an_entity_in_prose(tmp_path: Path) -> None:
    """``--entity`` keeps the lines that name an entity in plain text, as a build finds them, on a workspace that was
    never built: the user "Alex" of a profile that calls her "Lex"."""
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/USER.md": "# User\n\n- **Name**: Alex Morgan\n- **Nickname**: Lex\n",
            "memory/2026-03-01.md": "# 2026-03-01\n\n- Alex asked for the weekly report.\n- Bought milk.\n",
        },
    )
    assert recall_sources("report", str(ws), "--entity", "Alex") == ["memory/2026-03-01.md#L3"]
