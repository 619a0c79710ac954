"""The shape of the code: no import cycle between generator's modules, no private name used from another package.

Every import counts, wherever it is written (at the top, inside a function, under TYPE_CHECKING): a lazy
import still ties the two modules together. The layers themselves are an import-linter contract in
pyproject.toml (`lint-imports`).

Nor does pnpgen use what Python's standard library keeps private (`_socket`, `atexit._run_exitfuncs`,
`multiprocessing.forkserver._forkserver`...), or another installed package's private names outside
generator/render/weasy/ (the one package that reads WeasyPrint's, each listed in its internals.py): such a
name may change or go in any release, and speed is had by public means (lazy imports, the resident server,
multiprocessing's fork server context).
"""

from __future__ import annotations

import ast
import sys
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


# Names of the standard library that begin with an underscore and are documented as its interface.
DOCUMENTED_PRIVATE_LOOKING = {
    "os._exit",  # "exit without calling cleanup handlers": how a forked child, or a process that has run its
    # exit handlers already (cli.leave), ends; documented in the os module's reference
}
READS_WEASYPRINT = ROOT / "generator" / "render" / "weasy"  # private names of WeasyPrint's: render/weasy/internals.py


def is_private(dotted: str) -> bool:
    return any(part.startswith("_") and not part.endswith("__") for part in dotted.split("."))


def foreign_private_names(source: str) -> list[tuple[int, str]]:
    """(line, dotted name) of each private name of a module outside generator the source imports or reads:
    `import _x`, `from x import _y`, `x._y` or `getattr(x, "_y")` where x was imported, `import_module("_x")`.
    A name imported anywhere in the file counts as bound in all of it (a local that shadows it may be reported:
    rename the local)."""
    tree = ast.parse(source)
    bound: dict[str, str] = {}  # name in the file -> the dotted name of what was imported into it
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append((node.lineno, alias.name))
                top = alias.name.partition(".")[0]  # what `import a.b` binds: a
                bound[alias.asname or top] = alias.name if alias.asname else top
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                found.append((node.lineno, f"{node.module}.{alias.name}"))
                bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            chain, base = [node.attr], node.value
            while isinstance(base, ast.Attribute):
                chain.append(base.attr)
                base = base.value
            if isinstance(base, ast.Name) and base.id in bound:
                found.append((node.lineno, ".".join([bound[base.id], *reversed(chain)])))
        elif isinstance(node, ast.Call):
            function, named = ast.unparse(node.func), constant_strings(node.args)
            if function in ("getattr", "hasattr") and len(named) > 1 and named[1]:  # getattr(x, "_y")
                owner = ast.unparse(node.args[0])
                root = owner.partition(".")[0]
                if root in bound:
                    found.append((node.lineno, f"{bound[root]}{owner[len(root) :]}.{named[1]}"))
            elif function in ("__import__", "importlib.import_module", "import_module") and named and named[0]:
                found.append((node.lineno, named[0]))
    return sorted(
        (line, name)
        for line, name in set(found)
        if not name.startswith(("generator.", "__future__.")) and name != "generator" and is_private(name)
    )


def constant_strings(arguments: list[ast.expr]) -> list[str | None]:
    return [arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None for arg in arguments]


def stdlib(dotted: str) -> bool:
    return dotted.partition(".")[0] in sys.stdlib_module_names


def test_no_private_name_of_the_standard_library_or_another_package_is_used():
    used = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in MODULES.values()
        for line, name in foreign_private_names(path.read_text(encoding="utf-8"))
        if name not in DOCUMENTED_PRIVATE_LOOKING and (stdlib(name) or not path.is_relative_to(READS_WEASYPRINT))
    ]
    assert used == []


def test_type_checking_is_typings_own():
    """`TYPE_CHECKING = False` written by hand (to spare importing typing) is a private convention with mypy."""
    assigned = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in MODULES.values()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name) and target.id == "TYPE_CHECKING"
    ]
    assert assigned == []


def test_the_private_name_finder_finds_each_way_of_reaching_one():
    source = """
import _socket
import multiprocessing
from _sha256 import sha256
from multiprocessing import forkserver
from weasyprint.text import ffi as text_ffi
from collections import _chain
import importlib, atexit, os, sys

def leave(self, progress):
    atexit._run_exitfuncs()
    pid = getattr(forkserver._forkserver, "_forkserver_pid", None)
    multiprocessing.forkserver._forkserver._stop()
    text_ffi._cache
    importlib.import_module("_hashlib")
    os._exit(0)
    self._private, progress._show_status, sys.argv, os.__file__
"""
    assert foreign_private_names(source) == [
        (2, "_socket"),
        (4, "_sha256.sha256"),
        (7, "collections._chain"),
        (11, "atexit._run_exitfuncs"),
        (12, "multiprocessing.forkserver._forkserver"),
        (12, "multiprocessing.forkserver._forkserver._forkserver_pid"),
        (13, "multiprocessing.forkserver._forkserver"),
        (13, "multiprocessing.forkserver._forkserver._stop"),
        (14, "weasyprint.text.ffi._cache"),
        (15, "_hashlib"),
        (16, "os._exit"),
    ]
    assert stdlib("_socket") and stdlib("multiprocessing.forkserver._forkserver") and not stdlib("weasyprint._x")


def test_the_layers_hold():
    """The import-linter contract of pyproject.toml (`lint-imports`), when import-linter is installed
    (`pip install -e '.[lint]'`); the cycle test above needs nothing."""
    linter = pytest.importorskip("importlinter.cli")
    assert linter.lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True) == 0
