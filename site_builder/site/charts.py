"""Inline SVG charts: an opinion's confidence history, the calendar heatmap and an entity's mentions by month.

Pure functions from data to SVG text; colours come from CSS classes so the
charts follow the light/dark theme and need no inline styles.
"""

from __future__ import annotations

import bisect
import datetime as dt
from dataclasses import dataclass
from html import escape
from typing import NamedTuple


@dataclass(frozen=True)
class ChartPoint:
    date: dt.date
    value: float
    href: str
    label: str


def confidence_chart(points: list[ChartPoint], title: str) -> str:
    """A line chart of confidence (0..1) over time; every point links to its evidence.

    The x axis runs from the earliest to the latest date, whatever order the points come in.
    """
    width, height, pad_x, pad_y = 360, 140, 38, 16
    inner_w, inner_h = width - 2 * pad_x, height - 2 * pad_y
    if not points:
        return ""
    points = sorted(points, key=lambda p: p.date)  # stable: points of one day keep their order
    first, last = points[0].date, points[-1].date
    span = max((last - first).days, 1)

    def x(point: ChartPoint) -> float:
        if first == last:
            return pad_x + inner_w / 2
        return pad_x + inner_w * (point.date - first).days / span

    def y(value: float) -> float:
        return pad_y + inner_h * (1 - value)

    parts = [f'<svg class="chart confidence" viewBox="0 0 {width} {height}" role="group" aria-label="{escape(title)}">']
    for value in (0.0, 0.5, 1.0):
        parts.append(
            f'<line class="grid" x1="{pad_x}" x2="{width - pad_x}" y1="{y(value):.1f}" y2="{y(value):.1f}"/>'
            f'<text class="axis" x="{pad_x - 6}" y="{y(value) + 4:.1f}" text-anchor="end">{value:.1f}</text>'
        )
    parts.append(f'<text class="axis" x="{pad_x}" y="{height - 1}">{first.isoformat()}</text>')
    if last != first:
        parts.append(
            f'<text class="axis" x="{width - pad_x}" y="{height - 1}" text-anchor="end">{last.isoformat()}</text>'
        )
    coords = " ".join(f"{x(p):.1f},{y(p.value):.1f}" for p in points)
    parts.append(f'<polyline class="line" points="{coords}"/>')
    for p in points:
        # The title names the link (and is the pointer's tooltip); the tip shows on hover and keyboard focus.
        tip_x = min(max(x(p), pad_x + 40), width - pad_x - 40)
        tip_y = y(p.value) - 10 if p.value < 0.8 else y(p.value) + 20
        parts.append(
            f'<a class="point-link" href="{escape(p.href)}">'
            f"<title>{escape(p.date.isoformat())}: {p.value:.2f} — {escape(p.label)}</title>"
            f'<circle class="point" cx="{x(p):.1f}" cy="{y(p.value):.1f}" r="6"/>'
            f'<text class="tip" x="{tip_x:.1f}" y="{tip_y:.1f}" text-anchor="middle">'
            f"{escape(p.date.isoformat())} · {p.value:.2f}</text></a>"
        )
    parts.append("</svg>")
    return "".join(parts)


class HeatDay(NamedTuple):
    date: dt.date
    lines: int  # the day's filled lines: its shade
    href: str | None


def heatmap(year: int, days: dict[dt.date, HeatDay]) -> str:
    """A GitHub-style year calendar; each logged day links to its page."""
    cell, gap, top, left = 11, 2, 36, 34  # a row for the year (years stack on the timeline), one for the months
    step = cell + gap
    start = dt.date(year, 1, 1)
    offset = start.weekday()
    total = (dt.date(year, 12, 31) - start).days + 1
    weeks = (total - 1 + offset) // 7 + 1
    width = left + weeks * step
    height = top + 7 * step
    counts = sorted(d.lines for d in days.values() if d.lines)
    parts = [
        f'<svg class="chart heatmap" viewBox="0 0 {width} {height}" role="group" aria-label="Days with memory in {year}">'
    ]
    parts.append(f'<text class="axis year" x="0" y="14">{year}</text>')
    for index, name in ((0, "Mon"), (2, "Wed"), (4, "Fri")):
        parts.append(f'<text class="axis" x="0" y="{top + index * step + cell - 2}">{name}</text>')
    months = {(first - start).days: first.strftime("%b") for first in (dt.date(year, m, 1) for m in range(1, 13))}
    size = f'" width="{cell}" height="{cell}" rx="2"><title>'
    origin = start.toordinal()
    for number in range(total):  # the year's days, each a cell of its week's column (a timeline has thousands)
        index = number + offset
        px, py = left + index // 7 * step, top + index % 7 * step
        if number in months:
            parts.append(f'<text class="axis" x="{px}" y="{top - 5}">{months[number]}</text>')
        day = dt.date.fromordinal(origin + number)
        entry = days.get(day)
        if entry is None:
            parts.append(f'<rect class="l0" x="{px}" y="{py}{size}{day.isoformat()}</title></rect>')
            continue
        rect = (
            f'<rect class="l{_level(entry.lines, counts)}" x="{px}" y="{py}{size}'
            f"{day.isoformat()}: {entry.lines} lines</title></rect>"
        )
        parts.append(f'<a href="{escape(entry.href)}">{rect}</a>' if entry.href else rect)
    parts.append("</svg>")
    return "".join(parts)


def _level(count: int, counts: list[int]) -> int:
    """The shade of a day with ``count`` lines among the year's (``counts``, sorted): its quartile."""
    if count <= 0 or not counts:
        return 0
    rank = bisect.bisect_right(counts, count) / len(
        counts
    )  # ``counts`` is sorted: the share of days with as many or fewer
    return 1 + min(3, int(rank * 4 - 1e-9))


def months_chart(months: list[tuple[str, int, str]], title: str) -> str:
    """Bars of a count by month (``YYYY-MM``, count, the link of that month's first item), oldest first; each bar
    links to its month. Drawn in the text's colour (``currentColor``): no class of the theme is needed."""
    if not months:
        return ""
    width, height, pad_x, top, bottom = 360, 120, 30, 10, 18
    step = (width - 2 * pad_x) / len(months)
    tallest = max(count for _, count, _ in months) or 1
    parts = [
        f'<svg class="chart months" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="group" '
        f'aria-label="{escape(title)}">'
    ]
    parts.append(f'<text class="axis" x="{pad_x - 6}" y="{top + 8}" text-anchor="end">{tallest}</text>')
    for index, (month, count, href) in enumerate(months):
        bar = (height - top - bottom) * count / tallest
        x, y = pad_x + index * step, height - bottom - bar
        parts.append(
            f'<a href="{escape(href)}"><title>{escape(month)}: {count}</title>'
            f'<rect x="{x + step * 0.1:.1f}" y="{y:.1f}" width="{step * 0.8:.1f}" height="{bar:.1f}" '
            'fill="currentColor" opacity=".55"/></a>'
        )
    parts.append(f'<text class="axis" x="{pad_x}" y="{height - 2}">{escape(months[0][0])}</text>')
    if len(months) > 1:
        parts.append(
            f'<text class="axis" x="{width - pad_x}" y="{height - 2}" text-anchor="end">{escape(months[-1][0])}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
