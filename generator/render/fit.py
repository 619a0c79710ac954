"""Text that does not fit its box: found in WeasyPrint's layout tree after render(), before write_pdf().

A template opts a text box in by giving it a fixed size and the attribute `data-fit="FIELD"` (FIELD
names what the box shows, e.g. `name` or `text`). After layout, the extents of the line boxes inside
are compared with the box's content area. With `data-shrink="80"` as well, an overflowing box's
font is made smaller in 5% steps, down to 80%, until the text fits; what was shrunk is reported.
With `data-grow="150"` a box whose text leaves room (a player aid) has its font made larger, up to
150%, as large as still fits.

This walks WeasyPrint's private layout tree (`page._page_box`): the major version is pinned in
pyproject.toml and tests/test_fit.py checks the measurements.
"""
from __future__ import annotations

from dataclasses import dataclass

from generator.render.furigana import enlarge_small_readings
from generator.render.lastlines import pull_down_short_lines
from generator.render.lastpage import tighten_for_last_page

FIT_ATTRIBUTE = "data-fit"
SHRINK_ATTRIBUTE = "data-shrink"
GROW_ATTRIBUTE = "data-grow"
SHRINK_STEP = 0.05
GROW_STEPS = 3             # bisections between 100% and data-grow: within 1/8 of the range
PX_MM = 25.4 / 96          # WeasyPrint lays out in CSS pixels
TOLERANCE_PX = 0.2         # rounding in the line heights, about 0.05 mm


@dataclass
class FitBox:
    """One marked text box on one page of a rendered document."""

    page: int            # page index in the document
    field: str           # the data-fit value
    width_mm: float
    height_mm: float
    overflow_mm: float   # how far the text reaches past the box; 0 when it fits
    scale: float = 1.0   # the font scale auto-shrink settled on

    @property
    def overflows(self) -> bool:
        return self.overflow_mm > 0


def _unwrap(box):
    return getattr(box, "_box", box)  # absolutely positioned boxes sit in the tree behind placeholders


def marked_boxes(document):
    """(page index, element, box) for every box whose element carries data-fit, once per element."""
    for index, page in enumerate(document.pages):
        seen = set()
        for item in page._page_box.descendants(placeholders=True):
            box = _unwrap(item)
            element = getattr(box, "element", None)
            if element is None or id(element) in seen or not element.get(FIT_ATTRIBUTE):
                continue
            seen.add(id(element))  # the first box of an element is its principal box; the rest are anonymous
            yield index, element, box


def text_reach(box) -> tuple[float, float]:
    """The rightmost and lowest points reached by the text laid out inside box, in px."""
    right = bottom = float("-inf")
    for item in box.descendants(placeholders=True):
        inner = _unwrap(item)
        if inner is box or not hasattr(inner, "position_y"):
            continue
        if type(inner).__name__ == "LineBox":
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
    return FitBox(page, element.get(FIT_ATTRIBUTE), round(box.width * PX_MM, 2), round(box.height * PX_MM, 2),
                  round(overflow, 2), scale)


def shrink_floor(element) -> float:
    """The smallest font scale data-shrink allows (1.0 when the box may not shrink)."""
    value = (element.get(SHRINK_ATTRIBUTE) or "").strip().rstrip("%")
    try:
        return min(1.0, max(0.3, float(value) / 100))
    except ValueError:
        return 1.0


def grow_ceiling(element) -> float:
    """The largest font scale data-grow allows (1.0 when the box may not grow)."""
    value = (element.get(GROW_ATTRIBUTE) or "").strip().rstrip("%")
    try:
        return max(1.0, min(3.0, float(value) / 100))
    except ValueError:
        return 1.0


def grow_to_fill(html, document):
    """Boxes marked data-grow at the largest font scale that still fits (bisection); the new layout."""
    ranges = {}   # element id -> [fits, overflows, element, its own style, font size in px]
    for _, element, box in marked_boxes(document):
        if grow_ceiling(element) > 1 and not measure_box(0, element, box).overflows:
            ranges[id(element)] = [1.0, grow_ceiling(element), element, element.get("style") or "",
                                   box.style["font_size"]]
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
                entry[1 if measure_box(0, element, box).overflows else 0] = middle
    set_scales(lambda low, high: low)
    return html.render()


def render_measured(html) -> tuple[object, list[FitBox]]:
    """Lay out a weasyprint.HTML, shrinking what may shrink, giving furigana a readable size (furigana.py)
    and pulling characters down to Japanese paragraphs' short last lines (lastlines.py); a near-empty
    last page is pulled back where the document asks for it (lastpage.py). The final document and its
    marked boxes."""
    document = grow_to_fill(html, html.render())
    joined: dict[int, int] = {}
    last_page: dict = {}
    scales: dict[int, float] = {}
    original: dict[int, tuple] = {}  # element id -> (element, its own style attribute, its font size in px)
    while True:
        found = list(marked_boxes(document))
        changed = False
        for _, element, box in found:
            fit = measure_box(0, element, box)
            scale = scales.get(id(element), 1.0)
            if not fit.overflows or scale - SHRINK_STEP < shrink_floor(element) - 1e-9:
                continue
            original.setdefault(id(element), (element, element.get("style") or "", box.style["font_size"]))
            scales[id(element)] = round(scale - SHRINK_STEP, 4)
            changed = True
        changed = enlarge_small_readings(document) or changed
        # tightening reflows every line: decide it before joining the ends of short last lines
        changed = changed or tighten_for_last_page(document, last_page)
        changed = changed or pull_down_short_lines(document, joined)
        if not changed:
            return document, [measure_box(page, element, box, scales.get(id(element), 1.0))
                              for page, element, box in found]
        for key, (element, style, size) in original.items():
            element.set("style", f"{style};font-size:{size * scales[key]:.3f}px".lstrip(";"))
        document = html.render()
