"""Tagged PDFs with each structure element in its own language.

WeasyPrint 70 writes a structure tree (`write_pdf(pdf_tags=True)`) with the document's language in the
catalog only: a `<td lang="en">` of a Japanese document becomes a /TD without /Lang, and a screen reader reads
the English half of a side-by-side rule sheet with a Japanese voice. `mark_languages()` wraps the function
that turns each laid-out box into structure elements: an element whose box is in another language than the
document gets `/Lang`. Its descendants carry it too (each is tagged from its own box), so the language holds
wherever a reader enters the tree. Output changes only for tagged PDFs; the patch is installed whether or not
PNPGEN_PLAIN_WEASYPRINT is set.
"""

from __future__ import annotations

import functools

MARKED = "_pnpgen_marks_languages"


def mark_languages() -> None:
    """Install the wrapper once per process."""
    from weasyprint.pdf import tags

    build = tags._build_box_tree
    if getattr(build, MARKED, False):
        return

    @functools.wraps(build)  # inspect (tests/test_weasy_internals.py) still reads WeasyPrint's function
    def build_box_tree(box, parent, pdf, page_number, nums, annotations, tags_):
        languages = pdf.__dict__.setdefault(MARKED, Languages(_string(pdf.catalog.get("Lang"))))
        lang = element_lang(box)
        # the recursion goes through the module's name, so every level passes here, innermost first: an element
        # passed up unchanged (the children of html and body) keeps the language of the box it was made for
        for element in build(box, parent, pdf, page_number, nums, annotations, tags_):
            languages.made(element, lang)
            yield element
        if parent.get("S") == "/Document":  # a page's top-level elements are complete
            languages.mark()

    setattr(build_box_tree, MARKED, True)
    tags._build_box_tree = build_box_tree


class Languages:
    """The language of each structure element of a document as it is made; `mark()` gives /Lang to those
    whose language differs from their parent's (the document's for a top-level element)."""

    def __init__(self, document_lang: str | None):
        self.document_lang = document_lang
        self.own: dict[bytes, str | None] = {}  # by the element's reference: the language of its box, if any
        self.parent: dict[bytes, bytes] = {}
        self.pending: list = []

    def made(self, element, lang: str | None) -> None:
        if element.reference in self.own:  # passed up by an outer level: its box said already
            return
        self.own[element.reference] = lang
        self.parent[element.reference] = element["P"]
        self.pending.append(element)

    def effective(self, reference: bytes) -> str | None:
        lang = None
        while lang is None and reference in self.own:
            lang, reference = self.own[reference], self.parent[reference]
        return lang or self.document_lang

    def mark(self) -> None:
        import pydyf

        for element in self.pending:
            lang = self.own[element.reference]
            if lang and lang != self.effective(element["P"]):
                element["Lang"] = pydyf.String(lang)
        self.pending = []


def element_lang(box) -> str | None:
    """The language of the element a box was made for (the `lang` inherited from the HTML), none for an
    anonymous box or a page."""
    box = getattr(box, "_box", box)  # an absolutely positioned box behind its placeholder
    if getattr(box, "element", None) is None:
        return None
    return box.style["lang"] or None


def _string(value) -> str | None:
    return None if value is None else str(getattr(value, "string", value))
