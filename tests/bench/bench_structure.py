"""The shape of the code, as issue 47 measures it: lines and modules of ``site_builder/``, functions over 50 lines,
imports that go against the pipeline (io read -> parse -> library -> reflect -> site | recall -> build -> serve,
mcp, cli) and import cycles, and the kinds of entry a build and an edit leave in ``.memwiki/cache/``.

    python tests/bench/bench_structure.py [--list] [--no-cache-kinds]

Prints numbers; it asserts nothing (``tests/test_layers.py`` holds the import rule).
"""

from __future__ import annotations

import argparse
import ast
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "site_builder"
sys.path.insert(0, str(REPO))

from tests.layers import backward_imports, cycles, import_graph  # noqa: E402


def long_functions(limit: int = 50) -> list[tuple[str, int]]:
    """``(module:function, lines)`` of every function longer than ``limit`` lines."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno:
                length = node.end_lineno - node.lineno + 1
                if length > limit:
                    found.append((f"{path.relative_to(REPO)}:{node.name}", length))
    return sorted(found, key=lambda item: -item[1])


def cache_kinds() -> list[str]:
    """The kinds of entry in ``.memwiki/cache/`` (its files and folders) after building the example and editing one
    of its logs."""
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        shutil.copytree(REPO / "example_workspace", ws, ignore=shutil.ignore_patterns("_site", ".memwiki"))
        command = [sys.executable, "-m", "site_builder", "build", str(ws), "-o", str(Path(tmp) / "site")]
        subprocess.run(command, check=True, capture_output=True)
        log = sorted((ws / "memory").glob("20*.md"))[-1]
        log.write_text(log.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
        subprocess.run(command, check=True, capture_output=True)
        return sorted(path.name + ("/" if path.is_dir() else "") for path in (ws / ".memwiki" / "cache").iterdir())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="list each long function, backward import and cycle")
    parser.add_argument("--no-cache-kinds", action="store_true", help="skip the two builds of the example")
    args = parser.parse_args()
    modules = sorted(PACKAGE.rglob("*.py"))
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in modules)
    print(f"site_builder/: {len(modules)} modules, {lines:,} lines")
    long = long_functions()
    print(f"functions over 50 lines: {len(long)}")
    graph = import_graph()
    backward = backward_imports(graph)
    print(f"imports against the pipeline: {len(backward)}")
    found = cycles(import_graph(for_types=False))
    print(f"import cycles (at run time): {len(found)} ({sum(len(c) for c in found)} modules in them)")
    if args.list:
        for name, length in long:
            print(f"    {length:4} lines  {name}")
        for source, target in backward:
            print(f"    backward  {source} -> {target}")
        for group in found:
            print(f"    cycle     {' <-> '.join(group)}")
    if not args.no_cache_kinds:
        kinds = cache_kinds()
        print(f"kinds of entry in .memwiki/cache/ after a build and an edit: {len(kinds)}")
        if args.list:
            for kind in kinds:
                print(f"    {kind}")


if __name__ == "__main__":
    main()
