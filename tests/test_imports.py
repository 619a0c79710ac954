"""The shape of the code: no import cycle between generator's modules, no private name used from another package.

Every import counts, wherever it is written (at the top, inside a function, under TYPE_CHECKING): a lazy
import still ties the two modules together. The layers themselves are an import-linter contract in
pyproject.toml (`lint-imports`).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGE = ROOT / "generator"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def imported(name: str, path: Path) -> list[tuple[str, list[str], int]]:
    """(module, names taken from it, line) for every import of a generator module in the file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            for alias in node.names:  # `from generator.render import fonts` imports the module fonts
                if f"{base}.{alias.name}" in MODULES:
                    found.append((f"{base}.{alias.name}", [], node.lineno))
                else:
                    found.append((base, [alias.name], node.lineno))
    return [(owner(module), names, line) for module, names, line in found if owner(module)]


def owner(module: str) -> str | None:
    """The generator module a dotted name lives in (None for other packages)."""
    while module and module not in MODULES:
        module = module.rpartition(".")[0]
    return module or None


def import_graph() -> dict[str, set[str]]:
    return {name: {target for target, _, _ in imported(name, path) if target != name} for name, path in MODULES.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each one or more import cycles."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def top_package(module: str) -> str:
    """generator.render.sheet_plan -> generator.render; a base module (generator.paths) is its own package."""
    parts = module.split(".")
    return ".".join(parts[:2])


def test_there_is_no_import_cycle_between_generator_modules():
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_private_name_is_imported_from_another_package():
    crossing = [
        f"{MODULES[name].relative_to(ROOT)}:{line}: {target}.{taken}"
        for name, path in MODULES.items()
        for target, names, line in imported(name, path)
        for taken in names
        if taken.startswith("_") and not taken.startswith("__") and top_package(target) != top_package(name)
    ]
    assert crossing == []


def test_the_layers_hold():
    """The import-linter contract of pyproject.toml (`lint-imports`), when import-linter is installed
    (`pip install -e '.[lint]'`); the cycle test above needs nothing."""
    linter = pytest.importorskip("importlinter.cli")
    assert linter.lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True) == 0
