"""Opinions do not depend on the order memory was written in: history by date, the axis by date, one statement per id."""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.build import build
from site_builder.reflect.offline import OfflineReflector
from site_builder.site.charts import ChartPoint, confidence_chart
from tests.conftest import run, write_workspace

BASE = {
    "bank/entities/Anna.md": "# Anna\n\nCeramicist in Lisbon.\n",
    "bank/entities/Tidewater.md": "# Tidewater\n\nThe shipment tracker.\n",
    "bank/opinions.md": "# Opinions\n\n"
    "- O(c=0.6) @Anna: Anna is easiest to reach in the mornings. ^mornings\n"
    "- O(c=0.7) @Tidewater: Postgres is the right store for Tidewater's tracking data. ^postgres\n",
}


def day(date: str, *facts: str) -> tuple[str, str]:
    return f"memory/{date}.md", f"# {date}\n\nA day.\n\n## Retain\n" + "".join(f"- {f}\n" for f in facts)


def build_site(ws: Path, out: Path) -> str:
    result = run("build", str(ws), "-o", str(out), "--no-search")
    assert result.exit_code == 0, result.output
    return result.output


def opinion_block(ws: Path) -> str:
    return (ws / "bank/opinions.md").read_text(encoding="utf-8")


def test_an_earlier_log_added_later_does_not_become_the_current_confidence(tmp_path: Path) -> None:
    late = day("2026-11-20", "O(c=0.70) @Anna: Anna is easiest to reach in the mornings; 8:30 again. ^mornings")
    early = day("2026-11-17", "O(c=0.85) @Anna: Anna is easiest to reach in the mornings; she called at 8. ^mornings")
    grown = write_workspace(tmp_path / "grown" / "ws", dict([*BASE.items(), late]))  # one name: the site's title
    build_site(grown, tmp_path / "grown-site")
    write_workspace(grown, dict([early]))  # written after the later day was already reflected
    build_site(grown, tmp_path / "grown-site")
    text = opinion_block(grown)
    assert "confidence **0.70** · last changed 2026-11-20" in text
    dates = re.findall(r"^\| ([\d-]+|—) \| (\S+) \| (\w+) \|", text, re.M)
    mornings = dates[: dates.index(("—", "0.70", "stated"))]  # the first table is ^mornings'
    assert mornings == [("—", "0.60", "stated"), ("2026-11-17", "0.85", "restated"), ("2026-11-20", "0.70", "restated")]

    clone = write_workspace(tmp_path / "clone" / "ws", dict([*BASE.items(), late, early]))
    build_site(clone, tmp_path / "clone-site")
    assert opinion_block(clone) == text
    for name in ("bank/opinions.html", "index.html", "recall.json", "bank/entities/anna.html"):
        assert (tmp_path / "clone-site" / name).read_bytes() == (tmp_path / "grown-site" / name).read_bytes(), name
    recall = json.loads((tmp_path / "clone-site/recall.json").read_text(encoding="utf-8"))
    mornings_now = next(o for o in recall["opinions"] if o["id"] == "mornings")
    assert (mornings_now["confidence"], mornings_now["changed"]) == (0.7, "2026-11-20")


def test_the_chart_axis_runs_from_the_earliest_to_the_latest_date() -> None:
    dates = [dt.date(2026, 11, 20), dt.date(2026, 11, 17), dt.date(2026, 11, 25), dt.date(2026, 11, 18)]
    points = [ChartPoint(d, 0.5, f"#{d}", "x") for d in dates]
    svg = confidence_chart(points, "t")
    assert re.findall(r'<text class="axis" x="[\d.]+" y="139"[^>]*>([\d-]+)</text>', svg) == [
        "2026-11-17",
        "2026-11-25",
    ]
    xs = [float(x) for x in re.findall(r'<circle class="point" cx="([\d.]+)"', svg)]
    assert min(xs) == 38 and max(xs) == 360 - 38 and len(xs) == 4  # every point inside the axis
    line = re.search(r'<polyline class="line" points="([^"]+)"', svg)
    assert line is not None
    line_xs = [float(pair.split(",")[0]) for pair in line[1].split()]
    assert line_xs == sorted(line_xs)  # the line goes left to right


def test_restating_an_id_with_a_different_statement_warns_with_both_texts(tmp_path: Path) -> None:
    other = day("2026-11-20", "O(c=0.4) @Anna: Anna prefers to be called in the evening. ^mornings")
    reason = day("2026-11-21", "O(c=0.8) @Anna: Anna is easiest to reach in the mornings; she answered at 8. ^mornings")
    ws = write_workspace(tmp_path / "ws", dict([*BASE.items(), other, reason]))
    output = build_site(ws, tmp_path / "site")
    assert (
        'memory/2026-11-20.md:6: warning: opinion ^mornings is restated with a different statement: "Anna prefers '
        'to be called in the evening." here, "Anna is easiest to reach in the mornings." at bank/opinions.md#L3'
    ) in output
    assert "2026-11-21.md:6" not in output  # a restatement with a reason added is the same statement
    assert "restated with a different statement" in run("check", str(ws)).output


REASONS = ["she called at 8", "no answer after lunch", "quick reply before 10", "she was away"]
EVIDENCE = [
    "W @Anna: Anna was easy to reach in the morning at 8:15.",
    "W @Anna: Anna did not reach back in the morning.",
    "W @Anna: Anna is not easiest to reach in the mornings any more.",
    "W @Tidewater: Postgres kept the tracking data store fast under load.",
    "W @Tidewater: The tracking data store on Postgres failed the backup drill.",
    "B @Anna: Sent Anna the tile samples.",
]
FACT = st.one_of(
    st.tuples(st.just("mornings"), st.integers(1, 19), st.sampled_from(REASONS)).map(
        lambda t: f"O(c={t[1] / 20:.2f}) @Anna: Anna is easiest to reach in the mornings; {t[2]}. ^{t[0]}"
    ),
    st.tuples(st.integers(1, 19), st.sampled_from(REASONS)).map(
        lambda t: (
            f"O(c={t[0] / 20:.2f}) @Tidewater: Postgres is the right store for Tidewater's tracking data; "
            f"{t[1]}. ^postgres"
        )
    ),
    st.sampled_from(EVIDENCE),
)
DAYS = st.dictionaries(
    st.dates(dt.date(2026, 10, 1), dt.date(2026, 11, 30)).map(dt.date.isoformat),
    st.lists(FACT, min_size=1, max_size=3, unique=True),
    min_size=2,
    max_size=5,
)


def write_in_order(
    ws: Path, logs: dict[str, list[str]], order: list[str], builds: list[bool], rng: random.Random
) -> Path:
    """The base, then each log in ``order`` (building after some of them), then random modification times."""
    out = ws.parent / f"{ws.name}-site"
    write_workspace(ws, BASE)
    for date, build_now in zip(order, builds, strict=True):
        write_workspace(ws, dict([day(date, *logs[date])]))
        if build_now:
            build(ws, out, search=False, reflector=OfflineReflector())
    for path in ws.rglob("*.md"):
        stamp = rng.randrange(1_600_000_000, 1_900_000_000)
        os.utime(path, (stamp, stamp))
    build(ws, out, search=False, reflector=OfflineReflector())
    return out


def snapshot(ws: Path, out: Path) -> dict[str, bytes]:
    """What must not depend on the order: the site, recall.json and every page in the workspace."""
    files = {f"site/{p.relative_to(out)}": p.read_bytes() for p in out.rglob("*") if p.is_file()}
    files |= {f"ws/{p.relative_to(ws)}": p.read_bytes() for p in ws.rglob("*.md")}
    files["recall.json"] = (ws / ".memwiki/recall.json").read_bytes()
    return files


def check_any_order(logs: dict[str, list[str]], orders: list[tuple[list[str], list[bool]]], seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "fresh" / "memory"  # one folder name: a site is titled by its folder
        expected = snapshot(fresh, write_in_order(fresh, logs, sorted(logs), [False] * len(logs), rng))
        for index, (order, builds) in enumerate(orders):
            ws = Path(tmp) / f"order-{index}" / "memory"
            got = snapshot(ws, write_in_order(ws, logs, order, builds, rng))
            assert got.keys() == expected.keys(), (order, builds)
            for name, data in expected.items():
                assert got[name] == data, (name, order, builds)
            shutil.rmtree(ws.parent)


@st.composite
def orders(draw: st.DrawFn, logs: dict[str, list[str]]) -> list[tuple[list[str], list[bool]]]:
    """Two orders of writing the logs, each building after some of them."""
    return [
        (draw(st.permutations(sorted(logs))), draw(st.lists(st.booleans(), min_size=len(logs), max_size=len(logs))))
        for _ in range(2)
    ]


@st.composite
def workspaces(draw: st.DrawFn) -> tuple[dict[str, list[str]], list[tuple[list[str], list[bool]]]]:
    logs = draw(DAYS)
    return logs, draw(orders(logs))


@pytest.mark.slow  # 2.4-3.4 s
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=workspaces(), seed=st.integers(0, 2**32))
def test_any_order_of_writing_the_same_logs_gives_the_same_bytes(
    case: tuple[dict[str, list[str]], list[tuple[list[str], list[bool]]]], seed: int
) -> None:
    check_any_order(*case, seed)


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=workspaces(), seed=st.integers(0, 2**32))
def test_any_order_of_writing_the_same_logs_gives_the_same_bytes_many(
    case: tuple[dict[str, list[str]], list[tuple[list[str], list[bool]]]], seed: int
) -> None:
    check_any_order(*case, seed)
