"""Card figures on the rule sheets (rules.yaml `type: card`), read back from the PDFs: each card's outline follows
its rounded corners, and no numbered callout covers the card's text, whatever the column's width."""

from __future__ import annotations

import ctypes
import math

import pytest

from conftest import ROOT
from generator.model import load_game
from generator.model.rules import load_rules
from generator.render.callouts import CALLOUT_MM, place_callouts
from generator.render.cardimage import face_images
from generator.render.paper import MM

TOLERANCE_MM = 0.25  # where a digit's ink centre may stand from its disc's centre


@pytest.fixture(scope="module")
def built_rules(kits):
    """The kits' rule sheets (Ikkin's ja+en edition has the narrow columns)."""
    return kits


def anatomy_blocks(game_id):
    game = load_game(ROOT / "cards" / game_id, require_templates=False)
    return game, [block for block in load_rules(game).blocks if block.type == "card" and block.callouts]


def card_images(page, width_mm):
    """The rects (left, top, right, bottom in mm from the page's top-left) of the images drawn width_mm wide."""
    import pypdfium2.raw as pdfium_c

    height = page.get_height()
    found = []
    for obj in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=5):
        left, bottom, right, top = obj.get_bounds()
        if abs((right - left) / MM - width_mm) < 0.5:  # the outline's width inside the figure's
            found.append((left / MM, (height - top) / MM, right / MM, (height - bottom) / MM))
    return found


def callout_centres(page, near):
    """The centres (mm from the top-left) of the white digits, the callouts' numbers, around an image."""
    import pypdfium2.raw as pdfium_c

    height = page.get_height()
    text = page.get_textpage()
    left, top, right, bottom = near
    found = []
    for index in range(text.count_chars()):
        char = text.get_text_range(index, 1)
        r, g, b, a = (ctypes.c_uint() for _ in range(4))
        pdfium_c.FPDFText_GetFillColor(text.raw, index, r, g, b, a)
        if not char.isdigit() or (r.value, g.value, b.value) != (255, 255, 255):
            continue
        x0, y0, x1, y1 = text.get_charbox(index)  # the ink: its middle is the disc's
        x, y = (x0 + x1) / 2 / MM, (height - (y0 + y1) / 2) / MM
        if left - CALLOUT_MM <= x <= right + CALLOUT_MM and top - CALLOUT_MM <= y <= bottom + CALLOUT_MM:
            found.append((int(char), x, y))
    return found


def distance_to_box(point, box):
    x, y = point
    return math.hypot(x - min(max(x, box[0]), box[2]), y - min(max(y, box[1]), box[3]))


@pytest.mark.slow
@pytest.mark.parametrize(
    "game_id, edition", [("greed-inc", "ja"), ("greed-inc", "en"), ("greed-inc", "ja+en"), ("ikkin", "ja+en")]
)
def test_no_callout_covers_the_cards_text_read_back_from_the_pdf(built_rules, game_id, edition):
    import pypdfium2 as pdfium

    game, blocks = anatomy_blocks(game_id)
    pdf = pdfium.PdfDocument(str(built_rules / game_id / f"rules-{edition}-a4.pdf"))
    checked = 0
    langs = edition.split("+")
    for block in blocks:
        deck = game.decks[block.deck]
        numbers = list(range(1, len(block.callouts) + 1))
        figures = [
            (page, rect, callouts)
            for page in pdf
            for rect in card_images(page, block.width)
            for callouts in [callout_centres(page, rect)]
            if sorted(n for n, _, _ in callouts) == numbers
        ]
        assert len(figures) == len(langs), "one figure of the card in each language, side by side"
        figures.sort(key=lambda figure: figure[1][0])  # the languages left to right
        for lang, (_, (left, top, right, _), callouts) in zip(langs, figures):
            texts = face_images(game, lang, deck.id, block.cards[:1])[0].texts
            scale = (right - left) / deck.size_mm[0]  # the card as drawn, read back
            drawn = [(left + a * scale, top + b * scale, left + c * scale, top + d * scale) for a, b, c, d in texts]
            for number, x, y in callouts:
                nearest = min(distance_to_box((x, y), box) for box in drawn)
                assert nearest >= CALLOUT_MM / 2 - TOLERANCE_MM, (game_id, edition, block.id, number, nearest)
            checked += 1
    assert checked >= len(blocks) * len(edition.split("+")), "every figure with callouts was found and checked"


def test_callouts_leave_the_cards_text_clear_at_every_width():
    """The real faces' text boxes, the card drawn from 20 to 90 mm wide: every callout clear of them and of the
    others."""
    for game_id in ("greed-inc", "ikkin", "mint-rails"):
        game, blocks = anatomy_blocks(game_id)
        for block in blocks:
            deck = game.decks[block.deck]
            for lang in game.languages:
                texts = face_images(game, lang, deck.id, block.cards[:1])[0].texts
                for width in range(20, 91, 5):
                    scale = width / deck.size_mm[0]
                    drawn = [tuple(v * scale for v in box) for box in texts]
                    size = (width, deck.size_mm[1] * scale)
                    placed = place_callouts([(x * scale, y * scale) for x, y in block.callouts], drawn, size)
                    for i, centre in enumerate(placed):
                        assert all(distance_to_box(centre, box) >= CALLOUT_MM / 2 for box in drawn), (block.id, width)
                        for other in placed[i + 1 :]:
                            assert math.dist(centre, other) >= CALLOUT_MM, (block.id, width)


@pytest.mark.slow
def test_a_card_figures_outline_follows_its_rounded_corners(built_rules):
    """No hairline square corner: the paper just outside and inside each corner of a drawn card stays white."""
    import pypdfium2 as pdfium

    _, blocks = anatomy_blocks("greed-inc")
    block = blocks[0]
    pdf = pdfium.PdfDocument(str(built_rules / "greed-inc" / "rules-en-a4.pdf"))
    dpi = 600
    corners = 0
    for page in pdf:
        rects = card_images(page, block.width)
        if not rects:
            continue
        image = page.render(scale=dpi / 72).to_pil().convert("L")
        px = dpi / 25.4
        for left, top, right, bottom in rects:
            for x, y, dx, dy in (
                (left, top, 1, 1),
                (right, top, -1, 1),
                (left, bottom, 1, -1),
                (right, bottom, -1, -1),
            ):
                # a square 0.3 mm outside to 0.3 mm inside the corner, along the diagonal
                box = [x - 0.3 * dx, y - 0.3 * dy, x + 0.3 * dx, y + 0.3 * dy]
                crop = image.crop(
                    (
                        round(min(box[0], box[2]) * px),
                        round(min(box[1], box[3]) * px),
                        round(max(box[0], box[2]) * px),
                        round(max(box[1], box[3]) * px),
                    )
                )
                assert min(crop.tobytes()) > 235, f"a line at the card's corner ({x:.1f}, {y:.1f}) mm"
                corners += 1
    assert corners >= 4
