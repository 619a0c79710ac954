"""generator.render.weasy.compactfonts: CJK fonts embedded as bare CFF with the used glyphs only print and copy
the same text as WeasyPrint's own embedding, in a fraction of the bytes; other CFF fonts are embedded as before."""

from __future__ import annotations

import io
from dataclasses import dataclass

import pikepdf
import pypdfium2
import pytest

from generator.render.weasy import compactfonts, patches

HTML = (
    '<html lang="ja"><body style="font-family: Noto Sans CJK JP; font-size: 11pt">'
    "<p>カードを1枚引く。「報酬」は3金。</p>"
    '<p lang="en">Draw 2 cards, pay 10 coins: digits in Latin text use glyphs past id 63000.</p>'
    '<p style="font-weight: bold">報酬 Reward 45</p>'
    '<p style="font-family: Noto Serif CJK JP">明朝の見出し Serif 678</p>'
    '<p lang="en" style="font-family: DejaVu Serif; font-style: italic">TrueType italic 9</p>'
    "</body></html>"
)


@dataclass
class FontProgram:
    name: str  # the font's name, without its subset tag
    subtype: str  # of its font file
    data: bytes
    size: int  # compressed, as stored
    used: set[int]  # the glyph ids (CIDs) the W array gives widths to: every glyph the text uses


def font_programs(data: bytes) -> list[FontProgram]:
    """Every CFF font of the PDF (CIDFontType0), read."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return [
            FontProgram(
                str(font.BaseFont).split("+")[1],
                str(font.FontDescriptor.FontFile3.Subtype),
                font.FontDescriptor.FontFile3.read_bytes(),
                len(font.FontDescriptor.FontFile3.read_raw_bytes()),
                used_glyphs(list(font.W)),
            )
            for font in pdf.objects
            if isinstance(font, pikepdf.Dictionary) and font.get("/Subtype") == "/CIDFontType0"
        ]


def used_glyphs(widths: list) -> set[int]:
    used, at = set(), 0
    while at < len(widths):
        if isinstance(widths[at + 1], pikepdf.Array):
            used |= set(range(int(widths[at]), int(widths[at]) + len(widths[at + 1])))
            at += 2
        else:
            used |= set(range(int(widths[at]), int(widths[at + 1]) + 1))
            at += 3
    return used


def pixels_and_text(data: bytes) -> tuple[bytes, str]:
    page = pypdfium2.PdfDocument(data)[0]
    return page.render(scale=150 / 72, grayscale=True).to_pil().tobytes(), page.get_textpage().get_text_range()


@pytest.fixture(scope="module")
def rendered():
    """The sample written with compact fonts, and with WeasyPrint's own embedding."""
    weasyprint = patches.load()
    compact = weasyprint.HTML(string=HTML).write_pdf()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(compactfonts, "compact_cff", lambda font, glyphs, hinting: None)
        own = weasyprint.HTML(string=HTML).write_pdf()
    return compact, own


def test_cjk_fonts_are_bare_cff_holding_the_used_glyphs_only(rendered):
    compact, own = rendered
    fonts = font_programs(compact)
    assert len(fonts) == 3  # Sans, Sans bold, Serif
    for font in fonts:
        assert font.subtype == "/CIDFontType0C", font.name
        cids = compactfonts.glyph_cids(font.data)
        assert cids is not None and font.used <= set(cids), font.name  # every glyph, found by its id
        assert len(cids) < 2 * len(font.used), font.name  # and a few more at most (HarfBuzz's layout closure)
    assert max(max(font.used) for font in fonts) > 63000  # the case that made the fonts big
    assert {font.subtype for font in font_programs(own)} == {"/OpenType"}
    assert sum(font.size for font in fonts) * 20 < sum(font.size for font in font_programs(own))
    assert len(compact) * 5 < len(own)


def test_compact_fonts_print_and_copy_the_same_text(rendered):
    compact, own = rendered
    (compact_pixels, compact_text), (own_pixels, own_text) = pixels_and_text(compact), pixels_and_text(own)
    assert compact_text == own_text and "3金" in compact_text and "Serif 678" in compact_text
    # the same glyphs in the same places; FreeType smooths a bare CFF's edges a little differently (by 26 of 255
    # levels at most, on 27 of 2.2 million pixels), a wrong glyph differs by up to 255 on hundreds
    assert len(compact_pixels) == len(own_pixels)
    assert max(abs(a - b) for a, b in zip(compact_pixels, own_pixels)) < 64


def test_noto_cjk_names_each_glyph_by_its_id_and_a_name_keyed_cff_keeps_weasyprints_embedding(tmp_path):
    font_file = tmp_path / "Boxes.otf"
    name_keyed_font(font_file)
    weasyprint = patches.load()
    html = (
        f"<html><head><style>@font-face {{ font-family: Boxes; src: url({font_file.as_uri()}) }}</style></head>"
        '<body><p style="font-family: Boxes; font-size: 40pt">ABBA</p>'
        '<p style="font-family: Noto Sans CJK JP">漢字</p></body></html>'
    )
    data = weasyprint.HTML(string=html, base_url=str(tmp_path)).write_pdf()
    subtypes = {font.name: font.subtype for font in font_programs(data)}
    assert subtypes == {"Boxes": "/OpenType", "Noto-Sans-CJK-JP": "/CIDFontType0C"}
    pixels, text = pixels_and_text(data)
    assert "ABBA" in text and "漢字" in text
    assert pixels.count(0) > 1000  # the boxes are drawn, black


def name_keyed_font(path) -> None:
    """A CFF font without CIDs (glyphs named A and B, filled squares), as most Latin OpenType fonts are."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    def square():
        pen = T2CharStringPen(600, None)
        pen.moveTo((50, 0))
        pen.lineTo((550, 0))
        pen.lineTo((550, 500))
        pen.lineTo((50, 500))
        pen.closePath()
        return pen.getCharString()

    builder = FontBuilder(1000, isTTF=False)
    builder.setupGlyphOrder([".notdef", "A", "B"])
    builder.setupCharacterMap({ord("A"): "A", ord("B"): "B"})
    builder.setupCFF("Boxes", {"FullName": "Boxes"}, {name: square() for name in (".notdef", "A", "B")}, {})
    builder.setupHorizontalMetrics(dict.fromkeys((".notdef", "A", "B"), (600, 50)))
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Boxes", "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    builder.save(str(path))
