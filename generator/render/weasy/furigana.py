"""A readable minimum size for furigana, enforced after layout.

Readings are set at half the base size (JLReq), which on an 8 pt card line is 4 pt: too small to read
at arm's length for a game played from age 8. CSS `max()` is not available in WeasyPrint, so after
layout every reading smaller than MIN_READING_PT is given that size and the document laid out again.
"""

from __future__ import annotations

from generator.render.weasy.tree import descendants, page_box

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
