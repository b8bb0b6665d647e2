"""Questions a person asks of each memory system's workspace, answered from the right file within the top 5 recall
results: the layouts issue's bar (≥ 80 % per layout), held here question by question."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import run

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "layouts"

QUESTIONS = {
    "tinyclaw": [
        ("who approves refunds", "memory/knowledge.md"),
        ("when do orders close for next-morning pickup", "memory/knowledge.md"),
        ("what went wrong with the Valentine's cakes", "memory/reflections.jsonl"),
        ("how do I unstick the queue after a deploy", "memory/skills/reclaim-queue.md"),
        ("what did Ana Lima want", "memory/episodes.jsonl"),
        ("what should the queue depth alert be", "memory/episodes.jsonl"),
    ],
    "toebeans": [
        ("where does Noor live", "memory/USER.md"),
        ("when should reminders be sent", "memory/USER.md"),
        ("what does midterm 2 cover", "memory/organic-chemistry.md"),
        ("which week is the Claisen condensation", "memory/study-plan.md"),
        ("what did Noor confuse the Claisen condensation with", "memory/2026-03-06.md"),
        ("how does Noor remember mechanisms", "memory/organic-chemistry.md"),
    ],
    "clawxmemory": [
        ("what is Lin's job", "global/User/user-profile.md"),
        ("when can meetings be scheduled", "global/User/user-profile.md"),
        ("what blocks the savings app redesign", "projects/project_3f9a0c21be/Project/current-stage.md"),
        ("how should button labels be written", "projects/project_3f9a0c21be/Feedback/copy-tone.md"),
        ("who gets the goal screens", "projects/project_3f9a0c21be/Project/current-stage.md"),
        ("should I send screenshots or Figma links", "projects/_tmp/Feedback/figma-links-1a2b3c4d5e.md"),
    ],
}


@pytest.fixture(scope="module")
def workspaces(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("layouts")
    for name in QUESTIONS:
        shutil.copytree(FIXTURES / name, root / name)
    return {name: root / name for name in QUESTIONS}


@pytest.mark.parametrize(
    ("layout", "question", "answer"),
    [(layout, question, answer) for layout, asked in QUESTIONS.items() for question, answer in asked],
)
def test_the_answer_is_in_the_top_five(workspaces: dict[str, Path], layout: str, question: str, answer: str) -> None:
    result = run("recall", question, "-w", str(workspaces[layout]), "--json", "--k", "5")
    assert result.exit_code == 0, result.output
    sources = [r["source"].split("#")[0] for r in json.loads(result.output)["results"]]
    assert answer in sources, sources
