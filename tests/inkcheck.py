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
