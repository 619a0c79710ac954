"""What is drawn on a sheet besides the cards, as PDF content stream operators: crop marks on the trim lines
outside each block's bleed, dashed cut lines, the fold line of a gutter fold and the 50 mm scale bar.

Marks are drawn outside the bleed so they are never under a card; a block of cards leaves MARK_ROOM_MM
around it for them (see sheet_plan).
"""

from __future__ import annotations

from generator.render.paper import MARGIN_MM, MM, Rect, pdf_number, printable

MARK_OFFSET_MM = 0.5  # gap between the bleed edge and a crop mark
MARK_LENGTH_MM = 5.0
MIN_MARK_MM = 2.0  # a block leaves at least this much room for its marks on every side
MARK_ROOM_MM = MARK_OFFSET_MM + MIN_MARK_MM
BETWEEN_CLEAR_MM = 0.5  # between two blocks: the blocks' marks stop this far from the cut between them


def pdf_line(x0, y0, x1, y1) -> str:
    """A stroked line from (x0, y0) to (x1, y1), in mm, as content stream operators."""
    return f"{pdf_number(x0 * MM)} {pdf_number(y0 * MM)} m {pdf_number(x1 * MM)} {pdf_number(y1 * MM)} l S\n"


def _edges(slots: list[Rect], trims: list[Rect]):
    block = Rect(min(s.x for s in slots), min(s.y for s in slots), 0, 0)
    block = Rect(block.x, block.y, max(s.right for s in slots) - block.x, max(s.top for s in slots) - block.y)
    xs = sorted({round(t.x, 4) for t in trims} | {round(t.right, 4) for t in trims})
    ys = sorted({round(t.y, 4) for t in trims} | {round(t.top, 4) for t in trims})
    return block, xs, ys


def block_marks(slots: list[Rect], trims: list[Rect], area: Rect) -> str:
    """Marks on the trim lines, outside the bleed of the whole block, as long as `area` allows."""
    if not slots:
        return ""
    block, xs, ys = _edges(slots, trims)
    out = ["q 0 G 0.25 w 0 J\n"]
    ends = ((block.top + MARK_OFFSET_MM, area.top, 1), (block.y - MARK_OFFSET_MM, area.y, -1))
    for start, edge, sign in ends:
        end = start + sign * min(MARK_LENGTH_MM, max(0.0, sign * (edge - start)))
        if abs(end - start) >= 0.5:
            out += [pdf_line(x, start, x, end) for x in xs]
    ends = ((block.right + MARK_OFFSET_MM, area.right, 1), (block.x - MARK_OFFSET_MM, area.x, -1))
    for start, edge, sign in ends:
        end = start + sign * min(MARK_LENGTH_MM, max(0.0, sign * (edge - start)))
        if abs(end - start) >= 0.5:
            out += [pdf_line(start, y, end, y) for y in ys]
    out.append("Q\n")
    return "".join(out)


def circle(x: float, y: float, r: float) -> str:
    """A stroked circle of radius r centred on (x, y), in mm, as content stream operators (four Bezier arcs)."""
    k = 0.5523 * r

    def p(dx, dy):
        return f"{pdf_number((x + dx) * MM)} {pdf_number((y + dy) * MM)}"

    return (
        f"{p(r, 0)} m {p(r, k)} {p(k, r)} {p(0, r)} c {p(-k, r)} {p(-r, k)} {p(-r, 0)} c "
        f"{p(-r, -k)} {p(-k, -r)} {p(0, -r)} c {p(k, -r)} {p(r, -k)} {p(r, 0)} c S\n"
    )


ROUND_GUIDE_MM = 0.25  # the line width of a round piece's cut line


def round_guides(trims: list[Rect]) -> str:
    """A thin circle just outside each round piece's trim, all of it in the bleed: the line to cut along (on
    fronts only; nothing of it is inside the piece)."""
    if not trims:
        return ""
    out = [f"q 0.35 G {pdf_number(ROUND_GUIDE_MM * MM)} w\n"]
    for trim in trims:
        out.append(circle(trim.x + trim.w / 2, trim.y + trim.h / 2, min(trim.w, trim.h) / 2 + ROUND_GUIDE_MM / 2))
    out.append("Q\n")
    return "".join(out)


def between_blocks(upper: Rect, lower: Rect, area: Rect) -> str:
    """The cut between two blocks stacked on a sheet: a line across the area in the middle of the gap between
    their bleeds, each block's marks ending short of it on its own side. Cut here first; each part then holds
    one block and its own marks."""
    middle = (upper.y + lower.top) / 2
    return "q 0 G 0.25 w\n" + pdf_line(area.x, middle, area.right, middle) + "Q\n"


def cut_lines(slots: list[Rect], trims: list[Rect]) -> str:
    """Thin grey dashed lines along every trim edge, across the block (for cutting with scissors)."""
    if not slots:
        return ""
    block, xs, ys = _edges(slots, trims)
    out = ["q 0.6 G 0.3 w [2 2] 0 d\n"]
    out += [pdf_line(x, block.y, x, block.top) for x in xs]
    out += [pdf_line(block.x, y, block.right, y) for y in ys]
    out.append("Q\n")
    return "".join(out)


def scale_bar(x: float, y: float, length: float = 50.0) -> str:
    """A bar `length` mm long with end ticks: measure it to check the print is at 100%."""
    return (
        "q 0 G 0.3 w\n"
        + pdf_line(x, y, x + length, y)
        + pdf_line(x, y - 1, x, y + 1)
        + pdf_line(x + length, y - 1, x + length, y + 1)
        + "Q\n"
    )


def fold_line(paper: tuple[float, float], margin: float = MARGIN_MM) -> str:
    """A gutter fold's dashed line across the middle of the paper, inside the printable area."""
    fold = paper[1] / 2
    area = printable(paper, margin)
    return "q 0.4 G 0.4 w [4 3] 0 d\n" + pdf_line(area.x, fold, area.right, fold) + "Q\n"
