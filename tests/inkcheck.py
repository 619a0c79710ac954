"""Where a page puts ink near the paper's edge: rendered at low resolution, only the outer band is looked at."""

from __future__ import annotations

from pathlib import Path

EDGE_MM = 4.0
DPI = 50


def ink_near_edge(path: Path, edge_mm: float = EDGE_MM, dpi: int = DPI) -> list[tuple[int, float]]:
    """(page index, darkest channel value) of every page with a pixel that is not white within `edge_mm`
    of the paper's edge (anti-aliasing of ink just inside the band is counted as ink)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    found = []
    try:
        for index in range(len(document)):
            image = document[index].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
            band, (w, h) = int(edge_mm / 25.4 * dpi), image.size
            edges = [(0, 0, w, band), (0, h - band, w, h), (0, 0, band, h), (w - band, 0, w, h)]
            darkest = min(image.crop(box).getextrema()[0] for box in edges)
            if darkest < 250:
                found.append((index, darkest))
    finally:
        document.close()
    return found


def relative_luminance(grey: int) -> float:
    value = grey / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def text_contrasts(path: Path, index: int, dpi: int = 200) -> list[tuple[str, float]]:
    """(text, contrast ratio) of every run of text on a page, in the page's order: its darkest pixel (the glyphs)
    against its lightest (the ground around and inside them), as WCAG counts contrast (1 to 21; 4.5 is its bar
    for body text). A light text on a dark ground measures the same way round."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        page = document[index]
        page.set_rotation(0)  # as laid out: the text's boxes are in the page's own coordinates, whatever /Rotate says
        image = page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
        text, height, scale = page.get_textpage(), page.get_height(), dpi / 72
        found = []
        for rect in range(text.count_rects()):
            left, bottom, right, top = text.get_rect(rect)
            words = text.get_text_bounded(left, bottom, right, top).strip()
            if not words:
                continue
            box = (
                int(left * scale),
                int((height - top) * scale),
                int(right * scale) + 1,
                int((height - bottom) * scale) + 1,
            )
            darkest, lightest = image.crop(box).getextrema()
            found.append((words, (relative_luminance(lightest) + 0.05) / (relative_luminance(darkest) + 0.05)))
        return found
    finally:
        document.close()
