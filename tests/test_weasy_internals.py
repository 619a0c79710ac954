"""The WeasyPrint internals pnpgen touches (generator/render/weasy/internals.py) are there, as expected, and
every private name the layer reads or writes is listed there.

One test per name: after a WeasyPrint upgrade the failing test's id names the one that changed."""

from __future__ import annotations

import ast
import importlib.util
import inspect
import io
import re
import types
import xml.etree.ElementTree
from concurrent import futures
from dataclasses import dataclass
from pathlib import Path

import cffi
import pytest

from generator.render.weasy import internals, load, patches
from generator.render.weasy.internals import INTERNALS, Internal, problem, sample_boxes

ROOT = Path(__file__).resolve().parent.parent
LAYER = ROOT / "generator" / "render" / "weasy"
WATCHED = ("weasyprint", "pydyf", "pyphen", "cffi", "tinycss2", "cssselect2", "fontTools")  # WeasyPrint and its own


@pytest.fixture(scope="module", autouse=True)
def release_sample_layout():
    """WeasyPrint as pnpgen loads it is what is checked; the sample layout (Pango objects) is let go with this
    module, not at the interpreter's exit."""
    load()
    yield
    sample_boxes.cache_clear()


@pytest.mark.parametrize("internal", INTERNALS, ids=[internal.id for internal in INTERNALS])
def test_weasyprint_internal_is_as_expected(internal):
    assert problem(internal) is None, problem(internal)


def test_ids_are_unique():
    ids = [internal.id for internal in INTERNALS]
    assert len(ids) == len(set(ids))


@dataclass(frozen=True)
class Use:
    """A name the layer's source reads or writes: `name` a dotted name from a module of WeasyPrint's (or
    pydyf's, pyphen's, cffi's) it imported; `attribute` an attribute of some value (a box, a font, a style);
    `key` a constant key of some dictionary (a box's style)."""

    where: str
    kind: str
    name: str


def layer_uses(source: str, where: str) -> list[Use]:
    """Every name the source reads or writes, as Uses (`where` is the file, each Use gets its line)."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    bound: dict[str, str] = {}  # a name in the file -> the dotted name imported into it (anywhere in the file)
    uses = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:  # `import a.b` binds a; `import a.b as c` binds c to a.b
                bound[alias.asname or alias.name.partition(".")[0]] = (
                    alias.name if alias.asname else alias.name.partition(".")[0]
                )
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                if node.module.startswith(WATCHED):
                    uses.append(Use(f"{where}:{node.lineno}", "name", f"{node.module}.{alias.name}"))

    def dotted(node) -> str | None:
        """The dotted name an expression is, when it starts from an imported name (cut at a dunder)."""
        chain = []
        while isinstance(node, ast.Attribute):
            chain.insert(0, node.attr)
            node = node.value
        if not (isinstance(node, ast.Name) and node.id in bound):
            return None
        for index, part in enumerate(chain):
            if part.startswith("__"):
                chain = chain[:index]
                break
        return ".".join([bound[node.id], *chain])

    def use(node, attribute: str) -> None:
        """`attribute` read or written on the value node is."""
        line = f"{where}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Attribute) and node.attr == "__dict__":
            node = node.value
        owner = dotted(node)
        if owner is None:
            uses.append(Use(line, "attribute", attribute))
        elif owner.startswith(WATCHED):
            uses.append(Use(line, "name", f"{owner}.{attribute}"))

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and not node.attr.startswith("__"):
            owner = dotted(node.value)
            if owner is None:
                uses.append(Use(f"{where}:{node.lineno}", "attribute", node.attr))
            elif owner.startswith(WATCHED) and not (isinstance(parents.get(node), ast.Attribute)):
                uses.append(Use(f"{where}:{node.lineno}", "name", dotted(node) or owner))
        elif isinstance(node, ast.Call) and node.args:
            function = ast.unparse(node.func)
            names = [
                arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None for arg in node.args
            ]
            if (
                function in ("getattr", "hasattr", "setattr", "delattr", "object.__getattribute__")
                and len(names) > 1
                and names[1]
            ):
                use(node.args[0], names[1])
            elif function.endswith((".__dict__.get", ".__dict__.pop")) and names[0]:
                use(node.func.value, names[0])  # type: ignore[attr-defined]
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
        ):
            if isinstance(node.value, ast.Attribute) and node.value.attr == "__dict__":
                use(node.value, node.slice.value)
            else:
                uses.append(Use(f"{where}:{node.lineno}", "key", node.slice.value))
    return uses


def own_names(paths) -> set[str]:
    """What pnpgen's modules define: functions, classes, their attributes (`self.x = ...`, class bodies), module
    names. A class of WeasyPrint's subclassed keeps its names WeasyPrint's (HyphDict's `self.patterns`)."""
    names = set()
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            if isinstance(node, ast.ClassDef):
                if any(ast.unparse(base).partition(".")[0] in ("pyphen", "weasyprint") for base in node.bases):
                    continue
                for item in ast.walk(node):
                    targets = (
                        item.targets
                        if isinstance(item, ast.Assign)
                        else [item.target]
                        if isinstance(item, ast.AnnAssign)
                        else []
                    )
                    for target in targets:
                        if isinstance(target, ast.Name):
                            names.add(target.id)
                        for element in ast.walk(target):  # self.a, self.b = ...
                            if isinstance(element, ast.Attribute) and ast.unparse(element.value) == "self":
                                names.add(element.attr)
        for item in tree.body:
            for target in item.targets if isinstance(item, ast.Assign) else []:
                names.update(element.id for element in ast.walk(target) if isinstance(element, ast.Name))
    return names


def python_names() -> set[str]:
    """The attributes of what the layer works with besides WeasyPrint's objects: Python's own types, the HTML
    elements (ElementTree), the syntax tree of a module (patches.split_declarations), cffi's FFI objects."""
    kinds = [str, bytes, memoryview, re.Pattern, dict, list, tuple, set, frozenset, int, float, object, type, property]
    kinds += [types.FunctionType, types.ModuleType, xml.etree.ElementTree.Element, Path, io.StringIO, cffi.FFI]
    kinds += [type(Path().stat()), importlib.machinery.ModuleSpec, inspect.Signature, futures.Future]
    kinds += [
        futures.ThreadPoolExecutor,
        type(__import__("hashlib").sha256()),
        type(__import__("functools").cache(len)),
    ]
    names = {name for kind in kinds for name in dir(kind)}
    return names | {
        field for kind in vars(ast).values() if isinstance(kind, type) for field in getattr(kind, "_fields", ())
    }


def declared() -> tuple[set[str], set[str], set[str]]:
    """The dotted names, the bare attribute names and the dictionary keys internals.py declares."""
    full, last, keys = set(internals.PUBLIC), {name.rsplit(".", 1)[1] for name in internals.PUBLIC}, set()
    for entry in INTERNALS:
        name = entry.name.split("[")[0]
        full.add(f"{entry.module}.{name}")
        last.add(name.rsplit(".", 1)[-1])
        keys.update(entry.keys)
        if entry.kind == "attribute":
            full.update(f"{entry.module}.{name}.{member}" for member in entry.expected)
            last.update(entry.expected)
        elif entry.kind == "style key":
            keys.update(entry.expected)
        elif entry.kind == "option":
            keys.add(name.rsplit(".", 1)[1])
    return full, last, keys


def undeclared(paths) -> list[str]:
    """The names the modules use that internals.py does not declare, each with where it is used."""
    full, last, keys = declared()
    own = own_names([*paths, *imported_modules(paths)]) | set(internals.PNPGEN_MARKS) | python_names()
    found = []
    for path in paths:
        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
        for item in layer_uses(path.read_text(encoding="utf-8"), str(where)):
            name = item.name
            if item.kind == "name":
                if name.rsplit(".", 1)[-1] in internals.PNPGEN_MARKS:
                    name = name.rsplit(".", 1)[0]
                if name in full or is_module(name):
                    continue
            elif name in {"attribute": last | own, "key": keys | set(internals.OWN_KEYS)}[item.kind]:
                continue
            found.append(f"{item.where}: {item.kind} {name}")
    return sorted(set(found))


def is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def imported_modules(paths) -> list[Path]:
    """The files of pnpgen's modules the given ones import (the objects they read, `Attribute.name`)."""
    found = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("generator"):
                module = ROOT / Path(*node.module.split("."))
                found.update(
                    candidate
                    for candidate in (module.with_suffix(".py"), module / "__init__.py")
                    if candidate.is_file()
                )
    return sorted(found)


LAYER_MODULES = sorted(path for path in LAYER.glob("*.py") if path.name != "internals.py")  # internals: the checks


def test_every_name_the_layer_reads_or_writes_is_declared():
    """A new use of one of WeasyPrint's names (a box attribute read, a function replaced, a style key) in
    generator/render/weasy/ comes with its entry in internals.py, so its test exists and, for a speed patch,
    its check runs before the patch is installed."""
    assert undeclared(LAYER_MODULES) == []


def test_the_scan_finds_each_kind_of_use(tmp_path):
    """The scan can fail: each way of reaching a name, undeclared, is reported."""
    source = """
from weasyprint.pdf import fonts as pdf_fonts
import weasyprint.layout as layout
from weasyprint.text.fonts import FontConfiguration

def patch(box, page, context):
    pdf_fonts.Font.polish = None
    layout.make_everything(context)
    context.style_for_everything(page.page_kind)
    getattr(box, "hidden_box", None)
    box.style["word_wobble"]
    box.__dict__.get("secret")
    pdf_fonts.Font.__dict__.get("file_contents")
"""
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    found = sorted(line.split(": ", 1)[1] for line in undeclared([path]))
    assert found == [
        "attribute hidden_box",
        "attribute page_kind",
        "attribute secret",
        "attribute style_for_everything",
        "key word_wobble",
        "name weasyprint.layout.make_everything",
        "name weasyprint.pdf.fonts.Font.file_contents",
        "name weasyprint.pdf.fonts.Font.polish",
    ]


def test_every_speed_patch_is_named_by_its_entries():
    """Each speed patch has entries to check, and each entry's `patch` is one of them."""
    names = {patch.name for patch in patches.SPEED_PATCHES}
    named = {entry.patch for entry in INTERNALS if entry.patch}
    assert named == names


def test_a_changed_internal_is_reported_by_name():
    """The check can fail: names and signatures that are not WeasyPrint's are reported, naming the entry."""
    moved = Internal("weasyprint.pdf.fonts", "Font.no_such_method", "method", ("self",))
    assert "Font.no_such_method" in problem(moved)
    changed = Internal("weasyprint.pdf.fonts", "Font.clean", "method", ("self", "to_unicode"))
    assert "takes ('self', 'to_unicode', 'hinting')" in problem(changed)
    gone = Internal("weasyprint.formatting_structure.boxes", "Box.no_such_attribute", "layout attribute", ("Box",))
    assert "no Box of the sample layout has .no_such_attribute" in problem(gone)
    unassigned = Internal("weasyprint.pdf.fonts", "Font.never_set", "set in class")
    assert "no longer assigns self.never_set" in problem(unassigned)
    reshaped = Internal("weasyprint.pdf.fonts", "build_fonts_dictionary", "source", (r"font\.polish\(",))
    assert "source no longer matches" in problem(reshaped)


def weasyprint_users() -> dict[str, str]:
    """Modules of generator/ outside the weasy package that import WeasyPrint or read its private names."""
    found = {}
    for path in sorted((ROOT / "generator").rglob("*.py")):
        if "weasy" in path.relative_to(ROOT / "generator").parts[:2] and path.parent.name == "weasy":
            continue
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(name == "weasyprint" or name.startswith("weasyprint.") for name in names):
                found[str(path.relative_to(ROOT))] = names[0]
        if re.search(r"\._page_box|\"_box\"|\._box\b", source):
            found[str(path.relative_to(ROOT))] = "a private name of the layout tree"
    return found


def test_only_the_weasy_package_touches_weasyprint_internals():
    # fetch.py subclasses the public URLFetcher; serve.py imports WeasyPrint to have it loaded before forking
    allowed = {"generator/render/fetch.py", "generator/commands/serve.py"}
    assert {path: what for path, what in weasyprint_users().items() if path not in allowed} == {}
