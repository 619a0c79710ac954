"""The floor: the benchmark deck drawn directly with ReportLab (no templates, no cache), 9 a page on A4
with 3 mm bleed and crop marks, as fast as a hand-written program gets."""
import sys
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas
from reportlab.lib.utils import simpleSplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from deck import COPIES, cards  # noqa: E402

W, H, BLEED = 63 * mm, 88 * mm, 3 * mm


def main(out: str) -> None:
    pdf = canvas.Canvas(out, pagesize=A4)
    copies = [card for card in cards() for _ in range(COPIES)]
    cell_w, cell_h = W + 2 * BLEED, H + 2 * BLEED
    left = (A4[0] - 3 * cell_w) / 2
    top = (A4[1] + 3 * cell_h) / 2
    for start in range(0, len(copies), 9):
        for slot, card in enumerate(copies[start:start + 9]):
            row, col = divmod(slot, 3)
            x, y = left + col * cell_w + BLEED, top - (row + 1) * cell_h + BLEED
            pdf.setFillColorRGB(1, 1, 0.94)
            pdf.rect(x - BLEED, y - BLEED, cell_w, cell_h, stroke=0, fill=1)
            pdf.setStrokeColorRGB(0.1, 0.37, 0.12)
            pdf.setLineWidth(2)
            pdf.rect(x + 3 * mm, y + 3 * mm, W - 6 * mm, H - 6 * mm)
            pdf.setFillColorRGB(0, 0, 0)
            pdf.setFont("Helvetica-Bold", 12)
            pdf.drawCentredString(x + W / 2, y + H - 12 * mm, card["title"])
            pdf.setFont("Helvetica", 8)
            for n, line in enumerate(simpleSplit(card["body"], "Helvetica", 8, W - 12 * mm)):
                pdf.drawString(x + 6 * mm, y + H - 22 * mm - n * 10, line)
        pdf.setLineWidth(0.25)
        for col in range(4):
            gx = left + col * cell_w
            for edge in (gx + BLEED, gx - BLEED) if 0 < col < 3 else ((gx + BLEED,) if col == 0 else (gx - BLEED,)):
                pdf.line(edge, top + mm, edge, top + 6 * mm)
                pdf.line(edge, top - 3 * cell_h - mm, edge, top - 3 * cell_h - 6 * mm)
        pdf.showPage()
    pdf.save()


if __name__ == "__main__":
    main(sys.argv[1])
