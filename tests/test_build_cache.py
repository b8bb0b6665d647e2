"""The build cache: a rebuild parses only what changed, gives the same bytes as a cold build, and a cache it cannot
trust (corrupt, from other code, or planted to run code) is ignored without a word."""

from __future__ import annotations

import os
import pickle
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import site_builder.io.reader as reader
import site_builder.io.sources as sources
import site_builder.io.stamps as stamps
import site_builder.load as load_module
import site_builder.recall.index as recall_index
import site_builder.reflect_loaded as reflect_loaded_module
import site_builder.site.render as render
from site_builder.core.diagnostics import Diagnostics
from site_builder.io.build_cache import NOTE_SHARDS, NOTES_FOLDER, load_cached, shard_of
from site_builder.load import load
from site_builder.site.environment import make_environment
from site_builder.site.fragments_cache import FRAGMENTS_FOLDER, load_fragments
from tests.conftest import EXAMPLE, MakeWorkspace, run, spy_on

FILES = {
    "memory.md": "# Memory\n\n- Sam likes tea in [[Porto]].\n",
    "memory/2026-01-01.md": "# 2026-01-01\n\n## Retain\n- W @Sam: Moved to Porto.\n",
    "memory/2026-01-02.md": "# 2026-01-02\n\nMet @Sam at the harbour.\n",
    "bank/entities/Sam.md": "# Sam\n\nA friend.\n",
}


def notes_shard(path: str) -> str:
    """The cache file, under ``.memwiki/``, that holds the note of the workspace file ``path`` (unless it is heavy:
    ``HEAVY_NOTE_SHARDS``)."""
    return f"{NOTES_FOLDER}/{shard_of(path, NOTE_SHARDS)}"


def count_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The path of each note parsed, by the build or by reflect (the pages it writes), in order."""
    parsed: list[str] = []
    for module in (load_module, reflect_loaded_module):
        spy_on(monkeypatch, module, "parse_note", lambda source: parsed.append(source.path))
    return parsed


def site_bytes(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_a_rebuild_parses_only_the_changed_file_and_matches_a_cold_build(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = workspace(FILES)
    parsed = count_parses(monkeypatch)
    assert run("build", str(ws), "-o", str(tmp_path / "a"), "--no-search", "--no-reflect").exit_code == 0
    assert sorted(parsed) == sorted(FILES)
    parsed.clear()
    (ws / "memory/2026-01-02.md").write_text("# 2026-01-02\n\nMet @Sam at the market.\n")
    assert run("build", str(ws), "-o", str(tmp_path / "a"), "--no-search", "--no-reflect").exit_code == 0
    assert parsed == ["memory/2026-01-02.md"]
    parsed.clear()
    cold = run("build", str(ws), "-o", str(tmp_path / "cold"), "--no-search", "--no-reflect", "--no-cache")
    assert cold.exit_code == 0
    assert sorted(parsed) == sorted(FILES)
    assert site_bytes(tmp_path / "a") == site_bytes(tmp_path / "cold")
    assert "the market" in (tmp_path / "a/memory/2026-01-02.html").read_text()


def test_html_of_unchanged_notes_is_rendered_again_when_their_links_change(
    workspace: MakeWorkspace, tmp_path: Path
) -> None:
    ws = workspace(FILES)
    assert run("build", str(ws), "-o", str(tmp_path / "a"), "--no-search", "--no-reflect").exit_code == 0
    assert 'class="wikilink missing"' in (tmp_path / "a/memory.html").read_text()
    (ws / "bank/entities/Porto.md").write_text("# Porto\n\nA city.\n")  # memory.md itself is unchanged
    assert run("build", str(ws), "-o", str(tmp_path / "a"), "--no-search", "--no-reflect").exit_code == 0
    assert 'class="wikilink missing"' not in (tmp_path / "a/memory.html").read_text()
    cold = run("build", str(ws), "-o", str(tmp_path / "cold"), "--no-search", "--no-reflect", "--no-cache")
    assert cold.exit_code == 0
    assert site_bytes(tmp_path / "a") == site_bytes(tmp_path / "cold")


class Planted:
    """A cache entry that would create a file if unpickling ran code."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (str(self.marker), "w"))


@pytest.mark.parametrize("kind", ["empty", "half-written", "other-code", "planted"])
def test_a_cache_it_cannot_trust_is_ignored(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    marker = tmp_path / "code-ran"
    content = {
        "empty": b"",
        "half-written": pickle.dumps(("x", {"a": 1}))[:-5],
        "other-code": pickle.dumps(("not this code", {})),
        "planted": pickle.dumps(("x", Planted(marker))),
    }[kind]
    ws = workspace(FILES)
    shards = {ws / ".memwiki" / notes_shard(path) for path in FILES}  # the cache of every file
    for shard in shards:
        shard.parent.mkdir(parents=True, exist_ok=True)
        shard.write_bytes(content)
    parsed = count_parses(monkeypatch)
    result = run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search", "--no-reflect")
    assert result.exit_code == 0, result.output
    assert "; 0 warning(s)." in result.output
    assert not marker.exists()
    assert sorted(parsed) == sorted(FILES)  # everything parsed afresh
    assert all(shard.read_bytes() != content for shard in shards)  # and the cache written anew


@pytest.mark.parametrize("damage", ["empty", "half-written", "garbage"])
def test_compiled_templates_are_kept_and_one_damaged_is_compiled_again(
    workspace: MakeWorkspace, tmp_path: Path, damage: str
) -> None:
    make_environment.cache_clear()  # a new process: no template compiled yet
    ws = workspace(FILES)
    args = ("--no-search", "--no-reflect")
    assert run("build", str(ws), "-o", str(tmp_path / "site"), *args).exit_code == 0
    kept = sorted((ws / ".memwiki/cache/memo/templates").iterdir())
    assert any(path.name.endswith(".cache") for path in kept)  # Jinja2's compiled templates
    damaged = {}
    for path in kept:
        data = path.read_bytes()
        damaged[path] = {"empty": b"", "half-written": data[: len(data) // 2], "garbage": os.urandom(len(data))}[damage]
        path.write_bytes(damaged[path])
    make_environment.cache_clear()
    (ws / "memory/2026-01-02.md").write_text("# 2026-01-02\n\nMet @Sam at the market.\n", encoding="utf-8")
    assert run("build", str(ws), "-o", str(tmp_path / "site"), *args).exit_code == 0
    assert run("build", str(ws), "-o", str(tmp_path / "cold"), *args, "--no-cache").exit_code == 0
    assert site_bytes(tmp_path / "site") == site_bytes(tmp_path / "cold")
    # those it rendered, compiled again (those it did not render are no longer kept: the memo store keeps what a build
    # used)
    assert any(path.is_file() and path.read_bytes() != damaged[path] for path in kept)


def test_the_build_command_walks_the_workspace_once_and_a_later_listing_walks_again(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``memwiki build`` lists the notes from the walk that opened the workspace (a ten-year workspace is 30,000
    files); a workspace held open (serve, the MCP server) lists what is there when it lists, not what was."""
    ws = workspace(FILES)
    walks = spy_on(monkeypatch, reader, "walk_files", lambda root, diagnostics: root)
    assert run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search", "--no-reflect").exit_code == 0
    assert walks == [ws.resolve()]
    held = reader.open_workspace(ws, listed_next=True)
    (ws / "memory/2026-01-09.md").write_text("# 2026-01-09\n\nLater.\n", encoding="utf-8")
    assert "memory/2026-01-09.md" not in [rel for rel, _ in reader.note_entries(held, Diagnostics())]
    assert "memory/2026-01-09.md" in [rel for rel, _ in reader.note_entries(held, Diagnostics())]  # walked anew


def test_an_edit_writes_only_the_cache_shard_of_its_file(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = workspace(FILES)
    out = tmp_path / "site"
    run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect")
    shards = {path: ws / ".memwiki" / notes_shard(path) for path in FILES}
    assert len(set(shards.values())) > 1
    written = {shard: shard.stat().st_ino for shard in shards.values()}  # a shard written again is a new file
    edited = "memory/2026-01-02.md"
    (ws / edited).write_text("# 2026-01-02\n\nMet @Sam at the market.\n")
    parsed = count_parses(monkeypatch)
    run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect")
    assert parsed == [edited]
    assert [shard for shard, inode in written.items() if shard.stat().st_ino != inode] == [shards[edited]]


def test_the_note_holding_reflects_opinion_history_has_a_cache_shard_of_its_own(
    workspace: MakeWorkspace, tmp_path: Path
) -> None:
    """bank/opinions.md's history grows with every fact reflect judges (136 MB pickled on the large race corpus):
    an edit of a day that shares its shard by path must not write it again."""
    day = "memory/2026-03-04.md"
    assert notes_shard(day) == notes_shard("bank/opinions.md")  # by path, the same shard
    ws = workspace(
        {
            day: "# 2026-03-04\n\n## Retain\n- O(c=0.8) @Sam: Prefers green tea in the morning.\n",
            "memory/2026-03-05.md": "# 2026-03-05\n\n## Retain\n- B @Sam: Drank green tea this morning.\n",
            "bank/opinions.md": "# Opinions\n",
            "bank/entities/Sam.md": "# Sam\n\nA friend.\n",
        }
    )
    out = tmp_path / "site"
    assert run("build", str(ws), "-o", str(out), "--no-search").exit_code == 0  # reflect writes the history
    assert "| reinforces |" in (ws / "bank/opinions.md").read_text()
    assert run("build", str(ws), "-o", str(out), "--no-search").exit_code == 0
    folder = ws / ".memwiki" / NOTES_FOLDER
    stamps = {p: p.stat().st_ino for p in folder.glob("*.pickle")}  # a shard written again is a new file
    with (ws / day).open("a", encoding="utf-8") as file:
        file.write("\nA quiet day.\n")
    assert run("build", str(ws), "-o", str(out), "--no-search").exit_code == 0
    written = [p for p, stamp in stamps.items() if p.stat().st_ino != stamp]
    assert written == [ws / ".memwiki" / notes_shard(day)]
    assert {key[0] for key in load_cached(ws / ".memwiki", notes_shard(day))} == {day}


@pytest.mark.slow  # 0.6 s
def test_an_edit_writes_few_shards_of_the_rendered_html_and_drops_the_old_text(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns(".memwiki", "_site"))
    out = tmp_path / "site"
    run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect")
    folder = ws / ".memwiki" / FRAGMENTS_FOLDER
    stamps = {p: p.stat().st_ino for p in folder.rglob("*.pickle")}  # a shard written again is a new file
    day = "memory/2025-11-26.md"
    old = load_fragments(ws / ".memwiki")
    assert old is not None
    old.read()
    assert any(key[0] == day for key in old.notes)
    (ws / day).write_text((ws / day).read_text(encoding="utf-8") + "- one more line\n", encoding="utf-8")
    run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect")
    written = [p for p, stamp in stamps.items() if p.stat().st_ino != stamp]
    assert written and len(written) < len(stamps) / 4
    new = load_fragments(ws / ".memwiki")
    assert new is not None and new.epoch == old.epoch
    new.read()
    (key,) = [key for key in new.notes if key[0] == day]  # the day's HTML now, not the one before as well
    assert "one more line" in new.notes[key]


@pytest.mark.slow  # 0.7 s
def test_a_line_edited_away_leaves_no_html_behind_in_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pruned once the cache holds more lines than the workspace can show; here at once."""
    monkeypatch.setattr(render, "STALE_LINES", 0)
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns(".memwiki", "_site"))
    out = tmp_path / "site"
    run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect")
    old, new = "The tiler starts on Dec 8, 2025.", "The tiler starts on Dec 9, 2025."
    before = load_fragments(ws / ".memwiki")
    assert before is not None
    before.read()
    assert old in before.inline
    day = ws / "memory/2025-11-26.md"
    day.write_text(day.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect")
    after = load_fragments(ws / ".memwiki")
    assert after is not None
    after.read()
    assert new in after.inline and old not in after.inline


@pytest.mark.slow  # 0.7 s
def test_the_same_input_into_an_untouched_site_is_not_built_again(workspace: MakeWorkspace, tmp_path: Path) -> None:
    ws = workspace({**FILES, "memory/2026-01-03.md": "# 2026-01-03\n\n## Retain\n- W @: nobody\n"})  # one warning
    out = tmp_path / "site"

    def build(*extra: str) -> str:
        result = run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect", *extra)
        assert result.exit_code == 0, result.output
        return result.output

    first = build()
    assert first.startswith("memory/2026-01-03.md:4: warning:") and "Built " in first
    stamp = (out / "index.html").stat().st_mtime_ns
    again = build()
    assert "Up to date: nothing changed since the last build" in again
    assert again.splitlines()[0] == first.splitlines()[0]  # the same warning, said again
    assert (out / "index.html").stat().st_mtime_ns == stamp
    assert "Built " in build("--no-cache")
    assert "Up to date" in build()
    (out / "memory/2026-01-01.html").unlink()  # the site was touched: built again
    assert "Built " in build()
    assert (out / "memory/2026-01-01.html").is_file()
    (ws / "memory/2026-01-02.md").write_text("# 2026-01-02\n\nMet @Sam at the market.\n")
    assert "Built " in build()
    assert "the market" in (out / "memory/2026-01-02.html").read_text()
    assert "Built " in run("build", str(ws), "-o", str(out), "--no-reflect").output  # other settings: search on


def count_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return spy_on(monkeypatch, sources, "_read_text", lambda workspace, rel, diagnostics: rel)


def test_a_site_missing_a_file_is_built_again_though_the_workspace_is_unchanged(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stamps, "SETTLED_NS", 0)
    ws = workspace(FILES)
    out = tmp_path / "site"
    args = ("build", str(ws), "-o", str(out), "--no-search", "--no-reflect")
    assert "Built " in run(*args).output
    (out / "memory/2026-01-02.html").unlink()  # by hand, in the output
    assert "Built " in run(*args).output
    assert (out / "memory/2026-01-02.html").is_file()
    assert "Up to date" in run(*args).output
    day = ws / "memory/2026-01-02.md"
    os.utime(day, ns=(day.stat().st_atime_ns, day.stat().st_mtime_ns - 10**10))  # touched, not changed: read again
    (out / "memory/2026-01-02.html").unlink()
    assert "Built " in run(*args).output
    assert (out / "memory/2026-01-02.html").is_file()


def test_a_workspace_whose_stamps_are_unchanged_is_up_to_date_without_a_file_read(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stamps vouch for a text once it has not changed for a while (``SETTLED_NS``; none here, the test waits for
    nothing): a build of the same input then reads no file. A file rewritten in place with its size and its
    modification time put back is not the same file (its change time tells), nor is one touched but unchanged
    read again and again."""
    monkeypatch.setattr(stamps, "SETTLED_NS", 0)
    ws = workspace(FILES)
    out = tmp_path / "site"

    def build() -> str:
        result = run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect")
        assert result.exit_code == 0, result.output
        return result.output

    assert "Built " in build()
    read = count_reads(monkeypatch)
    assert "Up to date" in build()
    assert read == []
    day = ws / "memory/2026-01-02.md"
    os.utime(day, ns=(day.stat().st_atime_ns, day.stat().st_mtime_ns - 10**10))  # touched, not changed
    assert "Up to date" in build()
    assert read == ["memory/2026-01-02.md"]  # its stamps could not say: its text did
    assert "Up to date" in build()
    assert read == ["memory/2026-01-02.md"]  # and now the stamps can
    before = day.stat()
    text = day.read_text(encoding="utf-8")
    with day.open("r+", encoding="utf-8") as file:  # same size, same inode, same modification time
        file.write(text.replace("harbour", "Harbour"))
    os.utime(day, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (day.stat().st_size, day.stat().st_mtime_ns, day.stat().st_ino) == (
        before.st_size, before.st_mtime_ns, before.st_ino
    )  # fmt: skip
    assert "Built " in build()
    assert "the Harbour" in (out / "memory/2026-01-02.html").read_text(encoding="utf-8")
    os.utime(day, ns=(0, 0))  # as on a file system without time stamps: only the text can tell, every time
    for _ in range(2):
        read.clear()
        assert "Up to date" in build()
        assert read == ["memory/2026-01-02.md"]


def test_an_edit_reads_only_the_files_whose_stamps_changed(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other files are as the last build read them: their stamps say so. The site is the one a build that
    reads everything makes, and a file whose cached parse is gone is read again."""
    monkeypatch.setattr(stamps, "SETTLED_NS", 0)
    ws = workspace(FILES)
    out = tmp_path / "site"

    def build(*options: str) -> str:
        result = run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect", *options)
        assert result.exit_code == 0, result.output
        return result.output

    build()
    read = count_reads(monkeypatch)
    day = ws / "memory/2026-01-02.md"
    day.write_text(day.read_text(encoding="utf-8") + "- Walked to the @Sam harbour office.\n", encoding="utf-8")
    assert "Built " in build()
    assert read == ["memory/2026-01-02.md"]
    incremental = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    assert "harbour office" in incremental[Path("memory/2026-01-02.html")].decode()
    shutil.rmtree(ws / ".memwiki" / NOTES_FOLDER)  # the parsed notes lost: the texts are read again
    read.clear()
    day.write_text(day.read_text(encoding="utf-8").replace("harbour office", "harbour café"), encoding="utf-8")
    assert "Built " in build()
    assert sorted(read) == sorted(FILES)
    assert "harbour café" in (out / "memory/2026-01-02.html").read_text(encoding="utf-8")
    day.write_text(day.read_text(encoding="utf-8").replace("harbour café", "harbour office"), encoding="utf-8")
    build()
    cold = tmp_path / "cold"
    assert run("build", str(ws), "-o", str(cold), "--no-search", "--no-reflect", "--no-cache").exit_code == 0
    assert {p.relative_to(cold): p.read_bytes() for p in sorted(cold.rglob("*")) if p.is_file()} == {
        p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()
    }


def test_a_file_changed_just_before_the_build_is_read_whatever_its_stamps(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file changed within the tick of its time stamps may change again without a new stamp (git's "racily
    clean" files): while any file is that fresh, a build reads the texts to know that nothing changed."""
    ws = workspace(FILES)
    out = tmp_path / "site"
    assert "Built " in run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect").output
    read = count_reads(monkeypatch)
    assert "Up to date" in run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect").output
    assert sorted(read) == sorted(FILES)


def test_pages_whose_view_is_unchanged_are_taken_from_the_last_site_not_rendered_again(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import jinja2

    ws = workspace(FILES)
    out = tmp_path / "a"
    assert run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect").exit_code == 0
    rendered: list[str] = []
    real = jinja2.Template.render
    day_before = (out / "memory/2026-01-01.html").stat()

    def spy(self: jinja2.Template, *args: object, **kwargs: object) -> str:
        page = kwargs.get("page")
        rendered.append(getattr(getattr(page, "chrome", None), "url", "?"))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(jinja2.Template, "render", spy)
    # Someone edits a page of the site by hand: it is not trusted, so it is rendered again.
    (out / "memory.html").write_text("tampered", encoding="utf-8")
    (ws / "memory/2026-01-02.md").write_text("# 2026-01-02\n\nMet @Sam at the market, then the harbour.\n")
    assert run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect").exit_code == 0
    assert "memory/2026-01-02.html" in rendered and "memory.html" in rendered
    assert "memory/2026-01-01.html" not in rendered, "an unchanged day is not rendered again"
    day_after = (out / "memory/2026-01-01.html").stat()
    assert (day_after.st_ino, day_after.st_dev) == (day_before.st_ino, day_before.st_dev), "nor written again"
    assert (out / "memory/2026-01-02.html").stat().st_nlink == 1  # the old site is gone, links and all
    monkeypatch.undo()
    cold = run("build", str(ws), "-o", str(tmp_path / "cold"), "--no-search", "--no-reflect", "--no-cache")
    assert cold.exit_code == 0
    assert site_bytes(out) == site_bytes(tmp_path / "cold")


def test_after_reflect_wrote_pages_the_next_build_has_nothing_to_do(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The site made from the pages reflect wrote is the site of the workspace it left; its pages are cached as
    parsed after reflect; and a page made from reflect's opinions has the same key as the page made later from the
    opinions recorded in bank/opinions.md (a digest of values, whatever objects they share)."""
    import jinja2

    ws = workspace(
        {
            **FILES,
            "memory/2026-01-03.md": "# 2026-01-03\n\n## Retain\n- O(c=0.7) @Sam: Prefers tea to coffee.\n",
            "memory/2026-01-04.md": "# 2026-01-04\n\n## Retain\n- O(c=0.8) @Sam: Prefers tea to coffee.\n",
        }
    )
    out = tmp_path / "site"
    assert "Built " in run("build", str(ws), "-o", str(out), "--no-search").output
    assert "memwiki:begin" in (ws / "bank/opinions.md").read_text(encoding="utf-8")  # reflect wrote pages
    assert "Up to date" in run("build", str(ws), "-o", str(out), "--no-search").output
    parsed = count_parses(monkeypatch)
    rendered: list[str] = []
    real = jinja2.Template.render

    def spy(self: jinja2.Template, *args: object, **kwargs: object) -> str:
        rendered.append(getattr(getattr(kwargs.get("page"), "chrome", None), "url", "?"))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(jinja2.Template, "render", spy)
    (ws / "memory/2026-01-02.md").write_text("# 2026-01-02\n\nMet @Sam at the market.\n")
    assert "Built " in run("build", str(ws), "-o", str(out), "--no-search").output
    assert parsed == ["memory/2026-01-02.md"]
    assert "memory/2026-01-02.html" in rendered and "bank/opinions.html" not in rendered
    monkeypatch.undo()
    before = {path: (ws / path).read_bytes() for path in ("bank/opinions.md", "bank/entities/Sam.md")}
    cold = run("build", str(ws), "-o", str(tmp_path / "cold"), "--no-search", "--no-cache")
    assert "Built " in cold.output
    assert {path: (ws / path).read_bytes() for path in before} == before  # reflect again changes no byte
    assert site_bytes(out) == site_bytes(tmp_path / "cold")


def test_a_page_reflect_writes_is_parsed_once(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reflect parses the pages it writes (have their facts moved?); the build keeps that parse, not makes another
    (a heavy workspace's bank/opinions.md is tens of MB: seconds per parse). Reflect has no parser of its own: it
    parses with the one the build gives it."""
    ws = workspace({**FILES, "memory/2026-01-03.md": "# 2026-01-03\n\n## Retain\n- O(c=0.7) @Sam: Likes tea.\n"})
    parsed = count_parses(monkeypatch)
    assert "Built " in run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search").output
    assert (ws / "bank/opinions.md").is_file()  # written by reflect
    assert parsed.count("bank/opinions.md") == 1
    assert parsed.count("bank/entities/Sam.md") == 2  # as read, then as reflect wrote it


@pytest.mark.parametrize(
    ("edited", "text", "page", "shown"),
    [
        ("memory/2026-01-02.md", "# 2026-01-02\n\nMet @Sam at the market.\n", "memory/2026-01-02.html", "the market"),
        ("memwiki.toml", '[site]\ntitle = "Harbour notes"\n', "index.html", "Harbour notes"),
    ],
)
def test_a_file_edited_while_reflect_writes_is_built_next_time(
    workspace: MakeWorkspace,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    edited: str,
    text: str,
    page: str,
    shown: str,
) -> None:
    """The build after reflect wrote is skipped only when every file and the settings are as the build saw them."""
    import site_builder.pipeline as pipeline_module

    ws = workspace({**FILES, "memory/2026-01-03.md": "# 2026-01-03\n\n## Retain\n- O(c=0.7) @Sam: Likes tea.\n"})
    real = reflect_loaded_module.write_reflected

    def and_someone_edits(*args: Any, **kwargs: Any) -> None:
        real(*args, **kwargs)
        (ws / edited).write_text(text, encoding="utf-8")

    monkeypatch.setattr(pipeline_module, "write_reflected", and_someone_edits)
    out = tmp_path / "site"
    assert "Built " in run("build", str(ws), "-o", str(out), "--no-search").output
    assert shown not in (out / page).read_text(encoding="utf-8")
    monkeypatch.undo()
    assert "Built " in run("build", str(ws), "-o", str(out), "--no-search").output
    assert shown in (out / page).read_text(encoding="utf-8")


@pytest.mark.slow  # 1.1 s
def test_a_second_build_of_the_same_workspace_waits_for_the_first(
    workspace: MakeWorkspace, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    import fcntl
    import threading
    import time

    from site_builder.build import build

    ws = workspace(FILES)
    (ws / ".memwiki").mkdir()
    with open(ws / ".memwiki" / "build.lock", "a+", encoding="utf-8") as held:
        held.write("pid 12345\n")
        held.flush()
        fcntl.flock(held, fcntl.LOCK_EX)  # another build is running
        second = threading.Thread(target=build, args=(ws, tmp_path / "site"), kwargs={"search": False})
        second.start()
        time.sleep(1.0)
        assert second.is_alive(), "the second build waits"
        assert not (tmp_path / "site").exists(), "and writes nothing meanwhile"
        fcntl.flock(held, fcntl.LOCK_UN)
    second.join(timeout=60)
    assert not second.is_alive()
    assert (tmp_path / "site" / "index.html").is_file()
    assert "waiting for another build of this workspace to finish (pid 12345)" in capfd.readouterr().err


def test_an_edited_template_or_theme_file_is_new_code() -> None:
    from site_builder.io.memo_store import code_fingerprint
    from site_builder.io.styling import resource_dir

    def fingerprint() -> str:
        code_fingerprint.cache_clear()  # once per process otherwise
        return code_fingerprint()

    before = fingerprint()
    for path in (resource_dir("templates") / "404.html", resource_dir("themes") / "default" / "graph.css"):
        info = path.stat()
        try:
            os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))
            assert fingerprint() != before, path
        finally:
            os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert fingerprint() == before


def test_after_a_build_recall_finds_its_index_up_to_date_and_reads_only_a_file_edited_since(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build records in the recall index each file's stamps as it listed them, before reading: recall then reads
    nothing, and a file edited after the build is read again (its stamp is not the one recorded)."""
    monkeypatch.setattr(stamps, "SETTLED_NS", 0)
    monkeypatch.setattr(recall_index, "SETTLED_NS", 0)
    ws = workspace(FILES)
    assert run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search", "--no-reflect").exit_code == 0
    read = count_reads(monkeypatch)
    assert "harbour" in run("recall", "harbour", str(ws)).output
    assert read == []
    day = ws / "memory/2026-01-02.md"
    day.write_text(day.read_text(encoding="utf-8") + "- Bought a kite at the pier.\n", encoding="utf-8")
    assert "kite" in run("recall", "kite", str(ws)).output
    assert read == ["memory/2026-01-02.md"]


@pytest.mark.parametrize("seed", range(6))
def test_a_cache_kept_in_shards_loads_as_it_was_saved_after_any_change(tmp_path: Path, seed: int) -> None:
    """Entries come, go and (for a cache not keyed by content) change value; the shards written again from what each
    held when loaded give back every entry, and only shards with a change are written."""
    import random

    from site_builder.io.build_cache import load_sharded, save_sharded

    rng = random.Random(seed)
    shards, folder = 16, "cache/test"
    entries = {f"key {i}": f"value {i}" for i in range(200)}
    save_sharded(tmp_path, folder, shards, entries, {}, str)
    for by_content in (True, False):
        last = load_sharded(tmp_path, folder, shards)
        assert last == entries
        now = dict(last)
        for key in rng.sample(sorted(now), 5):
            del now[key]
        now.update({f"new {rng.random()}": "new" for _ in range(3)})
        if not by_content:
            now[rng.choice(sorted(now))] = "changed"
        files = {p: p.stat().st_ino for p in (tmp_path / folder).iterdir()}  # a shard written is a new file
        save_sharded(tmp_path, folder, shards, now, last, str, by_content=by_content)
        assert load_sharded(tmp_path, folder, shards) == now
        assert 0 < sum(p.stat().st_ino != inode for p, inode in files.items()) < shards
        save_sharded(tmp_path, folder, shards, now, dict(now), str)  # from a plain dict: every entry's shard
        assert load_sharded(tmp_path, folder, shards) == now
        entries = now


def test_the_recall_index_of_a_build_holds_the_pages_reflect_wrote_as_written(
    workspace: MakeWorkspace, tmp_path: Path
) -> None:
    """When reflect writes pages, the build's recall index holds each as written (the text and the lines of the
    person's, reflect's block left out), and the next build has nothing to do."""
    ws = workspace({**FILES, "bank/entities/Sam.md": "# Sam\n\nA friend.\n\n## Boats\n\nSails a dinghy.\n"})
    build = ("build", str(ws), "-o", str(tmp_path / "site"), "--no-search")
    assert "Built " in run(*build).output
    text = (ws / "bank/entities/Sam.md").read_text(encoding="utf-8")
    assert "memwiki:begin" in text  # reflect wrote Sam's page
    db = sqlite3.connect(ws / ".memwiki" / "recall.sqlite")
    indexed = db.execute("SELECT line, content FROM docs WHERE path = 'bank/entities/Sam.md'").fetchall()
    (digest,) = db.execute("SELECT digest FROM files WHERE path = 'bank/entities/Sam.md'").fetchone()
    db.close()
    assert digest == load(ws, cache=False).library.note_by_path["bank/entities/Sam.md"].digest
    lines = text.split("\n")
    assert sorted(indexed) == [(3, "A friend."), (5, "Boats"), (7, "Sails a dinghy.")] and lines[6] == "Sails a dinghy."
    assert "Up to date" in run(*build).output
