"""Boards: one PDF per board, language and paper; copies imposed when the board fits, else tiles."""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.build.builder import FileEntry, OutputBuilder, OutputFile
from generator.build.context import BuildContext
from generator.build.pieces import rendered_pages, save_pdf
from generator.model.game import Board
from generator.render.boards import BOARD_BLEED_MM, board_batch
from generator.render.fit_report import CardFit, find_text
from generator.render.weasy.fit import FitBox
from generator.render.printed import fits_on, furniture_batch, single_sided
from generator.render.paper import MARGIN_MM
from generator.render.inksaver import prints_light
from generator.render.sheet_writer import SheetWriter, impose_deck
from generator.render.tiles import TileLayout, tile_layout, write_tiles
from generator.render.titles import file_title

if TYPE_CHECKING:
    import pikepdf


def board_papers(context: BuildContext, board: Board) -> list[str]:
    """The home papers, and the larger --board-paper for a board that needs tiles on them."""
    extra = context.options.board_paper
    tiled = not all(fits_on(board, option.paper, option.margin) for option in context.sheets)
    return context.papers + ([extra] if extra and tiled else [])


def board_findings(
    context: BuildContext, board: Board, lang: str, fits: list[FitBox], source: str = ""
) -> list[CardFit]:
    """The text findings of a board (or of the captions around its tiles), located in the board's file."""
    found = []
    for fit in fits:
        if not fit.overflows:
            continue
        key, text = find_text(board.elements, lang, fit.text, "elements")
        found.append(
            CardFit.of(
                fit,
                lang,
                f"board-{board.id}",
                "front",
                [board.id],
                key,
                source=source or fit.source,
                file=str(text.file if text is not None and text.file else board.file),
                line=text.line_of(lang) if text is not None else None,
                piece="board",
            )
        )
    return found


def board_entry(board: Board, path: str, lang: str, paper: str, pages: int, tiles: TileLayout | None) -> FileEntry:
    entry: FileEntry = {
        "path": path,
        "kind": "board",
        "board": board.id,
        "lang": lang,
        "paper": paper,
        "pages": pages,
        "copies": board.copies,
        "size_mm": list(board.size_mm),
    }
    if tiles is not None:
        entry.update(
            tiles=tiles.count, grid=f"{tiles.cols}x{tiles.rows}", overlap_mm=tiles.overlap, paper_mm=list(tiles.paper)
        )
    return entry


def build_boards(context: BuildContext) -> list[FileEntry]:
    """One PDF per board, language and paper: imposed copies when the board fits, else tiles."""
    game = context.game
    boards = list(game.printables.boards.values()) if game.printables else []
    files = []
    for lang in context.langs:
        batches = [board_batch(game, board, lang) for board in boards]
        _open, faces = rendered_pages(context, batches)
        for board, batch in zip(boards, batches):
            context.report(board_findings(context, board, lang, context.cache.face_fits(batch.key)))
        for board, (page,) in zip(boards, faces):
            for paper in board_papers(context, board):
                files.append(write_board(context, board, page, lang, paper))
    return files


def write_board(context: BuildContext, board: Board, page: pikepdf.Page, lang: str, paper: str) -> FileEntry:
    writer = SheetWriter(prints_light(context.game))
    name = f"board-{board.id}-{lang}-{paper}.pdf"
    layout = None
    options = next((option for option in context.sheets if option.paper == paper), None)
    if options is not None and fits_on(board, paper, options.margin):
        impose_deck(writer, board.size_mm, BOARD_BLEED_MM, [(page, None)] * board.copies, single_sided(options))
    else:
        layout = tile_layout(
            board.size_mm, paper, margin=options.margin if options else MARGIN_MM, bleed=BOARD_BLEED_MM
        )
        batch = furniture_batch(context.game, board, layout, lang, paper)
        _open, (furniture,) = rendered_pages(context, [batch])
        context.report(board_findings(context, board, lang, context.cache.face_fits(batch.key), "tile captions"))
        for _ in range(board.copies):
            write_tiles(writer, layout, page, furniture)
    title = file_title(context.game, "board", [lang], paper, {"name": board.name})
    save_pdf(writer, context.out_dir / name, title, lang)
    context.progress.say(f"{context.game.id}: wrote {name} ({len(writer.pdf.pages)} pages)")
    return board_entry(board, name, lang, paper, len(writer.pdf.pages), layout)


BOARD_FILE = OutputFile(
    "board-<board>-<lang>-<paper>.pdf",
    "a board of boards/: its copies at 100% when it fits the paper, else in overlapping tiles after a page map; also "
    "on the `--board-paper` when it needs tiles on the home papers",
)
BUILDER = OutputBuilder("boards", build_boards, reports=("board",), files=(BOARD_FILE,))
