"""The Retain grammar, driven by fixture cases in tests/fixtures/retain.txt."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.parse.retain import FactSyntaxError, parse_fact_line

FIXTURES = Path(__file__).parent / "fixtures" / "retain.txt"


def load_cases() -> list[tuple[str, str]]:
    text = FIXTURES.read_text(encoding="utf-8")
    lines = [line for line in text.split("\n") if not line.startswith("#")]
    blocks = "\n".join(lines).strip().split("\n\n")
    cases = []
    for block in blocks:
        source, _, expected = block.strip("\n").partition("\n.\n")
        cases.append((source, expected.strip()))
    return cases


CASES = load_cases()


def describe(line: str) -> str:
    try:
        fact = parse_fact_line(line)
    except FactSyntaxError as exc:
        return f"error: {exc}"
    confidence = "-" if fact.confidence is None else f"{fact.confidence:g}"
    return "|".join([fact.kind, confidence, ",".join(fact.entities) or "-", fact.block_id or "-", fact.content])


def test_fixture_file_has_cases() -> None:
    assert len(CASES) >= 15


@pytest.mark.parametrize(("source", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_retain_case(source: str, expected: str) -> None:
    got = describe(source)
    if expected.startswith("error: "):
        assert got.startswith(expected), got
    else:
        assert got == expected
