"""`pnpgen export`: every target's files are opened and measured (pixels, colour mode, grids, PDF/X)."""

import argparse
import csv
import json
import re
from pathlib import Path

import pikepdf
import pytest
from PIL import Image, ImageCms

from conftest import MM, ROOT, fonts_of, is_embedded, page_text, placements
from generator.cli import main
from generator.commands import export as export_command
from generator.errors import InputError, Problem
from generator.export import pdfx, registry, services, tts
from generator.export.cmyk import CmykConverter, ConversionError
from generator.export.registry import TARGETS
from generator.export.target import Target
from generator.fsutil import write_atomic

POKER_BLEED_300 = (815, 1110)  # (63 + 6) x (88 + 6) mm at 300 dpi


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """The `pnpgen new` game exported to every target (ja), rendering its faces once."""
    root = tmp_path_factory.mktemp("export")
    game = root / "small"
    assert main(["new", str(game)]) == 0
    out = root / "out"
    for target in TARGETS:
        assert main(["export", str(game), "--to", target, "--lang", "ja", "--out", str(out), "-q", "-j", "1"]) == 0
    return out / "small"


def manifest(folder: Path) -> list[dict]:
    with open(folder / "manifest.csv", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def export(cli, game, out, *args):
    return cli("export", game, "--out", out, "--lang", "ja", "-q", "-j", "1", *args)


# --- png ---------------------------------------------------------------------------------------------


def test_png_has_one_file_per_distinct_face_at_300_dpi_with_bleed(exported):
    folder = exported / "png-ja"
    names = sorted(p.name for p in folder.glob("*.png"))
    assert names == ["cards-apple-front.png", "cards-back.png", "cards-grapes-front.png", "cards-pear-front.png"]
    for name in names:
        image = Image.open(folder / name)
        assert image.size == POKER_BLEED_300
        assert image.mode == "RGB"
        assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)


def test_png_manifest_lists_copies_and_files(exported):
    rows = manifest(exported / "png-ja")
    assert [(r["card"], r["copies"]) for r in rows] == [("apple", "2"), ("pear", "2"), ("grapes", "2")]
    for row in rows:
        assert (exported / "png-ja" / row["front"]).is_file()
        assert row["back"] == "cards-back.png"


@pytest.mark.parametrize("dpi, bleed, size", [(350, False, (868, 1213)), (600, True, (1630, 2220))])
def test_png_resolution_and_bleed_options(small_game, tmp_path, cli, dpi, bleed, size):
    args = ["--to", "png", "--dpi", dpi] + ([] if bleed else ["--no-bleed"])
    assert export(cli, small_game, tmp_path, *args).code == 0
    image = Image.open(tmp_path / "small" / "png-ja" / "cards-back.png")
    assert image.size == size
    assert image.info["dpi"] == pytest.approx((dpi, dpi), abs=0.05)  # PNG stores whole pixels a metre
    frame_colour = (0x2F, 0x5D, 0x62)  # the scaffold's back fills its bleed with one colour
    corner = image.getpixel((2, 2))
    assert all(abs(a - b) <= 2 for a, b in zip(corner, frame_colour))


# --- print services ------------------------------------------------------------------------------------


@pytest.mark.parametrize("target, size", [("tgc", (825, 1125)), ("mpc", (822, 1122))])
def test_service_images_have_the_exact_pixel_size_in_rgb(exported, target, size):
    rows = manifest(exported / f"{target}-ja")
    assert {r["product"] for r in rows} == {"poker"}
    files = {r["front"] for r in rows} | {r["back"] for r in rows}
    assert len(files) == 4
    for name in files:
        image = Image.open(exported / f"{target}-ja" / name)
        assert (image.size, image.mode) == (size, "RGB")
        # printed at the service's 300 dpi, the image is its product: 825 px are 2.5 in and twice 1/8 in
        assert image.info["dpi"] == pytest.approx((300, 300), abs=0.05)


def test_service_scaling_is_uniform_and_keeps_the_cut_within_a_fraction_of_a_millimetre(exported):
    rows = manifest(exported / "tgc-ja")
    assert all(0 <= float(r["trim_offset_mm"]) <= 0.3 for r in rows)
    image = Image.open(exported / "tgc-ja" / "cards-back.png")
    png = Image.open(exported / "png-ja" / "cards-back.png")
    # the same face, scaled by one factor: the title's bounding box keeps its proportions
    boxes = [_light_pixels_box(i) for i in (image, png)]
    ratios = [(b[2] - b[0]) / (b[3] - b[1]) for b in boxes]
    assert ratios[0] == pytest.approx(ratios[1], rel=0.03)


def _light_pixels_box(image):
    mask = image.convert("L").point(lambda v: 255 if v > 200 else 0)
    return mask.getbbox()


class FakeDeck:
    def __init__(self, size, bleed=3.0):
        self.size_mm, self.bleed_mm, self.file, self.lines, self.id = size, bleed, Path("deck.yaml"), {"size": 4}, "d"


@pytest.mark.parametrize(
    "service, size, product, pixels, turned",
    [
        ("tgc", (44, 63), "mini", (600, 825), False),
        ("mpc", (44, 63), "mini", (597, 822), False),
        ("tgc", (58, 89), "bridge", (750, 1125), False),
        ("tgc", (70, 120), "tarot", (900, 1500), False),
        ("tgc", (88, 63), "poker", (825, 1125), True),
        ("mpc", (120, 70), "tarot", (897, 1497), True),
    ],
)
def test_other_card_sizes_map_to_the_services_products(service, size, product, pixels, turned):
    fit = services.product_for(service, FakeDeck(size))
    assert (fit.product.name, fit.product.pixels, fit.turned) == (product, pixels, turned)


def set_size(game: Path, size_lines: str) -> None:
    """Replace the scaffold deck's `size: poker` line."""
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("size: poker", size_lines))


@pytest.mark.parametrize(
    "size_lines, target, message",
    [
        ("size: square", "tgc", "cards.yaml:2: size: The Game Crafter has no card of 70 x 70 mm"),
        ("size: poker\nbleed: 2", "pdfx", "cards.yaml:3: bleed: a print shop needs 3 mm of bleed, the deck has 2 mm"),
    ],
)
def test_a_deck_a_target_cannot_print_is_a_located_error(small_game, tmp_path, cli, size_lines, target, message):
    set_size(small_game, size_lines)
    result = export(cli, small_game, tmp_path, "--to", target)
    assert result.code == 2
    assert message in result.err and "Traceback" not in result.err


def test_a_landscape_card_is_turned_onto_the_portrait_product(small_game, tmp_path, cli):
    set_size(small_game, "size: {width: 88, height: 63}")
    assert export(cli, small_game, tmp_path, "--to", "mpc").code == 0
    rows = manifest(tmp_path / "small" / "mpc-ja")
    assert {r["turned"] for r in rows} == {"yes"}
    assert Image.open(tmp_path / "small" / "mpc-ja" / rows[0]["front"]).size == (822, 1122)


# --- Tabletop Simulator --------------------------------------------------------------------------------


def test_tts_sheet_holds_the_fronts_and_the_back_in_the_hidden_last_slot(exported):
    folder = exported / "tts-ja"
    saved = json.loads((folder / "tts.json").read_text())
    deck = saved["ObjectStates"][0]
    sheet_info = deck["CustomDeck"]["1"]
    columns, rows = sheet_info["NumWidth"], sheet_info["NumHeight"]
    assert (columns, rows) == (2, 2)
    sheet = Image.open(folder / "cards-sheet-1.png")
    back = Image.open(folder / "cards-back.png")
    assert sheet.mode == "RGB" and max(sheet.size) <= 4096
    assert sheet.size == (columns * back.width, rows * back.height)
    hidden = sheet.crop((sheet.width - back.width, sheet.height - back.height, sheet.width, sheet.height))
    assert hidden.tobytes() == back.tobytes()
    assert sheet_info["FaceURL"].endswith("cards-sheet-1.png") and sheet_info["BackURL"].endswith("cards-back.png")
    assert sheet_info["UniqueBack"] is False
    assert sheet_info["BackIsHidden"] is True  # a card in a player's hand shows its back to the others


@pytest.mark.parametrize(
    "size, scale",
    [((63, 88), (1.0, 1.0)), ((44, 63), (0.6984, 0.7159)), ((70, 120), (1.1111, 1.3636)), ((88, 63), (1.0, 1.0))],
)
def test_tts_card_scale_follows_the_card_size_against_poker(size, scale):
    assert tts.card_scale(size) == scale


def test_tts_deck_lists_every_copy_and_no_card_uses_the_hidden_slot(exported):
    deck = json.loads((exported / "tts-ja" / "tts.json").read_text())["ObjectStates"][0]
    assert deck["Name"] == "DeckCustom"
    assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == 6
    assert sorted(set(deck["DeckIDs"])) == [100, 101, 102]
    assert [c["Nickname"] for c in deck["ContainedObjects"]][::2] == ["りんご", "洋なし", "ぶどう"]


def test_tts_cards_with_different_backs_get_a_back_sheet_laid_out_like_the_fronts(small_game, tmp_path, cli):
    back = small_game / "templates" / "card-back.html"
    back.write_text(back.read_text() + '<div class="safe"><p class="back-title">{{ card.value }}</p></div>\n')
    assert export(cli, small_game, tmp_path, "--to", "tts").code == 0
    folder = tmp_path / "small" / "tts-ja"
    sheet_info = json.loads((folder / "tts.json").read_text())["ObjectStates"][0]["CustomDeck"]["1"]
    assert sheet_info["UniqueBack"] is True and sheet_info["BackURL"].endswith("cards-backs-1.png")
    fronts, backs = Image.open(folder / "cards-sheet-1.png"), Image.open(folder / "cards-backs-1.png")
    assert fronts.size == backs.size
    cell = (fronts.width // sheet_info["NumWidth"], fronts.height // sheet_info["NumHeight"])
    slots = [backs.crop((x, 0, x + cell[0], cell[1])).tobytes() for x in (0, cell[0])]
    assert slots[0] != slots[1]  # apple's back and pear's back differ, each behind its own front


def test_tts_deck_without_a_back_gets_a_blank_one(small_game, tmp_path, cli):
    deck = small_game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("back: {template: card-back.html}\n", ""))
    assert export(cli, small_game, tmp_path, "--to", "tts").code == 0
    back = Image.open(tmp_path / "small" / "tts-ja" / "cards-back.png")
    assert back.getextrema() == ((255, 255), (255, 255), (255, 255))
    assert export(cli, small_game, tmp_path, "--to", "png").code == 0
    rows = manifest(tmp_path / "small" / "png-ja")
    assert {r["back"] for r in rows} == {""}


def test_tts_deck_of_more_than_69_faces_takes_a_second_sheet(small_game, tmp_path, cli):
    deck = small_game / "decks" / "cards.yaml"
    text = deck.read_text()
    cards = "".join(f"  - id: c{i}\n    name: {{ja: c{i}, en: c{i}}}\n    value: {i % 9 + 1}\n" for i in range(70))
    deck.write_text(text[: text.index("cards:\n")] + "cards:\n" + cards)
    components = small_game / "components.yaml"
    components.write_text(components.read_text().replace("count: 6", "count: 70"))
    assert export(cli, small_game, tmp_path, "--to", "tts").code == 0
    folder = tmp_path / "small" / "tts-ja"
    deck_object = json.loads((folder / "tts.json").read_text())["ObjectStates"][0]
    sheets = deck_object["CustomDeck"]
    assert [(k, v["NumWidth"], v["NumHeight"]) for k, v in sheets.items()] == [("1", 10, 7), ("2", 2, 2)]
    assert deck_object["DeckIDs"][68:] == [168, 200]
    first = Image.open(folder / "cards-sheet-1.png")
    assert first.size[0] <= 4096 and first.size[1] <= 4096 and first.size[0] >= 4000
    # each sheet says the resolution its cards are drawn at: a poker card 1/10 of 4096 px wide is about 165 dpi
    for name, columns in (("cards-sheet-1.png", 10), ("cards-sheet-2.png", 2), ("cards-back.png", 1)):
        image = Image.open(folder / name)
        dpi = image.width / columns / 63 * 25.4
        assert image.info["dpi"] == pytest.approx((dpi, dpi), abs=0.05), name
    assert Image.open(folder / "cards-sheet-1.png").info["dpi"][0] == pytest.approx(164.9, abs=0.1)
    assert Image.open(folder / "cards-sheet-2.png").info["dpi"][0] == pytest.approx(300, abs=0.1)


def test_tts_urls_point_where_the_images_will_be_uploaded(small_game, tmp_path, cli):
    result = export(cli, small_game, tmp_path, "--to", "tts", "--base-url", "https://example.org/kit/")
    assert result.code == 0 and "warning" not in result.err, result
    deck = json.loads((tmp_path / "small" / "tts-ja" / "tts.json").read_text())["ObjectStates"][0]
    assert deck["CustomDeck"]["1"]["FaceURL"] == "https://example.org/kit/cards-sheet-1.png"
    assert deck["ContainedObjects"][0]["CustomDeck"]["1"]["BackURL"] == "https://example.org/kit/cards-back.png"


def test_tts_file_urls_of_this_machine_come_with_a_hint_to_give_base_url(small_game, tmp_path, cli):
    result = export(cli, small_game, tmp_path, "--to", "tts")
    assert result.code == 0, result
    folder = tmp_path / "small" / "tts-ja"
    deck = json.loads((folder / "tts.json").read_text())["ObjectStates"][0]
    assert deck["CustomDeck"]["1"]["FaceURL"] == (folder / "cards-sheet-1.png").resolve().as_uri()
    assert "tts.json names its images by file:// URLs of this machine" in result.err
    assert "export again with --base-url URL" in result.err
    result = export(cli, small_game, tmp_path, "--to", "tts", "--base-url", "kit/")
    assert result.code == 2 and "--base-url 'kit/' is not a URL" in result.err, result


@pytest.mark.parametrize(
    "faces, grid", [(1, (2, 2)), (3, (2, 2)), (9, (5, 2)), (10, (6, 2)), (69, (10, 7)), (30, (8, 4))]
)
def test_tts_grid_is_the_smallest_with_room_for_the_hidden_slot(faces, grid):
    sheet = tts.sheet_grid(faces, (63, 88))
    assert (sheet.columns, sheet.rows) == grid
    assert sheet.hidden_slot == sheet.slots - 1 >= faces
    assert sheet.columns <= 10 and sheet.rows <= 7


@pytest.mark.parametrize("card", [(63, 88), (44, 63), (70, 120), (120, 70), (70, 70)])
def test_tts_sheet_never_exceeds_4096_px(card):
    sheet = tts.sheet_grid(69, card)
    assert max(sheet.size) <= 4096
    assert max(sheet.size) >= 4096 - max(sheet.columns, sheet.rows) * 2  # and uses the room it has


def test_tts_grid_refuses_more_than_69_faces():
    with pytest.raises(ValueError):
        tts.sheet_grid(70, (63, 88))


# --- PDF/X for Japanese print shops --------------------------------------------------------------------


@pytest.fixture(scope="module")
def pdfx_file(exported):
    return exported / "pdfx-ja" / "cards.pdf"


def test_pdfx_has_an_output_intent_with_the_cmyk_profile(pdfx_file):
    pdf = pikepdf.open(pdfx_file)
    (intent,) = pdf.Root.OutputIntents
    assert intent.S == "/GTS_PDFX"
    profile = intent.DestOutputProfile
    assert int(profile.N) == 4
    assert profile.read_bytes() == pdfx.DEFAULT_PROFILE.read_bytes()
    opened = ImageCms.ImageCmsProfile(__import__("io").BytesIO(profile.read_bytes()))
    assert opened.profile.xcolor_space.strip() == "CMYK"
    assert str(intent.Info)


def test_pdfx_declares_pdfx4_in_xmp_and_info(pdfx_file):
    pdf = pikepdf.open(pdfx_file)
    assert pdf.pdf_version == "1.6"
    meta = pdf.open_metadata()
    assert meta["pdfxid:GTS_PDFXVersion"] == "PDF/X-4"
    assert meta["xmpMM:DocumentID"].startswith("uuid:") and meta["xmpMM:RenditionClass"] == "default"
    assert pdf.docinfo["/Trapped"] == pikepdf.Name("/False")
    assert pdf.trailer.get("/ID") is not None
    assert "/Encrypt" not in pdf.trailer


def _all_objects(pdf):
    seen, found = set(), []

    def walk(obj):
        if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream, pikepdf.Array)):
            if obj.is_indirect:
                if obj.objgen in seen:
                    return
                seen.add(obj.objgen)
            found.append(obj)
            items = obj if isinstance(obj, pikepdf.Array) else obj.values()
            for item in items:
                walk(item)

    walk(pdf.Root)
    return found


def _content_streams(pdf):
    streams = list(pdf.pages)
    streams += [o for o in _all_objects(pdf) if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form"]
    return streams


def test_pdfx_colour_is_cmyk_only(pdfx_file):
    pdf = pikepdf.open(pdfx_file)
    names = {
        str(v)
        for o in _all_objects(pdf)
        if not isinstance(o, pikepdf.Array)
        for v in o.values()
        if isinstance(v, pikepdf.Name)
    }
    names |= {
        str(v) for o in _all_objects(pdf) if isinstance(o, pikepdf.Array) for v in o if isinstance(v, pikepdf.Name)
    }
    assert "/DeviceRGB" not in names and "/CalRGB" not in names
    assert "/DeviceCMYK" in names
    operators = {str(op) for stream in _content_streams(pdf) for _, op in pikepdf.parse_content_stream(stream)}
    assert not operators & {"rg", "RG"}
    assert "k" in operators


def test_pdfx_colours_go_through_the_profile_and_black_stays_on_the_k_plate(pdfx_file):
    pdf = pikepdf.open(pdfx_file)
    fills = {
        tuple(round(float(v), 3) for v in operands)
        for stream in _content_streams(pdf)
        for operands, op in pikepdf.parse_content_stream(stream)
        if str(op) == "k"
    }
    expected = CmykConverter(pdfx.DEFAULT_PROFILE).colour([0x2F / 255, 0x5D / 255, 0x62 / 255])
    assert tuple(round(v, 3) for v in expected) in fills  # the scaffold's frame colour
    assert expected[3] < 1 and expected[0] > expected[1]  # a teal: more cyan than magenta
    text = (0.0, 0.0, 0.0, round(1 - (0x1D + 0x1D + 0x1F) / 765, 3))  # base card.css text colour #1d1d1f
    assert text in fills


@pytest.mark.parametrize(
    "rgb, cmyk", [((0, 0, 0), (0, 0, 0, 1)), ((1, 1, 1), (0, 0, 0, 0)), ((0.5, 0.5, 0.5), (0, 0, 0, 0.5))]
)
def test_greys_and_black_go_on_the_k_plate_only(rgb, cmyk):
    assert CmykConverter(pdfx.DEFAULT_PROFILE).colour(rgb) == pytest.approx(cmyk, abs=0.003)


def test_pdfx_pages_have_trim_bleed_and_room_for_marks(pdfx_file):
    pdf = pikepdf.open(pdfx_file)
    assert len(pdf.pages) == 4  # 3 fronts and the shared back
    for page in pdf.pages:
        trim = [float(v) / MM for v in page.TrimBox]
        bleed = [float(v) / MM for v in page.BleedBox]
        media = [float(v) / MM for v in page.MediaBox]
        assert (trim[2] - trim[0], trim[3] - trim[1]) == pytest.approx((63, 88), abs=0.01)
        assert [b - t for b, t in zip(bleed, trim)] == pytest.approx([-3, -3, 3, 3], abs=0.01)
        assert media[0] < bleed[0] - 10 and media[2] > bleed[2] + 10


def _mark_lines(page):
    points, lines = [], []
    for operands, operator in pikepdf.parse_content_stream(page):
        if str(operator) in ("m", "l"):
            points.append(tuple(float(v) / MM for v in operands))
        if str(operator) == "l":
            lines.append((*points[-2], *points[-1]))
    return lines


def test_tombo_are_double_marks_outside_the_trim_and_bleed(pdfx_file):
    pdf = pikepdf.open(pdfx_file)
    page = pdf.pages[0]
    x0, y0, x1, y1 = (float(v) / MM for v in page.TrimBox)
    lines = _mark_lines(page)
    assert len(lines) == 4 * 4 + 4 * 2
    for lx0, ly0, lx1, ly1 in lines:
        # no point of any line lies inside the bleed box (3 mm around the trim)
        assert (
            max(lx0, lx1) <= x0 - 3 + 1e-3
            or min(lx0, lx1) >= x1 + 3 - 1e-3
            or max(ly0, ly1) <= y0 - 3 + 1e-3
            or min(ly0, ly1) >= y1 + 3 - 1e-3
        )
    verticals = {round(lx0, 3) for lx0, ly0, lx1, ly1 in lines if abs(lx0 - lx1) < 1e-6}
    horizontals = {round(ly0, 3) for lx0, ly0, lx1, ly1 in lines if abs(ly0 - ly1) < 1e-6}
    for trim_x, outward in ((x0, -3), (x1, 3)):
        assert {round(trim_x, 3), round(trim_x + outward, 3)} <= verticals  # trim line and bleed line
    for trim_y, outward in ((y0, -3), (y1, 3)):
        assert {round(trim_y, 3), round(trim_y + outward, 3)} <= horizontals
    assert round((x0 + x1) / 2, 3) in verticals and round((y0 + y1) / 2, 3) in horizontals  # centre marks


def test_tombo_print_in_registration_colour_and_show_above_the_bleed(pdfx_file):
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdfx_file))
    page = document[0]
    scale = 100 / 72
    image = page.render(scale=scale).to_pil().convert("L")
    bleed_top = (page.get_size()[1] - page.get_bleedbox()[3]) * scale  # pixels from the top of the page
    document.close()
    band = image.crop((0, 0, image.width, int(bleed_top) - 1))
    assert band.getextrema()[0] < 100  # the marks above the card are drawn
    pdf = pikepdf.open(pdfx_file)
    strokes = [
        list(map(float, operands)) for operands, op in pikepdf.parse_content_stream(pdf.pages[0]) if str(op) == "K"
    ]
    assert strokes == [[1.0, 1.0, 1.0, 1.0]]


def test_pdfx_keeps_the_text_and_embeds_every_font(pdfx_file):
    pdf = pikepdf.open(pdfx_file)
    fonts = fonts_of(pdf)
    assert fonts and all(is_embedded(font) for font in fonts)
    assert "りんご" in page_text(pdfx_file, 0)


def test_pdfx_manifest_gives_each_cards_pages_and_copies(exported):
    """Each card, and the starter's board (a print shop's piece too, printed one-sided), with its pages."""
    rows = manifest(exported / "pdfx-ja")
    assert [(r["card"], r["copies"], r["front"], r["back"]) for r in rows] == [
        ("apple", "2", "cards.pdf p1", "cards.pdf p4"),
        ("pear", "2", "cards.pdf p2", "cards.pdf p4"),
        ("grapes", "2", "cards.pdf p3", "cards.pdf p4"),
        ("board", "1", "board-board.pdf p1", ""),
    ]


def test_pdfx_converts_raster_images_and_warns_under_350_dpi(small_game, tmp_path, cli):
    Image.new("RGB", (40, 40), (200, 30, 40)).save(small_game / "templates" / "stamp.png")
    template = small_game / "templates" / "card.html"
    template.write_text(template.read_text() + '<img src="stamp.png" style="width: 10mm; height: 10mm">\n')
    result = export(cli, small_game, tmp_path, "--to", "pdfx")
    assert result.code == 0, result
    assert "prints at 102 dpi, under 350" in result.err
    pdf = pikepdf.open(tmp_path / "small" / "pdfx-ja" / "cards.pdf")
    images = [
        o
        for o in _all_objects(pdf)
        if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image" and o.get("/Width") == 40
    ]
    assert images and all(image.ColorSpace == "/DeviceCMYK" for image in images)
    cyan, magenta, yellow, _ = pikepdf.PdfImage(images[0]).as_pil_image().getpixel((20, 20))
    assert magenta > 200 and yellow > 150 and cyan < 60  # a red: magenta and yellow ink


def test_pdfx_without_a_profile_is_a_clear_error(small_game, tmp_path, cli):
    result = export(cli, small_game, tmp_path, "--to", "pdfx", "--icc", tmp_path / "missing.icc")
    assert result.code == 2
    assert "missing.icc: no such CMYK profile" in result.err


@pytest.mark.parametrize(
    "profile, message",
    [
        (Path("/usr/share/color/icc/ghostscript/srgb.icc"), "not a CMYK output profile (a RGB 'mntr' profile)"),
        (Path(__file__), "not an ICC profile"),
    ],
)
def test_pdfx_refuses_a_profile_that_is_not_cmyk(small_game, tmp_path, cli, profile, message):
    result = export(cli, small_game, tmp_path, "--to", "pdfx", "--icc", profile)
    assert result.code == 2
    assert message in result.err and "Traceback" not in result.err


def test_pdfx_clips_a_larger_bleed_to_3mm(small_game, tmp_path, cli):
    set_size(small_game, "size: poker\nbleed: 5")
    assert export(cli, small_game, tmp_path, "--to", "pdfx").code == 0
    pdf = pikepdf.open(tmp_path / "small" / "pdfx-ja" / "cards.pdf")
    page = pdf.pages[0]
    ((_, x, y, w, h, _),) = placements(page)
    bleed = [float(v) / MM for v in page.BleedBox]
    assert (x, y, x + w, y + h) == pytest.approx(bleed, abs=0.01)


# --- the registry of targets ----------------------------------------------------------------------------


def own_options(name: str) -> list[tuple[str, str, object]]:
    """(option, dest, default) of each option the target adds, as `pnpgen export` records them."""
    parser = argparse.ArgumentParser()
    export_command.register(parser.add_subparsers())
    args = parser.parse_args(["export", "game", "--to", name])
    return args.target_options[name]


def test_the_registry_holds_the_five_targets_in_help_order():
    assert list(TARGETS) == ["png", "tgc", "mpc", "tts", "pdfx"]
    assert all(name == target.name for name, target in TARGETS.items())


@pytest.mark.parametrize("name", list(TARGETS))
def test_export_help_lists_each_target_with_what_it_makes_and_its_own_options(cli, name):
    result = cli("export", "--help")
    assert result.code == 0
    help_text = " ".join(result.out.split())  # argparse wraps the lines
    section = help_text.split(f"--to {name}: ", 1)[1]
    following = [help_text.split(f"--to {other}: ", 1)[1] for other in TARGETS if other != name]
    section = min([section] + [section[: len(section) - len(rest)] for rest in following if rest in section], key=len)
    assert section.startswith(" ".join(TARGETS[name].summary.split()))
    for option, _, _ in own_options(name):
        assert option in section, f"{option} is not listed under --to {name}"


@pytest.mark.parametrize("name", list(TARGETS))
def test_every_file_a_target_writes_is_what_its_name_says(exported, name):
    """What each target writes, read back as its kind: images decode, PDFs open, the manifest and the saved
    object parse and name only files that are there."""
    folder = exported / f"{name}-ja"
    files = sorted(folder.iterdir())
    assert files, f"--to {name} wrote nothing"
    named: set[str] = set()
    for path in files:
        if path.suffix == ".png":
            with Image.open(path) as image:
                image.load()
                assert image.mode == "RGB" and min(image.size) > 100
        elif path.suffix == ".pdf":
            assert len(pikepdf.open(path).pages) >= 1
        elif path.name == "manifest.csv":
            rows = manifest(folder)
            expected = [("apple", "2"), ("pear", "2"), ("grapes", "2")] + ([("board", "1")] if name == "pdfx" else [])
            assert [(r["card"], r["copies"]) for r in rows] == expected
            named |= {r["front"].split(" p")[0] for r in rows} | {r["back"].split(" p")[0] for r in rows if r["back"]}
        elif path.name == "tts.json":
            deck = json.loads(path.read_text())["ObjectStates"][0]
            named |= {
                url.rsplit("/", 1)[1]
                for sheet in deck["CustomDeck"].values()
                for url in sheet.values()
                if isinstance(url, str) and url.startswith("file:")
            }
        else:
            raise AssertionError(f"--to {name} wrote {path.name}, a kind of file no target makes")
    assert named and named <= {path.name for path in files}


OTHER_TARGETS_OPTIONS = [
    (name, option, other)
    for name in TARGETS
    for option, _, _ in own_options(name)
    for other in TARGETS
    if other != name
]


@pytest.mark.parametrize("name, option, other", OTHER_TARGETS_OPTIONS)
def test_an_option_of_another_target_is_refused_before_anything_is_done(cli, tmp_path, name, option, other):
    value = {"--dpi": ["600"], "--icc": [str(pdfx.DEFAULT_PROFILE)], "--base-url": ["https://example.org/"]}
    result = cli("export", tmp_path / "no-game", "--to", other, option, *value.get(option, []))
    assert result.code == 2 and "Traceback" not in result.err
    assert f"{option} is an option of --to {name}, not of --to {other}" in result.err


def test_a_new_target_is_its_own_module_and_one_registry_line(small_game, tmp_path, monkeypatch):
    """A target registered with its option, its check and its export: `pnpgen export` offers it, passes its
    option, refuses before rendering what it checks, and writes what it exports inside the output set."""

    def add_options(parser):
        parser.add_argument("--greeting", default="hello", help="what to write")

    def check(game, greeting):
        if "forbidden" in game.decks:
            deck = game.decks["forbidden"]
            raise InputError(Problem(deck.file, 1, "the list target refuses this deck", "name"))

    def write(decks, greeting, out_dir, progress, title):
        lines = [f"{greeting}: {title}"] + [f"{deck.deck.id}: {len(deck.faces)} faces" for deck in decks]
        write_atomic(out_dir / "list.txt", "\n".join(lines) + "\n")
        return ["list.txt"]

    summary = "a text file listing the decks"
    fake = Target("list", summary, write, add_options, lambda values: values["greeting"], check)
    monkeypatch.setitem(registry.TARGETS, "list", fake)
    parser = argparse.ArgumentParser(prog="pnpgen")
    export_command.register(parser.add_subparsers())
    out = tmp_path / "out"
    args = parser.parse_args(
        [
            "export",
            str(small_game),
            "--to",
            "list",
            "--greeting",
            "やあ",
            "--out",
            str(out),
            "-q",
            "-j",
            "1",
            "--lang",
            "ja",
        ]
    )
    assert args.target_options["list"] == [("--greeting", "greeting", "hello")]
    assert args.run(args) == 0
    assert (out / "small" / "list-ja" / "list.txt").read_text() == "やあ: small\ncards: 4 faces\n"
    (small_game / "decks" / "cards.yaml").rename(small_game / "decks" / "forbidden.yaml")
    components = small_game / "components.yaml"
    components.write_text(components.read_text().replace("deck: cards", "deck: forbidden"))
    args = parser.parse_args(["export", str(small_game), "--to", "list", "--out", str(out / "again"), "-q"])
    with pytest.raises(InputError, match=re.escape("forbidden.yaml:1: name: the list target refuses this deck")):
        args.run(args)
    assert not (out / "again").exists()


# --- the seed games --------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name", ["greed-inc", "ikkin", "mint-rails"])
def test_seed_games_export_to_every_target(name, kits, kit_exports):
    """Each kit exported after it was built, as a user does: into the build's folder, its faces from the
    build's cache (conftest's kit_exports, which test_kit_exports.py compares with the card sheets)."""
    if not (ROOT / "templates" / name).is_dir():
        pytest.skip(f"templates/{name} is not in this tree yet")
    for target in TARGETS:
        folder = kits / name / f"{target}-ja"
        result = kit_exports(name)[target]
        assert result.code == 0, result
        assert (folder / ("tts.json" if target == "tts" else "manifest.csv")).is_file()
    for deck_pdf in (kits / name / "pdfx-ja").glob("*.pdf"):
        pdf = pikepdf.open(deck_pdf)
        assert pdf.Root.OutputIntents[0].S == "/GTS_PDFX"
        assert "rg" not in {str(op) for s in _content_streams(pdf) for _, op in pikepdf.parse_content_stream(s)}


# --- the CMYK conversion on its own ------------------------------------------------------------------


def _pdf_with_rgb_content():
    pdf = pikepdf.new()
    shading = pikepdf.Dictionary(
        ShadingType=2,
        ColorSpace=pikepdf.Name.DeviceRGB,
        Coords=[0, 0, 10, 0],
        Function=pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], N=1, C0=[1, 0, 0], C1=[0, 0, 1]),
    )
    form = pdf.make_stream(b"q /DeviceRGB cs 0 1 0 sc Q 1 0 0 rg 0 0 5 5 re f /Sh0 sh")
    form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 10, 10]
    form.Resources = pikepdf.Dictionary(Shading=pikepdf.Dictionary(Sh0=shading))
    form.Group = pikepdf.Dictionary(S=pikepdf.Name.Transparency, CS=pikepdf.Name.DeviceRGB)
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=[0, 0, 10, 10],
        Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(F0=form)),
        Contents=pdf.make_stream(b"0 0 1 RG /F0 Do"),
    )
    pdf.pages.append(pikepdf.Page(page))
    return pdf


def test_converter_turns_operators_colour_spaces_shadings_and_groups_into_cmyk():
    pdf = _pdf_with_rgb_content()
    converter = CmykConverter(pdfx.DEFAULT_PROFILE)
    converter.convert(pdf)
    form = pdf.pages[0].Resources.XObject.F0
    ops = [
        (str(op), [float(v) if not isinstance(v, pikepdf.Name) else str(v) for v in operands])
        for operands, op in pikepdf.parse_content_stream(form)
    ]
    red = converter.colour([1, 0, 0])
    assert ops[1] == ("cs", ["/DeviceCMYK"]) and ops[2] == ("sc", converter.colour([0, 1, 0]))
    assert ops[4] == ("k", red)
    assert next(str(op) for _, op in pikepdf.parse_content_stream(pdf.pages[0])) == "K"
    shading = form.Resources.Shading.Sh0
    assert shading.ColorSpace == "/DeviceCMYK"
    assert [float(v) for v in shading.Function.C0] == red
    assert form.Group.CS == "/DeviceCMYK"


def test_converter_refuses_rgb_it_cannot_convert():
    pdf = _pdf_with_rgb_content()
    mesh = pdf.make_stream(b"")
    mesh.ShadingType, mesh.ColorSpace = 4, pikepdf.Name.DeviceRGB
    pdf.pages[0].Resources.XObject.F0.Resources.Shading.Sh1 = mesh
    with pytest.raises(ConversionError):
        CmykConverter(pdfx.DEFAULT_PROFILE).convert(pdf)


def test_service_images_carry_each_language_its_own_faces(small_game, tmp_path, cli):
    """png, tgc and mpc of a two-language export: each image is the png of the same card and language
    (scaled), and the English faces are not the Japanese ones."""
    from test_kit_exports import MAX_DIFFERENCE, difference

    for target in ("png", "tgc", "mpc"):
        assert cli("export", small_game, "--out", tmp_path, "--to", target, "-q", "-j", "1").code == 0
    folder = tmp_path / "small"

    def grey(target, lang, name, size=(200, 280)):
        with Image.open(folder / f"{target}-{lang}" / name) as image:
            trim = 0.06 * image.width  # about the bleed: the services' images carry a little less of it
            return image.convert("L").resize(
                size, Image.Resampling.BOX, box=(trim, trim, image.width - trim, image.height - trim)
            )

    for lang in ("ja", "en"):
        png_rows = {row["card"]: row for row in manifest(folder / f"png-{lang}")}
        for target in ("tgc", "mpc"):
            for row in manifest(folder / f"{target}-{lang}"):
                expected = grey("png", lang, png_rows[row["card"]]["front"])
                assert difference(expected, grey(target, lang, row["front"])) <= MAX_DIFFERENCE, (target, lang, row)
    for card in ("apple", "pear", "grapes"):
        ja, en = (grey("png", lang, f"cards-{card}-front.png") for lang in ("ja", "en"))
        assert difference(ja, en) > MAX_DIFFERENCE
