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

An entry a speed patch of patches.py relies on names it (`patch`): before installing, the patch checks its
entries (runtime_problems: those that need no layout) and is left off, with a warning, when one fails.
`keys` are the keys of WeasyPrint's dictionaries the code reads or writes through the entry. Every private
name the layer's modules read or write is listed here (tests/test_weasy_internals.py scans their source);
the few other names that scan meets are declared below INTERNALS: WeasyPrint's public API (PUBLIC), what
pnpgen marks WeasyPrint's objects with (PNPGEN_MARKS) and the keys of pnpgen's own dictionaries (OWN_KEYS).
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import inspect
import itertools
import re
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Internal:
    module: str  # where the name lives, e.g. "weasyprint.pdf.fonts"
    name: str  # the dotted name inside the module, e.g. "Font.clean"
    kind: str  # see the module docstring
    expected: tuple = ()  # parameter names, a class name to look the attribute up on, a source pattern
    used_by: str = ""  # the pnpgen code that relies on it
    patch: str = ""  # the speed patch (patches.SPEED_PATCHES) that is left off when this is not as expected
    keys: tuple = ()  # keys of the entry's dictionaries the code reads or writes (a PDF dictionary's)

    @property
    def id(self) -> str:
        return f"{self.module}.{self.name}" + (":source" if self.kind == "source" else "")


BOXES = "weasyprint.formatting_structure.boxes"
FONTS = "weasyprint.pdf.fonts"
IMAGES = "weasyprint.images"

PREBUILT_FFI, LATE_IMPORTS, LAZY_FONT_FILES = "prebuilt-ffi", "deferred-imports", "lazy-font-files"
PARALLEL_SUBSETTING, SHARED_INLINE_STYLES = "parallel-subsetting", "shared-inline-styles"
NO_EMPTY_MARGIN_BOXES, HYPHENATION_CACHE, SHARED_FONTS = "no-empty-margin-boxes", "hyphenation-cache", "shared-fonts"

INTERNALS: list[Internal] = [
    # patches.py: prebuilt C declarations
    Internal(
        "weasyprint.text.ffi",
        "ffi.cdef",
        "source",
        ("one `ffi = cffi.FFI()` and one `ffi.cdef(TEXT)`",),
        "patches._install_finder / split_declarations",
        PREBUILT_FFI,
    ),
    # patches.py: whole font files read lazily
    Internal(FONTS, "Font", "class", (), "patches.defer_font_copies", LAZY_FONT_FILES),
    Internal(FONTS, "Font.file_content", "set in class", (), "patches._FileContent", LAZY_FONT_FILES),
    Internal(
        FONTS,
        "get_hb_object_data",
        "function",
        ("hb_object", "ot_color", "glyph"),
        "patches.defer_font_copies",
        LAZY_FONT_FILES,
    ),
    Internal(
        FONTS, "get_pango_font_hb_face", "function", ("pango_font",), "patches.defer_font_copies", LAZY_FONT_FILES
    ),
    Internal(FONTS, "ffi", "attribute", ("cast",), "patches.defer_font_copies", LAZY_FONT_FILES),
    # patches.py: fonts subset in parallel
    Internal(
        FONTS,
        "Font.clean",
        "method",
        ("self", "to_unicode", "hinting"),
        "patches.subset_fonts_in_parallel",
        PARALLEL_SUBSETTING,
    ),
    *[
        Internal(FONTS, f"Font.{name}", "set in class", (), "patches.subset_fonts_in_parallel", PARALLEL_SUBSETTING)
        for name in ("bitmap", "used_in_forms", "to_unicode")
    ],
    Internal(FONTS, "Font.hash", "set in class", (), "patches._fonts_by_file", PARALLEL_SUBSETTING),
    Internal(
        FONTS,
        "build_fonts_dictionary",
        "function",
        ("pdf", "fonts", "compress", "subset", "options"),
        "patches.subset_fonts_in_parallel",
        PARALLEL_SUBSETTING,
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
        PARALLEL_SUBSETTING,
    ),
    Internal(
        "weasyprint.pdf",
        "build_fonts_dictionary",
        "function",
        ("pdf", "fonts", "compress", "subset", "options"),
        "patches.subset_fonts_in_parallel (the name weasyprint.pdf calls, replaced)",
        PARALLEL_SUBSETTING,
    ),
    Internal(
        "weasyprint.pdf",
        "generate_pdf",
        "source",
        (r"= build_fonts_dictionary\(",),
        "patches.subset_fonts_in_parallel (replaces weasyprint.pdf.build_fonts_dictionary, which this calls)",
        PARALLEL_SUBSETTING,
    ),
    Internal(
        "weasyprint",
        "DEFAULT_OPTIONS.hinting",
        "option",
        (),
        "patches.subset_fonts_in_parallel",
        PARALLEL_SUBSETTING,
        ("hinting",),
    ),
    # patches.py: one font configuration for the process
    Internal(
        "weasyprint.text.fonts",
        "FontConfiguration._folder",
        "set in class",
        (),
        "patches.SharedFonts (a font added by @font-face)",
        SHARED_FONTS,
    ),
    # pictures.py: pictures embedded at their printed resolution, in their colours
    Internal(
        IMAGES, "RasterImage.get_x_object", "method", ("self", "interpolate", "dpi_ratio"), "pictures.embed_pictures"
    ),
    Internal(
        IMAGES,
        "RasterImage.get_x_object",
        "source",
        (r"if dpi_ratio == 1:\s+width, height = self\.width, self\.height", r"self\.mode", r"self\.format == 'JPEG'"),
        "pictures.embed_pictures (at a ratio of 1, the picture's own data, size, mode and format are written)",
    ),
    Internal(
        IMAGES,
        "RasterImage.cache_image_data",
        "method",
        ("self", "data", "filename", "slot"),
        "pictures.embed_pictures (the prepared picture's data)",
    ),
    *(
        Internal(IMAGES, f"RasterImage.{name}", "set in class", (), "pictures.embed_pictures (a prepared picture)")
        for name in ("image_data", "mode", "format", "ratio", "invert_colors")
    ),
    Internal(IMAGES, "LazyImage.data", "attribute", ("fget",), "pictures.embed_pictures (the picture's bytes)"),
    Internal(
        "weasyprint",
        "DEFAULT_OPTIONS.dpi",
        "option",
        (),
        "patches.SharedFonts (pictures scaled down to the game's image_dpi)",
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
        "ffi",
        "attribute",
        ("gc", "new", "buffer", "NULL"),
        "compactfonts.compact_cff, compactfonts._read_cff (WeasyPrint's cffi object)",
    ),
    Internal(
        "weasyprint.text.ffi",
        "harfbuzz",
        "attribute",
        (
            "hb_face_reference_table",
            "hb_blob_get_data",
            "hb_blob_destroy",
            "hb_face_destroy",
            "hb_tag_from_string",
            "hb_set_add_sorted_array",
        ),
        "compactfonts._read_cff, compactfonts._add_sorted",
    ),
    Internal(
        "weasyprint.text.ffi",
        "harfbuzz_subset",
        "attribute",
        (
            "HB_SUBSET_FLAGS_DESUBROUTINIZE",
            "HB_SUBSET_FLAGS_NO_HINTING",
            "HB_SUBSET_FLAGS_NOTDEF_OUTLINE",
            "HB_SUBSET_FLAGS_NO_LAYOUT_CLOSURE",
            "HB_SUBSET_SETS_DROP_TABLE_TAG",
            "hb_subset_input_create_or_fail",
            "hb_subset_input_destroy",
            "hb_subset_input_glyph_set",
            "hb_subset_input_set",
            "hb_subset_input_set_flags",
            "hb_subset_or_fail",
        ),
        "compactfonts.compact_cff",
    ),
    Internal("pydyf", "PDF.objects", "set in class", (), "compactfonts._label_bare_cff_streams (the objects written)"),
    Internal("pydyf", "Stream.stream", "set in class", (), "compactfonts._label_bare_cff_streams (a font file)"),
    Internal(
        "pydyf",
        "Stream.extra",
        "set in class",
        (),
        "compactfonts._label_bare_cff_streams (a font file's /Subtype)",
        keys=("Subtype",),
    ),
    Internal(
        "weasyprint.css",
        "find_style_attributes",
        "function",
        ("tree", "presentational_hints", "base_url"),
        "patches.share_inline_styles",
        SHARED_INLINE_STYLES,
    ),
    Internal(
        "weasyprint.css",
        "find_style_attributes",
        "source",
        (r"specificity = \(1, 0, 0\)",),
        "patches.share_inline_styles (a style attribute's specificity, STYLE_ATTRIBUTE_SPECIFICITY)",
        SHARED_INLINE_STYLES,
    ),
    Internal(
        "weasyprint.layout",
        "make_margin_boxes",
        "function",
        ("context", "page", "state"),
        "patches.skip_empty_margin_boxes (the name weasyprint.layout calls, replaced)",
        NO_EMPTY_MARGIN_BOXES,
    ),
    Internal(
        "weasyprint.layout.page",
        "make_margin_boxes",
        "source",
        (
            r"context\.style_for\(page\.page_type, at_keyword\)",
            r"if style is None:\s+# [^\n]*\n\s+style = page\.style\.anonymous_style",
            r"style\['content'\] not in \(\s*'normal', 'inhibit', 'none'\)",
        ),
        "patches.skip_empty_margin_boxes (repeats how a margin box's style and its content are found)",
        NO_EMPTY_MARGIN_BOXES,
    ),
    Internal(
        "weasyprint.css",
        "PAGE_MARGIN_BOXES",
        "attribute",
        ("__iter__",),
        "patches.skip_empty_margin_boxes (the margin box names)",
        NO_EMPTY_MARGIN_BOXES,
    ),
    Internal(
        "weasyprint.layout",
        "LayoutContext.style_for",
        "set in class",
        (),
        "patches.skip_empty_margin_boxes (a page's margin box style)",
        NO_EMPTY_MARGIN_BOXES,
    ),
    Internal(
        "weasyprint.css",
        "StyleFor.__call__",
        "method",
        ("self", "element", "pseudo_type"),
        "patches.skip_empty_margin_boxes (what context.style_for is)",
        NO_EMPTY_MARGIN_BOXES,
    ),
    Internal(
        BOXES,
        "PageBox.page_type",
        "set in class",
        (),
        "patches.skip_empty_margin_boxes (the page's type, for its margin boxes' style)",
        NO_EMPTY_MARGIN_BOXES,
    ),
    # patches.py: fontTools' subsetter and instancer imported when first used
    Internal(
        FONTS,
        "<module>",
        "source",
        (r"\nfrom fontTools import subset\n", r"\nfrom fontTools\.varLib\.instancer import instantiateVariableFont\n"),
        "patches.defer_imports (DEFERRED_IMPORTS: what the module imports from them, and how)",
        LATE_IMPORTS,
    ),
    # patches.py: hyphenation patterns parsed once (pyphen, which WeasyPrint hyphenates with)
    Internal("pyphen", "HyphDict", "class", (), "patches.cache_hyphenation (subclassed)", HYPHENATION_CACHE),
    *[
        Internal(
            "pyphen",
            f"HyphDict.{name}",
            "set in class",
            (),
            "patches.cache_hyphenation (stored, set)",
            HYPHENATION_CACHE,
        )
        for name in ("patterns", "maxlen", "cache")
    ],
    Internal(
        "pyphen",
        "Pyphen.__init__",
        "source",
        (r"hdcache\[path\] = HyphDict\(path\)",),
        "patches.cache_hyphenation (replaces pyphen.HyphDict, which this calls)",
        HYPHENATION_CACHE,
    ),
    # taglang.py: each structure element of a tagged PDF in its own language
    Internal(
        "weasyprint.pdf.tags",
        "_build_box_tree",
        "function",
        ("box", "parent", "pdf", "page_number", "nums", "annotations", "tags"),
        "taglang.mark_languages (a structure element's parent /P and type /S read, its /Lang written)",
        keys=("P", "S", "Lang"),
    ),
    Internal(
        "weasyprint.pdf.tags",
        "_build_box_tree",
        "source",
        (r"yield from _build_box_tree\(", r"_build_box_tree\(\s*child, child_parent", r"yield element"),
        "taglang.mark_languages (wraps it: the recursion must go through the module's name)",
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
    *[
        Internal(BOXES, f"Box.style[{key}]", "style key", (key,), "fit.page_covers (what a box's background hides)")
        for key in ("background_color", "background_image", "opacity", "z_index")
    ],
    Internal("tinycss2.color4", "Color.alpha", "set in class", (), "fit._hides (a background colour's opacity)"),
    # fit.box_pictures: the raster pictures a page paints, and the size each is drawn at
    Internal(BOXES, "Box.style[object_fit]", "style key", ("object_fit",), "fit.box_pictures (an <img>'s drawn size)"),
    Internal(BOXES, "ReplacedBox.replacement", "layout attribute", ("InlineReplacedBox",), "fit.box_pictures"),
    Internal(BOXES, "Box.background", "layout attribute", ("Box",), "fit.box_pictures (its layers)"),
    Internal("weasyprint.images", "RasterImage", "class", (), "fit._is_raster (compared by name)"),
    Internal("weasyprint.images", "RasterImage.width", "set in class", (), "fit._pixels, pictures.embed_pictures"),
    Internal("weasyprint.images", "RasterImage.height", "set in class", (), "fit._pixels, pictures.embed_pictures"),
    Internal(
        "weasyprint.layout.background",
        "Background",
        "attribute",
        ("layers",),
        "fit.box_pictures (a box's background layers)",
    ),
    Internal(
        "weasyprint.layout.background",
        "BackgroundLayer",
        "attribute",
        ("image", "size", "painting_area"),
        "fit.box_pictures (a background picture's tile size and where it paints)",
    ),
    Internal(
        BOXES, "Box.style[content]", "style key", ("content",), "patches.skip_empty_margin_boxes", NO_EMPTY_MARGIN_BOXES
    ),
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


# The public API of WeasyPrint (and of cffi and tinycss2) as the layer uses it: documented, not checked here.
PUBLIC = {
    "cffi.FFI": "compiles WeasyPrint's C declarations once (patches.prebuilt_ffi)",
    "weasyprint.HTML": "a document to lay out",
    "weasyprint.HTML.render": "lays it out (font_config=: the process' FontConfiguration)",
    "weasyprint.Document.pages": "the laid-out pages",
    "weasyprint.Document.write_pdf": "the PDF's bytes",
    "weasyprint.text.fonts.FontConfiguration": "the fonts of @font-face rules (patches.font_configuration)",
    "pydyf.String": "a PDF string (taglang: a structure element's /Lang)",
    "pydyf.PDF.catalog": "the document's catalog (taglang: the document's /Lang)",
    "pydyf.Object.reference": "an object's reference (taglang: a structure element by its reference)",
    "tinycss2.color4.Color.alpha": "a computed colour's opacity (fit.page_covers: a background that hides text)",
}
# What pnpgen sets on WeasyPrint's objects and functions (named so that no WeasyPrint name is taken).
PNPGEN_MARKS = {
    "compact": "compactfonts: Font._harfbuzz_subset replaced",
    "prepares_pictures": "pictures: RasterImage.get_x_object replaced",
    "compact_cff": "compactfonts: a Font embedded as bare CFF",
    "_cleaned_for": "patches.subset_fonts_in_parallel: a Font subset already",
    "_file_content": "patches._FileContent: where a Font's file_content is kept",
    "subsets_in_parallel": "patches.subset_fonts_in_parallel: build_fonts_dictionary replaced",
    "shares_inline_styles": "patches.share_inline_styles: find_style_attributes replaced",
    "skips_empty_margin_boxes": "patches.skip_empty_margin_boxes: make_margin_boxes replaced",
    "_pnpgen_walk": "fit._page_walk: a page's text, the boxes painted over it and its pictures, measured once",
    "cached": "patches.cache_hyphenation: pyphen.HyphDict replaced",
}
# Keys of pnpgen's own dictionaries that the scan of the layer meets (the others are WeasyPrint's: `keys` and
# the style keys above).
OWN_KEYS = {
    "done": "lastpage: the state kept across layouts",
    "pages": "lastpage: the state kept across layouts",
    "style": "lastpage: the state kept across layouts",
    "scale": "lastpage: the state kept across layouts",
    "attempts": "lastpage: the state kept across layouts",
    "size": "lastpage: the state kept across layouts",
    "trim": "fit: an Owner's findings by kind",
}


def _resolve(module_name: str, dotted: str):
    value = importlib.import_module(module_name)
    for part in dotted.split("."):
        value = getattr(value, part)
    return value


def _parameters(function) -> tuple[str, ...]:
    return tuple(inspect.signature(function).parameters)


def _weasyprint():
    """WeasyPrint as imported (by patches.load() in pnpgen's processes and tests/test_weasy_internals.py): the
    names checked are WeasyPrint's, patched or not. (This module imports nothing of pnpgen's that imports it.)"""
    import weasyprint

    return weasyprint


SAMPLE = """<html lang="ja"><head><style>
@page { size: 60mm 60mm; margin: 8mm; @top-left { content: "page" } }
body { margin: 0; font-size: 8pt } .fixed { position: absolute; left: 2mm; top: 2mm; width: 20mm }
.turned { transform: rotate(5deg) }
</style></head><body><p id="p">カードを1枚引く。Draw one card.</p>
<div class="fixed"><span>位置</span></div><div class="turned">turned</div>
<img style="width:2mm;height:2mm;object-fit:cover" src="data:image/png;base64,
iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg=="></body></html>"""


@functools.cache
def sample_boxes() -> dict[str, list]:
    """The boxes of a small laid-out document (absolute, transformed, margin box, Japanese), by class name."""
    document = _weasyprint().HTML(string=SAMPLE).render()
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
    except (ImportError, AttributeError, KeyError, OSError, TypeError, ValueError) as error:
        return f"{internal.id}: {type(error).__name__}: {error}"


LAYOUT_KINDS = ("layout attribute", "style key", "behaviour")  # checked by laying a document out: tests only


def runtime_problems(patch: str) -> list[str]:
    """What is wrong with the entries a speed patch relies on, of those checked without a layout (a few ms, in
    each process that loads WeasyPrint): a source file or a function is read, nothing is imported that the
    patch's own installation would not import. The others are tests/test_weasy_internals.py's."""
    found = (problem(entry) for entry in INTERNALS if entry.patch == patch and entry.kind not in LAYOUT_KINDS)
    return [found_problem for found_problem in found if found_problem is not None]


def source_file(module: str) -> Path:
    """The source file of a module, found without importing it (nor its package: importing weasyprint.text.ffi
    would import WeasyPrint, which the prebuilt declarations and deferred imports must come before)."""
    loaded = getattr(sys.modules.get(module), "__file__", None)
    if loaded:
        return Path(loaded)
    top, *rest = module.split(".")
    spec = importlib.util.find_spec(top)  # a top-level name is found without running it
    if spec is None or spec.origin is None:
        raise ImportError(f"{top} is not installed")
    if not rest:
        return Path(spec.origin)
    base = Path(spec.origin).parent.joinpath(*rest)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    raise ImportError(f"{module} is not found in {spec.origin}")


@functools.cache
def _file_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def definition_source(definition) -> str:
    """The text of a function or class (a patched function's original), cut from its module's file by
    indentation: inspect.getsource looks the module up among all those loaded and parses a class's whole
    module, 10-60 ms each, in every process that loads WeasyPrint."""
    definition = inspect.unwrap(definition)
    code = getattr(definition, "__code__", None)
    path = Path(code.co_filename if code is not None else inspect.getfile(definition))
    lines = _file_text(path).splitlines(keepends=True)
    if code is not None:
        start = code.co_firstlineno - 1
    else:
        heading = re.compile(rf"\s*class {re.escape(definition.__name__)}\b")
        start = next((number for number, line in enumerate(lines) if heading.match(line)), None)
        if start is None:
            return inspect.getsource(definition)
    while lines[start].lstrip().startswith("@"):  # a decorator: the definition is below it
        start += 1
    indent = _indent(lines[start])
    end = start + 1
    while end < len(lines) and (
        not lines[end].strip() or _indent(lines[end]) > indent or lines[end].lstrip().startswith(")")
    ):
        end += 1
    return "".join(lines[start:end])


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def split_declarations(tree: ast.Module) -> tuple[str, ast.Module] | None:
    """WeasyPrint's declarations (the text of its single `ffi.cdef(...)`), and the module without
    `ffi = cffi.FFI()` and that call; None when the module is not shaped like that."""
    declarations, kept = None, []
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and getattr(node.targets[0], "id", "") == "ffi"
            and isinstance(node.value, ast.Call)
            and getattr(node.value.func, "attr", "") == "FFI"
        ):
            continue
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and getattr(node.value.func, "attr", "") == "cdef"
            and getattr(getattr(node.value.func, "value", None), "id", "") == "ffi"
        ):
            if declarations is not None or len(node.value.args) != 1 or node.value.keywords:
                return None
            argument = node.value.args[0]
            if not (isinstance(argument, ast.Constant) and isinstance(argument.value, str)):
                return None
            declarations = argument.value
            continue
        kept.append(node)
    if declarations is None or len(kept) != len(tree.body) - 2:
        return None
    return declarations, ast.Module(body=kept, type_ignores=[])


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
    sources = "".join(definition_source(base) for base in cls.__mro__ if base.__module__.startswith(package))
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
        tree = ast.parse(_file_text(source_file(internal.module)))
        return None if split_declarations(tree) is not None else f"{internal.module} is no longer shaped as expected"
    if internal.name == "<module>":  # the module's own text (its imports), read before WeasyPrint is imported
        source = _file_text(source_file(internal.module))
    else:
        source = definition_source(_resolve(internal.module, internal.name))
    missing = [pattern for pattern in internal.expected if not re.search(pattern, source)]
    return f"{internal.id}: source no longer matches {missing}" if missing else None


def _check_behaviour(internal: Internal) -> str | None:
    if internal.name == "Document.write_pdf":
        return _check_spacing_drawn()
    return _check_spliced_pages() if internal.name == "Document.pages" else _check_render_again()


def _check_spacing_drawn() -> str | None:
    import pypdfium2

    from generator.render.weasy.tree import descendants, kind, page_box

    document = _weasyprint().HTML(string='<p lang="ja" style="font-size: 20px">あいう</p>').render()
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

    html = _weasyprint().HTML(string='<p style="page-break-after: always">first</p><p>second</p>')
    document, other = html.render(), html.render()
    document.pages[1] = other.pages[1]
    pdf = pypdfium2.PdfDocument(document.write_pdf())
    texts = [pdf[index].get_textpage().get_text_range().strip() for index in range(len(pdf))]
    return None if texts == ["first", "second"] else f"a page taken from another render() printed {texts}"


def _check_render_again() -> str | None:
    from generator.render.weasy.tree import descendants, page_box

    html = _weasyprint().HTML(string='<p id="p" style="width: 30mm">Draw one card</p>')

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
