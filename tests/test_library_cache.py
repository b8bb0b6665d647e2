"""The linked library kept in the build cache (``library.saved``): an edit that changes no note's link inputs
takes the last build's library, and the site is the one a build without cache makes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

import site_builder.library.citing as citing
import site_builder.library.saved as library_cache
import site_builder.load as load_module
import site_builder.recall.publish as publish_module
import site_builder.reflect_loaded as reflect_loaded_module
import site_builder.site.builder as builder_module
from site_builder.core.library import Library
from site_builder.core.model import Note
from site_builder.io.memo_store import MEMO_FOLDER
from site_builder.io.reader import open_workspace
from site_builder.io.sources import source_file
from site_builder.library.link import link_inputs, link_notes
from site_builder.library.prose_entities import reads_prose
from site_builder.load import load
from site_builder.parse.note import parse_note
from tests.conftest import EXAMPLE, REPO, MakeWorkspace, run, spy_on

REAL = REPO.parent / "shared" / "real"


def workspaces() -> list[Any]:
    """A small workspace, the example and the real ones beside the project: the real ones are ``slow`` (2 to 20 s
    each; the day-to-day run leaves them out, CI runs them)."""
    real = sorted(p.name for p in REAL.iterdir() if p.is_dir()) if REAL.is_dir() else []
    return ["small", "example", *(pytest.param(name, marks=pytest.mark.slow) for name in real)]


FILES = {
    "MEMORY.md": "# Memory\n\n- Works with @Sam on the [[Harbour]] project.\n\nThe crane: [a day](memory/2026-01-02.md).\n",
    "bank/entities/Sam.md": "---\naliases: [Samuel]\n---\n# Sam\n\nHarbour pilot.\n",
    "bank/entities/Harbour.md": "# Harbour\n\nThe harbour renovation.\n",
    "memory/2026-01-01.md": "# 2026-01-01\n\n- O(c=0.8) @Sam: Prefers the morning tide.\n- Met @Samuel at the dock.\n",
    "memory/2026-01-02.md": "# 2026-01-02\n\nA quiet day.\n\n- W @Harbour: The crane arrived. See [the first day](2026-01-01.md).\n",
}


def library_view(library: Library) -> tuple[Any, ...]:
    """Everything a library says, its notes by path (two libraries of different note objects compare)."""
    entities = [
        (k, e.name, e.slug, e.note.path if e.note else None, e.aliases, e.type) for k, e in library.entities.items()
    ]
    resolver = library.resolver
    return (
        [note.path for note in library.notes], entities, library.facts, library.backlinks, library.facts_by_entity,
        library.related, library.opinions, library.problems.items, library.note_backlinks, list(resolver.entities),
        resolver.aliases, resolver.notes,
    )  # fmt: skip


def site_files(out: Path) -> dict[Path, bytes]:
    return {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_a_plain_edit_takes_the_last_library_and_an_edited_link_is_linked_again_from_it(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = workspace(FILES)
    out = tmp_path / "site"
    linked = spy_on(monkeypatch, load_module, "link_notes", lambda notes: len(notes))
    relinked = spy_on(monkeypatch, library_cache, "relink", lambda last, notes: len(notes))

    def build_and_compare() -> None:
        assert run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect").exit_code == 0
        cold = tmp_path / "cold"
        shutil.rmtree(cold, ignore_errors=True)
        assert run("build", str(ws), "-o", str(cold), "--no-search", "--no-reflect", "--no-cache").exit_code == 0
        assert site_files(out) == site_files(cold)

    build_and_compare()
    assert len(linked) == 2  # the build, then the one without cache
    day = ws / "memory/2026-01-02.md"
    day.write_text(day.read_text(encoding="utf-8") + "\nThe gulls were loud.\n", encoding="utf-8")
    linked.clear()
    build_and_compare()
    assert len(linked) == 1  # only the build without cache linked
    assert "gulls were loud" in (out / "memory/2026-01-02.html").read_text(encoding="utf-8")
    day.write_text(day.read_text(encoding="utf-8") + "- Rowed out with @Samuel.\n", encoding="utf-8")
    linked.clear()
    build_and_compare()
    assert len(linked) == 1 and len(relinked) == 1  # a new link: the last library linked again (library.relink)
    assert "2026-01-02.html" in (out / "bank/entities/sam.html").read_text(encoding="utf-8")
    day.write_text(day.read_text(encoding="utf-8") + "Tea at four.\n", encoding="utf-8")
    linked.clear()
    build_and_compare()  # the library saved after linking again is taken
    assert len(linked) == 1


def test_what_is_kept_with_the_library_makes_the_pages_a_build_without_cache_makes(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Which opinions cite each note and which opinions to review are kept with the library (``Library.citing``,
    ``Library.to_review``): a plain edit of a day an opinion cites makes its page and the hygiene report from what
    was kept, as a build without cache does."""
    ws = workspace(
        {
            "memory/2025-06-01.md": "# 2025-06-01\n\n## Retain\n- O(c=0.5) @Sam: Likes the fog horn.\n",
            "bank/entities/Sam.md": "# Sam\n\nHarbour pilot.\n",
            "memory/2026-01-01.md": "# 2026-01-01\n\n## Retain\n- O(c=0.6) @Sam: Prefers the morning tide.\n",
            "memory/2026-01-05.md": "# 2026-01-05\n\nRain.\n\n## Retain\n- O(c=0.9) @Sam: Prefers the morning tide.\n",
        }
    )
    out, cold = tmp_path / "site", tmp_path / "cold"
    args = ("--no-search", "--no-reflect")
    assert run("build", str(ws), "-o", str(out), *args).exit_code == 0
    linked = spy_on(monkeypatch, load_module, "link_notes", lambda notes: len(notes))
    day = ws / "memory/2026-01-05.md"
    day.write_text(day.read_text(encoding="utf-8").replace("Rain.", "Rain, then fog."), encoding="utf-8")
    assert run("build", str(ws), "-o", str(out), *args).exit_code == 0
    assert linked == []  # the kept library
    page = (out / "memory/2026-01-05.html").read_text(encoding="utf-8")
    assert "Rain, then fog." in page and 'href="../bank/opinions.html#op-' in page
    assert "Likes the fog horn.&#39; is stale" in (out / "hygiene.html").read_text(encoding="utf-8")
    assert run("build", str(ws), "-o", str(cold), *args, "--no-cache").exit_code == 0
    assert site_files(out) == site_files(cold)


def test_a_library_cache_it_cannot_trust_is_linked_again(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = workspace(FILES)
    out = tmp_path / "site"
    build = ("build", str(ws), "-o", str(out), "--no-search", "--no-reflect")
    assert run(*build).exit_code == 0
    good = site_files(out)
    linked = spy_on(monkeypatch, load_module, "link_notes", lambda notes: len(notes))
    day = ws / "memory/2026-01-02.md"
    text = day.read_text(encoding="utf-8")
    for n, spoil in enumerate(["library", "library-opinions", None]):
        if spoil is None:  # a note gone: its links went with it
            (ws / "bank/entities/Harbour.md").unlink()
        else:
            for entry in memo_entries(ws, spoil):
                entry.write_bytes(b"half a pickle")
        day.write_text(text + f"\nPlain line {n}.\n", encoding="utf-8")
        linked.clear()
        assert run(*build).exit_code == 0
        assert len(linked) == 1
    assert site_files(out) != good
    cold = tmp_path / "cold"
    assert run("build", str(ws), "-o", str(cold), "--no-search", "--no-reflect", "--no-cache").exit_code == 0
    assert site_files(out) == site_files(cold)
    assert memo_entries(ws, "library-notes")


def memo_entries(ws: Path, stage: str) -> dict[Path, int]:
    """The entries the memo store keeps for ``stage`` after a build, and their inodes (an entry written again is
    a new file)."""
    return {entry: entry.stat().st_ino for entry in (ws / ".memwiki" / MEMO_FOLDER / stage).iterdir()}


def edited_notes(notes: list[Note], root: Path, edit: Any) -> tuple[list[Note], int, int]:
    """Each note parsed again from its text as ``edit`` changes it, where its link inputs stay the same (else the
    note as it was); with how many notes were edited, and how many texts the edit changed."""
    opened = open_workspace(root)
    out, edited, changed_texts = [], 0, 0
    for note in notes:
        data = (root / note.path).read_bytes()
        changed = edit(data)
        changed_texts += changed != data
        again = parse_note(source_file(opened, note.path, changed)) if changed != data else note
        prose = reads_prose(notes)
        if again is not note and link_inputs(again, prose=prose) == link_inputs(note, prose=prose):
            out.append(again)
            edited += 1
        else:
            out.append(note)
    return out, edited, changed_texts


def append_plain_line(data: bytes) -> bytes:
    return data + b"\n\nA plain line added later, naming no one.\n"


def reword_plain_lines(data: bytes) -> bytes:
    """Every line of plain prose (no markup at its start, no link in it) reworded, the lines staying where they are."""
    lines = data.split(b"\n")
    plain = re.compile(rb"^[A-Za-z][^@\[\]`|<>:#*_]*$")
    return b"\n".join(line + b" (reworded)" if plain.match(line) else line for line in lines)


def reword_lines_linking_notes(data: bytes) -> bytes:
    """Every line with a Markdown link reworded: the sentence other notes' pages show for it changes."""
    return b"\n".join(line + b" (reworded)" if b"](" in line else line for line in data.split(b"\n"))


@pytest.mark.parametrize("edit", [append_plain_line, reword_plain_lines, reword_lines_linking_notes])
@pytest.mark.parametrize("name", workspaces())
def test_notes_with_the_same_link_inputs_link_the_same(name: str, edit: Any, workspace: MakeWorkspace) -> None:
    """What ``link_inputs`` leaves out of a note (its text but the lines its links are on) changes nothing linking
    makes: every note of a workspace edited at once, where its link inputs stay the same, links like the notes did."""
    root = workspace(FILES) if name == "small" else EXAMPLE if name == "example" else REAL / name
    notes = load(root, cache=False).notes
    again, edited, changed = edited_notes(notes, root, edit)
    if edit is not reword_lines_linking_notes and not reads_prose(notes):  # it keeps most notes' link inputs
        assert edited >= max(1, changed // 2)  # (where linking reads the prose, any edit of a line changes them)
    assert library_view(link_notes(again)) == library_view(link_notes(notes))


def test_a_relinked_library_keeps_the_saved_opinions_when_the_edit_left_them(workspace: MakeWorkspace) -> None:
    ws = workspace(FILES)
    build = ("build", str(ws), "-o", str(ws.parent / "site"), "--no-search", "--no-reflect")
    assert run(*build).exit_code == 0
    opinions = memo_entries(ws, "library-opinions")
    day = ws / "memory/2026-01-02.md"
    day.write_text(day.read_text(encoding="utf-8") + "\n## Retain\n\n- W @Sam: Docked at noon.\n", encoding="utf-8")
    assert run(*build).exit_code == 0
    assert memo_entries(ws, "library-opinions") == opinions  # the relinked library names the last opinions: kept
    day.write_text(day.read_text(encoding="utf-8") + "- O(c=0.4) @Sam: Prefers the evening tide.\n", encoding="utf-8")
    assert run(*build).exit_code == 0
    assert memo_entries(ws, "library-opinions") != opinions  # new opinions, saved
    assert "evening tide" in (ws.parent / "site" / "bank/opinions.html").read_text(encoding="utf-8")


TEA = {
    "memory/2026-01-01.md": "# 2026-01-01\n\n## Retain\n- O(c=0.8) @Sam: Prefers green tea in the morning.\n",
    "memory/2026-01-02.md": "# 2026-01-02\n\n## Retain\n- B @Sam: Drank green tea this morning.\n",
    "bank/opinions.md": "# Opinions\n",
    "bank/entities/Sam.md": "# Sam\n\nA friend.\n",
}


def built_with_reflect(workspace: MakeWorkspace, tmp_path: Path) -> tuple[Path, tuple[str, ...], Path, Path]:
    """``TEA`` built twice (reflect writes Sam's page and the history, then nothing is left to do): the workspace,
    the build command, its site and where a build without cache goes."""
    ws = workspace(TEA)
    out, cold = tmp_path / "site", tmp_path / "cold"
    build = ("build", str(ws), "-o", str(out), "--no-search")
    assert run(*build).exit_code == 0
    assert run(*build).exit_code == 0
    return ws, build, out, cold


def test_reflect_that_leaves_the_opinions_keeps_their_saved_file(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reflect rewrites an entity page for a new fact that bears on no opinion: linked again after it, the library
    holds the saved opinions, fact for fact, so their file (a million history points on a heavy workspace) is not
    written again, nor which of them cite each note worked out again; a fact that moves an opinion writes it, and
    the site is the one a build without cache makes."""
    ws, build, out, cold = built_with_reflect(workspace, tmp_path)
    opinions = memo_entries(ws, "library-opinions")
    day = ws / "memory/2026-01-02.md"
    sam = (ws / "bank/entities/Sam.md").read_text(encoding="utf-8")
    day.write_text(day.read_text(encoding="utf-8") + "- W @Sam: Moved to Lisbon.\n", encoding="utf-8")
    cited = spy_on(monkeypatch, citing, "citing_places", len)
    assert run(*build).exit_code == 0
    assert (ws / "bank/entities/Sam.md").read_text(encoding="utf-8") != sam  # reflect wrote the new fact there
    assert memo_entries(ws, "library-opinions") == opinions
    assert cited == []  # neither for the pages nor for the library saved
    day.write_text(day.read_text(encoding="utf-8") + "- B @Sam: Had green tea again this morning.\n", encoding="utf-8")
    assert run(*build).exit_code == 0
    assert memo_entries(ws, "library-opinions") != opinions  # the new fact reinforces the opinion: saved again
    assert run("build", str(ws), "-o", str(cold), "--no-search", "--no-cache").exit_code == 0
    assert site_files(out) == site_files(cold)


def test_a_build_whose_library_holds_the_saved_opinions_takes_their_digests(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new fact that bears on no opinion (reflect rewrites an entity page, every page's inputs are worked out
    again): the opinions are the saved ones, and so are their digests; an opinion restated is digested again, and
    the site is the one a build without cache makes."""
    ws, build, out, cold = built_with_reflect(workspace, tmp_path)
    digested = spy_on(
        monkeypatch, builder_module, "value_digest", lambda value: isinstance(value, tuple) and len(value) == 8
    )
    day = ws / "memory/2026-01-02.md"
    day.write_text(day.read_text(encoding="utf-8") + "- W @Sam: Moved to Lisbon.\n", encoding="utf-8")
    assert run(*build).exit_code == 0
    assert not any(digested)  # the opinion's digest is the last build's
    day.write_text(
        day.read_text(encoding="utf-8") + "- O(c=0.6) @Sam: Prefers green tea in the morning.\n", encoding="utf-8"
    )
    assert run(*build).exit_code == 0
    assert any(digested)
    assert run("build", str(ws), "-o", str(cold), "--no-search", "--no-cache").exit_code == 0
    assert site_files(out) == site_files(cold)


def test_reflect_that_writes_an_entity_page_relinks_the_library_it_was_given(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reflect writes Sam's page again for a new fact about him (his names as they were): the library is then
    relinked from the one reflect was given, not linked anew (4 s on a heavy workspace, and every page's inputs
    worked out again after it); the site is the one a build without cache makes."""
    ws, build, out, cold = built_with_reflect(workspace, tmp_path)
    day = ws / "memory/2026-01-02.md"
    sam = (ws / "bank/entities/Sam.md").read_text(encoding="utf-8")
    day.write_text(day.read_text(encoding="utf-8") + "- W @Sam: Moved to Lisbon.\n", encoding="utf-8")
    linked = spy_on(monkeypatch, reflect_loaded_module, "link_notes", lambda notes, **_: len(notes))
    edited = lambda last, notes: [a.path for a, b in zip(last.notes, notes, strict=True) if a is not b]  # noqa: E731
    relinked = spy_on(monkeypatch, reflect_loaded_module, "relink", edited)
    assert run(*build).exit_code == 0
    assert (ws / "bank/entities/Sam.md").read_text(encoding="utf-8") != sam
    assert linked == [] and relinked == [["bank/entities/Sam.md"]]
    assert run("build", str(ws), "-o", str(cold), "--no-search", "--no-cache").exit_code == 0
    assert site_files(out) == site_files(cold)


def test_the_facts_the_saved_opinions_show_are_taken_from_the_last_build(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """recall.json lists the facts no opinion shows: which facts the opinions show is a pass over every history point
    and evidence (a second on a heavy workspace, while the build waits), kept by the token of the saved opinions. A
    build whose library holds them takes it; an opinion restated works it out again; recall.json is always the one a
    build without cache makes."""
    ws = workspace(FILES)
    out, cold = tmp_path / "site", tmp_path / "cold"
    build = ("build", str(ws), "-o", str(out), "--no-search", "--no-reflect")
    assert run(*build).exit_code == 0
    worked_out = spy_on(monkeypatch, publish_module, "opinion_facts", len)
    day = ws / "memory/2026-01-02.md"
    restated = "\n## Retain\n- O(c=0.3) @Sam: Prefers the morning tide.\n"
    for added, again in [("Rain all day.\n", False), (restated, True)]:
        day.write_text(day.read_text(encoding="utf-8") + added, encoding="utf-8")
        worked_out.clear()
        assert run(*build).exit_code == 0
        assert bool(worked_out) == again, added
        assert run("build", str(ws), "-o", str(cold), "--no-search", "--no-reflect", "--no-cache").exit_code == 0
        assert (out / "recall.json").read_bytes() == (cold / "recall.json").read_bytes()
