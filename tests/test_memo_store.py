"""The memo store: a value is made once for its inputs and read back after; a missing, corrupted, foreign or
hostile entry is a miss, never an error; a build keeps only the entries it used."""

from __future__ import annotations

import os
import pickle
import time
from pathlib import Path

import pytest

from site_builder.io.memo_store import MEMO_FOLDER, MemoStore
from tests.conftest import EXAMPLE, run


class Counter:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> frozenset[str]:
        self.calls += 1
        return frozenset({"a", "b"})


def test_a_value_is_made_once_and_read_back(tmp_path: Path) -> None:
    make = Counter()
    assert MemoStore(tmp_path).get_or_make("facts", ("t1",), make, frozenset) == {"a", "b"}
    assert MemoStore(tmp_path).get_or_make("facts", ("t1",), make, frozenset) == {"a", "b"}
    assert make.calls == 1
    MemoStore(tmp_path).get_or_make("facts", ("t2",), make, frozenset)  # other inputs: made again
    assert make.calls == 2
    assert MemoStore(tmp_path).get("facts", ("t1",), list) is None  # not of the kind asked for


def test_without_a_folder_every_value_is_made_and_nothing_kept(tmp_path: Path) -> None:
    make = Counter()
    store = MemoStore(None)
    store.get_or_make("facts", ("t1",), make, frozenset)
    store.get_or_make("facts", ("t1",), make, frozenset)
    store.begin()
    assert make.calls == 2 and store.keep_only_used() == 0


def entries(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def test_truncated_foreign_and_hostile_entries_are_misses(tmp_path: Path) -> None:
    make = Counter()
    MemoStore(tmp_path).get_or_make("facts", ("t1",), make, frozenset)
    (entry,) = entries(tmp_path)
    entry.write_bytes(entry.read_bytes()[:10])  # a build killed while writing (or a disk that lost the end)
    assert MemoStore(tmp_path).get_or_make("facts", ("t1",), make, frozenset) == {"a", "b"}
    assert make.calls == 2
    entry.write_bytes(pickle.dumps(("another key", frozenset({"x"}))))  # copied from elsewhere
    assert MemoStore(tmp_path).get("facts", ("t1",), frozenset) is None

    class Hostile:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (os.system, ("touch " + str(tmp_path / "pwned"),))

    entry.write_bytes(pickle.dumps((entry.stem, Hostile())))
    assert MemoStore(tmp_path).get("facts", ("t1",), frozenset) is None
    assert not (tmp_path / "pwned").exists()


def test_keep_only_used_removes_what_the_build_did_not_touch(tmp_path: Path) -> None:
    before = MemoStore(tmp_path)
    for token in ("old", "kept", "touched"):
        before.put("facts", (token,), frozenset({token}))
    (tmp_path / "facts" / ".half-written.123").write_bytes(b"x")
    past = time.time() - 60
    for path in entries(tmp_path):
        os.utime(path, (past, past))
    build = MemoStore(tmp_path)
    build.begin()
    assert build.get("facts", ("kept",), frozenset) == frozenset({"kept"})
    build.keep("facts", ("touched",))
    assert build.keep_only_used() == 2
    assert MemoStore(tmp_path).get("facts", ("old",), frozenset) is None
    assert MemoStore(tmp_path).get("facts", ("touched",), frozenset) == frozenset({"touched"})


@pytest.mark.slow  # 0.8 s
def test_a_build_keeps_its_memos_in_the_store_and_retires_the_old_files(tmp_path: Path) -> None:
    import shutil

    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("_site", ".memwiki"))
    (ws / ".memwiki" / "cache").mkdir(parents=True)
    (ws / ".memwiki" / "cache" / "opinion-facts.pickle").write_bytes(b"left by an earlier version")
    (ws / ".memwiki" / "cache" / "notes").mkdir()  # the parsed notes, as an earlier version kept them
    (ws / ".memwiki" / "cache" / "notes" / "00.pickle").write_bytes(b"left by an earlier version")
    assert run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search").exit_code == 0
    memo = ws / ".memwiki" / MEMO_FOLDER
    stages = {"opinion-facts", "opinion-digests", "opinions-block", "read", "last-build", "recall-shards", "page-reads"}
    stages |= {"library", "library-notes", "library-opinions", "reflect-settled"}
    sharded = {"notes", "fragments", "templates"}  # parsed notes and rendered HTML in shards, compiled templates
    assert {p.name for p in memo.iterdir() if p.is_dir()} == stages | sharded
    assert not (ws / ".memwiki" / "cache" / "opinion-facts.pickle").exists()
    assert not (ws / ".memwiki" / "cache" / "notes").exists()
    assert sorted(p.name for p in (ws / ".memwiki" / "cache").iterdir()) == ["memo"]  # one folder: the store
    first = set(entries(memo))
    day = sorted((ws / "memory").glob("20*.md"))[-1]
    for n in (1, 2):  # two edits that move an opinion: new opinions, a new library each time
        day.write_text(day.read_text(encoding="utf-8") + f"\n- O(c=0.{n}) @Peter: Likes rain. ^rain\n", "utf-8")
        assert run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search").exit_code == 0
    left = set(entries(memo))
    assert not {p for p in first if p.parent.name in ("opinion-digests", "opinion-facts", "opinions-block")} & left
    assert all(
        len(list(folder.iterdir())) <= 2 for folder in memo.iterdir() if folder.is_dir() and folder.name not in sharded
    )
