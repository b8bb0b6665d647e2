"""Recall finds the acronym memory writes for the words a question spells out, when memory spells it out too."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import recall_sources, write_workspace

FILLER = {
    f"memory/2026-01-{day:02d}.md": f"# 2026-01-{day:02d}\n\n- Walked {day} km.\n- Read a chapter about the node.\n"
    for day in range(1, 13)
}
STARTED = "# 2026-01-31\n\n- Installed Bitcoin Core.\n- IBD (Initial Block Download) started, will take days.\n"
SYNCED = "# 2026-02-01\n\n- Synced after two days of IBD.\n- Bought milk.\n"


def test_a_question_finds_the_acronym_memory_writes_for_its_words(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {**FILLER, "memory/2026-01-31.md": STARTED, "memory/2026-02-01.md": SYNCED})
    found = recall_sources("When did the node finish its initial block download?", str(ws), "--k", "3")
    assert "memory/2026-02-01.md#L3" in found  # says only "IBD"


def test_initials_that_memory_never_spells_out_are_not_searched(tmp_path: Path) -> None:
    """ "initial block download" is not "IBD" where no line says so; and "cover letters instead" is not the "CLI"
    a workspace writes for its command line."""
    cli = "# 2026-02-02\n\n- The CLI crashed again.\n"
    ws = write_workspace(tmp_path / "ws", {**FILLER, "memory/2026-02-01.md": SYNCED, "memory/2026-02-02.md": cli})
    assert "memory/2026-02-01.md#L3" not in recall_sources("initial block download", str(ws))
    assert recall_sources("Which cover letters instead?", str(ws)) == []
