"""Text that does not fit: found in WeasyPrint's layout tree after render(), before write_pdf().

Every text of every page is measured, with nothing for a template to opt in. A finding is text whose
ink reaches
- past its own box: the box holding its lines and each box around it up to the nearest positioned one
  (`position: absolute`, a transform or a `data-fit` box), taken at their padding edge, where CSS clips;
- past the face's safe area, its trim or its cut shape (a round token's circle, a card's rounded
  corners), which the document declares on its root element: `data-safe` (mm inside the trim),
  `data-cut` (`rect` or `round`) and `data-corner` (the corner radius in mm);
- onto the text of another box;
- under a box painted over it: a background (a colour at least half opaque, or an image) that CSS paints
  after the text (a positioned box later in the document, or one with a higher z-index), like a label
  wrapping onto a second line that a panel below it hides.
The ink of a run of text is taken as its advance horizontally and, vertically, as far as its script's
glyphs reach above and below the baseline (see ink_extent): exact glyph outlines would mean shaping every
line again, which costs as much as the layout.

What a template may write to change this (`data-fit`, `data-shrink`, `data-grow`, `data-overflow`) is declared
in ATTRIBUTES below, with what each does (docs/templates.md lists them).

This walks WeasyPrint's internal layout tree (through tree.py: its boxes' positions, `baseline`,
`transformation_matrix`): the major version is pinned in pyproject.toml, every internal name read is
listed in internals.py (checked by tests/test_weasy_internals.py) and tests/test_fit.py checks the
measurements. No module outside this package touches those internals.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Container
from dataclasses import dataclass
from typing import Any
from xml.etree import ElementTree

from generator.render.attributes import Attribute
from generator.render.weasy.furigana import align_edge_readings, enlarge_small_readings
from generator.render.weasy.justify import justify_lines
from generator.render.weasy.lastlines import set_last_lines
from generator.render.weasy.lastpage import tighten_for_last_page
from generator.render.weasy.phrases import open_long_phrases
from generator.render.weasy.decisions import BlockDecisions
from generator.render.weasy.tree import descendants, document_root, kind, page_box, unwrap

SHRINK_STEP = 0.05
SHRINK_FLOOR, GROW_CEILING = 0.3, 3.0  # the most data-shrink and data-grow may change a box's font
GROW_STEPS = 3  # bisections between 100% and data-grow: within 1/8 of the range
FIT = Attribute(
    "data-fit",
    "FIELD, the card field the box shows (`name`, `text`)",
    "Marks a box of fixed size: its lines are compared with its content area, an overflow names FIELD, and the "
    "box's size goes with the text to translators (`maxwidth` and `maxheight` in XLIFF, the box in PO comments) "
    "and into `i18n status`. Every text is checked without it too; it is what `data-shrink` and `data-grow` act on.",
)
SHRINK = Attribute(
    "data-shrink",
    f"a percentage, at least {SHRINK_FLOOR:.0%}",
    f"On a `data-fit` box: text that does not fit is set smaller in {SHRINK_STEP:.0%} steps, down to this "
    "percentage of its size, until it fits; what was shrunk is reported (build.json's `shrunk`).",
)
GROW = Attribute(
    "data-grow",
    f"a percentage, at most {GROW_CEILING:.0%}",
    "On a `data-fit` box whose text leaves room: the text is set as large as still fits, up to this percentage "
    '(a player aid\'s `data-grow="160"`).',
)
OVERFLOW = Attribute(
    "data-overflow",
    "`allow`",
    "The element's text may run anywhere: past its box, the safe area, the trim or the cut (text meant to bleed). "
    "It is not checked.",
)
SOURCE = Attribute(
    "data-src",
    "FILE:LINE",
    "The template line an element comes from, added to every start tag of a template: a text found out of place "
    "names it.",
    for_templates=False,
)
SAFE = Attribute(
    "data-safe", "mm", "On a document's root: how far inside the trim text must stay.", for_templates=False
)
CUT = Attribute(
    "data-cut",
    "`rect` or `round`",
    "On a document of faces' root: the shape of the cut text must stay inside (a round token's circle).",
    for_templates=False,
)
CORNER = Attribute(
    "data-corner", "mm", "On a document of faces' root: the radius of the cut's rounded corners.", for_templates=False
)
BLOCKS = Attribute(
    "data-blocks",
    "`measured`",
    "On a document's root (pnpgen's rule sheets): where each block (an element of class `block` with an id) lies "
    "on each page is reported (kind `block`), and each paragraph left with a short last line (kind `short`).",
    for_templates=False,
)
ATTRIBUTES = (FIT, SHRINK, GROW, OVERFLOW, SOURCE, SAFE, CUT, CORNER, BLOCKS)
FIT_ATTRIBUTE, SHRINK_ATTRIBUTE, GROW_ATTRIBUTE, OVERFLOW_ATTRIBUTE = FIT.name, SHRINK.name, GROW.name, OVERFLOW.name
SOURCE_ATTRIBUTE, SAFE_ATTRIBUTE, CUT_ATTRIBUTE, CORNER_ATTRIBUTE = SOURCE.name, SAFE.name, CUT.name, CORNER.name
PX_MM = 25.4 / 96  # WeasyPrint lays out in CSS pixels
TOLERANCE_PX = 0.2  # rounding in the line heights, about 0.05 mm
CHECK_TOLERANCE_MM = 0.1  # what the text check lets pass: anti-aliasing, kerning, a hairline
CJK = re.compile(r"[\u3000-\u9fff\uf900-\ufaff\uff00-\uffef]")
DESCENDERS = re.compile(r"[$gjpqy,;()\[\]{}|/@]")
CHECK_VERSION = "text-check-11"  # part of the face cache keys: a changed check measures every face again
# the worst first: a finding names one problem per element
KINDS = ("cutoff", "cut", "trim", "safe", "box", "covered", "overlap")
OPAQUE = 0.5  # a background at least this opaque hides the text under it


def check_enabled() -> bool:
    """PNPGEN_TEXT_CHECK=0 leaves out the check of every text (data-fit boxes are still measured): only
    for measuring what the check costs."""
    return os.environ.get("PNPGEN_TEXT_CHECK", "1") != "0"


@dataclass
class FitBox:
    """A measured text box on one page of a rendered document: a data-fit box (kind `fit`), or text found
    past its box, the safe area, the trim, the cut, or on other text (see KINDS)."""

    page: int  # page index in the document
    field: str  # the data-fit value ("" for text no data-fit box holds)
    width_mm: float
    height_mm: float
    overflow_mm: float  # how far the text reaches past the box; 0 when it fits
    scale: float = 1.0  # the font scale auto-shrink settled on
    kind: str = "fit"
    source: str = ""  # template file:line of the element holding the text
    text: str = ""  # the element's text (at most 200 characters)
    area: tuple = ()  # where the text is: x, y, width, height in mm from the page's top-left (the trim)
    anchor: str = ""  # the id of the nearest element around it that has one (a rule block)
    other: str = ""  # for an overlap: the start of the other box's text
    pixels: tuple = ()  # a raster picture (kind `image`, its file in `text`): its width and height in pixels
    dpi: float = 0.0  # ... and its resolution as printed (the fewer dots per inch of its two sides)
    gap_mm: float = 0.0  # a picture stopping at the trim (kind `bleed`, its edge in `other`): mm of it left white

    @property
    def overflows(self) -> bool:
        return self.overflow_mm > 0


def marked_boxes(document):
    """(page index, element, box) for every box whose element carries data-fit, once per element."""
    for index, page in enumerate(document.pages):
        seen = set()
        for box in descendants(page_box(page)):
            element = getattr(box, "element", None)
            if element is None or id(element) in seen or not element.get(FIT_ATTRIBUTE):
                continue
            seen.add(id(element))  # the first box of an element is its principal box; the rest are anonymous
            yield index, element, box


def text_reach(box) -> tuple[float, float]:
    """The rightmost and lowest points reached by the text laid out inside box, in px."""
    right = bottom = float("-inf")
    for inner in descendants(box):
        if inner is box or not hasattr(inner, "position_y"):
            continue
        if kind(inner) == "LineBox":
            bottom = max(bottom, inner.position_y + inner.height)
        elif not getattr(inner, "children", None):  # text and images: the leaves of a line
            right = max(right, inner.position_x + inner.margin_width())
            bottom = max(bottom, inner.position_y + inner.margin_height())
    return right, bottom


def measure_box(page: int, element, box, scale: float = 1.0) -> FitBox:
    left, top = box.content_box_x(), box.content_box_y()
    right, bottom = text_reach(box)
    past = max(right - (left + box.width), bottom - (top + box.height), 0.0)
    overflow = past * PX_MM if past > TOLERANCE_PX else 0.0
    return FitBox(
        page,
        element.get(FIT_ATTRIBUTE),
        round(box.width * PX_MM, 2),
        round(box.height * PX_MM, 2),
        round(overflow, 2),
        scale,
        source=element.get(SOURCE_ATTRIBUTE) or "",
        text=_element_text(box),
        area=_mm(
            (box.position_x, box.position_y, box.position_x + box.margin_width(), box.position_y + box.margin_height())
        ),
    )


def shrink_floor(element) -> float:
    """The smallest font scale data-shrink allows (1.0 when the box may not shrink)."""
    return min(1.0, max(SHRINK_FLOOR, _percent(element, SHRINK_ATTRIBUTE)))


def grow_ceiling(element) -> float:
    """The largest font scale data-grow allows (1.0 when the box may not grow)."""
    return max(1.0, min(GROW_CEILING, _percent(element, GROW_ATTRIBUTE)))


def _percent(element, attribute: str) -> float:
    """An attribute like data-shrink="80" as a scale (0.8); 1.0 when it is absent or not a number."""
    try:
        return float((element.get(attribute) or "").strip().rstrip("%")) / 100
    except ValueError:
        return 1.0


def grow_to_fill(html, document):
    """Boxes marked data-grow at the largest font scale that still fits (bisection); the new layout."""
    ranges = {}  # element id -> [fits, overflows, element, its own style, font size in px]
    for _, element, box in marked_boxes(document):
        if grow_ceiling(element) > 1 and not _too_full(element, box):
            ranges[id(element)] = [
                1.0,
                grow_ceiling(element),
                element,
                element.get("style") or "",
                box.style["font_size"],
            ]
    if not ranges:
        return document

    def set_scales(pick):
        for low, high, element, style, size in ranges.values():
            element.set("style", f"{style};font-size:{size * pick(low, high):.3f}px".lstrip(";"))

    for _ in range(GROW_STEPS):
        set_scales(lambda low, high: (low + high) / 2)
        document = html.render()
        for _, element, box in marked_boxes(document):
            if id(element) in ranges:
                entry = ranges[id(element)]
                middle = (entry[0] + entry[1]) / 2
                entry[1 if _too_full(element, box) else 0] = middle
    set_scales(lambda low, high: low)
    return html.render()


def render_measured(html, decisions: BlockDecisions | None = None) -> tuple[Any, list[FitBox]]:
    """Lay out a weasyprint.HTML, shrinking what may shrink, growing what may grow, giving furigana a
    readable size (furigana.py), opening phrases too long for their line at their words (phrases.py) and
    setting paragraphs' last lines (lastlines.py); a near-empty last page is
    pulled back where the document asks for it (lastpage.py). Justified Japanese lines are then filled to
    their column (justify.py). The final document, its data-fit boxes and the text found where it should
    not be. `decisions`: the blocks whose passes' decisions are known are set by them and left alone, and what the
    passes decided for every block is noted in it (decisions.py)."""
    if decisions is not None:
        decisions.start(document_root(html))
    document, spilled = _one_page_per_face(grow_to_fill(html, html.render()))
    last_lines: dict = {}
    opened: dict[int, str] = {}
    aligned: set[int] = set()
    last_page: dict = {}
    scales: dict[int, float] = {}
    original: dict[int, tuple] = {}  # element id -> (element, its own style attribute, its font size in px)
    while True:
        faces = FacePages.of(document)
        found = list(marked_boxes(document))
        changed = False
        for _, element, box in found:
            fit = measure_box(0, element, box)
            scale = scales.get(id(element), 1.0)
            if not (fit.overflows or _drops_text(element, box)) or scale - SHRINK_STEP < shrink_floor(element) - 1e-9:
                continue
            original.setdefault(id(element), (element, element.get("style") or "", box.style["font_size"]))
            scales[id(element)] = round(scale - SHRINK_STEP, 4)
            changed = True
        changed = enlarge_small_readings(document) or changed
        changed = changed or align_edge_readings(document, aligned)
        # tightening reflows every line: decide it before joining the ends of short last lines
        tightened = not changed and tighten_for_last_page(document, last_page)
        if not (changed or tightened):  # display text's phrases and running text's last lines are apart: at once
            if decisions is not None:
                decisions.apply(last_lines, opened, aligned)
            opened_phrases = open_long_phrases(document, opened)
            changed = set_last_lines(document, last_lines) or opened_phrases
            changed = (decisions is not None and decisions.put_in()) or changed
        changed = changed or tightened
        if not changed:
            if justify_lines(document):
                for page in document.pages:
                    page.__dict__.pop("_pnpgen_walk", None)  # measured before the lines were filled
            fits = [measure_box(page, element, box, scales.get(id(element), 1.0)) for page, element, box in found]
            overflowing = {id(element) for (_, element, _), fit in zip(found, fits) if fit.overflows}
            found = fits + spilled + (text_findings(document, overflowing) if check_enabled() else [])
            if decisions is not None:
                decisions.record()
            return document, found + picture_findings(document) + block_findings(document)
        for key, (element, style, size) in original.items():
            element.set("style", f"{style};font-size:{size * scales[key]:.3f}px".lstrip(";"))
        if faces is not None and not tightened:
            document, spilled = faces.lay_out_changed(html, document, spilled)
        else:
            document, spilled = _one_page_per_face(html.render())


class FacePages:
    """The faces of a document of faces, one page each, as their elements stood after a layout: a pass that
    changes a few of them (a short last line joined, a box shrunk) has only those laid out again, the others
    standing in as empty faces (so that each face keeps its place: the first page, :nth-child), and the new
    pages take their places. A Japanese batch of 50 faces would otherwise be laid out whole again for each face
    with a short last line."""

    def __init__(self, body, elements: list):
        self.body = body
        self.elements = elements
        self.before = [_markup(element) for element in elements]

    @classmethod
    def of(cls, document) -> FacePages | None:
        """None unless each page shows one face, a distinct child of the document's body."""
        pages = document.pages
        root = _faces_root(pages)
        if root is None:
            return None
        body = next((child for child in root if str(child.tag).endswith("body")), None)
        elements = [_face_of(page) for page in pages]
        children = {id(child) for child in body} if body is not None else set()
        if any(element is None or id(element) not in children for element in elements):
            return None
        if len({id(element) for element in elements}) != len(elements):
            return None
        return cls(body, elements)

    def changed(self) -> list[int]:
        return [index for index, element in enumerate(self.elements) if _markup(element) != self.before[index]]

    def lay_out_changed(self, html, document, spilled: list[FitBox]):
        """The document with the changed faces' pages laid out again, and the text spilled past their trim."""
        changed = self.changed()
        if not changed:  # a change outside the faces (the root's style): everything again
            return _one_page_per_face(html.render())
        again = set(changed)
        unchanged = {id(element) for index, element in enumerate(self.elements) if index not in again}
        children = list(self.body)
        self.body[:] = [_empty(child) if id(child) in unchanged else child for child in children]
        try:
            partial, partial_spilled = _one_page_per_face(html.render())
        finally:
            self.body[:] = children
        if len(partial.pages) != len(document.pages):
            return _one_page_per_face(html.render())
        for index in changed:
            document.pages[index] = partial.pages[index]
        kept = [fit for fit in spilled if fit.page not in again] + [fit for fit in partial_spilled if fit.page in again]
        return document, sorted(kept, key=lambda fit: fit.page)


def _empty(element):
    """A face without its content: it still takes its page."""
    stand_in = ElementTree.Element(element.tag, element.attrib)
    stand_in.tail = element.tail
    return stand_in


def _markup(element) -> bytes:
    return ElementTree.tostring(element)


def _face_of(page):
    """The element of the face a page shows: the first face box in its body. (An absolutely positioned box of
    an earlier face that runs past its page is carried over to the next pages, before their body: not a face.)"""
    box = page_box(page)
    for wanted in ("html", "body", "face"):
        children = [unwrap(child) for child in getattr(box, "children", ()) if hasattr(unwrap(child), "element")]
        children = [child for child in children if kind(child) != "MarginBox"]
        box = next((child for child in children if _is(child.element, wanted)), children[0] if children else None)
        if box is None:
            return None
    return box.element


def _is(element, wanted: str) -> bool:
    if element is None:
        return False
    if wanted == "face":
        return "face" in (element.get("class") or "").split()
    return str(element.tag).endswith(wanted)


def _one_page_per_face(document):
    """In a document of faces (its root has data-cut), a face whose content runs past its page is given a
    second page by WeasyPrint: that text is past the trim. The extra page is taken out, so the pages stay
    one per face, and its text reported."""
    pages = document.pages
    if _faces_root(pages) is None:
        return document, []
    kept: list[Any] = []  # WeasyPrint's pages
    spilled, previous, laid_out = [], None, 0
    faces: list = []  # the element of each kept page's face
    last: Owner | None = None
    check = check_enabled()
    for page in pages:
        face = _face_of(page)
        carried = _carried_over(page)
        if carried and kept and face is not previous:
            # an absolutely positioned box of an earlier face ran past its page onto this face's page: its text
            # is past that face's trim, and nothing of it may print over this face
            if check:
                spilled += _carried_findings(page, carried, faces)
            _drop_carried(page, carried)
            if face is None:
                continue  # a page of nothing but what was carried over: no face's page
        owners = page_owners(page) if check else {}
        if kept and face is not None and face is previous:
            for owner in owners.values():
                owner.found["trim"] = (max(run.rect[3] for run in owner.runs), "")
                spilled.append(_finding(len(kept) - 1, owner))
        else:
            if check and previous is not None and last is not None:
                spilled += _cut_off(len(kept) - 1, previous, laid_out, last)
            kept.append(page)
            faces.append(face)
            previous, laid_out, last = face, 0, None
        laid_out += sum(_printed_length(run.text) for owner in owners.values() for run in owner.runs)
        last = max(owners.values(), key=lambda owner: max(run.rect[3] for run in owner.runs), default=last)
    if check and previous is not None and last is not None:
        spilled += _cut_off(len(kept) - 1, previous, laid_out, last)
    document.pages[:] = kept
    return document, spilled


def _html_box(page):
    children = [unwrap(child) for child in getattr(page_box(page), "children", ())]
    return next((child for child in children if _is(getattr(child, "element", None), "html")), None)


def _carried_over(page) -> list:
    """The boxes of a page's html box other than its body: what WeasyPrint carried over from an earlier page."""
    html = _html_box(page)
    if html is None:
        return []
    return [child for child in html.children if not _is(getattr(unwrap(child), "element", None), "body")]


def _carried_findings(page, carried: list, faces: list) -> list[FitBox]:
    """The text of boxes carried over onto page, each as past the trim of the face it belongs to."""
    index = {id(element): number for number, face in enumerate(faces) if face is not None for element in face.iter()}
    found = []
    for owner in page_owners(page).values():
        if any(box in carried for box in owner.chain) and id(owner.box.element) in index:
            owner.found["trim"] = (max(run.rect[3] for run in owner.runs), "")
            found.append(_finding(index[id(owner.box.element)], owner))
    return found


def _drop_carried(page, carried: list) -> None:
    html = _html_box(page)
    html.children = [child for child in html.children if child not in carried]
    page.__dict__.pop("_pnpgen_walk", None)  # measured with the carried boxes


def _cut_off(page: int, face, laid_out: int, last: Owner) -> list[FitBox]:
    """WeasyPrint drops what an absolutely positioned box cannot fit above the page's bottom: text of the face
    that was never laid out is cut off. How far it would reach is estimated from the lowest text's lines."""
    written = sum(_printed_length(text) for text in _visible_text(face))
    missing = written - laid_out
    if missing <= 0:
        return []
    characters = sum(len(run.text.strip()) for run in last.runs) or 1
    line = max(run.rect[3] - run.rect[1] for run in last.runs)
    return [_finding(page, last, ("cutoff", missing / characters * line * len(last.runs), str(missing)))]


def _too_full(element, box) -> bool:
    return measure_box(0, element, box).overflows or _drops_text(element, box)


def _drops_text(element, box) -> bool:
    """Less of the element's text laid out in its box than it holds: WeasyPrint dropped what a positioned box
    could not fit above the page's bottom (or moved it to another page), which its line boxes do not show."""
    return _laid_out_length(box) < sum(_printed_length(text) for text in _visible_text(element))


def _laid_out_length(box) -> int:
    total = 0
    for item in getattr(box, "children", ()):
        child = unwrap(item)
        total += _printed_length(child.text) if kind(child) == "TextBox" else _laid_out_length(child)
    return total


def _printed_length(text: str) -> int:
    """Characters that print: no spaces, and no format characters (soft hyphens, the word joiners that
    keep short last lines together), which a layout may keep or drop."""
    return sum(1 for char in text if not char.isspace() and unicodedata.category(char) != "Cf")


def _visible_text(element):
    """The text of an element and its descendants the check measures: without style and script elements, nor
    what `data-overflow="allow"` leaves unchecked (the walk of the laid-out text skips it too)."""
    if element.get(OVERFLOW_ATTRIBUTE) == "allow":
        return
    if element.text and element.tag not in ("style", "script"):
        yield element.text
    for child in element:
        if child.tag not in ("style", "script"):
            yield from _visible_text(child)
        if child.tail:
            yield child.tail


def _faces_root(pages):
    """The root element of a document of faces (one declaring its cut with data-cut), else None."""
    root = _face_root_element(pages[0]) if pages else None
    return root if root is not None and root.get(CUT_ATTRIBUTE) is not None else None


def _face_root_element(page):
    return _face_root_element_of_box(page_box(page))


def _face_root_element_of_box(root):
    return next(
        (unwrap(child).element for child in root.children if getattr(unwrap(child), "element_tag", "") == "html"), None
    )


# --- every text of every page ---------------------------------------------------------------------


@dataclass
class Geometry:
    """What a page's text must stay inside, in px from the page's top-left."""

    width: float
    height: float
    safe: float = 0.0  # inset of the safe area from the trim
    round: bool = False  # cut along the circle (ellipse) inside the trim
    corner: float = 0.0  # radius of the trim's rounded corners

    @classmethod
    def of(cls, page_box) -> Geometry:
        root = _face_root_element_of_box(page_box)

        def mm(name):
            try:
                return float(root.get(name) or 0) / PX_MM if root is not None else 0.0
            except ValueError:
                return 0.0

        cut = root.get(CUT_ATTRIBUTE) if root is not None else None
        return cls(
            page_box.margin_width(), page_box.margin_height(), mm(SAFE_ATTRIBUTE), cut == "round", mm(CORNER_ATTRIBUTE)
        )

    def past_rect(self, rect, inset: float) -> float:
        x0, y0, x1, y1 = rect
        return max(inset - x0, inset - y0, x1 - (self.width - inset), y1 - (self.height - inset), 0.0)

    def past_shape(self, rect, inset: float) -> float:
        """How far the rect reaches past the cut shape moved inward by inset (0 inside)."""
        straight = self.past_rect(rect, inset)
        x0, y0, x1, y1 = rect
        corners = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
        if self.round:  # the farthest point of a rect from the centre is one of its corners
            cx, cy = self.width / 2, self.height / 2
            rx, ry = cx - inset, cy - inset
            if rx <= 0 or ry <= 0:
                return straight
            reach = max(((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 for x, y in corners) ** 0.5
            return max(straight, (reach - 1) * min(rx, ry))
        radius = self.corner - inset
        if radius <= 0:
            return straight
        past = straight
        lo, hi_x, hi_y = inset + radius, self.width - inset - radius, self.height - inset - radius
        for x, y in corners:  # a corner of the rect in a rounded corner's square: its distance from the arc's centre
            arc_x = lo if x < lo else hi_x if x > hi_x else None
            arc_y = lo if y < lo else hi_y if y > hi_y else None
            if arc_x is not None and arc_y is not None:
                past = max(past, ((x - arc_x) ** 2 + (y - arc_y) ** 2) ** 0.5 - radius)
        return past


@dataclass
class Run:
    """One laid-out piece of text: its em box on the page and the block box whose lines hold it."""

    rect: tuple[float, float, float, float]  # x0, y0, x1, y1 in page px
    owner: object  # the box holding the line
    box_past: float  # how far it reaches past its own box(es), px
    text: str = ""
    fit_element: int = 0  # id of the data-fit element holding it, if any
    layer: tuple[int, int] = (0, 0)  # when it is painted: see Cover


@dataclass
class Cover:
    """A box whose background hides what is painted before it, where it stands in the painting order: CSS paints
    the flow of a stacking context first, then its positioned (or transformed) boxes in document order, each
    with the flow inside it, those with a higher z-index later (CSS 2.1 Appendix E). A layer is (z-index,
    the positioned box's place in the document); text is hidden by a cover of a later layer."""

    rect: tuple[float, float, float, float]  # its padding box on the page, px
    layer: tuple[int, int]
    name: str  # tag, classes and template line, for the message


class Owner:
    """The findings of one element's text, the worst kept."""

    def __init__(self, box, chain):
        self.box = box
        self.chain = chain
        self.runs: list[Run] = []
        self.found: dict[str, tuple[float, str]] = {}  # kind -> (px, the other box's text)

    def note(self, kind: str, past: float, other: str = "") -> None:
        if past > CHECK_TOLERANCE_MM / PX_MM and past > self.found.get(kind, (0.0, ""))[0]:
            self.found[kind] = (past, other)


def _is_positioned(box) -> bool:
    return box.style["position"] in ("absolute", "fixed") or bool(getattr(box, "transformation_matrix", None))


def _padding_rect(box) -> tuple[float, float, float, float]:
    x, y = box.padding_box_x(), box.padding_box_y()
    return x, y, x + box.padding_width(), y + box.padding_height()


def _past(rect, outer) -> float:
    return max(outer[0] - rect[0], outer[1] - rect[1], rect[2] - outer[2], rect[3] - outer[3], 0.0)


def _apply(matrix, rect):
    if matrix is None:
        return rect
    (a, b, _), (c, d, _), (e, f, _) = matrix
    xs, ys = [], []
    for x, y in ((rect[0], rect[1]), (rect[2], rect[1]), (rect[0], rect[3]), (rect[2], rect[3])):
        xs.append(a * x + c * y + e)
        ys.append(b * x + d * y + f)
    return min(xs), min(ys), max(xs), max(ys)


def page_owners(page) -> dict[int, Owner]:
    """The text of a page by the box holding it; measured once per page (kept on the page object)."""
    return _page_walk(page)[0]


def page_covers(page) -> list[Cover]:
    """The boxes of a page that hide what is painted before them (see Cover)."""
    return _page_walk(page)[1]


def page_pictures(page) -> list[FitBox]:
    """The raster pictures of a page (kind `image`), each with its resolution as laid out."""
    return _page_walk(page)[2]


def _page_walk(page) -> tuple[dict[int, Owner], list[Cover], list[FitBox]]:
    walked = getattr(page, "_pnpgen_walk", None)
    if walked is None:
        owners: dict[int, Owner] = {}
        painting = _Painting([])
        root = page_box(page)
        _collect(root, [root], None, owners, None, painting)
        walked = page._pnpgen_walk = (owners, painting.covers, painting.pictures)
    return walked


class _Painting:
    """The painting order met so far in a walk of a page, the covers and the raster pictures found."""

    def __init__(self, covers: list[Cover]):
        self.covers = covers
        self.pictures: list[FitBox] = []
        self.layer = (0, 0)
        self.positioned = 0

    def enter(self, box, matrix) -> tuple[int, int]:
        """The layer box and its flow are painted in; box noted as a cover if it hides what is under it."""
        layer = self.layer
        if _paints_later(box):
            self.positioned += 1
            z_index = box.style["z_index"]
            layer = (z_index if isinstance(z_index, int) else layer[0], self.positioned)
        if _hides(box):
            self.covers.append(Cover(_apply(matrix, _padding_rect(box)), layer, _box_name(box)))
        return layer


def _paints_later(box) -> bool:
    return box.style["position"] in ("relative", "absolute", "fixed") or bool(
        getattr(box, "transformation_matrix", None)
    )


def _hides(box) -> bool:
    style = box.style
    image = any(kind != "none" for kind, _ in style["background_image"])
    alpha = getattr(style["background_color"], "alpha", 0.0) * style["opacity"]
    return (image or alpha >= OPAQUE) and box.padding_width() > 0 and box.padding_height() > 0


def _box_name(box) -> str:
    element = box.element
    classes = "".join(f".{name}" for name in (element.get("class") or "").split()) if element is not None else ""
    source = element.get(SOURCE_ATTRIBUTE) if element is not None else None
    return f"{box.element_tag or 'box'}{classes}" + (f", {source}" if source else "")


def _collect(box, chain, matrix, owners, line, painting: _Painting):
    """Walk the boxes below box; chain holds the block boxes around it (innermost last)."""
    for item in getattr(box, "children", ()):
        child = unwrap(item)
        element = getattr(child, "element", None)
        if element is not None and element.get(OVERFLOW_ATTRIBUTE) == "allow":
            continue
        box_kind = kind(child)
        if box_kind == "TextBox":
            if child.text.strip():
                _add_run(child, chain, matrix, owners, line, painting.layer)
            continue
        inner = matrix
        transform = getattr(child, "transformation_matrix", None)
        if transform:
            inner = transform if matrix is None else transform @ matrix
        is_block = box_kind not in ("LineBox", "InlineBox") and hasattr(child, "padding_box_x")
        if hasattr(child, "padding_box_x"):
            painting.pictures += box_pictures(child, inner, chain)
        outer_layer = painting.layer
        if is_block and box_kind != "MarginBox":
            painting.layer = painting.enter(child, inner)
        inner_chain = chain + [child] if is_block else chain
        _collect(child, inner_chain, inner, owners, child if box_kind == "LineBox" else line, painting)
        painting.layer = outer_layer


def box_pictures(box, matrix, chain) -> list[FitBox]:
    """The raster pictures a box paints: its own (an `<img>`, as `object-fit` draws it) and its backgrounds'
    (each tile's size); each measured at its laid-out size, times the scale of the transforms around it."""
    drawn = []
    replacement = getattr(box, "replacement", None)
    if _is_raster(replacement) and box.element is not None:
        pixels = _pixels(replacement)
        size = drawn_size((box.width, box.height), pixels, box.style["object_fit"])
        drawn.append((box.element.get("src") or "", _content_rect(box), pixels, size))
    background = getattr(box, "background", None)
    urls = [value for name, value in box.style["background_image"] if name == "url"]
    for layer, url in zip(background.layers if background else (), urls):
        if _is_raster(layer.image) and layer.size:
            drawn.append((url, layer.painting_area, _pixels(layer.image), layer.size))
    found = []
    scale = _scales(matrix)
    around = [outer.element for outer in [*chain, box] if outer.element is not None][::-1]
    source = next((element.get(SOURCE_ATTRIBUTE) for element in around if element.get(SOURCE_ATTRIBUTE)), "")
    anchor = next((element.get("id") for element in around if element.get("id")), "")
    for url, rect, pixels, size in drawn:
        x, y, width, height = rect
        printed = (size[0] * scale[0] * PX_MM, size[1] * scale[1] * PX_MM)
        found.append(
            FitBox(
                0,
                "",
                round(width * scale[0] * PX_MM, 2),
                round(height * scale[1] * PX_MM, 2),
                0.0,
                kind="image",
                source=source,
                text=url,
                area=_mm(_apply(matrix, (x, y, x + width, y + height))),
                anchor=anchor,
                pixels=pixels,
                dpi=round(printed_dpi(pixels, printed), 1),
            )
        )
    return found


def drawn_size(box: tuple[float, float], pixels: tuple[int, int], fit: str) -> tuple[float, float]:
    """How large a picture of `pixels` is drawn in a box (both in CSS px) by CSS `object-fit`: `fill` stretches
    it to the box, `contain` fits it inside, `cover` fills the box (cropping what runs over), `none` keeps one
    image pixel per CSS px, `scale-down` the smaller of `none` and `contain`."""
    width, height = box
    ratio = pixels[0] / pixels[1] if pixels[1] else 1.0
    natural = (float(pixels[0]), float(pixels[1]))
    if fit == "fill":
        return width, height
    contain = (width, width / ratio) if width / ratio <= height else (height * ratio, height)
    if fit == "contain":
        return contain
    if fit == "cover":
        return (width, width / ratio) if width / ratio >= height else (height * ratio, height)
    if fit == "scale-down":
        return contain if contain[0] <= natural[0] else natural
    return natural


def printed_dpi(pixels: tuple[int, int], printed_mm: tuple[float, float]) -> float:
    """Dots per inch of a picture of `pixels` printed `printed_mm` large: the lower of its two sides (a picture
    stretched one way is as sharp as its coarser side)."""
    return min(count / (size / 25.4) if size > 0 else float("inf") for count, size in zip(pixels, printed_mm))


def _is_raster(image) -> bool:
    return type(image).__name__ == "RasterImage"


def _pixels(image) -> tuple[int, int]:
    return int(image.width), int(image.height)


def _content_rect(box) -> tuple[float, float, float, float]:
    return box.content_box_x(), box.content_box_y(), box.width, box.height


def _scales(matrix) -> tuple[float, float]:
    """How much a transform (a, b, c, d, e, f) stretches each axis."""
    if matrix is None:
        return 1.0, 1.0
    a, b, c, d = matrix[0][0], matrix[0][1], matrix[1][0], matrix[1][1]
    return (a * a + b * b) ** 0.5, (c * c + d * d) ** 0.5


def ink_extent(text: str) -> tuple[float, float]:
    """How far a run's glyphs reach above and below the baseline, in em (Noto Sans/Serif CJK): Japanese
    glyphs fill most of the ideographic em box (0.83 to -0.07), Latin ascenders reach 0.77 and
    descenders -0.22."""
    cjk = CJK.search(text) is not None
    above = 0.83 if cjk else 0.77
    below = 0.22 if DESCENDERS.search(text) else 0.07 if cjk else 0.02
    return above, below


def _add_run(text, chain, matrix, owners, line, layer):
    above, below = ink_extent(text.text)
    size = text.style["font_size"]
    baseline = text.position_y + text.baseline
    local = (text.position_x, baseline - above * size, text.position_x + text.width, baseline + below * size)
    # against its own boxes text is out when both its line and its ink are: a descender below a box set
    # solid, or a line taller than its box to centre the text in it, are not text out of its box
    laid = (local[0], line.position_y, local[2], line.position_y + line.height) if line is not None else local
    owner_box = chain[-1]
    box_past, fit_element = 0.0, 0
    if not (owner_box.element_tag or "").endswith("::marker"):  # list markers hang outside their item by design
        for box in reversed(chain[1:]):  # chain[0] is the page
            element = box.element
            if element is not None and element.get(FIT_ATTRIBUTE):
                fit_element = id(element)  # measured as a data-fit box
                break
            if box.element_tag in ("html", "body"):
                break
            padding = _padding_rect(box)
            box_past = max(box_past, min(_past(laid, padding), _past(local, padding)))
            if _is_positioned(box):
                break
    owner = owners.get(id(owner_box))
    if owner is None:
        owner = owners[id(owner_box)] = Owner(owner_box, chain)
    owner.runs.append(Run(_apply(matrix, local), owner_box, box_past, text.text, fit_element, layer))


def text_findings(document, skip_fit: Container = frozenset()) -> list[FitBox]:
    """Every text of the document found past its box, the safe area, the trim or the cut, or on other text."""
    findings = []
    for index, page in enumerate(document.pages):
        geometry = Geometry.of(page_box(page))
        owners = page_owners(page)
        runs = []
        for owner in owners.values():
            owner.found = {}
            for run in owner.runs:
                if run.fit_element in skip_fit:
                    continue  # an overflowing data-fit box is reported as such
                owner.note("box", run.box_past)
                owner.note("trim", geometry.past_rect(run.rect, 0.0))
                owner.note("cut", geometry.past_shape(run.rect, 0.0) if geometry.round or geometry.corner else 0.0)
                if geometry.safe:
                    owner.note("safe", geometry.past_shape(run.rect, geometry.safe))
                runs.append((run, owner))
        _note_overlaps([pair for pair in runs if not _is_reading(pair[1].box)])
        _note_covered(runs, page_covers(page))
        for owner in owners.values():
            if owner.found:
                findings.append(_finding(index, owner))
    return findings


def block_findings(document) -> list[FitBox]:
    """In a document whose root asks for them (data-blocks): each box of each block, where it lies (kind `block`,
    its id as anchor), and each paragraph whose last line stays short (kind `short`: one character of Japanese,
    one word of another language, which lastlines.py could not set otherwise)."""
    from generator.render.weasy.lastlines import ends_short
    from generator.render.weasy.paragraphs import paragraphs

    pages = document.pages
    if not pages or page_box(pages[0]).children[0].element.get(BLOCKS.name) != "measured":
        return []
    found = []

    def walk(box, index: int, around) -> None:
        element = getattr(box, "element", None)
        if element is not None and element is not around and _is_block(element):  # its box, or a piece of it
            right, bottom = box.position_x + box.margin_width(), box.position_y + box.margin_height()
            area = _mm((box.position_x, box.position_y, right, bottom))
            found.append(FitBox(index, "", area[2], area[3], 0.0, kind="block", area=area, anchor=element.get("id")))
        for child in getattr(box, "children", None) or []:
            walk(child, index, element)

    for index, page in enumerate(pages):
        walk(page_box(page), index, None)
    page_of = {id(box): index for index, page in enumerate(pages) for box in descendants(page_box(page))}
    for paragraph in paragraphs(document):
        if not ends_short(paragraph):
            continue
        last, holder = paragraph.lines[-1], paragraph.blocks[-1]
        area = _mm((last.position_x, last.position_y, last.position_x + last.width, last.position_y + last.height))
        found.append(
            FitBox(
                page_of.get(id(last), 0),
                "",
                area[2],
                area[3],
                0.0,
                kind="short",
                text=_element_text(holder)[:200],
                area=area,
                anchor=_block_id(paragraph.element, document),
            )
        )
    return found


def _is_block(element) -> bool:
    return bool(element.get("id")) and "block" in (element.get("class") or "").split()


def _block_id(element, document) -> str:
    """The id of the block holding element."""
    root = page_box(document.pages[0]).children[0].element
    parents = {id(child): parent for parent in root.iter() for child in parent}
    while element is not None:
        if _is_block(element):
            return element.get("id")
        element = parents.get(id(element))
    return ""


def picture_findings(document) -> list[FitBox]:
    """Every raster picture of the document, with its resolution as printed (kind `image`): measured in the
    same walk of each page as its text."""
    found = []
    for index, page in enumerate(document.pages):
        for picture in page_pictures(page):
            picture.page = index
            found.append(picture)
    return found


def _is_reading(box) -> bool:
    """Furigana: set over its base and, as JLReq allows, over neighbouring kana (typeset.py, furigana.py),
    so it is not text drawn over another box's text. It is still checked against its box and the edges."""
    element = getattr(box, "element", None)
    return element is not None and "rt" in (element.get("class") or "").split()


def _note_overlaps(runs) -> None:
    """Text of two boxes drawn over each other: how far they overlap, in the narrower direction."""
    runs.sort(key=lambda pair: pair[0].rect[1])
    active: list = []
    for run, owner in runs:
        x0, y0, x1, y1 = run.rect
        active = [pair for pair in active if pair[0].rect[3] > y0]
        for other, other_owner in active:
            if other_owner is owner or other.owner is run.owner:
                continue
            width = min(x1, other.rect[2]) - max(x0, other.rect[0])
            height = min(y1, other.rect[3]) - y0
            if width > 0 and height > 0:
                past = min(width, height)
                owner.note("overlap", past, _element_text(other_owner.box)[:30])
                other_owner.note("overlap", past, _element_text(owner.box)[:30])
        active.append((run, owner))


def _note_covered(runs, covers: list[Cover]) -> None:
    """Text under a box painted after it: how far the box reaches over it, in the narrower direction."""
    for cover in covers:
        for run, owner in runs:
            if run.layer >= cover.layer:
                continue
            width = min(run.rect[2], cover.rect[2]) - max(run.rect[0], cover.rect[0])
            height = min(run.rect[3], cover.rect[3]) - max(run.rect[1], cover.rect[1])
            if width > 0 and height > 0:
                owner.note("covered", min(width, height), cover.name)


def _finding(page: int, owner: Owner, found: tuple | None = None) -> FitBox:
    if found is None:
        kind = next(kind for kind in KINDS if kind in owner.found)
        past, other = owner.found[kind]
    else:
        kind, past, other = found
    box = owner.box
    source = anchor = field = ""
    for outer in reversed(owner.chain):
        element = outer.element
        if element is None:
            continue
        source = source or element.get(SOURCE_ATTRIBUTE) or ""
        anchor = anchor or element.get("id") or ""
        field = field or element.get(FIT_ATTRIBUTE) or ""
    return FitBox(
        page,
        field,
        round((box.padding_width()) * PX_MM, 2),
        round(box.padding_height() * PX_MM, 2),
        round(past * PX_MM, 2),
        kind=kind,
        source=source,
        text=_element_text(box),
        area=_mm(_owner_rect(owner)),
        anchor=anchor,
        other=other,
    )


def _owner_rect(owner: Owner):
    """The element's box and its text together, on the page: what the preview outlines."""
    xs0, ys0, xs1, ys1 = zip(*(run.rect for run in owner.runs))
    return min(xs0), min(ys0), max(xs1), max(ys1)


def _mm(rect) -> tuple:
    x0, y0, x1, y1 = rect
    return tuple(round(value * PX_MM, 2) for value in (x0, y0, x1 - x0, y1 - y0))


def _element_text(box) -> str:
    """The text of a box as it reads: runs of a line joined, lines separated by a space."""
    lines: list[list[str]] = [[]]
    for inner in descendants(box):
        inner_kind = kind(inner)
        if inner_kind == "LineBox" and lines[-1]:
            lines.append([])
        elif inner_kind == "TextBox":
            lines[-1].append(inner.text)
    return " ".join(" ".join("".join(line).split()) for line in lines if line)[:200]
