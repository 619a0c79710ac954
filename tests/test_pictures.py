"""Pictures as they are embedded: scaled down to the resolution they print at (game.yaml `print: {image_dpi}`,
350 by default), written once per file however many faces show them, in their own colours (CMYK, greyscale,
16-bit, ICC profiles), and made once (a sealed cache entry nobody else can plant)."""

import io
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageCms

from test_art import build, picture
from test_input_errors import edit
from generator.fsutil import write_cache_entry
from generator.render import pictures
from generator.render.sheet_writer import SheetWriter, save_pdf_bytes
from generator.render.worker import render_document

A98 = Path("/usr/share/color/icc/ghostscript/a98.icc")  # Adobe RGB (1998), as Ghostscript ships it


@pytest.fixture
def starter(tmp_path, cli):
    """`pnpgen new`'s starter game: apple and grapes show art/fruit.svg in a 40 x 30 mm box."""
    assert cli("new", tmp_path / "fruit").code == 0
    return tmp_path / "fruit"


def referenced_pictures(path: Path) -> list[tuple[int, int, str]]:
    """The pictures the file's pages draw (through the forms of their faces), each stream once."""
    found = {}
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            for image in page.get_images().values():
                found[image.objgen] = (int(image.Width), int(image.Height), str(image.ColorSpace))
    return sorted(found.values())


def test_a_600_dpi_picture_is_embedded_at_350_dpi_once_for_every_card_showing_it(starter, tmp_path, cli):
    # apple and grapes show it in a 40 x 30 mm box: 945 x 709 px is 600 dpi there
    picture(starter, "fine.png", (945, 709))
    deck = starter / "decks" / "cards.yaml"
    for _ in range(2):
        edit(deck, "    picture: art/fruit.svg\n", "    picture: art/fine.png\n")
    out = tmp_path / "out"
    assert build(cli, starter, out, "--lang", "en").code == 0
    sheet = out / "fruit" / "cards-en-a4.pdf"
    [(width, height, space)] = [p for p in referenced_pictures(sheet) if p[0] > 100]
    assert space == "/DeviceRGB"
    assert abs(width - 40 / 25.4 * 350) < 1.5 and abs(height - 30 / 25.4 * 350) < 1.5  # 551 x 413 px: 350 dpi
    # the game asks 200 dpi: the picture is made smaller again, the faces rendered again
    edit(starter / "game.yaml", "languages:", "print: {image_dpi: 200}\nlanguages:")
    assert build(cli, starter, out, "--lang", "en").code == 0
    [(width, height, _)] = [p for p in referenced_pictures(sheet) if p[0] > 100]
    assert abs(width - 40 / 25.4 * 200) < 1.5 and abs(height - 30 / 25.4 * 200) < 1.5  # 315 x 236 px


def test_a_picture_coarser_than_the_setting_is_embedded_as_it_is(tmp_path):
    Image.new("RGB", (200, 150), (10, 200, 30)).save(tmp_path / "coarse.jpg", quality=95)
    data = render(tmp_path, "coarse.jpg", "40mm", "30mm")
    [(width, height, _)] = pictures_of(data)
    assert (width, height) == (200, 150)
    with pikepdf.open(io.BytesIO(data)) as pdf:  # the JPEG's own bytes, not made again
        [stream] = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        assert stream.read_raw_bytes() == (tmp_path / "coarse.jpg").read_bytes()


def pictures_of(data: bytes) -> list[tuple[int, int, str]]:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return [
            (int(o.Width), int(o.Height), str(o.ColorSpace))
            for o in pdf.objects
            if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image" and "/ColorSpace" in o
        ]


def render(folder: Path, name: str, width: str = "20mm", height: str = "20mm", dpi: int = 350) -> bytes:
    html = (
        f"<style>@page {{size: {width} {height}; margin: 0}} img {{display: block; width: {width}; "
        f'height: {height}}}</style><img src="{name}">'
    )
    return render_document(html, folder.as_uri() + "/", image_dpi=dpi).pdf


def shown_colour(data: bytes) -> tuple[int, int, int]:
    document = pdfium.PdfDocument(data)
    try:
        image = document[0].render(scale=1).to_pil().convert("RGB")
        return image.getpixel((image.width // 2, image.height // 2))
    finally:
        document.close()


def close(a, b, within: int = 4) -> bool:
    return all(abs(x - y) <= within for x, y in zip(a, b))


def test_cmyk_greyscale_and_16_bit_pictures_print_in_their_colours(tmp_path):
    Image.new("CMYK", (1200, 1200), (0, 255, 255, 0)).save(tmp_path / "red.jpg", quality=95)  # Adobe, inverted
    Image.new("L", (1200, 1200), 90).save(tmp_path / "grey.jpg", quality=95)
    deep = Image.new("I;16", (1200, 1200))
    deep.putdata([40000] * (1200 * 1200))  # 40000 / 65535 of white: 155 in 8 bits
    deep.save(tmp_path / "deep.png")
    for name, space, colour in (
        ("red.jpg", "/DeviceCMYK", (237, 28, 36)),  # what PDFium shows for 0/100/100/0
        ("grey.jpg", "/DeviceGray", (90, 90, 90)),
        ("deep.png", "/DeviceGray", (155, 155, 155)),
    ):
        data = render(tmp_path, name)  # 1200 px over 20 mm: 1524 dpi, made smaller
        [(width, _, embedded)] = pictures_of(data)
        assert embedded == space and width == 276, name  # 20 mm at 350 dpi
        assert close(shown_colour(data), colour), (name, shown_colour(data))


@pytest.mark.skipif(not A98.exists(), reason="Ghostscript's Adobe RGB profile is not installed")
def test_a_picture_with_its_own_profile_prints_in_its_colours_and_pdfx_turns_them_to_the_output_intent(tmp_path):
    written = (100, 150, 200)  # in Adobe RGB: in sRGB a purer blue
    profile = ImageCms.ImageCmsProfile(str(A98))
    expected = ImageCms.profileToProfile(
        Image.new("RGB", (1, 1), written), profile, ImageCms.createProfile("sRGB"), outputMode="RGB"
    ).getpixel((0, 0))
    assert not close(expected, written, 10)
    for name in ("adobe.png", "adobe.jpg"):
        Image.new("RGB", (100, 100), written).save(tmp_path / name, icc_profile=A98.read_bytes())
        data = render(tmp_path, name)  # not made smaller (127 dpi), converted all the same
        assert close(shown_colour(data), expected), (name, shown_colour(data), expected)

    from generator.export.cmyk import CmykConverter
    from generator.export.pdfx import DEFAULT_PROFILE

    converter = CmykConverter(DEFAULT_PROFILE)
    with pikepdf.open(io.BytesIO(render(tmp_path, "adobe.png"))) as pdf:
        converter.convert(pdf)
        [stream] = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        assert str(stream.ColorSpace) == "/DeviceCMYK"
        cmyk = pikepdf.PdfImage(stream).as_pil_image().getpixel((50, 50))
    wanted = converter.image(Image.new("RGB", (1, 1), expected)).getpixel((0, 0))
    assert close(cmyk, wanted, 3)


def test_the_same_picture_on_faces_rendered_apart_is_written_once(tmp_path):
    Image.new("RGB", (900, 900), (200, 120, 40)).save(tmp_path / "shared.jpg", quality=90)
    first, second = (pikepdf.open(io.BytesIO(render(tmp_path, "shared.jpg"))) for _ in range(2))
    writer = SheetWriter()
    forms = [writer.form(page)[0] for page in (*first.pages, *second.pages)]
    page = writer.pdf.add_blank_page(page_size=(200, 200))
    page.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(A=forms[0], B=forms[1]))
    page.Contents = writer.pdf.make_stream(b"q 1 0 0 1 0 0 cm /A Do Q q 1 0 0 1 100 0 cm /B Do Q")
    data = save_pdf_bytes(writer.pdf, "shared", "en")
    assert len(pictures_of(data)) == 1
    document = pdfium.PdfDocument(data)
    try:
        image = document[0].render(scale=1).to_pil().convert("RGB")
    finally:
        document.close()
    assert close(image.getpixel((25, 175)), (200, 120, 40), 8) and close(image.getpixel((125, 175)), (200, 120, 40), 8)


def test_a_picture_made_smaller_is_kept_sealed_and_a_planted_one_is_never_embedded(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    encoded = io.BytesIO()
    Image.new("RGB", (800, 600), (20, 140, 220)).save(encoded, format="JPEG", quality=95)
    source = encoded.getvalue()
    made = pictures.prepared(source, (400, 300))
    assert (made.width, made.height, made.format) == (400, 300, "JPEG")
    [entry] = [path for path in (tmp_path / "cache" / "pnpgen" / "pictures").rglob("*") if path.is_file()]
    assert pictures.prepared(source, (400, 300)) == made  # read back
    planted = io.BytesIO()
    Image.new("RGB", (400, 300), (255, 0, 0)).save(planted, format="JPEG")
    header = b'{"format": "JPEG", "mode": "RGB", "size": [400, 300], "inverted": false}\n'
    write_cache_entry(entry, header + planted.getvalue())  # written by someone without this user's key
    again = pictures.prepared(source, (400, 300))
    assert again.data != planted.getvalue()
    assert close(Image.open(io.BytesIO(again.data)).getpixel((200, 150)), (20, 140, 220), 6)
