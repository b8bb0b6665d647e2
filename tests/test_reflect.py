"""memwiki reflect (offline): generated blocks, opinion history, and that no human byte is ever lost."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path
from typing import Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.parse.blocks import BEGIN, END
from site_builder.reflect.candidates import VERDICT_CANDIDATES
from tests.conftest import EXAMPLE, run, write_workspace

BASE = {
    "bank/entities/Anna.md": "---\ntype: person\n---\n# Anna\n\nCeramicist in Lisbon.\n",
    "bank/opinions.md": "# Opinions\n\n- O(c=0.6) @Anna: Anna is easiest to reach in the mornings. ^mornings\n",
    "memory/2025-11-03.md": "# Mon\n\n## Retain\n- W @Anna: Anna called at 8:40 in the morning about the tiles.\n"
    "- O(c=0.7) @Anna: Anna is easiest to reach in the mornings; she called early. ^mornings\n",
}


def reflect(ws: Path, *args: str) -> str:
    result = run("reflect", str(ws), *args)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


def without_blocks(text: str) -> str:
    """The text a person wrote: generated blocks and the blank line before an appended one removed."""
    lines = text.split("\n")
    out: list[str] = []
    inside = False
    for line in lines:
        if BEGIN.match(line.rstrip("\r")):
            inside = True
            if out and out[-1].strip() == "":
                out.pop()
            continue
        if inside:
            inside = not END.match(line.rstrip("\r"))
            continue
        out.append(line)
    return "\n".join(out)


def test_reflect_reproduces_the_examples_committed_pages(tmp_path: Path) -> None:
    ws = tmp_path / "example"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("_site", ".memwiki"))
    generated = [p for p in ws.rglob("*.md") if "memwiki:begin" in p.read_text(encoding="utf-8")]
    assert len(generated) == 15  # 14 entity pages and bank/opinions.md
    for path in generated:
        human = without_blocks(path.read_text(encoding="utf-8"))
        if human.strip() == f"# {path.stem}":
            path.unlink()  # made by reflect for an @mention without a page: it must come back
        else:
            path.write_text(human, encoding="utf-8")
    output = reflect(ws)
    assert "14 entities, 7 opinions; changed 15 page(s) (1 new)" in output
    for path in generated:
        assert path.read_bytes() == (EXAMPLE / path.relative_to(ws)).read_bytes(), path


def test_reflect_on_the_committed_example_changes_nothing() -> None:
    output = reflect(EXAMPLE, "--dry-run")
    assert output.strip().endswith("would change 0 page(s).")
    assert "+++" not in output


def test_an_entity_named_only_in_undated_notes_says_so(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            **BASE,
            "bank/entities/Bruno.md": "# Bruno\n",
            "projects/kitchen.md": "# Kitchen\n\n- [[Bruno]] fits the cabinets.\n- [[Bruno]] quoted the tiles.\n",
        },
    )
    reflect(ws)
    assert "Bruno is named on 2 lines of undated notes." in (ws / "bank/entities/Bruno.md").read_text(encoding="utf-8")


def test_dry_run_prints_a_diff_and_writes_nothing(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", BASE)
    before = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}
    output = reflect(ws, "--dry-run")
    assert "--- a/bank/entities/Anna.md\n+++ b/bank/entities/Anna.md" in output
    assert "+## From memory" in output and "would change 2 page(s)" in output
    assert {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()} == before


def test_entity_block_content(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", BASE)
    reflect(ws)
    anna = (ws / "bank/entities/Anna.md").read_text(encoding="utf-8")
    assert anna.startswith(BASE["bank/entities/Anna.md"] + "\n<!-- memwiki:begin entity")
    assert "Anna (person) comes up on 3 November 2025." in anna
    assert "Anna called at 8:40 in the morning about the tiles (3 November 2025)." in anna
    assert "I believe Anna is easiest to reach in the mornings (confidence 0.70)." in anna
    assert "### World\n\n- 2025-11-03 · Anna called at 8:40" in anna
    assert "([memory/2025-11-03.md#L4](../../memory/2025-11-03.md#L4))" in anna
    assert "First seen 2025-11-03 · last seen 2025-11-03" in anna
    assert anna.rstrip().endswith("<!-- memwiki:end -->")


def test_a_moved_block_stays_where_the_person_put_it(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", BASE)
    reflect(ws)
    page = ws / "bank/entities/Anna.md"
    text = page.read_text(encoding="utf-8")
    start = text.index("<!-- memwiki:begin")
    block = text[start:]
    moved = "---\ntype: person\n---\n# Anna\n\n" + block + "\nCeramicist in Lisbon.\n\nMy own notes.\n"
    page.write_text(moved, encoding="utf-8")
    (ws / "memory/2025-11-04.md").write_text("# Tue\n\n## Retain\n- W @Anna: Anna bought new glaze.\n")
    reflect(ws)
    after = page.read_text(encoding="utf-8")
    assert after.startswith("---\ntype: person\n---\n# Anna\n\n<!-- memwiki:begin entity")
    assert after.endswith("<!-- memwiki:end -->\n\nCeramicist in Lisbon.\n\nMy own notes.\n")
    assert "Anna bought new glaze." in after


def test_crlf_and_bom_pages_keep_their_bytes(tmp_path: Path) -> None:
    page = "\ufeff# Anna\r\n\r\nCeramicist.\r\n"
    ws = write_workspace(tmp_path / "ws", {**BASE, "bank/entities/Anna.md": page.encode("utf-8")})
    reflect(ws)
    data = (ws / "bank/entities/Anna.md").read_bytes()
    assert data.startswith(page.encode("utf-8"))
    block = data[len(page.encode("utf-8")) :]
    assert b"\r\n" in block and b"\n" not in block.replace(b"\r\n", b"")
    assert "changed 0 page(s)" in reflect(ws)


def test_ambiguous_markers_leave_the_page_alone(tmp_path: Path) -> None:
    broken = "# Anna\n\n<!-- memwiki:begin entity -->\nMy text that must survive.\n"
    ws = write_workspace(tmp_path / "ws", {**BASE, "bank/entities/Anna.md": broken})
    result = run("reflect", str(ws))
    assert "bank/entities/Anna.md: warning: line 3: '<!-- memwiki:begin' has no matching" in result.output
    assert (ws / "bank/entities/Anna.md").read_text(encoding="utf-8") == broken
    strict = run("reflect", str(ws), "--strict")
    assert strict.exit_code == 1


def test_pages_are_made_for_fact_subjects_but_not_for_passing_names_bare_links_or_unsafe_names(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            **BASE,
            "memory/2025-11-05.md": "# Wed\nMet @Zoe and read [[Some Note]].\n\n## Retain\n- W @Zoe: Zoe runs a bakery.\n"
            "- B @Auth: Rotated the token once.\n- W @Ida: Ida sells flour.\n- W @Ida: Ida delivers on Mondays.\n",
            "memory/2025-11-06.md": "# Thu\nZoe's bakery again, with @Zoe.\n\n## Retain\n- W @CON: Reserved device name.\n"
            "- W @CON: Another fact.\n",
        },
    )
    output = reflect(ws)
    zoe = (ws / "bank/entities/Zoe.md").read_text(encoding="utf-8")
    assert zoe.startswith("# Zoe\n\n<!-- memwiki:begin entity") and "Zoe runs a bakery." in zoe  # a fact, another day
    assert "Ida delivers on Mondays." in (ws / "bank/entities/Ida.md").read_text(encoding="utf-8")  # two facts
    assert not (ws / "bank/entities/Auth.md").exists()  # the one fact of a topic tag: shown on its day only
    assert not (ws / "bank/entities/Some Note.md").exists()
    assert not list((ws / "bank/entities").glob("CON*"))
    assert "'CON' is not a safe file name" in output


def test_opinion_history_keeps_every_point_in_date_order(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", BASE)
    reflect(ws)
    opinions = ws / "bank/opinions.md"
    rows = re.findall(r"^\| .* \|$", opinions.read_text(encoding="utf-8"), re.M)[1:]
    assert [r.split(" | ")[1:3] for r in rows] == [["0.60", "stated"], ["0.70", "restated"]]
    # A person changes the stated confidence, and the log that restated it is deleted.
    opinions.write_text(opinions.read_text(encoding="utf-8").replace("O(c=0.6)", "O(c=0.5)"), encoding="utf-8")
    (ws / "memory/2025-11-03.md").unlink()
    reflect(ws)
    text = opinions.read_text(encoding="utf-8")
    after = re.findall(r"^\| .* \|$", text, re.M)[1:]
    # Every earlier point is still there, as written; the new statement joins the undated ones.
    assert [after[0], after[2]] == rows
    assert after[1].split(" | ")[1:3] == ["0.50", "stated"]
    assert "confidence **0.50**" in text  # the removed log's 0.70 is history, not what memory says now
    assert "changed 0 page(s)" in reflect(ws)


def test_a_history_row_with_an_impossible_date_is_passed_over(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", BASE)
    reflect(ws)
    opinions = ws / "bank/opinions.md"
    text = opinions.read_text(encoding="utf-8")
    rows = re.findall(r"^\| .* \|$", text, re.M)[1:]
    hand_edited = rows[1].replace("2025-11-03", "2025-02-30", 1)
    opinions.write_text(text.replace(rows[1], f"{hand_edited}\n{rows[1]}"), encoding="utf-8")
    reflect(ws)
    assert re.findall(r"^\| .* \|$", opinions.read_text(encoding="utf-8"), re.M)[1:] == rows


def test_build_shows_the_reflected_state_in_the_same_build(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", BASE)
    out = tmp_path / "site"
    assert run("build", str(ws), "-o", str(out), "--no-search").exit_code == 0
    (ws / "memory/2025-11-07.md").write_text(
        "# Fri\n\n## Retain\n- W @Anna: Anna was easy to reach in the morning; she answered at 8:15.\n"
    )
    result = run("build", str(ws), "-o", str(out), "--no-search")
    assert "reflect: 1 entities, 1 opinions; changed 2 page(s)" in result.output
    page = (out / "bank/entities/anna.html").read_text(encoding="utf-8")
    assert "Anna was easy to reach in the morning; she answered at 8:15 (7 November 2025)." in page
    assert "memwiki:begin" not in page
    opinions = (out / "bank/opinions.html").read_text(encoding="utf-8")
    assert "reinforces: Anna was easy to reach in the morning" in opinions
    assert not [p for p in ws.rglob("*") if ".tmp" in p.name]


SURROGATES: tuple[Literal["Cs"]] = ("Cs",)  # lone surrogates cannot be written as UTF-8
# No marker, and no code fence: a fence opened before the block makes its markers code (reflect then leaves that text
# as it is and appends a block after closing the fence: ``reflect.blocks``)
NOT_MARKERS = st.text(st.characters(exclude_categories=SURROGATES, exclude_characters="\x00\r"), max_size=120).filter(
    lambda t: "memwiki:" not in t and "<!--" not in t and "```" not in t and "~~~" not in t
)
FACTS = st.lists(
    st.tuples(
        st.sampled_from("WBS"),
        st.sampled_from(["Anna", "Peter", "Zoe"]),
        st.text("abcdefg hijk", min_size=1, max_size=30),
    ),
    max_size=6,
)


@pytest.mark.slow  # 1.2-1.4 s
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(before=NOT_MARKERS, after=NOT_MARKERS, opinions_note=NOT_MARKERS, facts=FACTS, crlf=st.booleans())
def test_human_bytes_survive_any_edit_and_a_second_reflect_is_a_no_op(
    before: str, after: str, opinions_note: str, facts: list[tuple[str, str, str]], crlf: bool
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ws = write_workspace(Path(tmp) / "ws", BASE)
        reflect(ws)
        page = ws / "bank/entities/Anna.md"
        text = page.read_text(encoding="utf-8")
        start = text.index("<!-- memwiki:begin")
        nl = "\r\n" if crlf else "\n"
        head = text[:start].replace("\n", nl) + before.replace("\n", nl) + nl
        block = text[start:].replace("\n", nl)
        human_page = head + block + after.replace("\n", nl)
        page.write_bytes(human_page.encode("utf-8"))
        opinions = ws / "bank/opinions.md"
        human_opinions = opinions.read_text(encoding="utf-8") + opinions_note
        opinions.write_text(human_opinions, encoding="utf-8")
        lines = "".join(f"- {k} @{who}: {words.strip() or 'x'}.\n" for k, who, words in facts)
        (ws / "memory/2025-11-09.md").write_text(f"# Sun\n\n## Retain\n{lines}", encoding="utf-8")
        reflect(ws)
        result = page.read_bytes().decode("utf-8")
        end_marker = "<!-- memwiki:end -->"
        assert result.startswith(head + "<!-- memwiki:begin entity")
        assert result.endswith(end_marker + nl + after.replace("\n", nl))
        assert opinions.read_text(encoding="utf-8").startswith(human_opinions.split("<!-- memwiki:begin")[0])
        snapshot = {p: p.read_bytes() for p in ws.rglob("*.md")}
        reflect(ws)
        assert {p: p.read_bytes() for p in ws.rglob("*.md")} == snapshot


def test_a_page_that_ends_inside_a_code_fence_gets_one_block_after_it(tmp_path: Path) -> None:
    page = "# Anna\n\n```python\nprint('unclosed')\n"
    ws = write_workspace(tmp_path / "ws", {**BASE, "bank/entities/Anna.md": page})
    reflect(ws)
    text = (ws / "bank/entities/Anna.md").read_text(encoding="utf-8")
    assert text.startswith(page + "```\n\n<!-- memwiki:begin entity")  # the fence is closed where the file ended
    assert "changed 0 page(s)" in reflect(ws)  # found again, not appended again


def test_an_opinions_block_above_the_facts_cites_their_lines_after_it_grows(tmp_path: Path) -> None:
    opinions = "# Opinions\n\n<!-- memwiki:begin opinions -->\n<!-- memwiki:end -->\n\n- O(c=0.6) @Anna: Tea. ^tea\n"
    ws = write_workspace(tmp_path / "ws", {**BASE, "bank/opinions.md": opinions})
    reflect(ws)
    text = (ws / "bank/opinions.md").read_text(encoding="utf-8")
    line = text.split("\n").index("- O(c=0.6) @Anna: Tea. ^tea") + 1
    assert line > 6  # the block above it grew
    assert f"[bank/opinions.md#L{line}]" in (ws / "bank/entities/Anna.md").read_text(encoding="utf-8")
    assert "changed 0 page(s)" in reflect(ws)


def test_facts_below_an_entity_block_are_cited_at_their_lines_after_it_grows(tmp_path: Path) -> None:
    page = "# Anna\n\n<!-- memwiki:begin entity -->\n<!-- memwiki:end -->\n\n- W @Anna: Anna throws pots on Fridays.\n"
    ws = write_workspace(tmp_path / "ws", {**BASE, "bank/entities/Anna.md": page})
    reflect(ws)
    text = (ws / "bank/entities/Anna.md").read_text(encoding="utf-8")
    line = text.split("\n").index("- W @Anna: Anna throws pots on Fridays.") + 1
    assert f"[bank/entities/Anna.md#L{line}]" in text
    assert "changed 0 page(s)" in reflect(ws)


def test_a_private_marker_inside_a_generated_block_does_not_hide_what_follows(tmp_path: Path) -> None:
    page = "# Peter\n\n<!-- memwiki:begin entity -->\n<!-- private -->\n<!-- memwiki:end -->\nMet @Anna today.\n"
    ws = write_workspace(tmp_path / "ws", {**BASE, "bank/entities/Peter.md": page})
    reflect(ws)  # the block is reflect's: its old contents, marker included, are replaced
    assert "changed 0 page(s)" in reflect(ws)
    assert "Related: [[Anna]]" in (ws / "bank/entities/Peter.md").read_text(encoding="utf-8")


def test_an_opinion_with_more_related_facts_than_a_run_weighs_settles_in_one_run(tmp_path: Path) -> None:
    # Every day says something about Anna's tea: more facts bear on the opinion than one run weighs.
    days = {
        f"memory/2025-{1 + n // 28:02d}-{1 + n % 28:02d}.md": f"# Day {n}\n\n## Retain\n"
        f"- W @Anna: Anna brewed green tea number {n} before her morning walk.\n"
        for n in range(VERDICT_CANDIDATES + 25)
    }
    ws = write_workspace(
        tmp_path / "ws",
        {
            "bank/entities/Anna.md": "# Anna\n\nCeramicist in Lisbon.\n",
            "bank/opinions.md": "# Opinions\n\n- O(c=0.6) @Anna: Anna prefers green tea in the morning. ^tea\n",
            **days,
        },
    )
    reflect(ws)
    history = (ws / "bank/opinions.md").read_text(encoding="utf-8")
    assert history.count("| reinforces |") == VERDICT_CANDIDATES  # the newest of the facts that bear on it
    snapshot = {p: p.read_bytes() for p in ws.rglob("*.md")}
    assert "changed 0 page(s)" in reflect(ws)  # a second run with no new input changes no byte
    assert {p: p.read_bytes() for p in ws.rglob("*.md")} == snapshot
    # a new fact that bears on it is weighed in the next run
    (ws / "memory/2025-12-30.md").write_text(
        "# 30 Dec\n\n## Retain\n- W @Anna: Anna ordered green tea for the morning meeting.\n", encoding="utf-8"
    )
    reflect(ws)
    assert "2025-12-30" in (ws / "bank/opinions.md").read_text(encoding="utf-8").split("### ")[-1]


def test_a_control_character_in_a_record_never_makes_an_entity_page_unreadable(tmp_path: Path) -> None:
    """A TinyClaw episode whose summary holds a NUL (JSON ``\\u0000``), and a log with one past its first 8 KB:
    reflect quotes both on Anna's page. Written as is, the NUL made the page a "binary file" that the next run
    skipped whole, Anna's own line with it."""
    ws = write_workspace(
        tmp_path / "ws",
        {
            "bank/entities/Anna.md": "# Anna\n\nCeramicist in Lisbon.\n",
            "memory/episodes.jsonl": '{"ts": "2026-02-12T10:30:00Z", "user": "@Anna", "summary": "kiln \\u0000 fired"}\n',
            "memory/2026-02-13.md": "# Fri\n\n"
            + "A quiet line.\n" * 800
            + "\n## Retain\n- W @Anna: glaze \x00 ready.\n",
        },
    )
    reflect(ws)
    page = (ws / "bank/entities/Anna.md").read_bytes()
    assert b"\x00" not in page and "\ufffd".encode() in page
    assert (ws / "bank/entities/Anna.md").read_text(encoding="utf-8").startswith("# Anna\n\nCeramicist in Lisbon.\n")
    assert "binary" not in reflect(ws)
    assert (ws / "bank/entities/Anna.md").read_bytes() == page  # the second run changes nothing
