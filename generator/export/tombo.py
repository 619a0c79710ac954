"""トンボ: Japanese double crop marks, drawn outside the bleed of a single card page.

At each corner two parallel lines run outward in each direction: the trim line (仕上がり線) and the
bleed line (裁ち落とし線) 3 mm further out; the two bleed lines meet at the bleed box's corner. Centre
marks (センタートンボ) on each side are a line on the centre axis crossed by a short bar. Every line
starts at the bleed box and runs away from it, so no mark ever falls on the card. Lines are in
registration colour (all four inks), as a print shop's plates all need them.
"""

from __future__ import annotations

from generator.render.paper import MM, Rect, pdf_number

MARK_LENGTH_MM = 10.0
PAGE_MARGIN_MM = MARK_LENGTH_MM + 3.0  # paper around the bleed box: the marks and a little air
LINE_WIDTH_MM = 0.1


def page_rects(card: tuple[float, float], bleed: float) -> tuple[tuple[float, float], Rect, Rect]:
    """Page size, trim box and bleed box of a card page with room for the marks (mm, origin bottom left)."""
    margin = bleed + PAGE_MARGIN_MM
    trim = Rect(margin, margin, card[0], card[1])
    page = (card[0] + 2 * margin, card[1] + 2 * margin)
    return page, trim, trim.inset(-bleed)


def segments(trim: Rect, bleed: float) -> list[tuple[float, float, float, float]]:
    """Every mark as a line (x0, y0, x1, y1) in mm."""
    lines = []
    length = MARK_LENGTH_MM
    for cx, sx in ((trim.x, -1), (trim.x + trim.w, 1)):
        for cy, sy in ((trim.y, -1), (trim.y + trim.h, 1)):
            start_x, end_x = cx + sx * bleed, cx + sx * (bleed + length)
            start_y, end_y = cy + sy * bleed, cy + sy * (bleed + length)
            lines += [
                (start_x, cy, end_x, cy),
                (start_x, start_y, end_x, start_y),  # horizontal pair
                (cx, start_y, cx, end_y),
                (start_x, start_y, start_x, end_y),
            ]  # vertical pair
    mid_x, mid_y = trim.x + trim.w / 2, trim.y + trim.h / 2
    half = length / 2
    for y, s in ((trim.y, -1), (trim.y + trim.h, 1)):
        bar = y + s * (bleed + half)
        lines += [(mid_x, y + s * bleed, mid_x, y + s * (bleed + length)), (mid_x - half, bar, mid_x + half, bar)]
    for x, s in ((trim.x, -1), (trim.x + trim.w, 1)):
        bar = x + s * (bleed + half)
        lines += [(x + s * bleed, mid_y, x + s * (bleed + length), mid_y), (bar, mid_y - half, bar, mid_y + half)]
    return lines


def content(trim: Rect, bleed: float) -> str:
    """The marks as a PDF content stream, in registration colour."""
    out = [f"q 1 1 1 1 K {pdf_number(LINE_WIDTH_MM * MM)} w 0 J\n"]
    for x0, y0, x1, y1 in segments(trim, bleed):
        out.append(f"{pdf_number(x0 * MM)} {pdf_number(y0 * MM)} m {pdf_number(x1 * MM)} {pdf_number(y1 * MM)} l S\n")
    out.append("Q\n")
    return "".join(out)
