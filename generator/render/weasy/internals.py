"""Every name of WeasyPrint's internals this package touches (and of pyphen's, which WeasyPrint hyphenates with),
what it is expected to be, and a check of each.

WeasyPrint's public API is `HTML`, `CSS`, `Document.pages`, `render()`, `write_pdf()` and `URLFetcher`:
everything else pnpgen uses (the patches in patches.py, the layout tree read by tree.py, fit.py, furigana.py,
paragraphs.py, phrases.py, lastlines.py, lastpage.py and justify.py) is listed in INTERNALS.
tests/test_weasy_internals.py checks each entry, one test per entry, so that after an upgrade the failing
test's id names the name that moved or changed.

Kinds of entry (`expected` says what is checked):
- function / method: a function with exactly these parameter names;
- class: a class of that name;
- set in class: an attribute the class's own code assigns (`self.NAME = ...`);
- layout attribute: present on the laid-out boxes of a sample document (a number, or a method);
- style key: `box.style[KEY]` readable on a laid-out box;
- option: a key of `weasyprint.DEFAULT_OPTIONS`;
- source: the module's or function's source still has the shape the code relies on;
- behaviour: a property of WeasyPrint checked by running it.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import inspect
import itertools
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Internal:
    module: str  # where the name lives, e.g. "weasyprint.pdf.fonts"
    name: str  # the dotted name inside the module, e.g. "Font.clean"
    kind: str  # see the module docstring
    expected: tuple = ()  # parameter names, a class name to look the attribute up on, a source pattern
    used_by: str = ""  # the pnpgen code that relies on it

    @property
    def id(self) -> str:
        return f"{self.module}.{self.name}" + (":source" if self.kind == "source" else "")


def patched_names(source: str) -> set[tuple[str, str]]:
    """(module, dotted name) of every WeasyPrint name a module of patches assigns: `fonts.Font.clean = ...` after
    `from weasyprint.pdf import fonts`. Each must be listed in INTERNALS (tests/test_weasy_internals.py)."""
    found = set()
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, (ast.FunctionDef, ast.Module)):
            continue
        aliases = {}
        for node in ast.walk(function):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("weasyprint"):
                aliases.update({alias.asname or alias.name: f"{node.module}.{alias.name}" for alias in node.names})
            elif isinstance(node, ast.Import):
                aliases.update(
                    {
                        alias.asname: alias.name
                        for alias in node.names
                        if alias.name.startswith("weasyprint") and alias.asname
                    }
                )
        for node in ast.walk(function):
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, (ast.AugAssign, ast.AnnAssign))
                else []
            )
            for target in targets:
                chain: list[str] = []
                while isinstance(target, ast.Attribute):
                    chain.insert(0, target.attr)
                    target = target.value
                if chain and isinstance(target, ast.Name) and target.id in aliases:
                    found.add((aliases[target.id], ".".join(chain)))
    return found


BOXES = "weasyprint.formatting_structure.boxes"
FONTS = "weasyprint.pdf.fonts"

INTERNALS: list[Internal] = [
    # patches.py: prebuilt C declarations
    Internal(
        "weasyprint.text.ffi",
        "ffi.cdef",
        "source",
        ("one `ffi = cffi.FFI()` and one `ffi.cdef(TEXT)`",),
        "patches._install_finder / split_declarations",
    ),
    # patches.py: whole font files read lazily
    Internal(FONTS, "Font", "class", (), "patches.defer_font_copies"),
    Internal(FONTS, "Font.file_content", "set in class", (), "patches._FileContent"),
    Internal(FONTS, "get_hb_object_data", "function", ("hb_object", "ot_color", "glyph"), "patches.defer_font_copies"),
    Internal(FONTS, "get_pango_font_hb_face", "function", ("pango_font",), "patches.defer_font_copies"),
    Internal(FONTS, "ffi", "attribute", ("cast",), "patches.defer_font_copies"),
    # patches.py: fonts subset in parallel
    Internal(FONTS, "Font.clean", "method", ("self", "to_unicode", "hinting"), "patches.subset_fonts_in_parallel"),
    Internal(FONTS, "Font.bitmap", "set in class", (), "patches.subset_fonts_in_parallel"),
    Internal(FONTS, "Font.used_in_forms", "set in class", (), "patches.subset_fonts_in_parallel"),
    Internal(FONTS, "Font.to_unicode", "set in class", (), "patches.subset_fonts_in_parallel"),
    Internal(FONTS, "Font.hash", "set in class", (), "patches._fonts_by_file"),
    Internal(
        FONTS,
        "build_fonts_dictionary",
        "function",
        ("pdf", "fonts", "compress", "subset", "options"),
        "patches.subset_fonts_in_parallel",
    ),
    Internal(
        FONTS,
        "build_fonts_dictionary",
        "source",
        (
            r"setdefault\(font\.hash",
            r"if font\.bitmap",
            r"if subset and not font\.used_in_forms",
            r"file_font\.to_unicode",
            r"font\.clean\(to_unicode, options\['hinting'\]\)",
            r"if font\.type == 'otf':\s+font_extra = pydyf\.Dictionary\(\{'Subtype': '/OpenType'\}\)",
            r"pydyf\.Stream\(\[font\.file_content\], font_extra",
        ),
        "patches.subset_fonts_in_parallel (repeats what the loop passes to clean()); compactfonts."
        "_label_bare_cff_streams (relabels the stream of a bare CFF /CIDFontType0C)",
    ),
    Internal(
        "weasyprint.pdf",
        "build_fonts_dictionary",
        "function",
        ("pdf", "fonts", "compress", "subset", "options"),
        "patches.subset_fonts_in_parallel (the name weasyprint.pdf calls, replaced)",
    ),
    Internal(
        "weasyprint.pdf",
        "generate_pdf",
        "source",
        (r"= build_fonts_dictionary\(",),
        "patches.subset_fonts_in_parallel (replaces weasyprint.pdf.build_fonts_dictionary, which this calls)",
    ),
    Internal("weasyprint", "DEFAULT_OPTIONS.hinting", "option", (), "patches.subset_fonts_in_parallel"),
    # patches.py: one font configuration for the process
    Internal(
        "weasyprint.text.fonts",
        "FontConfiguration._folder",
        "set in class",
        (),
        "patches.SharedFonts (a font added by @font-face)",
    ),
    # compactfonts.py: CJK fonts embedded with their used glyphs only
    Internal(
        FONTS, "Font._harfbuzz_subset", "method", ("self", "to_unicode", "hinting"), "compactfonts.embed_compact_fonts"
    ),
    Internal(FONTS, "Font.type", "attribute", ("fget",), "compactfonts.embed_compact_fonts (a bare CFF is 'otf' too)"),
    Internal(FONTS, "Font.missing", "set in class", (), "compactfonts.compact_cff"),
    Internal(FONTS, "Font.tables", "set in class", (), "compactfonts.compact_cff"),
    Internal(FONTS, "Font.hb_face", "set in class", (), "compactfonts.compact_cff"),
    Internal(
        FONTS,
        "_build_vector_font_dictionary",
        "source",
        (r"FontFile\{3 if font\.type == \"otf\" else 2\}", r"/CIDFontType\{0 if font\.type == \"otf\" else 2\}"),
        "compactfonts.embed_compact_fonts (a bare CFF, typed 'otf', is FontFile3 of a CIDFontType0)",
    ),
    Internal(
        "weasyprint.text.ffi",
        "harfbuzz",
        "attribute",
        ("hb_face_reference_table", "hb_blob_get_data", "hb_blob_destroy", "hb_face_destroy", "hb_tag_from_string"),
        "compactfonts._read_cff",
    ),
    Internal(
        "weasyprint.text.ffi",
        "harfbuzz_subset",
        "attribute",
        ("HB_SUBSET_FLAGS_NO_LAYOUT_CLOSURE", "HB_SUBSET_SETS_DROP_TABLE_TAG", "hb_subset_or_fail"),
        "compactfonts.compact_cff",
    ),
    Internal(
        "weasyprint.css",
        "find_style_attributes",
        "function",
        ("tree", "presentational_hints", "base_url"),
        "patches.share_inline_styles",
    ),
    Internal(
        "weasyprint.css",
        "find_style_attributes",
        "source",
        (r"specificity = \(1, 0, 0\)",),
        "patches.share_inline_styles (a style attribute's specificity, STYLE_ATTRIBUTE_SPECIFICITY)",
    ),
    Internal(
        "weasyprint.layout",
        "make_margin_boxes",
        "function",
        ("context", "page", "state"),
        "patches.skip_empty_margin_boxes (the name weasyprint.layout calls, replaced)",
    ),
    Internal(
        "weasyprint.css",
        "PAGE_MARGIN_BOXES",
        "attribute",
        ("__iter__",),
        "patches.skip_empty_margin_boxes (the margin box names)",
    ),
    # patches.py: fontTools' subsetter and instancer imported when first used
    Internal(
        FONTS,
        "<module>",
        "source",
        (r"\nfrom fontTools import subset\n", r"\nfrom fontTools\.varLib\.instancer import instantiateVariableFont\n"),
        "patches.defer_imports (DEFERRED_IMPORTS: what the module imports from them, and how)",
    ),
    # patches.py: hyphenation patterns parsed once (pyphen, which WeasyPrint hyphenates with)
    Internal("pyphen", "HyphDict", "class", (), "patches.cache_hyphenation (subclassed)"),
    *[
        Internal("pyphen", f"HyphDict.{name}", "set in class", (), "patches.cache_hyphenation (stored, set)")
        for name in ("patterns", "maxlen", "cache")
    ],
    Internal(
        "pyphen",
        "Pyphen.__init__",
        "source",
        (r"hdcache\[path\] = HyphDict\(path\)",),
        "patches.cache_hyphenation (replaces pyphen.HyphDict, which this calls)",
    ),
    # tree.py: the ways into the layout tree
    Internal("weasyprint.document", "Page._page_box", "set in class", (), "tree.page_box"),
    Internal(
        "weasyprint.layout.absolute",
        "AbsolutePlaceholder._box",
        "layout attribute",
        ("AbsolutePlaceholder",),
        "tree.unwrap",
    ),
    Internal(BOXES, "Box.descendants", "method", ("self", "placeholders"), "tree.descendants"),
    *[
        Internal(BOXES, name, "class", (), "tree.kind (compared by name)")
        for name in ("LineBox", "TextBox", "InlineBox", "MarginBox")
    ],
    # fit.py, furigana.py, lastlines.py, lastpage.py: what they read from the boxes
    *[
        Internal(BOXES, f"Box.{name}", "layout attribute", ("Box",), "fit.py, lastlines.py, furigana.py")
        for name in (
            "element",
            "element_tag",
            "style",
            "children",
            "position_x",
            "position_y",
            "width",
            "height",
            "margin_width",
            "margin_height",
            "content_box_x",
            "content_box_y",
            "padding_box_x",
            "padding_box_y",
            "padding_width",
            "padding_height",
            "transformation_matrix",
        )
    ],
    Internal(BOXES, "TextBox.text", "layout attribute", ("TextBox",), "fit.py, lastlines.py, paragraphs.py"),
    # justify.py: a laid-out line filled by letter spacing, its boxes moved
    Internal(
        BOXES, "Box.translate", "method", ("self", "dx", "dy", "ignore_floats"), "justify._shift (an inline block)"
    ),
    Internal(BOXES, "Box.is_in_normal_flow", "method", ("self",), "justify._in_flow"),
    Internal(BOXES, "TextBox.justification_spacing", "layout attribute", ("TextBox",), "justify._stretched"),
    Internal(BOXES, "TextBox.pango_layout", "layout attribute", ("TextBox",), "justify._shift"),
    Internal(
        "weasyprint.text.line_break",
        "Layout.justification_spacing",
        "set in class",
        (),
        "justify._shift (WeasyPrint's stretching of a line's spaces taken back)",
    ),
    *[
        Internal("weasyprint.css", f"{name}.copy", "method", ("self",), "justify._shift (a text box's own style)")
        for name in ("ComputedStyle", "AnonymousStyle")
    ],
    Internal(
        "weasyprint.draw.text",
        "draw_text",
        "source",
        (r"textbox\.pango_layout\.reactivate\(textbox\.style\)",),
        "justify._shift (a text box is drawn from its style, the letter spacing given after layout included)",
    ),
    Internal(
        "weasyprint",
        "Document.write_pdf",
        "behaviour",
        ("letter spacing given to a laid-out text box's style is drawn in the PDF",),
        "justify.fill_line",
    ),
    Internal(BOXES, "TextBox.baseline", "layout attribute", ("TextBox",), "fit._add_run"),
    *[
        Internal(BOXES, f"Box.style[{key}]", "style key", (key,), "fit.py, furigana.py, lastlines.py, lastpage.py")
        for key in ("font_size", "position", "lang", "letter_spacing", "text_align_all")
    ],
    Internal(
        "weasyprint",
        "HTML.render",
        "behaviour",
        ("a style set on a box's element applies at the next render()",),
        "fit.py (shrink, grow), furigana.py, lastlines.py, lastpage.py: change the tree, render again",
    ),
    Internal(
        "weasyprint",
        "Document.pages",
        "behaviour",
        ("a page laid out by another render() of the same HTML can take a page's place in write_pdf()",),
        "fit.FacePages: only the faces a pass changed are laid out again",
    ),
]


def _resolve(module_name: str, dotted: str):
    value = importlib.import_module(module_name)
    for part in dotted.split("."):
        value = getattr(value, part)
    return value


def _parameters(function) -> tuple[str, ...]:
    return tuple(inspect.signature(function).parameters)


SAMPLE = """<html lang="ja"><head><style>
@page { size: 60mm 60mm; margin: 8mm; @top-left { content: "page" } }
body { margin: 0; font-size: 8pt } .fixed { position: absolute; left: 2mm; top: 2mm; width: 20mm }
.turned { transform: rotate(5deg) }
</style></head><body><p id="p">カードを1枚引く。Draw one card.</p>
<div class="fixed"><span>位置</span></div><div class="turned">turned</div></body></html>"""


@functools.cache
def sample_boxes() -> dict[str, list]:
    """The boxes of a small laid-out document (absolute, transformed, margin box, Japanese), by class name."""
    from generator.render.weasy import load

    document = load().HTML(string=SAMPLE).render()
    found: dict[str, list] = {}
    stack = [document.pages[0]._page_box]
    while stack:
        box = stack.pop()
        found.setdefault(type(box).__name__, []).append(box)
        if type(box).__name__ != "AbsolutePlaceholder":
            found.setdefault("Box", []).append(box)
            stack.extend(getattr(box, "children", ()))
        else:
            stack.append(object.__getattribute__(box, "_box"))
    return found


def problem(internal: Internal) -> str | None:
    """What is wrong with an internal name in the installed WeasyPrint; None when it is as expected."""
    try:
        return _CHECKS[internal.kind](internal)
    except (ImportError, AttributeError, KeyError, OSError, TypeError) as error:
        return f"{internal.id}: {type(error).__name__}: {error}"


def _check_callable(internal: Internal) -> str | None:
    function = _resolve(internal.module, internal.name)
    if not callable(function):
        return f"{internal.id} is not callable"
    found = _parameters(function)
    if found != tuple(internal.expected):
        return f"{internal.id} takes {found}, expected {tuple(internal.expected)}"
    return None


def _check_class(internal: Internal) -> str | None:
    return None if inspect.isclass(_resolve(internal.module, internal.name)) else f"{internal.id} is not a class"


def _check_set_in_class(internal: Internal) -> str | None:
    class_name, attribute = internal.name.rsplit(".", 1)
    cls = _resolve(internal.module, class_name)
    package = internal.module.split(".")[0]
    sources = "".join(inspect.getsource(base) for base in cls.__mro__ if base.__module__.startswith(package))
    if re.search(rf"self\.{re.escape(attribute)}\s*=(?!=)", sources):
        return None
    return f"{class_name}'s code no longer assigns self.{attribute}"


def _check_attribute(internal: Internal) -> str | None:
    value = _resolve(internal.module, internal.name)  # raises AttributeError when missing
    missing = [name for name in internal.expected if not hasattr(value, name)]
    return f"{internal.id} has no {', '.join(missing)}" if missing else None


def _check_layout_attribute(internal: Internal) -> str | None:
    (class_name,) = internal.expected
    attribute = internal.name.rsplit(".", 1)[1]
    boxes = sample_boxes().get(class_name)
    if not boxes:
        return f"the sample layout has no {class_name} any more"
    if attribute == "_box":
        has = [box for box in boxes if "_box" in object.__getattribute__(box, "__dict__")]
    else:
        has = [box for box in boxes if hasattr(box, attribute)]
    if not has:
        return f"no {class_name} of the sample layout has .{attribute}"
    return None


def _check_style_key(internal: Internal) -> str | None:
    (key,) = internal.expected
    box = sample_boxes()["TextBox"][0]
    box.style[key]  # raises KeyError when WeasyPrint no longer computes it
    return None


def _check_option(internal: Internal) -> str | None:
    options, key = internal.name.split(".")
    return None if key in _resolve(internal.module, options) else f"{internal.module}.{options} has no '{key}'"


def _check_source(internal: Internal) -> str | None:
    if internal.module == "weasyprint.text.ffi":
        from generator.render.weasy.patches import split_declarations

        spec = importlib.util.find_spec(internal.module)
        if spec is None or spec.origin is None:
            return f"{internal.module} is not found"
        with open(spec.origin, encoding="utf-8") as file:
            tree = ast.parse(file.read())
        return None if split_declarations(tree) is not None else f"{internal.module} is no longer shaped as expected"
    if internal.name == "<module>":  # the module's own text (its imports)
        spec = importlib.util.find_spec(internal.module)
        if spec is None or spec.origin is None:
            return f"{internal.module} is not found"
        with open(spec.origin, encoding="utf-8") as file:
            source = file.read()
    else:
        source = inspect.getsource(_resolve(internal.module, internal.name))
    missing = [pattern for pattern in internal.expected if not re.search(pattern, source)]
    return f"{internal.id}: source no longer matches {missing}" if missing else None


def _check_behaviour(internal: Internal) -> str | None:
    if internal.name == "Document.write_pdf":
        return _check_spacing_drawn()
    return _check_spliced_pages() if internal.name == "Document.pages" else _check_render_again()


def _check_spacing_drawn() -> str | None:
    import pypdfium2

    from generator.render.weasy import load
    from generator.render.weasy.tree import descendants, kind, page_box

    document = load().HTML(string='<p lang="ja" style="font-size: 20px">あいう</p>').render()
    box = next(box for box in descendants(page_box(document.pages[0])) if kind(box) == "TextBox")
    style = box.style.copy()
    style["letter_spacing"] = 10
    box.style = style
    text = pypdfium2.PdfDocument(document.write_pdf())[0].get_textpage()
    lefts = [
        text.get_charbox(index, loose=True)[0]
        for index in range(text.count_chars())
        if text.get_text_range(index, 1).strip()
    ]
    steps = [round((after - before) * 4 / 3) for before, after in itertools.pairwise(lefts)]
    return None if steps == [30, 30] else f"characters 20 px wide with 10 px of letter spacing are {steps} px apart"


def _check_spliced_pages() -> str | None:
    import pypdfium2

    from generator.render.weasy import load

    html = load().HTML(string='<p style="page-break-after: always">first</p><p>second</p>')
    document, other = html.render(), html.render()
    document.pages[1] = other.pages[1]
    pdf = pypdfium2.PdfDocument(document.write_pdf())
    texts = [pdf[index].get_textpage().get_text_range().strip() for index in range(len(pdf))]
    return None if texts == ["first", "second"] else f"a page taken from another render() printed {texts}"


def _check_render_again() -> str | None:
    from generator.render.weasy import load
    from generator.render.weasy.tree import descendants, page_box

    html = load().HTML(string='<p id="p" style="width: 30mm">Draw one card</p>')

    def width():
        document = html.render()
        return next(
            box
            for box in descendants(page_box(document.pages[0]))
            if box.element is not None and box.element.get("id") == "p" and box.element_tag == "p"
        )

    first = width()
    first.element.set("style", "width: 40mm")
    if abs(width().width - first.width) < 1:
        return "render() no longer lays out again from the element tree: a style set on box.element is ignored"
    return None


_CHECKS = {
    "function": _check_callable,
    "method": _check_callable,
    "class": _check_class,
    "set in class": _check_set_in_class,
    "attribute": _check_attribute,
    "layout attribute": _check_layout_attribute,
    "style key": _check_style_key,
    "option": _check_option,
    "source": _check_source,
    "behaviour": _check_behaviour,
}
