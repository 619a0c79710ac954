"""No near-empty last page: a document whose last page holds a few lines is set a little tighter.

A document opts in on its root element with `data-last-page-min="0.3"`: when the last page holds fewer
lines than that share of an average page, the root font size is made smaller (everything sized in em
follows) by what should save the page: the text takes about scale² of its room, so n pages and a last
page share s need scale² <= (n - 1) / (n - 1 + s). At most 10% smaller; when a line or two is still left
over, the estimate is made again from what is left (once); if the page does not go away, the original size
is kept: tightening is only worth it when it saves the page.
"""

from __future__ import annotations

from generator.render.attributes import Attribute
from generator.render.weasy.tree import descendants, kind, page_box

LAST_PAGE_MIN = Attribute(
    "data-last-page-min",
    "a share of a page, 0-1",
    "On a document's root (pnpgen's rule sheets): a last page holding fewer lines than this share of a page is "
    "pulled back by setting the text slightly smaller, if that saves the page.",
    for_templates=False,
)
ATTRIBUTES = (LAST_PAGE_MIN,)
MIN_ATTRIBUTE = LAST_PAGE_MIN.name
SMALLEST = 0.9
MARGIN = 0.97  # a little more than the estimate: the last lines of columns do not fill exactly
ATTEMPTS = 2


def _lines(page) -> int:
    return sum(1 for box in descendants(page_box(page)) if kind(box) == "LineBox")


def last_page_share(document) -> float:
    """Lines on the last page as a share of the average of the others."""
    counts = [_lines(page) for page in document.pages]
    others = counts[:-1]
    average = sum(others) / len(others) if others else 0
    return counts[-1] / average if average else 1.0


def tighten_for_last_page(document, state: dict) -> bool:
    """Tighten, tighten again from what is left, or undo a tightening that did not save the page (state is
    kept across layouts); True when the document must be laid out again."""
    if state.get("done") or len(document.pages) < 2:
        return False
    root_box = page_box(document.pages[0]).children[0]
    root = root_box.element
    try:
        minimum = float(root.get(MIN_ATTRIBUTE) or "")
    except ValueError:
        return False
    share = last_page_share(document)
    pages = len(document.pages)
    if "pages" in state:  # a tightened layout
        if pages < state["pages"]:
            state["done"] = True
            return False
        scale = state["scale"] * _estimate(pages, share)
        if state["attempts"] >= ATTEMPTS or state["scale"] <= SMALLEST:
            state["done"] = True
            root.set("style", state["style"])
            return True
        return _set_scale(root, state, max(SMALLEST, scale))
    scale = _estimate(pages, share)
    if share >= minimum or scale < SMALLEST:
        state["done"] = True
        return False
    state.update(pages=pages, style=root.get("style") or "", size=root_box.style["font_size"], attempts=0)
    return _set_scale(root, state, scale)


def _estimate(pages: int, share: float) -> float:
    return MARGIN * ((pages - 1) / (pages - 1 + share)) ** 0.5


def _set_scale(root, state: dict, scale: float) -> bool:
    state["scale"] = scale
    state["attempts"] += 1
    root.set("style", f"{state['style']};font-size:{state['size'] * scale:.3f}px".lstrip(";"))
    return True
