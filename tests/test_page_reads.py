"""Which notes' texts each page's inputs read (``site.render_jobs.job_inputs``): when the library is the last build's,
a page whose inputs read no changed text is kept without working its inputs out again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import site_builder.recall.bundle as bundle
import site_builder.site.render_jobs as render_jobs
from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Note
from site_builder.io.reader import open_workspace
from site_builder.library.hygiene import hygiene_report
from site_builder.library.link import link_notes
from site_builder.load import load
from site_builder.site.builder import EVERY_TEXT, PageBuilder
from site_builder.site.markdown import MarkdownRenderer
from site_builder.site.pages import hygiene_jobs, page_jobs
from site_builder.site.render_jobs import job_inputs
from tests.conftest import EXAMPLE, MakeWorkspace, run, spy_on
from tests.test_library_cache import (
    FILES,
    REAL,
    append_plain_line,
    edited_notes,
    reword_plain_lines,
    site_files,
    workspaces,
)


def inputs_by_url(root: Path, notes: list[Note]) -> dict[str, tuple[object, frozenset[str]]]:
    """Every page that says its inputs: its inputs and the notes whose texts they read."""
    opened = open_workspace(root)
    library = link_notes(notes)
    builder = PageBuilder(library, opened.config, MarkdownRenderer())
    sections = hygiene_report(library, Diagnostics([p for n in notes for p in n.problems]))
    found = {}
    for job in [*page_jobs(builder, opened.layout.names), *hygiene_jobs(builder, sections)]:
        said = job_inputs(builder, job)
        if said is not None:
            found[job.url] = said
    return found


@pytest.mark.parametrize("edit", [append_plain_line, reword_plain_lines])
@pytest.mark.parametrize("name", workspaces())
def test_a_page_whose_inputs_change_with_a_text_says_it_reads_that_text(
    name: str, edit: Any, workspace: MakeWorkspace
) -> None:
    """Every note of a workspace edited at once where its link inputs stay the same (the library is the same): each
    page whose inputs changed had said it reads the text of an edited note, before the edit and after."""
    root = workspace(FILES) if name == "small" else EXAMPLE if name == "example" else REAL / name
    notes = load(root, cache=False).notes
    again, edited_count, _ = edited_notes(notes, root, edit)
    edited = {new.path for old, new in zip(notes, again, strict=True) if new is not old} | {EVERY_TEXT}
    before, after = inputs_by_url(root, notes), inputs_by_url(root, again)
    assert before.keys() == after.keys()
    changed = [url for url in before if before[url][0] != after[url][0]]
    assert edited_count == 0 or changed  # the test says something: the edited notes' own pages changed
    for url in changed:
        assert before[url][1] & edited, url
        assert after[url][1] & edited, url


@pytest.mark.slow  # 0.8 s
def test_after_a_plain_edit_only_the_pages_reading_its_text_work_their_inputs_out(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    days = {f"memory/2026-01-{d:02d}.md": f"# Day {d}\n\n- Sailed with @Sam.\n" for d in range(3, 28)}
    ws = workspace({**FILES, **days})
    out = tmp_path / "site"
    worked_out = spy_on(monkeypatch, render_jobs, "job_inputs", lambda builder, job: job.url)
    shards = spy_on(monkeypatch, bundle, "entity_shard", lambda library, entity, as_json: entity.key)

    def build() -> tuple[list[str], list[str]]:
        """Build; the pages whose inputs it worked out, and the recall shards it made. The site is the one a build
        without cache makes."""
        worked_out.clear()
        shards.clear()
        assert run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect").exit_code == 0
        incremental = list(worked_out), list(shards)
        cold = tmp_path / "cold"
        assert run("build", str(ws), "-o", str(cold), "--no-search", "--no-reflect", "--no-cache").exit_code == 0
        assert site_files(out) == site_files(cold)
        return incremental

    every, _ = build()
    day = ws / "memory/2026-01-10.md"
    day.write_text(day.read_text(encoding="utf-8") + "\nThe gulls were loud.\n", encoding="utf-8")
    incremental, made = build()
    assert "memory/2026-01-10.html" in incremental
    assert "bank/entities/sam.html" not in incremental  # its lines from that day are as they were
    assert 0 < len(incremental) < len(every) / 4
    assert made == []  # Sam's recall shard too: its inputs are the last build's
    assert "gulls were loud" in (out / "memory/2026-01-10.html").read_text(encoding="utf-8")
    day.write_text(day.read_text(encoding="utf-8") + "- Rowed out with @Sam.\n", encoding="utf-8")
    incremental, made = build()
    # a new link: the library relinked; the pages that say what of it they read are held when it is none of that
    assert {"memory/2026-01-10.html", "bank/entities/sam.html", "graph.html"} <= set(incremental)
    assert "memory/2026-01-20.html" not in incremental
    assert 0 < len(incremental) < len(every) / 2
    assert made == ["sam"]


def test_a_warning_outside_the_notes_reaches_the_hygiene_report(workspace: MakeWorkspace, tmp_path: Path) -> None:
    """A setting memwiki does not know changes no note and no setting, yet the hygiene report lists it: the pages
    of what every file's reading found are always worked out again."""
    ws = workspace({**FILES, "memwiki.toml": '[site]\ntitle = "Harbour"\n'})
    out = tmp_path / "site"
    assert run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect").exit_code == 0
    (ws / "memwiki.toml").write_text('[site]\ntitle = "Harbour"\ntide = "high"\n', encoding="utf-8")
    assert "unknown setting 'tide'" in run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect").output
    cold = tmp_path / "cold"
    assert run("build", str(ws), "-o", str(cold), "--no-search", "--no-reflect", "--no-cache").exit_code == 0
    assert site_files(out) == site_files(cold)
    assert "tide" in (out / "hygiene.html").read_text(encoding="utf-8")
