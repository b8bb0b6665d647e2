"""memory_remember's writing: the bullet lands in the Retain section and every other byte stays."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from site_builder.mcp.remember import RememberError, commit_append, fact_bullet, plan_append
from site_builder.parse.retain import parse_fact_line

DAY = dt.date(2026, 3, 4)
BULLET = "- W @Anna: The kiln is fixed."


def remember(root: Path, before: bytes | None) -> tuple[bytes, int]:
    log = root / "memory/2026-03-04.md"
    if before is not None:
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_bytes(before)
    append = plan_append(root, DAY, BULLET)
    commit_append(append)
    return log.read_bytes(), append.line


@pytest.mark.parametrize(
    ("before", "after", "line"),
    [
        (None, b"# 2026-03-04\n\n## Retain\n" + BULLET.encode() + b"\n", 4),
        (b"# Day\nNotes.\n", b"# Day\nNotes.\n\n## Retain\n" + BULLET.encode() + b"\n", 5),
        (b"# Day\nNotes.", b"# Day\nNotes.\n\n## Retain\n" + BULLET.encode() + b"\n", 5),
        (
            b"# Day\n## Retain\n- B: Did a thing.\n\n### Not facts\ntext\n",
            b"# Day\n## Retain\n- B: Did a thing.\n" + BULLET.encode() + b"\n\n### Not facts\ntext\n",
            4,
        ),
        (
            b"\xef\xbb\xbf# Day\r\n\r\n## Retain\r\n- B: Did a thing.\r\n",
            b"\xef\xbb\xbf# Day\r\n\r\n## Retain\r\n- B: Did a thing.\r\n" + BULLET.encode() + b"\r\n",
            5,
        ),
        (
            b"# Day\n## Retain\n```\n## Retain\n```\n## Retain (later)\n- S: Seen.\n\n\n",
            b"# Day\n## Retain\n```\n## Retain\n```\n## Retain (later)\n- S: Seen.\n" + BULLET.encode() + b"\n\n\n",
            8,
        ),
        (
            b"# Day\n## Retain\n- B: bad bytes \xff here",
            b"# Day\n## Retain\n- B: bad bytes \xff here\n" + BULLET.encode() + b"\n",
            4,
        ),
    ],
    ids=["new file", "no section", "no final newline", "section before others", "crlf and bom", "fences", "bad utf8"],
)
def test_the_bullet_lands_at_the_end_of_the_retain_section(
    tmp_path: Path, before: bytes | None, after: bytes, line: int
) -> None:
    written, at = remember(tmp_path, before)
    assert written == after
    assert at == line
    assert written.split(b"\n")[line - 1].rstrip(b"\r").decode() == BULLET


def test_a_log_changed_between_read_and_write_is_left_alone(tmp_path: Path) -> None:
    log = tmp_path / "memory/2026-03-04.md"
    log.parent.mkdir()
    log.write_text("# Day\n", encoding="utf-8")
    append = plan_append(tmp_path, DAY, BULLET)
    log.write_text("# Day\nSaved by an editor meanwhile.\n", encoding="utf-8")
    with pytest.raises(RememberError, match="changed while") as caught:
        commit_append(append)
    assert caught.value.code == "changed"
    assert log.read_text(encoding="utf-8") == "# Day\nSaved by an editor meanwhile.\n"
    assert sorted(p.name for p in log.parent.iterdir()) == ["2026-03-04.md"]  # no temporary file left


def test_a_log_created_meanwhile_is_not_overwritten(tmp_path: Path) -> None:
    append = plan_append(tmp_path, DAY, BULLET)
    log = tmp_path / "memory/2026-03-04.md"
    log.parent.mkdir()
    log.write_text("# Written by a person first\n", encoding="utf-8")
    with pytest.raises(RememberError, match="changed while"):
        commit_append(append)
    assert log.read_text(encoding="utf-8") == "# Written by a person first\n"


@pytest.mark.parametrize("editor_file", [".2026-03-04.md.swp", ".#2026-03-04.md"])
def test_a_log_open_in_an_editor_is_left_alone(tmp_path: Path, editor_file: str) -> None:
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / editor_file).write_text("", encoding="utf-8")
    with pytest.raises(RememberError, match="open in an editor"):
        plan_append(tmp_path, DAY, BULLET)
    assert not (tmp_path / "memory/2026-03-04.md").exists()


def test_a_symlinked_log_is_not_written_through(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("# Elsewhere\n", encoding="utf-8")
    (tmp_path / "ws/memory").mkdir(parents=True)
    (tmp_path / "ws/memory/2026-03-04.md").symlink_to(outside)
    with pytest.raises(RememberError, match="not a regular file"):
        plan_append(tmp_path / "ws", DAY, BULLET)
    assert outside.read_text(encoding="utf-8") == "# Elsewhere\n"


def test_bullets_read_back_through_the_retain_grammar() -> None:
    bullet = fact_bullet("O", "  Tea beats coffee. ^tea  ", ["@Sam", "Anna-Maria"], 0.75)
    assert bullet == "- O(c=0.75) @Sam @Anna-Maria: Tea beats coffee. ^tea"
    parsed = parse_fact_line(bullet)
    assert (parsed.kind, parsed.content, parsed.entities, parsed.confidence, parsed.block_id) == (
        "O",
        "Tea beats coffee.",
        ("Sam", "Anna-Maria"),
        0.75,
        "tea",
    )
    with pytest.raises(RememberError, match="entity name"):
        fact_bullet("W", "x", ["a:b"], None)
