"""The physical anchor: the benchmark deck drawn directly with ReportLab (no templates, no layout engine, no
cache), 9 a page on A4 with 3 mm bleed and crop marks, in the font pnpgen prints with, embedded.

    python bench/reportlab_floor.py OUT.pdf FONT_DIR

pnpgen prints the deck in Noto Sans CJK JP, regular and bold (generator/render/fonts.py: fontconfig's
file for that family, else the PyPI fallback). ReportLab embeds TrueType outlines only and Noto CJK's are
CFF, so `python bench/reportlab_floor.py --prepare FONT_DIR` (untimed, run once by bench/run.py) writes
TrueType copies of both faces: the same glyph outlines, converted to quadratic curves, for the characters
the deck and Latin-1 text use, with the font's kana. ReportLab then subsets and embeds them as it would any
font.
"""

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from deck import COPIES, cards  # noqa: E402

MM = 72 / 25.4
W, H, BLEED = 63 * MM, 88 * MM, 3 * MM
FACES = {"regular": "NotoSansCJKJP-Regular.ttf", "bold": "NotoSansCJKJP-Bold.ttf"}
KEPT = [*range(0x20, 0x7F), *range(0xA0, 0x100), *range(0x2010, 0x2027), *range(0x3000, 0x3100)]


def pnpgen_font_files() -> dict[str, tuple[str, int]]:
    """The file and face index pnpgen's renderer uses for Noto Sans CJK JP, regular and bold."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from generator.render import fonts

    if fonts.FAMILY not in fonts.system_families():
        fallback = fonts.pypi_font_file()
        return {"regular": (str(fallback), 0), "bold": (str(fallback), 0)}  # the fallback has one weight
    found = {}
    for face, weight in (("regular", "regular"), ("bold", "bold")):
        match = subprocess.run(
            ["fc-match", "-f", "%{file}\n%{index}", f"{fonts.FAMILY}:weight={weight}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split("\n")
        found[face] = (match[0], int(match[1] or 0))
    return found


def truetype_copy(source: str, index: int, out: Path) -> None:
    """The face at source[index] with its CFF outlines converted to TrueType (quadratic) outlines."""
    from fontTools import subset
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    font = TTFont(source, fontNumber=index, lazy=False)
    options = subset.Options()
    options.layout_features, options.name_IDs, options.notdef_outline = ["*"], ["*"], True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=KEPT)
    subsetter.subset(font)
    glyph_set = font.getGlyphSet()
    glyphs = {}
    for name in font.getGlyphOrder():
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyphs[name] = pen.glyph()
    for tag in ("CFF ", "VORG", "BASE"):
        if tag in font:
            del font[tag]
    font["loca"] = newTable("loca")
    font["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder, glyf.glyphs = font.getGlyphOrder(), glyphs
    font["maxp"].tableVersion = 0x00010000
    for field in (
        "maxZones",
        "maxTwilightPoints",
        "maxStorage",
        "maxFunctionDefs",
        "maxInstructionDefs",
        "maxStackElements",
        "maxSizeOfInstructions",
        "maxComponentElements",
    ):
        setattr(font["maxp"], field, 1 if field == "maxZones" else 0)
    font["head"].glyphDataFormat = 0
    font["post"].formatType = 3.0
    font.sfntVersion = "\0\1\0\0"
    font.save(str(out))


def prepare(font_dir: Path) -> None:
    font_dir.mkdir(parents=True, exist_ok=True)
    for face, (source, index) in pnpgen_font_files().items():
        if not (font_dir / FACES[face]).is_file():
            truetype_copy(source, index, font_dir / FACES[face])


def main(out: str, font_dir: Path) -> None:
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(TTFont("Noto", str(font_dir / FACES["regular"])))
    pdfmetrics.registerFont(TTFont("Noto-Bold", str(font_dir / FACES["bold"])))
    pdf = canvas.Canvas(out, pagesize=A4)
    copies = [card for card in cards() for _ in range(COPIES)]
    cell_w, cell_h = W + 2 * BLEED, H + 2 * BLEED
    left = (A4[0] - 3 * cell_w) / 2
    top = (A4[1] + 3 * cell_h) / 2
    for start in range(0, len(copies), 9):
        for slot, card in enumerate(copies[start : start + 9]):
            row, col = divmod(slot, 3)
            x, y = left + col * cell_w + BLEED, top - (row + 1) * cell_h + BLEED
            pdf.setFillColorRGB(1, 1, 0.94)
            pdf.rect(x - BLEED, y - BLEED, cell_w, cell_h, stroke=0, fill=1)
            pdf.setStrokeColorRGB(0.1, 0.37, 0.12)
            pdf.setLineWidth(2)
            pdf.rect(x + 3 * MM, y + 3 * MM, W - 6 * MM, H - 6 * MM)
            pdf.setFillColorRGB(0, 0, 0)
            pdf.setFont("Noto-Bold", 12)
            pdf.drawCentredString(x + W / 2, y + H - 12 * MM, card["title"])
            pdf.setFont("Noto", 8)
            for n, line in enumerate(simpleSplit(card["body"], "Noto", 8, W - 12 * MM)):
                pdf.drawString(x + 6 * MM, y + H - 22 * MM - n * 10, line)
        pdf.setLineWidth(0.25)
        for col in range(4):
            gx = left + col * cell_w
            for edge in (gx + BLEED, gx - BLEED) if 0 < col < 3 else ((gx + BLEED,) if col == 0 else (gx - BLEED,)):
                pdf.line(edge, top + MM, edge, top + 6 * MM)
                pdf.line(edge, top - 3 * cell_h - MM, edge, top - 3 * cell_h - 6 * MM)
        pdf.showPage()
    pdf.save()


if __name__ == "__main__":
    if sys.argv[1] == "--prepare":
        prepare(Path(sys.argv[2]))
    else:
        main(sys.argv[1], Path(sys.argv[2]))
