"""How much ink a PDF's pages take: each page rendered small in grey, its mean darkness (0 white, 1 solid black).

A measure for comparing versions of one file (the print-and-play file and its ink-saving version), not a
printer's ink model: colours count by their grey value, and anti-aliasing at the low resolution evens out.
"""

from __future__ import annotations

from pathlib import Path

INK_DPI = 20  # enough to weigh areas of colour: a card's frame is a few pixels wide


def page_darkness(path: Path | bytes, dpi: int = INK_DPI) -> list[float]:
    """The mean darkness of every page, in order."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(path if isinstance(path, bytes) else str(path))
    try:
        found = []
        for page in document:
            image = page.render(scale=dpi / 72, grayscale=True, fill_color=(255, 255, 255, 255)).to_pil().convert("L")
            histogram = image.histogram()
            pixels = sum(histogram) or 1
            found.append(1 - sum(value * count for value, count in enumerate(histogram)) / (255 * pixels))
        return found
    finally:
        document.close()


def coverage(darkness: list[float]) -> dict:
    """What build.json says of a file's ink: the mean over its pages and each page's."""
    mean = sum(darkness) / len(darkness) if darkness else 0.0
    return {"mean_darkness": round(mean, 4), "pages": [round(value, 4) for value in darkness]}
