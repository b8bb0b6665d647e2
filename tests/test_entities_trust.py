"""Entities you can trust: an entity is a page in bank/entities/, one of its aliases, the subject of a Retain fact, a
name linked as [[name]] (a page not written yet, as in Obsidian), or a name written as @name on two different days. Handles keep their dots; e-mail addresses, npm scopes,
JSON-LD keys, chat pings, code and chat directives are never entities; a passing name stays readable text."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.load import load
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
        ("Later <!-- ask @Hidden --> done.\n\n<!-- and @Block -->", "ask @Hidden"),
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


ONE_DAY = {
    "MEMORY.md": "# M\n\nUndated: @Solo and [[Lonely]].\n",
    "memory/2026-01-16.md": "# D\n\nMet @Solo at noon; see [[Lonely]].\n",
    "memory/2026-01-16-1430.md": "# Session: 2026-01-16 14:30:00 UTC\n\nuser: @Solo again, same day\n",
    "bank/notes.md": "# Notes\n\n@Solo is in bank/ too (undated).\n",
}


def test_a_handle_seen_on_one_day_only_is_no_entity_and_stays_text(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", ONE_DAY)
    assert names(ws) == ["Lonely"]  # a [[link]] asks for a page: it gets one, and hygiene lists it
    out = tmp_path / "site"
    output = build(ws, out, "--no-reflect")
    assert "warning" not in output.replace("0 warning(s)", "")
    assert not (out / "bank/entities/solo.html").exists() and (out / "bank/entities/lonely.html").exists()
    assert "Solo" not in (out / "bank/entities/index.html").read_text()
    for page in out.rglob("*.html"):  # the home page's active entities, the entity index, any chip or link
        assert "entities/solo" not in page.read_text(), page
    day = (out / "memory/2026-01-16.html").read_text()
    assert '<span class="handle">@Solo</span> at noon' in day
    assert not list(ws.rglob("bank/entities"))  # nothing was written into the workspace


def test_a_passing_wikilink_opens_the_page_made_for_it(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", ONE_DAY)
    out = tmp_path / "site"
    build(ws, out, "--no-reflect")
    day = (out / "memory/2026-01-16.html").read_text()
    assert 'href="../bank/entities/lonely.html"' in day and 'href="#"' not in day


def test_two_days_a_fact_or_an_alias_make_an_entity(tmp_path: Path) -> None:
    files = {
        DAY1: "# D\n\nLunch with @Bob.\n\n## Retain\n- W @Carol: runs the night shift\n",
        DAY2: "# D\n\nBob again: [[Bob]]. Called @Ally.\n",
        "bank/world.md": "# World\n\n- W @Dana: keeps the keys\n",
        "bank/entities/Alice.md": "---\naliases: [Ally]\n---\n# Alice\n",
    }
    ws = write_workspace(tmp_path / "ws", files)
    assert names(ws) == ["Alice", "Bob", "Carol", "Dana"]
    out = tmp_path / "site"
    output = build(ws, out, "--no-reflect")
    assert "Bob" not in output  # a name without a page is a finding, not a warning
    assert "Bob: mentioned 2 times, no page" in (out / "hygiene.html").read_text()
    for slug in ("alice", "bob", "carol", "dana"):
        assert (out / f"bank/entities/{slug}.html").is_file(), slug
    assert 'href="../bank/entities/alice.html" title="Alice">@Ally</a>' in (out / "memory/2026-01-17.html").read_text()


def test_wikilinks_to_notes_and_paths_are_page_links(tmp_path: Path) -> None:
    text = "See [[memory/2026-01-16]], [[dir/page|the page]], [[dir/page.md]], [[page]], [[gone/away|Gone]] and [[bank/entities/Alice|her]]."
    ws = two_days(tmp_path, text, **{"dir/page.md": "# Page\n", "bank/entities/Alice.md": "# Alice\n"})
    library = load(ws).library
    assert sorted(e.name for e in library.entities.values()) == ["Alice", "Real"]
    assert [link.path for link in library.backlinks["alice"]] == [DAY1, DAY2]
    out = tmp_path / "site"
    output = build(ws, out, "--no-reflect")
    assert f"{DAY1}:5: warning: [[gone/away]]: no such note in the workspace" in output
    day = (out / "memory/2026-01-17.html").read_text()
    assert 'href="../memory/2026-01-16.html"' in day
    assert day.count('href="../dir/page.html" title="Page"') == 3
    assert 'href="../bank/entities/alice.html" title="Alice">her</a>' in day


REFLECTED = {
    DAY1: "# D\n\nLunch with @Bob and [[Eve]].\n\n## Retain\n- W @Carol: runs the night shift\n- O(c=0.7) @Carol: likes quiet\n",
    DAY2: "# D\n\n@Bob again, [[Eve]] too. Thanks @i.am.teke.\n",
}


def snapshot(ws: Path) -> dict[str, bytes]:
    """Every file of the workspace but memwiki's own folder."""
    return {
        p.relative_to(ws).as_posix(): p.read_bytes() for p in ws.rglob("*") if p.is_file() and ".memwiki" not in p.parts
    }


def test_a_workspace_memwiki_did_not_lay_out_is_never_written_to(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {**REFLECTED, "MEMORY.md": "# M\n\n- O(c=0.9) @Carol: is reliable\n"})
    before = snapshot(ws)
    output = build(ws, tmp_path / "site")  # reflect runs with the build
    assert "changed 0 page(s)." in output
    assert names(ws) == ["Bob", "Carol", "Eve"]
    assert run("reflect", str(ws)).exit_code == 0
    assert snapshot(ws) == before
    assert (tmp_path / "site/bank/entities/carol.html").is_file()  # the entities exist on the site only


def test_reflect_adds_opinions_where_bank_exists_and_pages_only_for_fact_subjects(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {**REFLECTED, "bank/world.md": "# World\n"})
    build(ws, tmp_path / "site")
    assert sorted(set(snapshot(ws)) - set(REFLECTED)) == ["bank/opinions.md", "bank/world.md"]  # no bank/entities/
    (ws / "bank/entities").mkdir()
    (ws / "bank/entities/Bob.md").write_text("# Bob\n\nMy notes.\n", encoding="utf-8")
    build(ws, tmp_path / "site")
    made = sorted(p for p in snapshot(ws) if p.startswith("bank/entities/"))
    assert made == ["bank/entities/Bob.md", "bank/entities/Carol.md"]  # not Eve: no fact is about her
    bob = (ws / "bank/entities/Bob.md").read_text(encoding="utf-8")
    assert bob.startswith("# Bob\n\nMy notes.\n") and "<!-- memwiki:begin entity" in bob


def test_existing_marked_blocks_are_updated(tmp_path: Path) -> None:
    stale = "# Opinions\n\nMine.\n\n<!-- memwiki:begin opinions · old -->\nstale\n<!-- memwiki:end -->\n\nAfter.\n"
    ws = write_workspace(tmp_path / "ws", {**REFLECTED, "bank/opinions.md": stale})
    build(ws, tmp_path / "site")
    text = (ws / "bank/opinions.md").read_text(encoding="utf-8")
    assert "stale" not in text and "likes quiet" in text
    assert text.startswith("# Opinions\n\nMine.\n\n<!-- memwiki:begin opinions") and text.endswith("\n\nAfter.\n")
    assert not (ws / "bank/entities").exists()
