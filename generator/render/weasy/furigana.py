"""Furigana after layout: a readable minimum size, and no reading past the edge of its column.

Readings are set at half the base size (JLReq), which on an 8 pt card line is 4 pt: too small to read
at arm's length for a game played from age 8. CSS `max()` is not available in WeasyPrint, so after
layout every reading smaller than MIN_READING_PT is given that size and the document laid out again.

A reading longer than its base is centred over it and overhangs its neighbours (typeset.py); at the start
or the end of a line there is no neighbour on that side, and the reading would stick out of the column.
JLReq aligns it with the line's edge instead: a reading found past the edge of its line's box is set flush
with its base's start (or end), the base's blank on that side taken out, and the document laid out again.
"""

from __future__ import annotations

from generator.render.weasy.tree import descendants, kind, page_box

RUBY_CLASS, READING_CLASS = "ruby", "rt"
EDGE_TOLERANCE_PX = 0.5
AT_START = ("padding-left: 0", "left: 0; right: auto")
AT_END = ("padding-right: 0", "right: 0; left: auto")

MIN_READING_PT = 5.5
PX_PER_PT = 96 / 72


def enlarge_small_readings(document) -> bool:
    """Give each too-small reading the minimum size; True when the document must be laid out again."""
    changed = False
    for page in document.pages:
        for box in descendants(page_box(page)):
            element = getattr(box, "element", None)
            if element is None or "rt" not in (element.get("class") or "").split():
                continue
            if box.style["font_size"] < MIN_READING_PT * PX_PER_PT - 0.01 and "font-size" not in (
                element.get("style") or ""
            ):
                element.set("style", f"font-size: {MIN_READING_PT}pt")
                changed = True
    return changed


def align_edge_readings(document, done: set[int]) -> bool:
    """Set each reading found past its line's edge flush with that edge (done: the ruby elements already
    aligned, kept across layouts); True when the document must be laid out again."""
    changed = False
    for page in document.pages:
        for block in descendants(page_box(page)):
            lines = [child for child in getattr(block, "children", None) or [] if kind(child) == "LineBox"]
            if not lines:
                continue
            left = block.content_box_x()
            right = left + block.width
            for line in lines:
                for ruby, reading in _rubies(line):
                    if id(ruby.element) in done:
                        continue
                    if reading.position_x < left - EDGE_TOLERANCE_PX:
                        changed = _align(ruby.element, reading.element, AT_START, done) or changed
                    elif reading.position_x + reading.width > right + EDGE_TOLERANCE_PX:
                        changed = _align(ruby.element, reading.element, AT_END, done) or changed
    return changed


def _rubies(line):
    """(ruby box, its reading's text box) for each furigana on the line."""
    for box in descendants(line):
        element = getattr(box, "element", None)
        if element is None or kind(box) == "TextBox" or RUBY_CLASS not in (element.get("class") or "").split():
            continue
        reading = next(
            (
                inner
                for inner in descendants(box)
                if kind(inner) == "TextBox" and READING_CLASS in (inner.element.get("class") or "").split()
            ),
            None,
        )
        if reading is not None:
            yield box, reading


def _align(ruby, reading, edge: tuple[str, str], done: set[int]) -> bool:
    done.add(id(ruby))
    base_style, reading_style = edge
    ruby.set("style", f"{ruby.get('style') or ''};{base_style}".lstrip(";"))
    reading.set("style", f"{reading.get('style') or ''};{reading_style}".lstrip(";"))
    return True
