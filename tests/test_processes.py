"""Both cores: jobs shared with a forked child (each job done once, whatever the child does) and work a forked
child does in the background (its result, or the work done here when the child fails)."""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path
from typing import Any

import pytest

from site_builder import pipeline
from site_builder.build import build
from site_builder.core import processes
from site_builder.core.processes import Background, Take, in_shares, map_in_two
from site_builder.recall.publish import publish_recall
from site_builder.site.markdown import MarkdownRenderer
from tests.conftest import MakeWorkspace

two_cores = pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two cores to fork")


@two_cores
def test_each_job_is_done_once_and_the_slow_ones_do_not_hold_up_the_other_process() -> None:
    def work(take: Take, reporting: bool) -> list[tuple[int, int]]:
        done = []
        while (job := take()) is not None:
            if job % 10 == 0 and not reporting:
                time.sleep(0.02)  # the child meets the slow jobs: the parent takes more of the others
            done.append((job, os.getpid()))
        return done

    parts = in_shares(work, 200, 1)
    jobs = sorted(job for part in parts for job, _ in part)
    assert jobs == list(range(200))
    here, there = ({pid for _, pid in part} for part in parts)
    assert here == {os.getpid()} and there != here
    assert len(parts[0]) > len(parts[1])  # handed out as asked for, not every second job


@two_cores
def test_the_jobs_of_a_child_that_fails_are_done_again_here() -> None:
    parent = os.getpid()
    failed = multiprocessing.get_context("fork").Event()  # set by the child once it took a job and failed

    def work(take: Take, reporting: bool) -> list[int]:
        done = []
        while (job := take()) is not None:
            if os.getpid() != parent:
                failed.set()
                raise RuntimeError("the child fails")
            failed.wait(30)  # leaves the child a job, however slow the machine is to start it
            done.append(job)
        return done

    parts = in_shares(work, 100, 1)
    assert failed.is_set() and parts[1], "the child took a job, and it was done here again"
    assert sorted(job for part in parts for job in part) == list(range(100))


@two_cores
def test_map_in_two_keeps_the_order_of_the_items() -> None:
    items = list(range(500))
    assert map_in_two(lambda n: n * n, items, 1) == [n * n for n in items]


@two_cores
def test_background_work_comes_back_from_the_child_or_is_done_here_when_the_child_fails(tmp_path: Path) -> None:
    parent = os.getpid()
    assert Background(os.getpid, 10, 1).result() != parent  # made by the child

    def fails_in_the_child() -> str:
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        return "done here"

    assert Background(fails_in_the_child, 10, 1).result() == "done here"
    assert Background(os.getpid, 0, 1).result() == parent  # not worth a process


@pytest.mark.slow  # 1.0 s
@two_cores
def test_what_the_child_does_after_its_result_is_waited_for_by_finish(tmp_path: Path) -> None:
    """The result comes back as soon as the child has it; what it does then (at low priority), ``finish`` waits for;
    without a child, ``finish`` does it here."""
    after = tmp_path / "after"

    def then() -> None:
        time.sleep(0.5)
        after.write_text(f"{os.getpid()} {os.nice(0)}")

    work = Background(os.getpid, 10, 1, then)
    child = work.result()
    assert child != os.getpid() and not after.exists()
    work.finish()
    pid, nice = after.read_text().split()
    assert int(pid) == child and int(nice) > os.nice(0)
    after.unlink()
    here = Background(os.getpid, 0, 1, then)
    assert here.result() == os.getpid() and not after.exists()
    here.finish()
    assert after.read_text().split()[0] == str(os.getpid())


@pytest.mark.slow  # 1.5 s
@two_cores
def test_cancelled_background_work_writes_nothing_more(tmp_path: Path) -> None:
    late = tmp_path / "late"

    def slow() -> None:
        time.sleep(1)
        late.write_text("written after the build gave up")

    work = Background(slow, 10, 1)
    work.cancel()
    time.sleep(1.5)
    assert not late.exists()


def test_one_process_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMWIKI_PROCESSES", "1")
    assert processes.process_count(10_000, 1) == 1
    assert Background(os.getpid, 10_000, 1).result() == os.getpid()


def _noting(into: Path, real: Any, say: Any) -> Any:
    """``real``, noting ``say(*args)`` and the process it runs in into the file ``into`` (from a forked child too)."""

    def noted(*args: Any, **kwargs: Any) -> Any:
        with into.open("a", encoding="utf-8") as file:
            file.write(f"{say(*args)} {os.getpid()}\n")
        return real(*args, **kwargs)

    return noted


@pytest.mark.slow  # 1.9 s
@two_cores
def test_a_few_long_logs_are_rendered_by_both_cores_and_the_feed_reuses_the_childs_notes(
    workspace: MakeWorkspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Few files but much text (a real agent's months of long daily logs): worth a second process for render, and
    recall made beside it, as for many files; the feed, made once the child's pages are, renders no note again."""
    line = "- 09:00 Met @Ana at the harbour about the kiln, the tiles and the glaze for the new studio.\n"
    days = {f"memory/2026-03-{d:02d}.md": f"# 2026-03-{d:02d}\n\n{line * 1_300}" for d in range(1, 11)}  # 1.2 MB
    ws = workspace(days)
    calls = tmp_path / "calls"
    monkeypatch.setattr(
        MarkdownRenderer, "render_note", _noting(calls, MarkdownRenderer.render_note, lambda _, note, __: note.path)
    )
    monkeypatch.setattr(pipeline, "publish_recall", _noting(calls, publish_recall, lambda *_: "recall"))
    build(ws, tmp_path / "site", search=False, cache=False)
    noted = [line.split() for line in calls.read_text(encoding="utf-8").splitlines()]
    rendered = [path for path, _ in noted if path != "recall"]
    assert sorted(rendered) == sorted(days)  # each once: the feed's days too
    assert len({pid for path, pid in noted if path != "recall"}) == 2
    assert [pid for path, pid in noted if path == "recall"] != [str(os.getpid())]
