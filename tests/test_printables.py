"""Boards, player aids and token sheets: the seed games' data, tiles that join up, counts, fonts.

The seed games' boards, aids and tokens are built by their builders directly (their card templates
are not needed for that); the whole `pnpgen build` path is run on the small game.
"""

import json
import re
import math

import pikepdf
import pytest

from conftest import ROOT, fonts_of, is_embedded, once_per_run, page_size_mm, page_text, placements, run_temp
from generator.build import BuildOptions, build, engine
from generator.build.builder import OutputBuilder
from generator.build.aids import build_aids
from generator.build.boards import build_boards
from generator.build.context import BuildContext
from generator.build.tokens import build_tokens
from generator.model import load_game
from generator.progress import Progress
from generator.render.boards import board_batch, hex_centre
from generator.render.batches import render_batch
from generator.model.game import DEFAULT_BLEED_MM as BOARD_BLEED_MM
from generator.render.pipeline import FaceCache
from generator.render.paper import MM, PAPERS, Rect
from generator.render.sheet_pages import back_slot
from generator.render.sheet_plan import SheetOptions
from generator.render.tiles import OVERLAP_MM, TILE_MARGIN_MM, target_points, tile_layout
from test_input_errors import edit, errors, line_of

MAIN_BOARD = (400, 250)  # Greed Inc's main board, mm
DPI = 254  # 0.1 mm a pixel: the tile windows of the main board fall on whole pixels


def build_printed(game_id, out, papers=("a4", "letter"), board_paper=None, per_deck=False):
    game = load_game(ROOT / "cards" / game_id, require_templates=False)
    context = BuildContext(
        game=game,
        langs=list(game.languages),
        out_dir=out / game_id,
        sheets=[SheetOptions(paper, sheets="per-deck" if per_deck else "shared") for paper in papers],
        cache=FaceCache(None),
        jobs=1,
        progress=Progress(quiet=True),
        options=BuildOptions(board_paper=board_paper),
    )
    files = build_boards(context) + build_aids(context) + build_tokens(context)
    return game, {entry["path"]: entry for entry in files}


def printed_once(tmp_path_factory, game_id, **options):
    """(game, build.json entries by path, folder) of build_printed, once per test run for every xdist worker."""
    out = run_temp(tmp_path_factory) / f"printed-{game_id}"
    entries = out / "entries.json"

    def make():
        _, files = build_printed(game_id, out, **options)
        entries.write_text(json.dumps(files), encoding="utf-8")

    once_per_run(tmp_path_factory, f"printed-{game_id}", make)
    game = load_game(ROOT / "cards" / game_id, require_templates=False)
    return game, json.loads(entries.read_text(encoding="utf-8")), out / game_id


@pytest.fixture(scope="session")
def greed(tmp_path_factory):
    return printed_once(tmp_path_factory, "greed-inc", board_paper="a3")


@pytest.fixture(scope="session")
def ikkin(tmp_path_factory):
    return printed_once(tmp_path_factory, "ikkin", papers=("a4",))


# --- tile geometry -------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tiles_cover_the_board_with_exact_overlaps_inside_the_printable_area(paper):
    layout = tile_layout(MAIN_BOARD, paper)
    assert layout.count > 1
    windows = {(c, r): layout.board_window(c, r) for c, r in layout.tiles()}
    for (col, row), window in windows.items():
        if col + 1 < layout.cols:
            right = windows[(col + 1, row)]
            assert window.x + window.w - right.x == pytest.approx(OVERLAP_MM)
        if row + 1 < layout.rows:
            below = windows[(col, row + 1)]
            assert below.y + below.h - window.y == pytest.approx(OVERLAP_MM)
    assert min(w.x for w in windows.values()) == pytest.approx(0)
    assert max(w.x + w.w for w in windows.values()) == pytest.approx(400)
    assert min(w.y for w in windows.values()) == pytest.approx(0)
    assert max(w.y + w.h for w in windows.values()) == pytest.approx(MAIN_BOARD[1])
    on_paper = layout.paper_window()
    assert on_paper.x >= TILE_MARGIN_MM - 1e-6 and on_paper.y >= TILE_MARGIN_MM - 1e-6
    assert on_paper.x + on_paper.w <= layout.paper[0] - TILE_MARGIN_MM + 1e-6
    assert sorted(layout.paper) == sorted(PAPERS[paper])


def test_tiles_are_named_like_a_map_and_a_fitting_board_is_one_tile():
    layout = tile_layout((600, 500), "a4")
    names = [layout.name(c, r) for c, r in layout.tiles()]
    assert names[0] == "A1" and names[1] == "A2" and f"B{layout.cols}" in names
    assert [tile_layout(MAIN_BOARD, paper).count for paper in ("a3", "a2", "tabloid")] == [1, 1, 1]


def test_hexes_touch_their_six_neighbours():
    element = {"at": (0.0, 0.0), "size": 20.0}
    centre = hex_centre(element, 2, 2)
    neighbours = [(1, 2), (3, 2), (1, 1), (2, 1), (1, 3), (2, 3)]  # even row: the row above starts left
    for col, row in neighbours:
        x, y = hex_centre(element, col, row)
        assert math.dist(centre, (x, y)) == pytest.approx(20.0)


def test_every_target_lies_in_the_overlap_of_two_tiles():
    layout = tile_layout(MAIN_BOARD, "a4")
    for x, _ in target_points(layout):
        showing = [
            1
            for c, r in layout.tiles()
            if layout.board_window(c, r).x <= x <= layout.board_window(c, r).x + layout.board_window(c, r).w
        ]
        assert len(showing) >= 2


# --- the boards in the PDFs ----------------------------------------------------------------------


def clip_and_origin(page):
    """(clip rect, board origin) in mm of the clipped board drawn on a tile page."""
    ops = list(pikepdf.parse_content_stream(page))
    for index, (operands, operator) in enumerate(ops):
        if str(operator) == "re" and str(ops[index + 1][1]) == "W":
            clip = [float(v) / MM for v in operands]
            matrix = next(o for o, op in ops[index:] if str(op) == "cm")
            return clip, (float(matrix[4]) / MM, float(matrix[5]) / MM)
    raise AssertionError("no clipped board on this page")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tiled_board_pdf_has_a_page_map_then_tiles_with_exact_overlaps(greed, paper):
    _, files, out = greed
    entry = files[f"board-main-en-{paper}.pdf"]
    pdf = pikepdf.open(out / entry["path"])
    assert entry["kind"] == "board" and entry["pages"] == len(pdf.pages) == entry["tiles"] + 1
    assert "tiles" in page_text(out / entry["path"], 0)  # the page map says what it is
    windows = []
    b = BOARD_BLEED_MM  # each tile shows its window's bleed on every side, the seams too
    for page in list(pdf.pages)[1:]:
        assert sorted(page_size_mm(page)) == pytest.approx(sorted(PAPERS[paper]), abs=0.01)
        (cx, cy, cw, ch), (ox, oy) = clip_and_origin(page)
        windows.append((cx - ox + b, cy - oy + b, cw - 2 * b, ch - 2 * b))
        trim, bleed = ([float(v) / MM for v in page.obj[key]] for key in ("/TrimBox", "/BleedBox"))
        assert bleed == pytest.approx([trim[0] - b, trim[1] - b, trim[2] + b, trim[3] + b], abs=0.01)
    layout = tile_layout(MAIN_BOARD, paper)
    assert entry["grid"] == f"{layout.cols}x{layout.rows}"
    for index, (x, y, w, h) in enumerate(windows):
        col, row = index % layout.cols, index // layout.cols
        if col + 1 < layout.cols:
            assert x + w - windows[index + 1][0] == pytest.approx(OVERLAP_MM, abs=0.01)
        if row + 1 < layout.rows:
            assert windows[index + layout.cols][1] + h - y == pytest.approx(OVERLAP_MM, abs=0.01)


def render(path, index, dpi=DPI):
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        # a hair under the exact scale, so a page of whole 0.1 mm is a whole number of pixels (no drift)
        return document[index].render(scale=dpi / 72 * (1 - 1e-6)).to_pil().convert("L")
    finally:
        document.close()


def share_differing(a, b, threshold=60) -> float:
    from PIL import ImageChops

    assert a.size == b.size
    histogram = ImageChops.difference(a, b).histogram()
    return sum(histogram[threshold:]) / (a.size[0] * a.size[1])


def px(mm: float) -> int:
    return round(mm * DPI / 25.4)


def test_each_tile_shows_the_board_at_100_percent_and_neighbours_match_in_the_overlap(greed, tmp_path):
    game, _, out = greed
    path = out / "board-main-en-a4.pdf"
    board_pdf = tmp_path / "board.pdf"
    board_pdf.write_bytes(render_batch(board_batch(game, game.printables.boards["main"], "en")))
    board = render(board_pdf, 0)
    b = BOARD_BLEED_MM  # the rendered board page carries its bleed on every side
    assert board.size == (pytest.approx(px(400 + 2 * b), abs=1), pytest.approx(px(MAIN_BOARD[1] + 2 * b), abs=1))
    layout = tile_layout(MAIN_BOARD, "a4", bleed=b)
    on_paper = layout.paper_window()
    paper_h = layout.paper[1]
    crops = {}
    for index, (col, row) in enumerate(layout.tiles(), 1):
        tile = render(path, index)
        window = layout.board_window(col, row)
        left, top = px(on_paper.x), px(paper_h - on_paper.y - on_paper.h)
        crop = tile.crop((left, top, left + px(window.w), top + px(window.h)))
        board_top = px(MAIN_BOARD[1] + b - window.y - window.h)
        expected = board.crop((px(window.x + b), board_top, px(window.x + b) + px(window.w), board_top + px(window.h)))
        # only the thin targets differ; a shift of 0.1 mm makes over 1% of the pixels differ
        assert share_differing(crop, expected) < 0.003, (col, row)
        crops[(col, row)] = crop
    for (col, row), crop in crops.items():
        if (col + 1, row) in crops:
            width = px(layout.window[0])
            mine = crop.crop((width - px(OVERLAP_MM), 0, width, crop.size[1]))
            theirs = crops[(col + 1, row)].crop((0, 0, px(OVERLAP_MM), crop.size[1]))
            assert share_differing(mine, theirs) < 0.004  # the same strip but the thin targets (left tile only)


def test_a_board_that_fits_is_imposed_in_its_copies(greed):
    game, files, out = greed
    entry = files["board-company-placard-ja-a4.pdf"]
    pdf = pikepdf.open(out / entry["path"])
    placed = [p for page in pdf.pages for p in placements(page)]
    placard = game.printables.boards["company-placard"]
    assert len(placed) == entry["copies"] == placard.printed == len(game.decks["companies"].cards) == 10
    for _, _, _, w, h, _ in placed:
        size = game.printables.boards["company-placard"].size_mm
        assert (w, h) == pytest.approx((size[0] + 2 * BOARD_BLEED_MM, size[1] + 2 * BOARD_BLEED_MM), abs=0.01)


def test_board_paper_prints_the_main_board_on_one_a3_sheet(greed):
    _, files, out = greed
    entry = files["board-main-ja-a3.pdf"]
    assert "board-company-placard-ja-a3.pdf" not in files  # placards fit A4 and Letter already
    pdf = pikepdf.open(out / entry["path"])
    assert entry["tiles"] == 1 and len(pdf.pages) == 1
    assert sorted(page_size_mm(pdf.pages[0])) == pytest.approx([297, 420], abs=0.01)
    (cx, cy, cw, ch), _ = clip_and_origin(pdf.pages[0])
    assert (cw, ch) == pytest.approx([side + 2 * BOARD_BLEED_MM for side in MAIN_BOARD], abs=0.01)  # with its bleed
    trim, bleed = ([float(v) * 25.4 / 72 for v in pdf.pages[0].obj[key]] for key in ("/TrimBox", "/BleedBox"))
    assert (trim[2] - trim[0], trim[3] - trim[1]) == pytest.approx(MAIN_BOARD, abs=0.01)
    assert bleed == pytest.approx([cx, cy, cx + cw, cy + ch], abs=0.01)


def test_price_tracks_come_from_the_goods_data(greed):
    game, _, _ = greed
    main = game.printables.boards["main"]
    assert main.size_mm == MAIN_BOARD
    coal = next(e for e in main.elements if e["kind"] == "track" and e.get("card") == "coal" and "from" in e)
    assert coal["values"] == [25, 30, 35, 40, 45, 50, 60, 70, 80] and coal["start"] == 45
    goods = game.decks["goods"].cards
    tracks = [e for e in main.elements if e["kind"] == "track" and "from" in e and "card" in e]
    assert [(t["values"][0], t["values"][-1], t["start"]) for t in tracks] == [
        (c.fields["price_min"], c.fields["price_max"], c.fields["start_price"]) for c in goods
    ]
    placard = game.printables.boards["company-placard"]
    storage = [e for e in placard.elements if e["kind"] == "slots" and e["slots"] == game.numbers["storage_costs"]]
    assert len(storage) == 1


def held(game, element):
    """The size of the piece a place holds, as it lies (a card on its side: its long edge across)."""
    size = game.decks[element["holds"]].size_mm if element["holds"] in game.decks else None
    if size is None:
        side = game.printables.tokens[element["holds"]].size_mm
        size = (side, side)
    return tuple(sorted(size, reverse=True)) if element["turned"] else size


def test_every_place_of_the_company_placard_takes_the_piece_it_holds(greed):
    game, _, _ = greed
    from generator.render.boards import layout

    placard = game.printables.boards["company-placard"]
    holding = [e for e in placard.elements if e["kind"] == "slots" and "holds" in e]
    assert {e["holds"] for e in holding} == {"assets", "money", "player-tokens", "goods"}
    boxes, _ = layout(placard, "en", "ja")
    slots = [box for box in boxes if box.kind == "slot"]
    for element in holding:
        width, height = held(game, element)
        places = [box for box in slots if box.field.startswith(element["written_at"][0] + ".")]
        assert places
        for box in places:
            assert box.w >= width and box.h >= height, (box.text, box.w, box.h, element["holds"])
    storage = [box for box in slots if "storage cost" in box.text]
    assert len(storage) == len(game.numbers["storage_costs"])
    for box, cost in zip(storage, game.numbers["storage_costs"]):
        assert f"storage cost {cost} million" in box.text, "a storage cost says its unit"
    # each asset slot holds a card on its side with room to slide: AVAILABLE at its top, USED in a strip at its
    # bottom; slid either way, the card covers one of the two
    card_w, card_h = sorted(game.decks["assets"].size_mm, reverse=True)
    for n in range(1, 5):
        (slot,) = [box for box in slots if box.text.startswith(f"Asset {n}: AVAILABLE")]
        (strip,) = [box for box in slots if box.text.startswith(f"Asset {n}: USED")]
        assert slot.x < strip.x and strip.x + strip.w < slot.x + slot.w and slot.y < strip.y
        assert strip.y + strip.h <= slot.y + slot.h
        room = slot.h - card_h  # the slide
        assert strip.h <= room and slot.w >= card_w
        assert strip.y - slot.y >= card_h, "slid up, the card leaves the USED strip showing"
    # the columns line up: the storage beside the assets from their top to the cash row's bottom
    assets = [box for box in slots if "AVAILABLE" in box.text]
    cash = [box for box in slots if box.text in ("Free cash", "New income", "Last year's income")]
    seats = [box for box in slots if box.text in ("CEO", "CFO", "COO", "Mgr")]
    assert min(b.y for b in storage) == min(b.y for b in assets)
    assert max(b.y + b.h for b in storage) == pytest.approx(max(b.y + b.h for b in cash), abs=0.01)
    assert max(b.x + b.w for b in seats) == pytest.approx(max(b.x + b.w for b in assets), abs=0.01)
    assert min(b.x for b in cash) == min(b.x for b in assets)
    strips = [box for box in slots if "USED" in box.text]
    for i, a in enumerate(slots):
        assert a.x >= 0 and a.y >= 0 and a.x + a.w <= placard.size_mm[0] and a.y + a.h <= placard.size_mm[1]
        for b in slots[i + 1 :]:
            if {id(a), id(b)} & {id(s) for s in strips}:
                continue  # a USED strip lies inside its asset slot
            assert a.x + a.w <= b.x or b.x + b.w <= a.x or a.y + a.h <= b.y or b.y + b.h <= a.y


def test_a_placard_is_printed_for_each_company_in_its_colour_with_its_name(greed):
    import pypdfium2 as pdfium

    from generator.model.colours import rgb, tint

    game, files, out = greed
    path = out / files["board-company-placard-en-a4.pdf"]["path"]
    companies = game.decks["companies"].cards
    pdf = pikepdf.open(path)
    assert len(pdf.pages) == len(companies)
    size = game.printables.boards["company-placard"].size_mm
    for index, company in enumerate(companies):
        assert company.name.get("en") in page_text(path, index)
        (_, x, y, _, _, _) = placements(pdf.pages[index])[0]
        image = pdfium.PdfDocument(str(path))[index].render(scale=100 / 72).to_pil().convert("RGB")
        paper_h = page_size_mm(pdf.pages[index])[1]
        # a spot of the background between the storage column and the board's right edge, half way down
        spot = (x + BOARD_BLEED_MM + size[0] - 1.5, paper_h - (y + BOARD_BLEED_MM + size[1] / 2))
        pixel = image.getpixel((round(spot[0] * 100 / 25.4), round(spot[1] * 100 / 25.4)))
        expected = [round(c * 255) for c in rgb(tint(company.fields["colour"], 0.78))]
        assert all(abs(a - b) <= 3 for a, b in zip(pixel, expected)), (company.id, pixel, expected)


def test_a_place_smaller_than_what_it_holds_is_a_located_error(tmp_path, cli):
    from conftest import copy_game

    game_dir = copy_game("greed-inc", tmp_path)
    placard = game_dir / "boards" / "company-placard.yaml"
    edit(placard, "    holds: money\n", "    holds: money\n    slot: [33, 22]\n")
    result = cli("validate", game_dir)
    assert result.code == 2 and "Traceback" not in result.err
    [line] = errors(result)
    assert f"company-placard.yaml:{line_of(placard, 'slot: [33, 22]')}:" in line and "elements[3].slot" in line
    assert "33 x 22 mm is smaller than what it holds" in line and "30 x 30 mm" in line
    edit(placard, "    holds: money\n", "    holds: monee\n")
    [line] = errors(cli("validate", game_dir))
    assert f"company-placard.yaml:{line_of(placard, 'holds: monee')}:" in line and "elements[3].holds" in line
    assert "no deck or token sheet 'monee'" in line


# --- aids and tokens -----------------------------------------------------------------------------


def test_aids_in_each_language_and_bilingual_in_the_stated_number(greed):
    _, files, out = greed
    aids = {entry["lang"]: entry for entry in files.values() if entry["kind"] == "aid" and entry["paper"] == "a4"}
    assert set(aids) == {"ja", "en", "ja+en"}
    for entry in aids.values():
        pdf = pikepdf.open(out / entry["path"])
        assert sum(len(placements(page)) for page in pdf.pages) == entry["copies"] == 5
    english, japanese = "Market forces", "価格の変動"
    both = page_text(out / aids["ja+en"]["path"], 0)
    assert english in both and japanese in both
    assert japanese in page_text(out / aids["ja"]["path"], 0)
    assert english not in page_text(out / aids["ja"]["path"], 0)
    assert english in page_text(out / aids["en"]["path"], 0)
    assert "40%" in both  # the CEO's exit bonus, read from game.yaml


def test_aid_half_page_size_follows_the_paper(greed):
    _, files, _ = greed
    sizes = {e["paper"]: e["size_mm"] for e in files.values() if e["kind"] == "aid" and e["lang"] == "en"}
    assert sizes["a4"] != sizes["letter"]
    for paper, (w, h) in sizes.items():
        assert 2 * w <= max(PAPERS[paper]) and h <= min(PAPERS[paper])


def test_ikkin_token_counts_follow_the_box_contents(ikkin):
    game, files, out = ikkin
    entry = files["tokens-ja-a4.pdf"]
    assert entry["tokens"] == ["debt-tokens", "reward-tokens"]
    counts = [next(c for c in game.components if c.source == ("tokens", sheet)).count for sheet in entry["tokens"]]
    pdf = pikepdf.open(out / entry["path"])
    fronts = [p for index, page in enumerate(pdf.pages) for p in placements(page) if index % 2 == 0]
    assert len(fronts) == entry["pieces"] == sum(counts) == 4 + 8
    assert len(pdf.pages) <= 2, "the debt and reward tokens share one duplex sheet"


def front_and_back_pages(pdf):
    """(front, back) page pairs of a duplex token file: each front is followed by its back."""
    pages = list(pdf.pages)
    assert len(pages) % 2 == 0
    return list(zip(pages[::2], pages[1::2]))


def test_two_sided_token_backs_print_behind_their_fronts_and_one_sided_ones_have_a_blank_back(greed):
    game, files, out = greed
    entry = files["tokens-en-a4.pdf"]
    tokens = game.printables.tokens
    assert entry["sides"] == 2 and entry["pieces"] == sum(
        t["count"] * (sheet.sets or 1) for sheet in tokens.values() for t in sheet.tokens
    )
    one_sided = {tokens[sheet].size_mm + 2 * tokens[sheet].bleed_mm for sheet in tokens if tokens[sheet].sides == 1}
    pdf = pikepdf.open(out / entry["path"])
    blank = 0
    for front_page, back_page in front_and_back_pages(pdf):
        front, back = placements(front_page), placements(back_page)
        paper = page_size_mm(back_page)
        behind = {
            (round(r.x, 2), round(r.y, 2))
            for r in (back_slot(paper, Rect(x, y, w, h), "long") for _, x, y, w, h, _ in front)
        }
        assert {(round(x, 2), round(y, 2)) for _, x, y, _, _, _ in back} <= behind  # each back behind a front
        blank += len(front) - len(back)
        assert len(front) - len(back) == sum(1 for _, _, _, w, _, _ in front if round(w, 2) in one_sided)
    assert blank == sum(t["count"] for sheet in tokens.values() if sheet.sides == 1 for t in sheet.tokens) == 10


def test_the_token_sheets_share_pages_and_per_deck_keeps_a_file_each(greed, tmp_path):
    game, files, out = greed
    entry = files["tokens-en-a4.pdf"]
    assert entry["tokens"] == list(game.printables.tokens) and entry["pages"] <= 6
    assert not [name for name in files if name.startswith("tokens-") and name.count("-") > 2]
    one_way = {
        (float(page.mediabox[2]) > float(page.mediabox[3])) != (int(page.obj.get("/Rotate", 0)) % 180 == 90)
        for page in pikepdf.open(out / entry["path"]).pages
    }
    assert len(one_way) == 1, "every page of the file prints the same way round"
    game_alone, alone = build_printed("greed-inc", tmp_path, papers=("a4",), per_deck=True)
    token_files = sorted(name for name in alone if alone[name]["kind"] == "tokens" and alone[name]["lang"] == "en")
    assert token_files == sorted(f"tokens-{sheet}-en-a4.pdf" for sheet in game_alone.printables.tokens)
    assert sum(alone[name]["pages"] for name in token_files) > entry["pages"]


def test_every_printed_pdf_embeds_its_fonts(greed):
    _, files, out = greed
    for entry in files.values():
        pdf = pikepdf.open(out / entry["path"])  # kept open while its fonts are read
        fonts = fonts_of(pdf)
        assert fonts, entry["path"]
        assert all(is_embedded(font) for font in fonts), entry["path"]


# --- the build command and validate on the small game --------------------------------------------

SMALL_BOARD = """\
name: {ja: ボード, en: Board}
size: [300, 200]
elements:
  - kind: track
    at: [10, 10]
    label: {ja: 点数, en: Score}
    from: 0
    to: =numbers.goal
    step: 1
    start: 0
  - kind: hexgrid
    at: [10, 40]
    columns: 6
    rows: 4
    cells: [{at: [1, 1], label: "3", fill: "#c0504d"}]
  - kind: grid
    at: [200, 40]
    columns: 4
    rows: 4
  - kind: slots
    at: [10, 150]
    slots: [{ja: 山札, en: Deck}, {ja: 捨て札, en: Discard}]
"""
SMALL_AID = """\
name: {ja: エイド, en: Aid}
size: poker
copies: =max_players
title: {ja: 手番, en: Your turn}
sections:
  - heading: {ja: 引く, en: Draw}
    text: {ja: 1枚引く。, en: Draw a card.}
"""
SMALL_TOKENS = """\
name: {ja: 得点トークン, en: Score tokens}
shape: round
size: 20
sides: 2
tokens:
  - {id: one, count: 5, value: 1}
  - {id: five, count: 3, value: 5}
"""
SMALL_COMPONENTS = """\
  - id: board
    name: {ja: ボード, en: Board}
    count: 1
    board: main
  - id: aids
    name: {ja: エイド, en: Aids}
    count: 4
    aid: turn
  - id: tokens
    name: {ja: トークン, en: Tokens}
    count: 8
    tokens: score
"""


@pytest.fixture
def small_printed(small_game):
    for folder, name, text in (
        ("boards", "main", SMALL_BOARD),
        ("aids", "turn", SMALL_AID),
        ("tokens", "score", SMALL_TOKENS),
    ):
        (small_game / folder).mkdir()
        (small_game / folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    with open(small_game / "game.yaml", "a", encoding="utf-8") as game_yaml:
        game_yaml.write("numbers: {goal: 20}\n")
    with open(small_game / "components.yaml", "a", encoding="utf-8") as components:
        components.write(SMALL_COMPONENTS)
    return small_game


def test_build_lists_boards_aids_and_tokens_in_build_json(small_printed, tmp_path, cli):
    out = tmp_path / "out"
    result = cli("build", small_printed, "--out", out, "-q", "--jobs", "1", "--board-paper", "a3")
    assert result.code == 0, result
    report = json.loads((out / "small" / "build.json").read_text())
    kinds = {}
    for entry in report["files"]:
        assert {"path", "kind", "lang", "paper", "pages"} <= set(entry)
        assert len(pikepdf.open(out / "small" / entry["path"]).pages) == entry["pages"]
        kinds.setdefault(entry["kind"], set()).add((entry["lang"], entry["paper"]))
    assert kinds["board"] == {(lang, paper) for lang in ("ja", "en") for paper in ("a4", "letter", "a3")}
    assert kinds["aid"] == {(lang, paper) for lang in ("ja", "en", "ja+en") for paper in ("a4", "letter")}
    assert kinds["tokens"] == {(lang, paper) for lang in ("ja", "en") for paper in ("a4", "letter")}
    tiled = next(e for e in report["files"] if e["kind"] == "board" and e["paper"] == "a4")
    assert tiled["tiles"] > 1


def test_each_builder_lists_only_the_file_kinds_and_pieces_it_declares(small_printed, tmp_path, monkeypatch):
    """What a build of some outputs only keeps of the previous build.json rests on Builder.reports: every
    entry a builder writes, and every text it measures, is of a kind (a piece) it declares, and no two builders
    declare the same."""
    from test_rules import SMALL_RULES

    (small_printed / "rules.yaml").write_text(SMALL_RULES, encoding="utf-8")
    seen = {}

    def recording(builder):
        def write(context):
            before = len(context.fits)
            files = builder.build(context)
            seen[builder.kind] = {entry["kind"] for entry in files} | {fit.piece for fit in context.fits[before:]}
            return files

        return OutputBuilder(builder.kind, write, builder.check, builder.reports, builder.files)

    builders = list(engine.BUILDERS)
    monkeypatch.setattr(engine, "BUILDERS", [recording(builder) for builder in builders])
    options = BuildOptions(out=tmp_path / "out", papers=("a4",), jobs=1, quiet=True)
    assert build(load_game(small_printed), options) == 0
    claimed = [name for builder in builders for name in builder.reports]
    assert len(claimed) == len(set(claimed))
    for builder in builders:
        assert seen[builder.kind] and seen[builder.kind] <= set(builder.reports), builder.kind
    assert {"cards", "card", "board", "aid", "tokens", "rules"} <= set().union(*seen.values())  # tokens measure none


def test_validate_counts_boards_aids_and_tokens(small_printed, cli):
    assert cli("validate", small_printed).code == 0
    components = small_printed / "components.yaml"
    edit(components, "    count: 8\n    tokens: score", "    count: 9\n    tokens: score")
    result = cli("validate", small_printed)
    assert result.code == 1
    assert f"components.yaml:{line_of(components, 'id: tokens')}" in result.out
    assert "the box holds 9 tokens but tokens 'score' prints 8 (1 fewer)" in result.out
    edit(components, "    aid: turn", "    aid: tunr")
    result = cli("validate", small_printed)
    assert "names aid 'tunr', which does not exist (did you mean 'turn'?)" in result.out
    assert "aid 'turn' is printed but no component in components.yaml names it" in result.out


def test_seed_token_sets_count_as_sets(greed):
    game, _, _ = greed
    money = game.printables.tokens["money"]
    assert money.counted == 1 and money.pieces == 100


# --- located input errors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "old, new, needle, message",
    [
        ("    start: 0\n", "    start: 7.5\n", "start: 7.5", "the starting space 7.5 is not on the track"),
        ("    to: =numbers.goal\n", "    to: =numbers.gaol\n", "numbers.gaol", "'gaol' is unknown"),
        (
            "  - kind: grid\n",
            "  - kind: gird\n",
            "kind: gird",
            "expected one of track, slots, grid, hexgrid, image, text",
        ),
        ("    columns: 4\n", "    columns: four\n", "columns: four", "expected a whole number"),
    ],
)
def test_board_mistakes_name_file_line_and_key(small_printed, cli, old, new, needle, message):
    board = small_printed / "boards" / "main.yaml"
    edit(board, old, new)
    result = cli("build", small_printed, "--out", small_printed / "out", "-q")
    assert result.code == 2
    assert "Traceback" not in result.err
    [line] = errors(result)
    assert f"main.yaml:{line_of(board, needle)}:" in line, line
    assert "elements[" in line and message in line


def test_tile_pages_carry_crop_marks_targets_and_neighbour_ticks(greed):
    _, _, out = greed
    pdf = pikepdf.open(out / "board-main-en-a4.pdf")
    layout = tile_layout(MAIN_BOARD, "a4", bleed=BOARD_BLEED_MM)
    window = layout.paper_window()
    for index, (col, row) in enumerate(layout.tiles(), 1):
        ops = [
            (list(map(float, operands)), str(op))
            for operands, op in pikepdf.parse_content_stream(pdf.pages[index])
            if str(op) in ("m", "l", "c", "RG")
        ]
        curves = sum(1 for _, op in ops if op == "c")
        shown = [
            p
            for p in target_points(layout)
            if layout.board_window(col, row).x <= p[0] <= layout.board_window(col, row).x + window.w
        ]
        # a target only where the next tile covers it: in the right-hand overlap, none on the last tile
        covered = [p for p in shown if p[0] >= layout.board_window(col, row).x + window.w - OVERLAP_MM]
        assert curves == 4 * len(covered) and bool(covered) == (col + 1 < layout.cols)
        starts = [(x / MM, y / MM) for (x, y), op in ((o[:2], op) for o, op in ops) if op == "m"]
        left_marks = [s for s in starts if abs(s[0] - window.x) < 0.01 and s[1] > window.y + window.h]
        assert left_marks, "a crop mark above the window's left edge"
        ticks = any(op == "RG" for _, op in ops)
        assert ticks == (col + 1 < layout.cols)


def digit_baselines(path, index):
    """The baseline (mm from the page's bottom) of every digit on a page, read from the PDF's text positions."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    document = pdfium.PdfDocument(str(path))
    text = document[index].get_textpage()
    found = []
    for char in range(text.count_chars()):
        if text.get_text_range(char, 1).isdigit():
            x, y = ctypes.c_double(), ctypes.c_double()
            pdfium_c.FPDFText_GetCharOrigin(text.raw, char, x, y)
            found.append((x.value / MM, y.value / MM))
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_highlighted_start_price_sits_on_its_neighbours_baseline(greed, paper):
    game, _, out = greed
    path = out / f"board-main-en-{paper}.pdf"
    coal = game.decks["goods"].cards[0].fields
    rows: dict[int, list[float]] = {}
    for index in range(1, len(pikepdf.open(path).pages)):  # the tiles at 100%
        for _, baseline in digit_baselines(path, index):
            rows.setdefault(round(baseline / 4), []).append(baseline)  # a track's spaces are 12 mm or more apart
    assert len(rows) >= len(game.decks["goods"].cards) + 2  # every price track and both status tracks
    for baselines in rows.values():
        assert max(baselines) - min(baselines) < 0.01, "a track's digits, its start price among them, share a baseline"
    assert coal["start_price"] in range(coal["price_min"], coal["price_max"] + 1)


def note_lines(path) -> list[str]:
    from pdflines import lines_of

    return [line.text for line in lines_of(path) if line.page == 0]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_assembly_note_names_each_tiles_edges_to_cut_from_the_tiling(greed, paper):
    _, _, out = greed
    layout = tile_layout(MAIN_BOARD, paper, bleed=BOARD_BLEED_MM)
    lines = note_lines(out / f"board-main-en-{paper}.pdf")
    for col, row in layout.tiles():
        name = layout.name(col, row)
        line = next(text for text in lines if text.lstrip("•").startswith(f"{name}:"))  # read without spaces
        window = layout.board_window(col, row)
        # the board's own edges, found from the window's place on the board
        outer = {
            "left": window.x <= 0,
            "right": window.x + window.w >= MAIN_BOARD[0] - 0.01,
            "bottom": window.y <= 0,
            "top": window.y + window.h >= MAIN_BOARD[1] - 0.01,
        }
        board_part = re.search(r"cut(.*?)edges?\(theboard'sedge\)", line)
        assert board_part and set(re.findall(r"left|right|top|bottom", board_part.group(1))) == {
            e for e, o in outer.items() if o
        }, line
        overlap = re.search(r"the(left|right|top|bottom)edge\(laidover(\w+)\)", line)
        if col == 0:
            assert overlap is None, line  # the first tile lies over nothing
        else:
            assert overlap and overlap.groups() == ("left", layout.name(col - 1, row)), line
    japanese = note_lines(out / f"board-main-ja-{paper}.pdf")
    assert any(
        text.lstrip("•").startswith("A1：") and "左・上・下の辺（ボードの端）を切る" in text for text in japanese
    )


def test_the_assembly_note_stays_above_the_page_map(greed):
    from pdflines import chars_of
    from generator.render.tiles import map_frame

    _, _, out = greed
    layout = tile_layout(MAIN_BOARD, "a4", bleed=BOARD_BLEED_MM)
    frame = map_frame(layout)
    note = [c for page, c in chars_of(out / "board-main-en-a4.pdf") if page == 0 and c.text in "A123:"]
    lowest_note_line = min(c.bottom for c in note if c.bottom / MM > frame.y + frame.h) / MM
    assert lowest_note_line > frame.y + frame.h + layout.bleed


def test_a_tile_inside_the_board_cuts_its_left_and_top_edges_over_two_neighbours():
    from generator.model.game import Game, Text
    from generator.render.printed import assembly_lines

    game = Game("", ROOT, Text({}), (1, 1), ["en", "ja"], "en", [], {})
    layout = tile_layout((560, 800), "a4")
    assert (layout.cols, layout.rows) == (3, 3)
    english = [line.unescape() for line in assembly_lines(game, layout, "en")]  # markup: board&#39;s
    lines = dict(zip([layout.name(c, r) for c, r in layout.tiles()], english))
    assert lines["A1"] == "A1: cut the left and top edges (the board's edge)"
    assert lines["B2"] == "B2: cut the left and top edges (laid over B1 and A2)"
    assert (
        lines["C3"]
        == "C3: cut the right and bottom edges (the board's edge) and the left and top edges (laid over C2 and B3)"
    )
    japanese = assembly_lines(game, layout, "ja")
    assert japanese[4] == "B2：左・上の辺（B1・A2に重ねる）を切る"
