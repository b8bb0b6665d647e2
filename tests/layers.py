"""The pipeline's order of packages, and the imports of ``site_builder`` that go against it.

core (anything may use it) -> io -> parse -> library -> reflect -> site | recall -> load -> reflect_loaded ->
pipeline -> build -> serve, mcp -> cli. A module may import its own stage or an earlier one; ``site`` and
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


def import_graph() -> dict[str, set[str]]:
    """Every module of the package and the package modules it imports (at the top, in functions or for types)."""
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
