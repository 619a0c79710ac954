"""The WeasyPrint internals pnpgen touches (generator/render/weasy/internals.py) are there, as expected.

One test per name: after a WeasyPrint upgrade the failing test's id names the one that changed."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from generator.render.weasy.internals import INTERNALS, Internal, patched_names, problem, sample_boxes

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module", autouse=True)
def release_sample_layout():
    """The sample layout (Pango objects) is let go with this module, not at the interpreter's exit."""
    yield
    sample_boxes.cache_clear()


@pytest.mark.parametrize("internal", INTERNALS, ids=[internal.id for internal in INTERNALS])
def test_weasyprint_internal_is_as_expected(internal):
    assert problem(internal) is None, problem(internal)


def test_ids_are_unique():
    ids = [internal.id for internal in INTERNALS]
    assert len(ids) == len(set(ids))


def test_every_name_the_patches_replace_is_listed():
    """A new patch of WeasyPrint comes with its entry in INTERNALS (module and name), so its test exists."""
    source = (ROOT / "generator" / "render" / "weasy" / "patches.py").read_text(encoding="utf-8")
    patched = patched_names(source)
    assert ("weasyprint.pdf.fonts", "Font.clean") in patched  # the scan finds the patches
    listed = {(internal.module, internal.name) for internal in INTERNALS}
    assert patched - listed == set()


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
