"""Linking again after edits of a few notes (``library.relink``): the library it makes from the last one is the
library linking every note makes, on the edits agents make (a Retain fact appended, an opinion restated, a fact
taken out, a note linked, lines shifted), note by note, in the example and the real workspaces."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder.core.library import Library
from site_builder.core.model import Note
from site_builder.io.library_texts import LibraryTexts
from site_builder.io.reader import open_workspace
from site_builder.io.sources import source_file
from site_builder.library.citing import citing_places
from site_builder.library.link import link_notes
from site_builder.library.opinion_pages import CARDS_AT_MOST
from site_builder.library.prose_entities import reads_prose
from site_builder.library.relink import relink
from site_builder.load import load
from site_builder.parse.note import parse_note
from site_builder.site.page_reads import PageReads
from tests.conftest import EXAMPLE, MakeWorkspace, run
from tests.test_library_cache import FILES, REAL, library_view, site_files, workspaces
from tests.test_page_reads import inputs_by_url

Edit = Callable[[bytes, Library], bytes]


def _name(library: Library, nth: int = 0) -> str:
    pages = [e.name for e in library.entities.values() if e.note is not None] or [
        e.name for e in library.entities.values()
    ]
    return pages[nth % len(pages)] if pages else "Nobody"


def append_retain_fact(data: bytes, library: Library) -> bytes:
    fact = f"- W @{_name(library)}: Moved the meeting to Thursday with @{_name(library, 1)}."
    return data + f"\n\n## Retain\n\n{fact}\n".encode()


def restate_an_opinion(data: bytes, library: Library) -> bytes:
    opinion = library.opinions[len(library.opinions) // 2] if library.opinions else None
    if opinion is None:
        return data + f"\n\n## Retain\n\n- O(c=0.6) @{_name(library)}: Prefers short answers.\n".encode()
    about = opinion.entities[0] if opinion.entities else _name(library)
    other = f"- O(c=0.3) @{about}: A different claim altogether. ^{opinion.id}"  # warned: not what it restates
    return data + f"\n\n## Retain\n\n- O(c=0.42) @{about}: {opinion.statement}\n{other}\n".encode()


def take_out_retain_lines(data: bytes, library: Library) -> bytes:
    return b"\n".join(
        line for line in data.split(b"\n") if not line.lstrip().startswith((b"- W", b"- B", b"- O", b"- S"))
    )


def link_another_note(data: bytes, library: Library) -> bytes:
    other = library.notes[len(library.notes) // 3]
    name = other.path.removesuffix(".md")
    return (
        data + f"\n\nSee [[{name}]] and [it]({other.path}), not [[{name}#No such part]] nor [[1999-01-01]].\n".encode()
    )


def shift_every_line(data: bytes, library: Library) -> bytes:
    head, sep, body = data.partition(b"\n---\n") if data.startswith(b"---\n") else (b"", b"", data)
    return head + sep + b"A line put first.\n\n" + body


EDITS = [append_retain_fact, restate_an_opinion, take_out_retain_lines, link_another_note, shift_every_line]


WORKSPACES = workspaces()


def public_notes(name: str, workspace: MakeWorkspace) -> tuple[Path, list[Note]]:
    """The workspace of that name (``small``: ``FILES``; the example; a real one) and its public notes in path order."""
    root = workspace(FILES) if name == "small" else EXAMPLE if name == "example" else REAL / name
    return root, sorted((n for n in load(root, cache=False).notes if not n.private), key=lambda n: n.path)


def edited(root: Path, note: Note, edit: Edit, library: Library) -> Note | None:
    data = (root / note.path).read_bytes()
    changed = edit(data, library)
    return parse_note(source_file(open_workspace(root), note.path, changed)) if changed != data else None


@pytest.mark.parametrize("edit", EDITS)
@pytest.mark.parametrize("name", WORKSPACES)
def test_relinking_an_edited_note_makes_the_library_linking_makes(
    name: str, edit: Edit, workspace: MakeWorkspace
) -> None:
    root, notes = public_notes(name, workspace)
    last = link_notes(notes)
    last.citing = citing_places(last.opinions)  # as a library saved by a build comes (relink patches it)
    prose = reads_prose(notes)  # linking reads every line there: an edit is linked anew
    relinked = 0
    for i in sorted(random.Random(name).sample(range(len(notes)), min(len(notes), 25))):
        again = edited(root, notes[i], edit, last)
        if again is None or again.private:
            continue
        now = [*notes[:i], again, *notes[i + 1 :]]
        made = relink(last, now)
        assert made is None or not prose
        if made is not None:
            relinked += 1
            linked = link_notes(now)
            assert library_view(made) == library_view(linked), notes[i].path
            assert [e.note for e in made.entities.values()] == [e.note for e in linked.entities.values()]  # the same
            assert made.citing is None or made.citing == citing_places(made.opinions), notes[i].path
    if not prose and (edit is shift_every_line or (last.entities and edit in (append_retain_fact, restate_an_opinion))):
        assert relinked >= 1  # these edits keep what names resolve to in most notes (naming entities there are)


def test_a_build_after_a_retain_fact_makes_the_site_a_build_without_cache_makes(
    workspace: MakeWorkspace, tmp_path: Path
) -> None:
    ws = workspace(FILES)
    out, cold = tmp_path / "out", tmp_path / "cold"
    args = ("--no-search", "--no-reflect")
    assert run("build", str(ws), "-o", str(out), *args).exit_code == 0
    day = ws / "memory" / "2026-01-02.md"
    day.write_text(day.read_text() + "- O(c=0.6) @Sam: Prefers the morning tide.\n- W @Harbour: Sam docked.\n")
    assert run("build", str(ws), "-o", str(out), *args).exit_code == 0
    assert run("build", str(ws), "-o", str(cold), *args, "--no-cache").exit_code == 0
    assert site_files(out) == site_files(cold)


def test_relinking_moves_what_reflect_recorded_about_an_edited_note(workspace: MakeWorkspace) -> None:
    """Reflect recorded a W fact of a day as evidence for an opinion; lines put before it move it: the opinion's
    history cites its new line, as linking every note finds."""
    ws = workspace(
        {
            "MEMORY.md": "# Memory\n\n- Works with @Sam.\n",
            "bank/entities/Sam.md": "# Sam\n\nHarbour pilot.\n",
            "memory/2026-01-01.md": "# 2026-01-01\n\n## Retain\n\n- W @Sam: Sam docked on the morning tide again.\n",
        }
    )
    (fact,) = load(ws, cache=False).library.facts
    (ws / "bank" / "opinions.md").write_text(
        "# Opinions\n\n- O(c=0.6) @Sam: Sam prefers the morning tide for docking. ^tide\n\n"
        "<!-- memwiki:begin opinions · written by `memwiki reflect`; edits inside are replaced -->\n"
        "### Sam prefers the morning tide for docking.\n\nId `tide` · about [[Sam]] · confidence **0.62**\n\n"
        "| Date | Confidence | Change | Fact | Source |\n|---|---|---|---|---|\n"
        f"| 2026-01-01 | 0.62 | reinforces | `{fact.id}` | [memory/2026-01-01.md#L5](../memory/2026-01-01.md#L5) |\n"
        "<!-- memwiki:end -->\n"
    )
    notes = sorted((n for n in load(ws, cache=False).notes if not n.private), key=lambda n: n.path)
    last = link_notes(notes)
    assert [(p.change, p.source) for p in last.opinions[0].history][1:] == [("reinforces", "memory/2026-01-01.md#L5")]
    day = next(i for i, note in enumerate(notes) if note.path == "memory/2026-01-01.md")
    again = edited(ws, notes[day], shift_every_line, last)
    assert again is not None
    now = [*notes[:day], again, *notes[day + 1 :]]
    made = relink(last, now)
    assert made is not None
    assert made.opinions[0].history[1].source == "memory/2026-01-01.md#L7"
    assert library_view(made) == library_view(link_notes(now))


def test_a_heading_another_note_links_is_found_after_the_edit_that_adds_it(workspace: MakeWorkspace) -> None:
    ws = workspace({**FILES, "memory/2026-01-03.md": "# 2026-01-03\n\nAs in [[2026-01-02#The crane]].\n"})
    notes = sorted(load(ws, cache=False).notes, key=lambda n: n.path)
    last = link_notes(notes)
    assert [d.code for d in last.problems.items] == ["broken-link"]  # no such heading yet
    day = next(i for i, note in enumerate(notes) if note.path == "memory/2026-01-02.md")
    again = parse_note(source_file(open_workspace(ws), notes[day].path, b"# 2026-01-02\n\n## The crane\n\nIt came.\n"))
    now = [*notes[:day], again, *notes[day + 1 :]]
    made = relink(last, now) or link_notes(now)
    assert made.problems.items == []
    assert library_view(made) == library_view(link_notes(now))


@pytest.mark.parametrize("edit", EDITS)
@pytest.mark.parametrize("name", WORKSPACES)
def test_after_a_relink_each_page_whose_inputs_changed_said_it_reads_what_changed(
    name: str, edit: Edit, workspace: MakeWorkspace
) -> None:
    """A page is held after a relink when its inputs said what of the library they read (``LINKED``) and read
    nothing relinking changed (``Library.relinked``) nor an edited text: every page whose inputs did change, on
    each edit of a few notes, had not said so."""
    root, notes = public_notes(name, workspace)
    last = link_notes(notes)
    if reads_prose(notes):  # linking reads every line there: no edit is relinked (``test_relinking_…``), none held
        return
    before = inputs_by_url(root, notes)
    checked = 0
    for i in sorted(random.Random(name + "pages").sample(range(len(notes)), min(len(notes), 6))):
        again = edited(root, notes[i], edit, last)
        if again is not None and not again.private:
            held, wrongly, _ = held_after_relink(root, notes, i, again, before)
            assert wrongly == []
            checked += len(held)
    if edit is shift_every_line and name != "small":
        assert checked  # pages were held: the test says something


def held_after_relink(
    root: Path, notes: list[Note], i: int, again: Note, before: dict[str, tuple[object, frozenset[str]]]
) -> tuple[set[str], list[str], set[str]]:
    """The pages held after ``notes[i]`` became ``again`` and the library was relinked, those of them whose
    inputs changed (none, or a page shows what it was), and the pages whose inputs changed."""
    now = [*notes[:i], again, *notes[i + 1 :]]
    made = relink(link_notes(notes), now)
    if made is None or made.relinked is None:
        return set(), [], set()
    after = inputs_by_url(root, now)
    assert after.keys() == before.keys()
    last_reads = PageReads(LibraryTexts.of(link_notes(notes), "last"), "", {url: r for url, (_, r) in before.items()})
    held = set(last_reads.still_held(LibraryTexts.of(made, "now", since="last"), ""))
    assert notes[i].url not in held
    changed_pages = {url for url in before if before[url][0] != after[url][0]}
    return held, sorted(held & changed_pages), changed_pages


def test_a_retain_fact_appended_leaves_the_pages_of_what_the_day_named_before_it(workspace: MakeWorkspace) -> None:
    """A Retain fact about the tugboat appended to a day that named Sam and the crane before: the tugboat's page and
    the day's month are made again, while Sam's and the crane's (their lines in that day are as they were) and the
    other month are held."""
    day = "# 2026-01-03\n\n- @Sam checked the [[Crane]] at dawn.\n"
    ws = workspace(
        {
            **FILES,
            "memory/2025-12-31.md": "# 2025-12-31\n\nThe year ends.\n",
            "memory/2026-01-03.md": day,
            "bank/entities/Crane.md": "# Crane\n\nThe big one.\n",
            "bank/entities/Tugboat.md": "# Tugboat\n\nSmall and loud.\n",
        }
    )
    notes = sorted((n for n in load(ws, cache=False).notes if not n.private), key=lambda n: n.path)
    i = next(i for i, note in enumerate(notes) if note.path == "memory/2026-01-03.md")
    text = f"{day}\n## Retain\n\n- W @Tugboat: Calm water.\n"
    again = parse_note(source_file(open_workspace(ws), notes[i].path, text.encode()))
    made = relink(link_notes(notes), [*notes[:i], again, *notes[i + 1 :]])
    assert made is not None and made.relinked is not None
    assert "@entity:tugboat" in made.relinked
    assert not {"@entity:sam", "@entity:crane"} & made.relinked
    held, wrongly, changed = held_after_relink(ws, notes, i, again, inputs_by_url(ws, notes))
    assert {"bank/entities/sam.html", "bank/entities/crane.html", "memory/2025-12.html"} <= held
    assert {"bank/entities/tugboat.html", "memory/2026-01.html"} <= changed - held and wrongly == []


@pytest.mark.slow  # 0.7 s
def test_after_a_relink_the_pages_it_changes_are_made_again(workspace: MakeWorkspace) -> None:
    """An opinion restated with another confidence moves to another page of opinions: the day that first stated it
    links there. An opinion about Sam cites a fact about a tugboat: Sam's page shows where that fact now is. Sam and
    the harbour, named hundreds of times, are named together once more: their mentions look the same on the crane's
    graph, the line between them does not."""
    many = "".join(f"- O(c=0.5) @Sam: Opinion number {n} holds. ^op{n}\n" for n in range(CARDS_AT_MOST + 200))
    # Sam then has 745 mentions, the harbour 143: one more shows as many on a graph (two significant digits)
    together = "".join(f"- @Sam at the [[Harbour]], tide {n}.\n" for n in range(140))
    ws = workspace(
        {
            **FILES,
            "bank/opinions.md": f"# Opinions\n\n{many}",
            "memory/2026-01-03.md": "# 2026-01-03\n\n## Retain\n\n- O(c=0.5) @Sam: Opinion number 7 holds. ^op7\n",
            "memory/2026-01-04.md": "# 2026-01-04\n\nA quiet day.\n",
            "memory/2026-01-05.md": "# 2026-01-05\n\n## Retain\n\n- W @Tugboat: The pilot docked on the morning tide.\n",
            "memory/2026-01-06.md": f"# 2026-01-06\n\n{together}",
            "bank/entities/Crane.md": "# Crane\n\nLifts for @Sam at the [[Harbour]].\n",
        }
    )
    (fact,) = [f for f in load(ws, cache=False).library.facts if f.kind == "W"]
    with (ws / "bank" / "opinions.md").open("a") as opinions:
        opinions.write(
            "\n<!-- memwiki:begin opinions · written by `memwiki reflect`; edits inside are replaced -->\n"
            "### Opinion number 3 holds.\n\nId `op3` · about [[Sam]] · confidence **0.52**\n\n"
            "| Date | Confidence | Change | Fact | Source |\n|---|---|---|---|---|\n"
            f"| 2026-01-05 | 0.52 | reinforces | `{fact.id}` | [memory/2026-01-05.md#L5](../memory/2026-01-05.md#L5) |\n"
            "<!-- memwiki:end -->\n"
        )
    notes = sorted((n for n in load(ws, cache=False).notes if not n.private), key=lambda n: n.path)
    before = inputs_by_url(ws, notes)
    for path, text, moved in [
        ("memory/2026-01-04.md", "# 2026-01-04\n\nA quiet day.\n\n## Retain\n\n- O(c=0.9) @Sam: Opinion number 7 holds. ^op7\n", "memory/2026-01-03.html"),
        ("memory/2026-01-05.md", "# 2026-01-05\n\nA line first.\n\n## Retain\n\n- W @Tugboat: The pilot docked on the morning tide.\n", "bank/entities/sam.html"),
        ("memory/2026-01-04.md", "# 2026-01-04\n\nA quiet day. @Sam rowed to the [[Harbour]].\n", "bank/entities/crane.html"),
    ]:  # fmt: skip
        i = next(i for i, note in enumerate(notes) if note.path == path)
        again = parse_note(source_file(open_workspace(ws), path, text.encode()))
        held, wrongly, changed = held_after_relink(ws, notes, i, again, before)
        assert held and moved in changed
        assert wrongly == []


def test_an_opinion_taken_out_takes_its_warnings_with_it(workspace: MakeWorkspace) -> None:
    day = "# 2026-01-03\n\nTea.\n\n## Retain\n\n- O(c=0.6) @Sam: Sam likes tea. ^drinks\n- O(c=0.7) @Sam: Cranes are loud. ^drinks\n"
    ws = workspace({**FILES, "memory/2026-01-03.md": day})
    notes = sorted(load(ws, cache=False).notes, key=lambda n: n.path)
    last = link_notes(notes)
    assert [d.code for d in last.problems.items] == ["opinion"]  # restated with another statement
    i = next(i for i, note in enumerate(notes) if note.path == "memory/2026-01-03.md")
    again = parse_note(source_file(open_workspace(ws), notes[i].path, b"# 2026-01-03\n\nTea.\n\n## Retain\n"))
    now = [*notes[:i], again, *notes[i + 1 :]]
    made = relink(last, now)
    assert made is not None and made.problems.items == []
    assert library_view(made) == library_view(link_notes(now))
