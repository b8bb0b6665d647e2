"""Entities you can trust: an entity is a page in bank/entities/, one of its aliases, the subject of a Retain fact, or
a name written as @name or [[name]] on two different days. Handles keep their dots; e-mail addresses, npm scopes,
JSON-LD keys, chat pings, code and chat directives are never entities; a passing name stays readable text."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.build import load
from tests.conftest import run, write_workspace

DAY1, DAY2 = "memory/2026-01-16.md", "memory/2026-01-17.md"


def names(ws: Path) -> list[str]:
    return sorted(e.name for e in load(ws).library.entities.values())


def build(ws: Path, out: Path, *more: str) -> str:
    result = run("build", str(ws), "-o", str(out), "--no-search", *more)
    assert result.exit_code == 0, result.output
    return result.output


def two_days(tmp_path: Path, text: str, **more: str) -> Path:
    """``text`` written on two different days (and ``@Real``, which must become an entity, beside it)."""
    files = {DAY1: f"# D\n\nSaw @Real today.\n\n{text}\n", DAY2: f"# D\n\nSaw @Real again.\n\n{text}\n", **more}
    return write_workspace(tmp_path / "ws", files)


def test_handles_keep_their_dots_dashes_and_underscores(tmp_path: Path) -> None:
    ws = two_days(tmp_path, "Thanks @i.am.teke. Ask @kit_fox, then @anna-lee-!")
    assert names(ws) == ["Real", "anna-lee", "i.am.teke", "kit_fox"]
    out = tmp_path / "site"
    build(ws, out, "--no-reflect")
    day = (out / "memory/2026-01-16.html").read_text()
    assert 'href="../bank/entities/i-am-teke.html"' in day
    assert ">@i.am.teke</a>. Ask" in day  # the sentence's full stop is not part of the handle
    assert ">@anna-lee</a>-!" in day


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ("Mail bob@example.com or carol.x+tag@mail.example.org.", "bob@example.com"),
        ("Ran npm i @aws-sdk/client-s3 and @types/node.", "@aws-sdk/client-s3"),
        ('JSON-LD: {"@context": "x", "@type": "Person", "@id": "y", "@graph": [], "@vocab": "z"}', "@type"),
        ("Pinged @everyone, @here and @channel; Slack @Everyone too.", "Pinged @everyone, @here and @channel"),
        ("A decorator: `@cached` and ``@lru_cache``.", "<code>@cached</code>"),
        ("Code:\n\n```\n@inside_fence\n```\n\n~~~python\n@tilde_fence\n~~~", "@inside_fence"),
        ("[[reply_to_current]] Done. [[reply_to:4411]] [[replytocurrent]] ok", "[[reply_to_current]] Done."),
        ("Step [[1]] and [[--]].", "Step [[1]]"),
        ("Follow @kit@mastodon.social.", "@kit@mastodon.social"),
        ("The bot is @mentioned in threads.", "@mentioned"),
    ],
)
def test_never_entities(tmp_path: Path, text: str, visible: str) -> None:
    ws = two_days(tmp_path, text)
    assert names(ws) == ["Real"]
    out = tmp_path / "site"
    build(ws, out, "--no-reflect")
    assert visible in (out / "memory/2026-01-16.html").read_text().replace("&quot;", '"')


def test_non_ascii_wikilinks_are_names_not_directives(tmp_path: Path) -> None:
    ws = two_days(tmp_path, "和 [[王小明]] 开会; met @Émilie.")
    assert names(ws) == ["Real", "Émilie", "王小明"]
