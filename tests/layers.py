"""The pipeline's order of packages, and the imports of ``site_builder`` that go against it.

core (anything may use it) -> io -> parse -> library -> reflect -> site | recall -> load -> reflect_loaded ->
build_result, pipeline -> build -> serve, mcp -> cli. A module may import its own stage or an earlier one; ``site`` and
``recall`` are siblings and take what they share from the library.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "site_builder"
STAGES = {
    "__init__": 0,
    "core": 0,
    "io": 1,
    "parse": 2,
    "library": 3,
    "reflect": 4,
    "site": 5,
    "recall": 5,
    "load": 6,
    "reflect_loaded": 7,
    "build_result": 8,
    "pipeline": 8,
    "build": 9,
    "serve": 10,
    "mcp": 10,
    "cli": 11,
    "__main__": 12,
}
SIBLINGS = {"site", "recall"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" and len(parts) > 1 else parts)


def stage_of(module: str) -> str:
    """``site_builder.site.render`` -> ``site``; ``site_builder`` -> ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def import_graph(*, for_types: bool = True) -> dict[str, set[str]]:
    """Every module of the package and the package modules it imports (at the top, in functions, and unless
    ``for_types`` is off, under ``if TYPE_CHECKING:``)."""
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        targets: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test) and not for_types:
                typing_only.update(id(inner) for inner in ast.walk(node))
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names if alias.name.startswith("site_builder"))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join([*package.split(".")[: len(package.split(".")) - node.level + 1], base]).strip(".")
                if base.startswith("site_builder"):
                    targets.add(base)
        graph[name] = {t for t in targets if t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Groups of modules that import each other, directly or not (strongly connected, more than one module)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def backward_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """``(importer, imported)`` for each import of a later stage, or of a sibling (``site`` <-> ``recall``)."""
    found = []
    for source, targets in sorted(graph.items()):
        here = stage_of(source)
        for target in sorted(targets):
            there = stage_of(target)
            if here == there:
                continue
            if STAGES[there] > STAGES[here] or {here, there} == SIBLINGS:
                found.append((source, target))
    return found
