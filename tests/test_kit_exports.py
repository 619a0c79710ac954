"""Exports by content: every exported image of the three kits is the card the card sheet prints.

Each card is cut out of the rendered A4 card sheet (fronts and, on the following page, the backs) and
compared, pixel by pixel at a low resolution (tile by tile: a wrong number shows), with the PNG export's image
of that card and with its cell of the Tabletop Simulator deck sheet. A face taken from another deck or
language differs by far more than the threshold; the same face rasterized twice differs by anti-aliasing only.
Before the fix, every deck's export carried faces counted through all of the build's PDFs: another deck's, or
the other language's.
"""

import csv
import functools
import json
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageFilter

from conftest import KITS, placements
from generator.model import load_game
from generator.paths import CARDS_DIR

pytestmark = pytest.mark.slow
SHEET_DPI = 100
PX_PER_MM = SHEET_DPI / 25.4
INSET_MM = 1.0  # compare inside the trim: a cut edge may fall a pixel either way
TILE_PX = 10  # 2.5 mm: about a digit of card text
MAX_DIFFERENCE = 35  # the largest mean grey difference (0-255) of a tile, after a slight blur: the same face
# rasterized twice stays under 30 (edges a fraction of a pixel apart); another card's face is 45 and more


def card_sheet_faces(game, sheet_pdf: Path) -> dict[tuple[str, str], Image.Image]:
    """(card id, front|back) -> the card's trim area (less INSET_MM) cut out of the card sheet.

    The sheet holds the decks in box order, each card's copies in deck order; a page of fronts is followed
    by the page of their backs when the deck has backs."""
    copies = [(deck, card) for deck in game.decks_in_box_order() for card in deck.cards for _ in range(card.count)]
    pdf = pikepdf.open(sheet_pdf)
    document = pdfium.PdfDocument(str(sheet_pdf))
    faces, page_index = {}, 0
    try:
        while copies:
            on_page = placements(pdf.pages[page_index])
            chunk, copies = copies[: len(on_page)], copies[len(on_page) :]
            document[page_index].set_rotation(0)  # read as laid out (a page turned for the printer by /Rotate)
            image = document[page_index].render(scale=SHEET_DPI / 72).to_pil().convert("L")
            height_mm = float(pdf.pages[page_index].mediabox[3]) * 25.4 / 72
            for (deck, card), placed in zip(chunk, on_page):
                faces.setdefault((card.id, "front"), cut(image, placed, deck.bleed_mm, height_mm))
            page_index += 1
            with_backs = [
                (deck, card) for deck, card in chunk if (card.back or {}).get("template") or deck.back_template
            ]
            if with_backs:
                document[page_index].set_rotation(0)  # read as laid out (a page turned for the printer by /Rotate)
                image = document[page_index].render(scale=SHEET_DPI / 72).to_pil().convert("L")
                for (deck, card), placed in zip(with_backs, placements(pdf.pages[page_index])):
                    faces.setdefault((card.id, "back"), cut(image, placed, deck.bleed_mm, height_mm))
                page_index += 1
    finally:
        document.close()
    return faces


def cut(image: Image.Image, placed, bleed_mm: float, page_height_mm: float) -> Image.Image:
    _, x, y, w, h, _ = placed
    margin = bleed_mm + INSET_MM
    left, top = x + margin, page_height_mm - (y + h - margin)
    box = [round(v * PX_PER_MM) for v in (left, top, left + w - 2 * margin, top + h - 2 * margin)]
    return image.crop(box)


def inner(image: Image.Image, bleed_px: float, size: tuple[int, int]) -> Image.Image:
    """The trim area less INSET_MM of an exported image with `bleed_px` of bleed, scaled to `size`."""
    scale = (image.width - 2 * bleed_px) / (size[0] / PX_PER_MM + 2 * INSET_MM)
    margin = bleed_px + INSET_MM * scale
    box = (margin, margin, image.width - margin, image.height - margin)
    return image.convert("L").resize(size, Image.Resampling.BOX, box=box)


def difference(a: Image.Image, b: Image.Image) -> float:
    """The largest difference of a TILE_PX square between two grey images: a changed number or word shows,
    anti-aliasing and a sub-pixel shift spread over the whole card do not."""
    blurred = [image.filter(ImageFilter.GaussianBlur(1.5)) for image in (a, b)]
    diff = ImageChops.difference(*blurred)
    return diff.resize((diff.width // TILE_PX, diff.height // TILE_PX), Image.Resampling.BOX).getextrema()[1]


def assert_same_card(expected: Image.Image, actual: Image.Image, what: str) -> None:
    own = difference(expected, actual)
    assert own <= MAX_DIFFERENCE, f"{what}: differs from its card on the sheet by {own} (limit {MAX_DIFFERENCE})"


def assert_the_measure_tells_cards_apart(compared: list[tuple[Image.Image, Image.Image]]) -> None:
    """The comparison can fail: most exported fronts differ from the previous card's face beyond the limit."""
    faces = [expected.tobytes() for expected, _ in compared]
    pairs = [
        (compared[i - 1][0], actual)
        for i, (expected, actual) in enumerate(compared)
        if i and faces[i - 1] != faces[i] and compared[i - 1][0].size == actual.size
    ]
    apart = sum(difference(other, actual) > MAX_DIFFERENCE for other, actual in pairs)
    assert apart >= 0.5 * len(pairs), f"only {apart} of {len(pairs)} neighbouring cards tell apart"


@pytest.fixture
def exported(kits, kit_exports):
    """The kits' build folder, once the kit a test names is exported there to png and tts in both languages
    (its faces from the build's cache; see conftest's kit_exports)."""

    def of(game_id):
        results = kit_exports(game_id)
        for target in ("png", "tts"):
            assert results[target].code == 0, results[target]
        return kits

    return of


@pytest.mark.parametrize("game_id", KITS)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_exported_png_is_its_card_on_the_card_sheet(exported, game_id, lang):
    game, kits = load_game(CARDS_DIR / game_id), exported(game_id)
    sheet = card_sheet_faces(game, kits / game_id / f"cards-{lang}-a4.pdf")
    folder = kits / game_id / f"png-{lang}"
    with open(folder / "manifest.csv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert {row["card"] for row in rows} == {card.id for card in game.cards()}
    decks, fronts = game.decks, []
    for row in rows:
        bleed_px = decks[row["deck"]].bleed_mm * 300 / 25.4
        for side in ("front", "back"):
            if not row[side]:
                assert (row["card"], side) not in sheet
                continue
            expected = sheet[(row["card"], side)]
            actual = inner(Image.open(folder / row[side]), bleed_px, expected.size)
            assert_same_card(expected, actual, f"{game_id} {lang} {row[side]} ({row['card']} {side})")
            if side == "front":
                fronts.append((expected, actual))
    assert_the_measure_tells_cards_apart(fronts)


@pytest.mark.parametrize("game_id", KITS)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_tts_cell_is_its_card_and_the_hidden_slot_is_the_back(exported, game_id, lang):
    game, kits = load_game(CARDS_DIR / game_id), exported(game_id)
    sheet = card_sheet_faces(game, kits / game_id / f"cards-{lang}-a4.pdf")
    folder = kits / game_id / f"tts-{lang}"
    saved = json.loads((folder / "tts.json").read_text(encoding="utf-8"))
    decks = [deck for deck in game.decks_in_box_order() if deck.cards]
    assert len(saved["ObjectStates"]) == len(decks)
    for deck_object, deck in zip(saved["ObjectStates"], decks):
        copies = [card for card in deck.cards for _ in range(card.count)]
        card_objects = deck_object.get("ContainedObjects", [deck_object])
        assert [o["Nickname"] for o in card_objects] == [c.name.get(lang, game.source_language) for c in copies]
        for card, card_object in dict(zip((c.id for c in copies), zip(copies, card_objects))).values():
            key, slot = divmod(card_object["CardID"], 100)
            custom = card_object["CustomDeck"][str(key)]
            assert custom["BackIsHidden"] is True
            columns, rows = custom["NumWidth"], custom["NumHeight"]
            front = cell(folder, custom["FaceURL"], columns, rows, slot)
            expected = sheet[(card.id, "front")]
            what = f"{game_id} {lang} tts {deck.id} {card.id}"
            assert_same_card(expected, inner_cell(front, expected.size), f"{what} front")
            if (card.id, "back") not in sheet:
                continue
            back = (
                cell(folder, custom["BackURL"], columns, rows, slot)
                if custom["UniqueBack"]
                else sheet_image(folder / Path(custom["BackURL"]).name)
            )
            expected = sheet[(card.id, "back")]
            assert_same_card(expected, inner_cell(back, expected.size), f"{what} back")
            if not custom["UniqueBack"]:
                hidden = cell(folder, custom["FaceURL"], columns, rows, columns * rows - 1)
                assert difference(inner_cell(hidden, expected.size), expected) <= MAX_DIFFERENCE, (
                    f"{what}: the hidden slot is not the deck's back"
                )


@functools.lru_cache(maxsize=8)
def sheet_image(path: Path) -> Image.Image:
    with Image.open(path) as image:
        return image.convert("RGB")


def cell(folder: Path, url: str, columns: int, rows: int, slot: int) -> Image.Image:
    image = sheet_image(folder / Path(url).name)
    width, height = image.width // columns, image.height // rows
    row, column = divmod(slot, columns)
    return image.crop((column * width, row * height, (column + 1) * width, (row + 1) * height))


def inner_cell(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """A trimmed Tabletop Simulator cell less INSET_MM, scaled to `size`."""
    scale = image.width / (size[0] / PX_PER_MM + 2 * INSET_MM)
    margin = INSET_MM * scale
    return image.convert("L").resize(
        size, Image.Resampling.BOX, box=(margin, margin, image.width - margin, image.height - margin)
    )
