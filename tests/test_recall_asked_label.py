"""A question that asks for one attribute ("What alias …") prefers the lines that label it ("alias: ClaudioNode")."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.recall import search
from site_builder.recall.asked_label import asked_label
from tests.conftest import recall_sources, write_workspace

FILLER = {  # days of other things; "alias" on some of them, as a word of the workspace
    f"memory/2026-02-{day:02d}.md": f"# 2026-02-{day:02d}\n\n- Walked {day} km.\n"
    + (f"- Added a shell alias for build {day}.\n" if day <= 4 else "- Read a chapter.\n")
    for day in range(1, 13)
}
NODE = (  # the node's name twice on each line, no alias
    "# 2026-03-01\n\n- Lightning node fees were reviewed on Monday.\n- Lightning node channels stay small.\n"
    "- The Lightning node runs on the small server.\n"
)
NODE_LINES = ["memory/2026-03-01.md#L3", "memory/2026-03-01.md#L4", "memory/2026-03-01.md#L5"]
ALIAS = "memory/2026-01-31.md"
QUESTION = "What alias does my LND Lightning node use?"


@pytest.fixture
def node(tmp_path: Path) -> Path:
    log = "# 2026-01-31\n\n- Installed the wallet and the tools for the week ahead.\n"
    log += "- LND configured in `lnd.conf` (alias: ClaudioNode)\n"
    return write_workspace(tmp_path / "ws", {**FILLER, "memory/2026-03-01.md": NODE, ALIAS: log})


def test_the_line_that_labels_the_attribute_asked_for_comes_first(node: Path) -> None:
    assert recall_sources(QUESTION, str(node))[0] == f"{ALIAS}#L4"


def test_the_label_support_is_what_puts_it_there(node: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "LABEL_SUPPORT", 0.0)
    sources = recall_sources(QUESTION, str(node))
    assert all(sources.index(f"{ALIAS}#L4") > sources.index(line) for line in NODE_LINES)


@pytest.mark.parametrize(
    ("question", "line", "labels"),
    [
        ("What alias does my node use?", "LND configured (alias: ClaudioNode)", True),
        ("What alias does my node use?", "alias=ClaudioNode", True),
        ("Which timezone should I assume?", "- **Timezone:** Europe/Lisbon", True),
        ("¿Qué puerto usa el relay?", "- puerto: 7777", True),
        ("What alias does my node use?", "The alias is set in lnd.conf.", False),  # says the word, labels nothing
    ],
)
def test_which_lines_label_what_is_asked(question: str, line: str, labels: bool) -> None:
    test = asked_label(question)
    assert test is not None and test(("p.md", 1, line)) is labels


@pytest.mark.parametrize(
    "question", ["What did Caroline do?", "What kind of car is it?", "Which year did Jo move?", "What happened?"]
)
def test_questions_that_ask_for_no_attribute(question: str) -> None:
    assert asked_label(question) is None
