"""Boards that explain themselves: what size fits one sheet and why a board is tiled, every key printed or
refused, fill and line colours, text that reads on its background, overflows that name the element."""

import json

import pytest

from generator.model.game import Board, Text
from generator.render.printed import board_sheets, one_sheet_sizes
from test_input_errors import edit, errors, line_of


def board_game(small_game, board: str, name: str = "main"):
    """The small game with this board (and a component naming it)."""
    (small_game / "boards").mkdir(exist_ok=True)
    (small_game / "boards" / f"{name}.yaml").write_text(board, encoding="utf-8")
    with open(small_game / "components.yaml", "a", encoding="utf-8") as components:
        components.write(
            f"  - id: board-{name}\n    name: {{ja: ボード, en: Board}}\n    count: 1\n    board: {name}\n"
        )
    return small_game


WIDE_BOARD = """\
name: {ja: ボード, en: Board}
size: [270, 190]
elements:
  - kind: text
    at: [10, 10]
    label: {ja: 市場, en: Market}
"""


def test_validate_says_what_fits_one_a4_and_one_letter_sheet_and_why_a_board_is_tiled(small_game, cli):
    game = board_game(small_game, WIDE_BOARD)
    result = cli("validate", game)
    assert result.code == 0, result  # tiling is not a problem
    notes = result.out.split("how boards print:")[1]
    assert (
        "boards/main.yaml: size: board 'main' (270 x 190 mm) is printed in 2 tiles on A4: one A4 sheet holds a board "
        "of at most 276 x 189 or 278 x 184 mm, its 3 mm bleed inside the printer's 5 mm margin; at 270 x 189 mm it "
        "would fit one sheet; one sheet of A3, A2 or Tabloid holds it whole (`--board-paper a3`)"
    ) in notes
    assert (
        "is printed in 2 tiles on Letter: one Letter sheet holds a board of at most 258.4 x 194.9 or 260.4 x " in notes
    )
    assert "on A3" not in notes  # it fits one A3 sheet: nothing to explain there
    report = json.loads(cli("validate", game, "--json").out)
    assert [note["message"].split(" is printed in ")[1][:12] for note in report["notes"]] == [
        "2 tiles on A",
        "2 tiles on L",
    ]


@pytest.mark.parametrize("paper", ["a4", "letter", "a3", "a2", "tabloid"])
def test_the_sizes_said_to_fit_one_sheet_are_those_the_build_prints_on_one_sheet(paper):
    """The largest sizes come from the geometry that tiles: each fits one sheet, and 0.2 mm more on either side
    does not (unless another of the sizes holds it)."""
    sizes = one_sheet_sizes(paper)
    assert len(sizes) >= 2

    def sheets(w, h):
        return board_sheets(Board("b", Text({"en": "B"}), None, (w, h), 1, "#fff", []), paper)

    for w, h in sizes:
        assert sheets(w, h) == 1, (w, h)
        for wider in ((w + 0.2, h), (w, h + 0.2)):
            if not any(o[0] >= wider[0] and o[1] >= wider[1] for o in sizes):
                assert sheets(*wider) > 1, wider


def test_board_paper_says_why_a_board_is_still_tiled_on_it(small_game, cli, tmp_path):
    game = board_game(small_game, WIDE_BOARD.replace("[270, 190]", "[290, 330]"))
    result = cli("build", game, "--out", tmp_path / "out", "--jobs", "1", "--board-paper", "a3", "--paper", "a4")
    assert result.code == 0, result
    said = [line for line in result.err.splitlines() if "board-main-en-a3.pdf" in line]
    assert said and (
        "board 'main' (290 x 330 mm) is printed in 2 tiles on A3: one A3 sheet holds a board of at most 278 x 394 mm"
        in said[0]
    ), result.err
    entry = next(
        e
        for e in json.loads((tmp_path / "out" / "small" / "build.json").read_text())["files"]
        if e["path"] == "board-main-en-a3.pdf"
    )
    assert entry["tiles"] == 2


# --- what a board prints: every key, its colours, its text ------------------------------------------------

DARK_BOARD = """\
name: {ja: ボード, en: Board}
size: [180, 120]
background: "#1b2a3a"
elements:
  - kind: grid
    at: [10, 10]
    columns: 3
    rows: 2
    cell: [20, 20]
    label: {ja: 市場, en: Market square}
    fill: "#e8c547"
    line: "#202020"
  - kind: text
    at: [100, 10]
    width: 70
    size: 24
    label: {ja: 金庫, en: VAULT}
  - kind: slots
    at: [100, 60]
    slot: [60, 20]
    fill: "#202060"
    slots: [{ja: 山札, en: DECK}]
  - kind: hexgrid
    at: [10, 70]
    columns: 3
    rows: 1
    size: 12
    label: {ja: 地図, en: Hex map}
"""
DPI = 127  # 0.2 mm a pixel


def built_board(game, out, cli, *more):
    result = cli("build", game, "--out", out, "--jobs", "1", "--paper", "a4", *more)
    assert result.code == 0, result
    return result, out / "small" / "board-main-en-a4.pdf"


def board_picture(path):
    """The first page rendered, and a function from board mm (from its top left) to that page's pixels."""
    import pikepdf
    import pypdfium2 as pdfium

    from conftest import page_size_mm, placements

    with pikepdf.open(path) as pdf:
        _name, x, y, _w, h, _turned = placements(pdf.pages[0])[0]  # the board's page, its 3 mm bleed around it
        paper_h = page_size_mm(pdf.pages[0])[1]
    document = pdfium.PdfDocument(str(path))
    picture = document[0].render(scale=DPI / 72).to_pil().convert("RGB")
    document.close()

    def pixel(bx, by):
        return round((x + 3 + bx) * DPI / 25.4), round((paper_h - (y + h) + 3 + by) * DPI / 25.4)

    return picture, pixel


def brightest(picture, pixel, box):
    """The lightest pixel's luminance (0-255) in a box of board mm (x, y, w, h)."""
    left, top = pixel(box[0], box[1])
    right, bottom = pixel(box[0] + box[2], box[1] + box[3])
    return max(picture.crop((left, top, right, bottom)).convert("L").get_flattened_data())


def test_a_grid_and_a_hex_grid_print_their_labels_and_a_fill_fills_the_cells(small_game, cli, tmp_path):
    from conftest import page_text

    _result, path = built_board(board_game(small_game, DARK_BOARD), tmp_path / "out", cli)
    text = page_text(path, 0)
    assert "Market square" in text and "Hex map" in text  # the labels accepted are printed
    picture, pixel = board_picture(path)
    r, g, b = picture.getpixel(pixel(20, 10 + 6 + 10))  # inside the first cell, below the label's band
    assert abs(r - 0xE8) < 8 and abs(g - 0xC5) < 8 and abs(b - 0x47) < 8, (r, g, b)  # the fill, not a tint of line
    assert picture.getpixel(pixel(10, 10 + 6 + 10))[0] < 60  # its lines in the line colour


def test_text_on_a_dark_background_or_fill_is_light_unless_its_colour_is_set(small_game, cli, tmp_path):
    game = board_game(small_game, DARK_BOARD)
    _result, path = built_board(game, tmp_path / "out", cli)
    picture, pixel = board_picture(path)
    assert brightest(picture, pixel, (100, 10, 70, 12)) > 230  # VAULT: light on the dark board
    assert brightest(picture, pixel, (102, 62, 40, 16)) > 230  # DECK: light on the slot's dark fill
    assert brightest(picture, pixel, (10, 10, 60, 5)) > 230  # the grid's label, on the board
    edit(
        game / "boards" / "main.yaml",
        "    label: {ja: 金庫, en: VAULT}\n",
        "    label: {ja: 金庫, en: VAULT}\n    text_colour: '#ff0000'\n",
    )
    _result, path = built_board(game, tmp_path / "again", cli)
    picture, pixel = board_picture(path)
    left, top = pixel(100, 10)
    right, bottom = pixel(170, 22)
    reds = [
        p
        for p in picture.crop((left, top, right, bottom)).get_flattened_data()
        if p[0] > 200 and p[1] < 60 and p[2] < 60
    ]
    assert reds and brightest(picture, pixel, (100, 10, 70, 12)) < 230  # the colour set: red, no white


def test_the_old_colour_key_still_draws_and_says_what_to_write(small_game, cli, tmp_path):
    game = board_game(small_game, DARK_BOARD.replace('    line: "#202020"\n', '    colour: "#202020"\n'))
    board = game / "boards" / "main.yaml"
    result = cli("validate", game)
    assert result.code == 1
    assert (
        f"boards/main.yaml:{line_of(board, 'colour: ')}: elements[0].colour: `colour` is the old name of `line` "
        '(write `line: "#202020"` instead)'
    ) in result.out
    result, path = built_board(game, tmp_path / "out", cli)
    assert "`colour` is the old name of `line`" in result.err  # a build says so too, and still prints
    picture, pixel = board_picture(path)
    assert picture.getpixel(pixel(10, 10 + 6 + 10))[0] < 60
    edit(board, '    colour: "#202020"\n', '    colour: "#202020"\n    line: "#202020"\n')
    result = cli("validate", game)
    assert result.code == 2 and "`colour` is the old name of `line`, which is also written" in result.err


@pytest.mark.parametrize(
    "old, new, needle, message",
    [
        (
            "    size: 12\n",
            "    size: 12\n    cells: [{at: [3, 0], label: X}]\n",
            "cells: [",
            "hex [3, 0] is not on the 3 x 1 grid",
        ),
        (
            "elements:\n",
            "elements:\n  - {kind: track, at: [10, 100], label: Score, label_width: 0, values: [1, 2]}\n",
            "kind: track",
            "a track with `label_width: 0` has no room for its `label:`",
        ),
        (
            "elements:\n",
            "elements:\n  - {kind: text, at: [10, 100], spacing: [0, 10], label: Again}\n",
            "spacing: [0, 10]",
            "`spacing:` is the offset between repeats, and the element is not repeated",
        ),
        (
            "elements:\n",
            "elements:\n  - {kind: text, at: [190, 10], label: Far}\n",
            "label: Far",
            "elements[0].at: [190, 10] is off the 180 x 120 mm board: the element would not be printed",
        ),
    ],
)
def test_a_key_that_would_print_nothing_is_refused(small_game, cli, old, new, needle, message):
    game = board_game(small_game, DARK_BOARD)
    board = game / "boards" / "main.yaml"
    edit(board, old, new)
    result = cli("validate", game)
    assert result.code == 2, result
    [line] = errors(result)
    assert f"main.yaml:{line_of(board, needle)}:" in line and message in line, line


def test_an_overflow_names_the_element_and_its_line(small_game, cli, tmp_path):
    game = board_game(
        small_game,
        DARK_BOARD.replace(
            "    slots: [{ja: 山札, en: DECK}]\n",
            "    slots:\n      - DECK\n      - {ja: 捨て札置き場の長い名前がここに入る,\n"
            "         en: The discard pile and every card the players set aside}\n",
        ).replace("    slot: [60, 20]\n", "    slot: [30, 8]\n"),
    )
    board = game / "boards" / "main.yaml"
    result, _path = built_board(game, tmp_path / "out", cli)
    warned = [line for line in result.err.splitlines() if "en: board 'main'" in line and "overflows" in line]
    assert warned, result.err
    assert f"main.yaml:{line_of(board, 'en: The discard pile')}:" in warned[0], warned
    assert "elements[2].slots[1]" in warned[0], warned
