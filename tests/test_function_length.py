"""No function of ``site_builder`` is over 50 lines (issue 47): a longer one is split into steps whose names say
what they do."""

from __future__ import annotations

import ast

from tests.layers import PACKAGE

LIMIT = 50


def long_functions(source: str, where: str) -> list[str]:
    """``where:name (lines)`` of each function of ``source`` over ``LIMIT`` lines."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno:
            lines = node.end_lineno - node.lineno + 1
            if lines > LIMIT:
                found.append(f"{where}:{node.name} ({lines})")
    return found


def test_no_function_is_over_50_lines() -> None:
    found = [
        name
        for path in sorted(PACKAGE.rglob("*.py"))
        for name in long_functions(path.read_text(encoding="utf-8"), path.relative_to(PACKAGE).as_posix())
    ]
    assert found == []


def test_the_rule_can_fail() -> None:
    """A function of 51 lines, a method among them, is found; one of 50 is not."""
    body = "".join(f"    x{n} = {n}\n" for n in range(49))
    source = f"def short():\n{body}\nclass C:\n    def long(self):\n        pass\n{body.replace('    ', '        ')}"
    assert long_functions(source, "m.py") == ["m.py:long (51)"]
