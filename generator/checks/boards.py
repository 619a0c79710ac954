"""validate: how each board prints. A board larger than one sheet of a paper is printed in tiles; this says so
for each paper it tiles on (the home papers and the larger `--board-paper` ones), with the largest board one
sheet holds, from the same geometry the build tiles with (render/printed.py). Notes, not problems: tiling is
how large boards are printed, but the designer should not find it out from the files."""

from __future__ import annotations

from generator.errors import Problem
from generator.model.game import Game
from generator.render.paper import PAPERS
from generator.render.printed import board_sheets, why_tiled
from generator.render.tiles import ALL_PAPERS, BOARD_PAPERS
from generator.render.titles import paper_name


def board_notes(game: Game) -> list[Problem]:
    """One note per board and paper it is tiled on, when it is tiled on a home paper or a board paper."""
    boards = game.printables.boards.values() if game.printables else []
    notes = []
    for board in boards:
        whole = [paper for paper in BOARD_PAPERS if board_sheets(board, paper) == 1]
        for paper in ALL_PAPERS:
            why = why_tiled(board, paper)
            if why is None:
                continue
            if paper in PAPERS and whole:
                names = ", ".join(paper_name(p) for p in whole[:-1]) + (" or " if len(whole) > 1 else "")
                names += paper_name(whole[-1])
                why += f"; one sheet of {names} holds it whole (`--board-paper {whole[0]}`)"
            notes.append(Problem(board.file, None, why, "size"))
    return notes
