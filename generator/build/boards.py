"""Boards: one PDF per board, language and paper; copies imposed when the board fits, else tiles."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.build.builder import OutputBuilder
from generator.build.outputs import FileEntry, OutputFile
from generator.errors import InputError, Problem
from generator.paths import find_template
from generator.build.context import BuildContext
from generator.build.pieces import rendered_pages, save_pdf
from generator.model.game import Board, Text
from generator.render.boards import board_batches
from generator.checks.art import key_line
from generator.render.fit_report import PICTURE_KINDS, CardFit, find_text, names_picture
from generator.render.weasy.fit import FitBox
from generator.render.printed import board_tiles, fits_on, furniture_batch, single_sided, why_tiled
from generator.render.paper import MARGIN_MM
from generator.render.inksaver import prints_light
from generator.render.sheet_writer import SheetWriter, impose_deck
from generator.render.tiles import TileLayout, write_tiles
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
    """The findings of a board (or of the captions around its tiles), located in the board's file: its text out of
    place, and its pictures printed too coarse or stopping at the trim (the build says which are problems)."""
    found = []
    for fit in fits:
        if fit.kind in PICTURE_KINDS:
            found.append(picture_finding(board, lang, fit, source))
            continue
        if not fit.overflows:
            continue
        element = next((e for e in board.elements if fit.field.startswith(f"{e['written_at'][0]}.")), None)
        key, text = find_text(element or board.elements, lang, fit.text, "elements")
        file, line = finding_place(board, element, text, lang)
        found.append(
            CardFit.of(
                fit,
                lang,
                f"board-{board.id}",
                "front",
                [board.id],
                fit.field or key,
                source=source or fit.source,
                file=str(file),
                line=line,
                piece="board",
            )
        )
    return found


def picture_finding(board: Board, lang: str, fit: FitBox, source: str = "") -> CardFit:
    """A picture's finding located at what names it: an image element's `src:`, the board's `background_image:`,
    else the board's file (a picture its template placed, named by the template's line in `source`)."""
    key, line = "", None
    for element in board.elements:
        if element["kind"] == "image" and names_picture(fit.text, element["src"]):
            key, line = f"{element['written_at'][0]}.src", element["written_at"][1]
            break
    else:
        if board.background_image and names_picture(fit.text, board.background_image):
            key, line = "background_image", key_line(board.file, "background_image")
    found = CardFit.of(fit, lang, f"board-{board.id}", "front", [board.id], key, source=source or fit.source)
    found.file, found.line, found.piece = str(board.file), line, "board"
    return found


def finding_place(
    board: Board, element: dict[str, Any] | None, text: Text | None, lang: str
) -> tuple[Path, int | None]:
    """The file and line a finding points at: the text's own line in the board's file, else the element's (a
    text read from a deck, `=card.name`), else wherever the text is written."""
    if text is not None and text.file in (None, board.file) and text.line_of(lang):
        return board.file, text.line_of(lang)
    if element is not None:
        return board.file, element["written_at"][1]
    if text is not None:
        return text.file or board.file, text.line_of(lang)
    return board.file, None


def pages_drawn(
    context: BuildContext, pages: list[Any], wanted: int, what: str, templates: tuple[str, str]
) -> list[Any]:
    """The pages of a board's document (or of its tile captions) when there are as many as pnpgen lays out; else
    a located error naming the game's own templates that drew them."""
    if len(pages) == wanted:
        return pages
    own = [path for path in (find_template(context.game.dir, name) for name in templates) if path is not None]
    html, css = templates
    raise InputError(
        Problem(
            own[0] if own else None,
            None,
            f"{what} came out as {len(pages)} pages, not {wanted}",
            hint=f"pnpgen lays out {wanted} fixed-size page(s) here: keep every box of your {html} absolutely "
            f"positioned inside them with no page breaks, and no rule of your {css} (read after pnpgen's) moving them "
            f"out (position, size, break-*); or remove the file to use pnpgen's templates/base/{html}",
        )
    )


def board_entry(board: Board, path: str, lang: str, paper: str, pages: int, tiles: TileLayout | None) -> FileEntry:
    entry: FileEntry = {
        "path": path,
        "kind": "board",
        "board": board.id,
        "lang": lang,
        "paper": paper,
        "pages": pages,
        "copies": board.printed,
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
        per_board = [board_batches(game, board, lang) for board in boards]
        batches = [batch for batches in per_board for batch in batches]
        _open, rendered = rendered_pages(context, batches)
        pages = iter(rendered)
        for board, batches in zip(boards, per_board):
            faces = []
            for face, batch in zip(board.printed_faces, batches):
                of = f" for card '{face.card}'" if face.card else ""
                what = f"board '{board.id}'{of} ({lang})"
                (page,) = pages_drawn(context, next(pages), 1, what, ("board.html", "board.css"))
                faces.append(page)
                context.report(board_findings(context, board, lang, context.cache.face_fits(batch.key)))
            for paper in board_papers(context, board):
                files.append(write_board(context, board, faces, lang, paper))
    return files


def write_board(context: BuildContext, board: Board, faces: list[pikepdf.Page], lang: str, paper: str) -> FileEntry:
    """The board's faces (one, or one per card of its `for_each`), each in its copies: imposed, or in tiles."""
    writer = SheetWriter(prints_light(context.game))
    name = f"board-{board.id}-{lang}-{paper}.pdf"
    options = next((option for option in context.sheets if option.paper == paper), None)
    margin = options.margin if options else MARGIN_MM
    layout = board_tiles(board, paper, margin)
    if layout is None:
        assert options is not None, "only a home paper's board is imposed"
        copies: list[tuple[pikepdf.Page, pikepdf.Page | None]] = [
            (page, None) for page in faces for _ in range(board.copies)
        ]
        impose_deck(writer, board.size_mm, board.bleed_mm, copies, single_sided(options))
    else:
        fallbacks: dict[str, dict[str, Text]] = {}
        batch = furniture_batch(context.game, board, layout, lang, paper, fallbacks)
        context.note_rules(fallbacks)
        _open, (furniture,) = rendered_pages(context, [batch])
        pages = layout.count + (1 if layout.count > 1 else 0)  # a page map before the tiles of more than one
        what = f"the tile captions of board '{board.id}' ({lang}, {paper})"
        furniture = pages_drawn(context, furniture, pages, what, ("tile-captions.html", "tile-captions.css"))
        context.report(board_findings(context, board, lang, context.cache.face_fits(batch.key), "tile captions"))
        for page in faces:
            for _ in range(board.copies):
                write_tiles(writer, layout, page, furniture)
    title = file_title(context.game, "board", [lang], paper, {"name": board.name})
    save_pdf(context, writer, context.out_dir / name, title, lang)
    why = why_tiled(board, paper, margin)
    context.progress.wrote(context.game.id, name, len(writer.pdf.pages), why or "")
    return board_entry(board, name, lang, paper, len(writer.pdf.pages), layout)


BOARD_FILE = OutputFile(
    "board-<board>-<lang>-<paper>.pdf",
    "a board of boards/: its copies at 100% when it fits the paper, else in overlapping tiles after a page map; also "
    "on the `--board-paper` when it needs tiles on the home papers",
)
BUILDER = OutputBuilder("boards", build_boards, reports=("board",), files=(BOARD_FILE,))
