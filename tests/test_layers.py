"""Imports follow the pipeline: io -> parse -> library -> reflect -> site | recall -> build -> serve, mcp, cli
(``tests/layers.py``); no module imports a later stage or its sibling, and no modules import each other."""

from __future__ import annotations

import pytest

from tests.layers import STAGES, backward_imports, cycles, import_graph, stage_of


@pytest.mark.slow  # 0.9-1.2 s
def test_every_module_has_a_stage() -> None:
    assert {stage_of(module) for module in import_graph()} <= set(STAGES)


@pytest.mark.slow  # 0.8 s
def test_no_module_imports_a_later_stage() -> None:
    assert backward_imports(import_graph()) == []


@pytest.mark.slow  # 0.8 s
def test_no_modules_import_each_other() -> None:
    assert cycles(import_graph(for_types=False)) == []


def test_the_rule_can_fail() -> None:
    """A site page that took a recall module, or io a library module, would be found."""
    graph = {"site_builder.site.x": {"site_builder.recall.y"}, "site_builder.io.a": {"site_builder.library.b"}}
    assert backward_imports(graph) == [
        ("site_builder.io.a", "site_builder.library.b"),
        ("site_builder.site.x", "site_builder.recall.y"),
    ]
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
