"""Dates and ranges written in fact text become the fact's ``occurred`` span."""

from __future__ import annotations

import datetime as dt

import pytest

from site_builder.parse.dates import find_occurred

REF = dt.date(2025, 11, 20)
D = dt.date


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("In Marrakech Nov 27–Dec 1, 2025.", (D(2025, 11, 27), D(2025, 12, 1))),
        ("Trip Nov 27-30", (D(2025, 11, 27), D(2025, 11, 30))),
        ("Away Dec 28 – Jan 3", (D(2025, 12, 28), D(2026, 1, 3))),
        ("Launched on 2025-10-03.", (D(2025, 10, 3), D(2025, 10, 3))),
        ("From 2025-10-01 to 2025-10-05", (D(2025, 10, 1), D(2025, 10, 5))),
        ("Back on 3 March", (D(2026, 3, 3), D(2026, 3, 3))),
        ("Market on October 4th, 2025", (D(2025, 10, 4), D(2025, 10, 4))),
        ("Invoiced for September 2025", (D(2025, 9, 1), D(2025, 9, 30))),
        ("He may be late", None),
        ("No dates here", None),
    ],
)
def test_find_occurred(text: str, expected: tuple[dt.date, dt.date] | None) -> None:
    span, problems = find_occurred(text, REF)
    assert span == expected
    assert problems == []


def test_impossible_date_is_reported() -> None:
    span, problems = find_occurred("Due 2025-02-30", REF)
    assert span is None
    assert problems[0].text == "2025-02-30"


def test_missing_year_without_reference_is_unknown() -> None:
    assert find_occurred("On Nov 27", None) == (None, [])
