"""A build does not run reflect again on the input it last settled on (it would change no byte); any edit of what
reflect reads runs it, and the workspace and site are then those a build without cache makes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import site_builder.reflect.run as run_module
import site_builder.reflect_loaded as reflect_loaded_module
from tests.conftest import MakeWorkspace, run, spy_on

FILES = {
    "memory.md": "# Memory\n\n- Sam likes tea in [[Porto]].\n",
    "memory/2026-01-01.md": "# 2026-01-01\n\n## Retain\n- W @Sam: Moved to Porto.\n- O(c=0.7) @Sam: Prefers tea.\n",
    "memory/2026-01-02.md": "# 2026-01-02\n\nMet @Sam at the harbour.\n\n## Retain\n- B @Sam: We sailed to Faro.\n",
    "memory/2026-01-03.md": "# 2026-01-03\n\nA quiet day. Sailed with @Sammy.\n",
    "bank/entities/Sam.md": "# Sam\n\nA friend from the sailing club.\n",
}


def count_reflects(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    return spy_on(monkeypatch, reflect_loaded_module, "reflect", lambda *args: 1)


def reflect_line(output: str) -> str:
    return next(line for line in output.splitlines() if line.startswith("reflect:"))


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` but memwiki's own cache."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".memwiki" not in p.relative_to(folder).parts
    }


EDITS = {
    # nothing reflect reads: a line without a fact or a name, at the end of a day (no fact or mention moves)
    "plain line": (("memory/2026-01-03.md", "Read a book.\n"), False),
    # the sentence around a mention changes, not where it is or whom it names: reflect never shows sentences
    "sentence of a mention": (("memory/2026-01-02.md", ""), False),
    "new fact": (("memory/2026-01-03.md", "\n## Retain\n- W @Sam: Opened a bakery.\n"), True),
    "new mention": (("memory/2026-01-03.md", "Lunch with @Sam.\n"), True),
    "new name on two days": (("memory/2026-01-03.md", "Called @Ana.\n"), True),
    "restated opinion": (("memory/2026-01-03.md", "\n## Retain\n- O(c=0.9) @Sam: Prefers tea.\n"), True),
    "entity page": (("bank/entities/Sam.md", "Has a boat.\n"), True),
    "facts moved down": (("memory/2026-01-01.md", ""), True),
    # a fact reworded, or a confidence changed, on its own line: no link moves
    "fact reworded": (("memory/2026-01-01.md", ""), True),
    "confidence changed": (("memory/2026-01-01.md", ""), True),
    # an alias on the entity's page: @Sammy, a passing name so far, is now Sam (no link in the logs changed)
    "alias": (("bank/entities/Sam.md", ""), True),
}


@pytest.mark.slow  # 0.9 s
@pytest.mark.parametrize("edit", EDITS)
def test_reflect_runs_again_only_when_what_it_reads_changed(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: str
) -> None:
    ws = workspace({**FILES, "memory/2026-01-04.md": "# 2026-01-04\n\nSaw @Ana at the market.\n"})
    out = tmp_path / "site"
    assert "Built " in run("build", str(ws), "-o", str(out), "--no-search").output
    assert "memwiki:begin" in (ws / "bank/entities/Sam.md").read_text(encoding="utf-8")  # reflect wrote pages
    (path, added), runs = EDITS[edit]
    page = ws / path
    text = page.read_text(encoding="utf-8")
    if edit == "sentence of a mention":
        page.write_text(text.replace("at the harbour", "by the old harbour wall"), encoding="utf-8")
    elif edit == "alias":
        page.write_text("---\naliases: [Sammy]\n---\n" + text, encoding="utf-8")
    elif edit == "fact reworded":
        page.write_text(text.replace("Moved to Porto.", "Moved to Lisbon."), encoding="utf-8")
    elif edit == "confidence changed":
        page.write_text(text.replace("O(c=0.7)", "O(c=0.4)"), encoding="utf-8")
    elif edit == "facts moved down":
        page.write_text(text.replace("# 2026-01-01\n", "# 2026-01-01\n\nA line above the facts.\n"), encoding="utf-8")
    else:
        page.write_text(text.replace("<!-- memwiki:begin", f"{added}\n<!-- memwiki:begin", 1) if path.startswith(
            "bank/") else text + added, encoding="utf-8")  # fmt: skip
    cold = tmp_path / "cold" / ws.name  # of the same name: a site is titled by its folder
    shutil.copytree(ws, cold, ignore=shutil.ignore_patterns(".memwiki"))
    ran = count_reflects(monkeypatch)
    built = run("build", str(ws), "-o", str(out), "--no-search")
    assert "Built " in built.output
    assert bool(ran) == runs
    monkeypatch.undo()
    again = run("build", str(cold), "-o", str(tmp_path / "cold-site"), "--no-search", "--no-cache")
    assert reflect_line(again.output) == reflect_line(built.output)  # what reflect did, or would have done
    assert tree(ws) == tree(cold), "the workspace is as reflect, run in full, leaves it"
    assert tree(out) == tree(tmp_path / "cold-site")


def test_the_settled_check_reads_again_only_the_notes_whose_text_changed(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What reflect reads of each note is kept with the input it settled on: a plain edit digests that note alone."""
    ws = workspace(FILES)
    build = ("build", str(ws), "-o", str(tmp_path / "site"), "--no-search")
    assert "Built " in run(*build).output  # reflect writes Sam's page
    read = spy_on(monkeypatch, run_module, "_read_of", lambda note: note.path)
    day = ws / "memory/2026-01-03.md"
    for line in ("Read a book.\n", "Went for a walk.\n"):
        day.write_text(day.read_text(encoding="utf-8") + line, encoding="utf-8")
        ran = count_reflects(monkeypatch)
        assert "Built " in run(*build).output
        assert not ran
        assert read == ["memory/2026-01-03.md"]
        read.clear()


@pytest.mark.slow  # 1.6 s
def test_reflect_that_moves_no_opinion_does_not_make_their_block_again(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once reflect left the block the saved opinions make in ``bank/opinions.md``, a build that runs it for a new
    fact bearing on no opinion (the entity's page is written again) does not make that block again: a million
    history rows on a heavy workspace. An edit of that file, or a fact that moves an opinion, makes it; the
    workspace and site are always those of a build without cache."""
    ws = workspace({**FILES, "bank/opinions.md": "# Opinions\n"})
    out = tmp_path / "site"
    build = ("build", str(ws), "-o", str(out), "--no-search")
    assert "Built " in run(*build).output  # reflect writes Sam's page and the opinion's history
    made = spy_on(monkeypatch, run_module, "render_opinion_block", len)
    day = ws / "memory/2026-01-03.md"
    opinions = ws / "bank/opinions.md"
    edits = [  # (page, text replaced or "": at the end, new text, the block made?)
        (day, "", "\n## Retain\n- W @Sam: Opened a bakery.\n", False),  # the block the first build wrote
        (day, "", "- W @Sam: Sold the boat.\n", False),  # Sam's page written again, not the block
        (opinions, "Rows are never removed.", "Rows go.", True),  # an edit inside the block: put back
        (day, "", "- W @Sam: Bought a bicycle.\n", False),
        (day, "", "- B @Sam: Had tea at the harbour, as he prefers.\n", True),  # reflect judges it: it bears on one
        (day, "", "- W @Sam: Sold the bicycle.\n", False),
        (day, "", "- O(c=0.9) @Sam: Prefers tea.\n", True),  # the opinion moves
    ]
    for page, old, new, block_made in edits:
        text = page.read_text(encoding="utf-8")
        page.write_text(text.replace(old, new, 1) if old else text + new, encoding="utf-8")
        cold = tmp_path / "cold" / ws.name  # of the same name: a site is titled by its folder
        shutil.rmtree(cold, ignore_errors=True)
        shutil.copytree(ws, cold, ignore=shutil.ignore_patterns(".memwiki"))
        ran = count_reflects(monkeypatch)
        made.clear()
        built = run(*build)
        assert "Built " in built.output
        assert ran and bool(made) == block_made, new
        again = run("build", str(cold), "-o", str(tmp_path / "cold-site"), "--no-search", "--no-cache")
        assert reflect_line(again.output) == reflect_line(built.output)
        assert tree(ws) == tree(cold)
        assert tree(out) == tree(tmp_path / "cold-site")
    assert "Rows go." not in opinions.read_text(encoding="utf-8")
