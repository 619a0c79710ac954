"""Pictures as they are embedded: scaled down to the resolution they print at (game.yaml `print: {image_dpi}`,
350 by default), written once per file however many faces show them, in their own colours (CMYK, greyscale,
16-bit, ICC profiles), and made once (a sealed cache entry nobody else can plant)."""

import io
import json
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageCms

from conftest import page_text
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


# --- art and bleed, boards and tokens with pictures, serve ---------------------------------------------------

FULL_DECK = """name: {ja: 絵札, en: Art cards}
size: poker
template: full.html
fields:
  picture: {type: image}
cards:
  - id: sunset
    name: {ja: 夕日, en: Sunset}
    count: 3
    picture: art/full.png
  - id: dawn
    name: {ja: 朝日, en: Dawn}
    count: 1
    picture: art/full.png
"""
FULL_TEMPLATE = """<div class="bleed" style="background:#ffffff"></div>
{% if card.id == 'dawn' %}<div class="bleed">{{ image(card.picture, 69, 94) }}</div>
{% else %}<div style="position:absolute;left:0;top:0">{{ image(card.picture, 63, 88) }}</div>{% endif %}
"""


def add_component(game: Path, entry: str) -> None:
    edit(game / "components.yaml", "  - id: rules\n", entry + "  - id: rules\n")


def test_a_picture_stopping_at_the_trim_is_reported_with_its_card_file_and_edges(starter, tmp_path, cli):
    Image.new("RGB", (1600, 2200), (120, 40, 160)).save(starter / "art" / "full.png")  # 69 x 94 mm: 590 dpi
    deck = starter / "decks" / "full.yaml"
    deck.write_text(FULL_DECK, encoding="utf-8")
    (starter / "templates" / "full.html").write_text(FULL_TEMPLATE, encoding="utf-8")
    add_component(starter, "  - id: full\n    name: {ja: 絵札, en: Art cards}\n    count: 4\n    deck: full\n")
    out = tmp_path / "out"
    result = build(cli, starter, out, "--lang", "en")
    assert result.code == 0, result
    [said] = [line for line in result.err.splitlines() if "stops at the trim" in line]
    assert "decks/full.yaml:10: en: card 'sunset' of deck 'full', picture, full.html:3:" in said
    assert "picture 'art/full.png' stops at the trim on its left, right, top and bottom edges" in said
    assert "dawn" not in said  # the same picture run on into the bleed
    [listed] = json.loads((out / "fruit" / "build.json").read_text())["short_of_bleed"]
    assert listed["cards"] == ["sunset"] and listed["other"] == "left, right, top and bottom"
    strict = build(cli, starter, out, "--lang", "en", "--strict")
    assert strict.code == 1 and "1 picture(s) stopping at the trim" in strict.err


def tile_bleed_pixels(path: Path, page: int) -> list[tuple[int, int, int]]:
    """Pixels halfway between the trim and the bleed edge along the four edges of a tile page (4 px a mm)."""
    with pikepdf.open(path) as pdf:
        trim = [float(v) for v in pdf.pages[page].obj.TrimBox]
        bleed = [float(v) for v in pdf.pages[page].obj.BleedBox]
        height = float(pdf.pages[page].mediabox[3])
    assert bleed != trim and bleed[0] < trim[0] and bleed[2] > trim[2]
    scale = 4 / (72 / 25.4)  # 4 px a mm
    document = pdfium.PdfDocument(str(path))
    try:
        image = document[page].render(scale=scale).to_pil().convert("RGB")
    finally:
        document.close()

    def at(x: float, y: float) -> tuple[int, int, int]:  # PDF points, from the bottom left
        return image.getpixel((round(x * scale), round((height - y) * scale)))

    mid = [(t + b) / 2 for t, b in zip(trim, bleed)]
    found = []
    for share in (0.2, 0.5, 0.8):
        x = trim[0] + share * (trim[2] - trim[0])
        y = trim[1] + share * (trim[3] - trim[1])
        found += [at(mid[0], y), at(mid[2], y), at(x, mid[1]), at(x, mid[3])]
    return found


MAP_BOARD = """name: {ja: 地図, en: Map}
size: [400, 280]
background: "#ffffff"
background_image: art/map.jpg
template: map.html
data:
  cities: [Alpha, Beta, Gamma]
elements:
  - kind: image
    at: [20, 20]
    size: [30, 30]
    src: art/city.png
"""
MAP_TEMPLATE = """<div style="position:absolute;left:10mm;top:250mm">
{% for city in board.data.cities %}<span style="margin-right:5mm;font-size:14pt">{{ city }}</span>{% endfor %}
<span>{{ game.title }}</span></div>
"""
GREEN = (40, 110, 60)


def test_a_board_from_a_template_prints_its_tiles_with_its_picture_in_the_bleed(starter, tmp_path, cli):
    Image.new("RGB", (2400, 1680), GREEN).save(starter / "art" / "map.jpg", quality=95)  # 152 dpi over the board
    Image.new("RGB", (300, 300), (180, 40, 40)).save(starter / "art" / "city.png")
    (starter / "boards" / "map.yaml").write_text(MAP_BOARD, encoding="utf-8")
    (starter / "templates" / "map.html").write_text(MAP_TEMPLATE, encoding="utf-8")
    add_component(starter, "  - id: map\n    name: {ja: 地図, en: Map}\n    count: 1\n    board: map\n")
    out = tmp_path / "out"
    result = build(cli, starter, out, "--lang", "en")
    assert result.code == 0, result
    sheet = out / "fruit" / "board-map-en-a4.pdf"
    with pikepdf.open(sheet) as pdf:
        pages = len(pdf.pages)
    assert pages == 5  # the page map, then 4 tiles
    for page in range(1, pages):
        pixels = tile_bleed_pixels(sheet, page)
        assert all(close(pixel, GREEN, 12) for pixel in pixels), (page, pixels)
    text = " ".join(page_text(sheet, page) for page in range(1, pages))
    assert "Alpha" in text and "Gamma" in text  # the board's data, drawn by its template
    # the coarse background picture is named at its key, in the board's file (a board finding reaches the user)
    [coarse] = [line for line in result.err.splitlines() if "map.jpg" in line]
    assert "boards/map.yaml:4: en: board 'map', background_image" in coarse and "prints at 149 dpi" in coarse


def test_a_tokens_picture_fills_its_face_and_bleed(starter, tmp_path, cli):
    Image.new("RGB", (400, 400), (180, 40, 40)).save(starter / "art" / "coin.png")
    (starter / "tokens").mkdir(exist_ok=True)
    (starter / "tokens" / "coins.yaml").write_text(
        "name: {ja: 硬貨, en: Coins}\nshape: round\nsize: 25\ntokens:\n"
        "  - {id: gold, count: 4, value: 5, picture: art/coin.png}\n"
        "  - {id: lead, count: 1, value: 1, picture: art/lead.png}\n",
        encoding="utf-8",
    )
    add_component(starter, "  - id: coins\n    name: {ja: 硬貨, en: Coins}\n    count: 5\n    tokens: coins\n")
    out = tmp_path / "out"
    result = build(cli, starter, out, "--lang", "en")
    assert result.code == 0, result
    assert (
        "tokens/coins.yaml:6: tokens[1].picture: token 'lead' of sheet 'coins' 'art/lead.png' not found" in result.err
    )
    document = pdfium.PdfDocument(str(out / "fruit" / "tokens-en-a4.pdf"))
    try:
        image = document[0].render(scale=72 / 25.4).to_pil().convert("RGB")  # 1 px a mm
    finally:
        document.close()
    red = sum(1 for pixel in image.get_flattened_data() if close(pixel, (180, 40, 40), 12))
    assert red > 4 * 25 * 25 * 0.7  # four gold coins' faces, at least


def test_serve_shows_a_coarse_picture_on_its_card(starter, tmp_path):
    from conftest import Served

    picture(starter, "low.png", (113, 85))  # 72 dpi in its 40 x 30 mm box
    edit(starter / "decks" / "cards.yaml", "    picture: art/fruit.svg\n", "    picture: art/low.png\n")
    served = Served(starter, tmp_path / "cache")
    try:
        state = served.request("/api/state")[1]
    finally:
        served.stop()
    apple = next(card for deck in state["decks"] for card in deck["cards"] if card["id"] == "apple")
    [problem] = [p for p in apple["problems"] if p["kind"] == "resolution" and p["lang"] == "en"]
    assert "picture 'art/low.png' (113 x 85 px) prints at 72 dpi in its 40 x 30 mm box" in problem["message"]
    [outline] = [box for box in apple["outlines"]["en"]["front"] if box["kind"] == "resolution"]
    assert "72 dpi" in outline["message"] and 0 < outline["w"] < 100 and 0 < outline["h"] < 100
    assert "resolution" in state["kinds"]


def test_a_picture_element_refuses_what_it_would_not_print(starter, cli):
    Image.new("RGB", (300, 300), (180, 40, 40)).save(starter / "art" / "city.png")
    board = starter / "boards" / "board.yaml"
    edit(
        board,
        "elements:\n",
        "elements:\n  - {kind: image, at: [5, 5], size: [20, 20], src: art/city.png, label: City}\n",
    )
    result = cli("validate", starter)
    assert result.code == 2
    assert "boards/board.yaml:7: elements[0].label: a picture element prints no `label:`" in result.err
