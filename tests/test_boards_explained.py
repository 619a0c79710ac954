"""Boards that explain themselves: what size fits one sheet and why a board is tiled, every key printed or
refused, fill and line colours, text that reads on its background, overflows that name the element."""

import json

import pytest

from generator.model.game import Board, Text
from generator.render.printed import board_sheets, one_sheet_sizes


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
        "of at most 276 x 189 or 279 x 184 mm, its 3 mm bleed inside the printer's 5 mm margin; at 270 x 189 mm it "
        "would fit one sheet; one sheet of A3, A2 or Tabloid holds it whole (`--board-paper a3`)"
    ) in notes
    assert (
        "is printed in 2 tiles on Letter: one Letter sheet holds a board of at most 258.4 x 194.9 or 261.4 x " in notes
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
        "board 'main' (290 x 330 mm) is printed in 2 tiles on A3: one A3 sheet holds a board of at most 279 x 394 mm"
        in said[0]
    ), result.err
    entry = next(
        e
        for e in json.loads((tmp_path / "out" / "small" / "build.json").read_text())["files"]
        if e["path"] == "board-main-en-a3.pdf"
    )
    assert entry["tiles"] == 2
