"""A board larger than the paper, split into tiles printed at 100%: overlaps, alignment marks, a page map.

Tiles are named like a map: rows A, B, ... from the top, columns 1, 2, ... from the left (A1, A2, B1...).
Every tile shows an equal window of the board; neighbouring windows share an overlap strip of
OVERLAP_MM. Each later tile (right or below) is trimmed at its window's left and top edges and laid over
the earlier ones, its edges on the red ticks in their margins. Registration targets are drawn at fixed
board positions inside the overlap strips, only on the tiles that a later tile covers there: a target
left showing means the tile on top is short of its place, and none shows on the assembled board. Each tile shows
its window's bleed on every side (the art goes on past a seam as past the board's edge). Geometry is
in mm; board coordinates start at the board's bottom-left corner (PDF convention) like the paper's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.render.paper import MARGIN_MM, MM, PAPERS, Rect, pdf_number, printable
from generator.render.sheet_marks import block_marks, circle, pdf_line, scale_bar
from generator.render.sheet_plan import Grid
from generator.render.sheet_writer import SheetWriter

OVERLAP_MM = 10.0
BAND_MM = 5.0  # between the printer's margin and the window: marks, caption, scale bar
SIDE_ROOM_MM = 1.5  # left and right of the window's bleed: 1 mm crop marks and overlap ticks (a 400 mm board fits A3)
TILE_MARGIN_MM = MARGIN_MM + SIDE_ROOM_MM
TARGET_RADIUS_MM = 2.5
BOARD_PAPERS = {"a3": (297.0, 420.0), "a2": (420.0, 594.0), "tabloid": (279.4, 431.8)}
ALL_PAPERS = {**PAPERS, **BOARD_PAPERS}


@dataclass(frozen=True)
class TileLayout:
    paper: tuple[float, float]  # oriented as printed
    board: tuple[float, float]
    cols: int
    rows: int
    overlap: float
    margin: float = MARGIN_MM  # the printer's margin: nothing is drawn nearer the paper's edge
    bleed: float = 0.0  # the board page's bleed: shown beyond the windows at the board's own edges

    @property
    def count(self) -> int:
        return self.cols * self.rows

    @property
    def window(self) -> tuple[float, float]:
        """The board area each tile shows: equal windows that overlap exactly `overlap`."""
        w, h = self.board
        return ((w + (self.cols - 1) * self.overlap) / self.cols, (h + (self.rows - 1) * self.overlap) / self.rows)

    @property
    def step(self) -> tuple[float, float]:
        return (self.window[0] - self.overlap, self.window[1] - self.overlap)

    def tiles(self):
        """(column, row) of every tile, row by row from the top left."""
        return [(col, row) for row in range(self.rows) for col in range(self.cols)]

    def name(self, col: int, row: int) -> str:
        return f"{row_letters(row)}{col + 1}"

    def board_window(self, col: int, row: int) -> Rect:
        """The part of the board tile (col, row) shows, in board coordinates."""
        w, h = self.window
        sx, sy = self.step
        top = self.board[1] - row * sy
        return Rect(col * sx, top - h, w, h)

    @property
    def frame(self) -> Grid:
        """The window's place on the paper, centred, as a one-slot grid (for crop marks)."""
        w, h = self.window
        return Grid(self.paper, 1, 1, (w, h), 0.0, (self.paper[1] + h) / 2)

    def paper_window(self) -> Rect:
        return self.frame.slot(0)

    def board_origin(self, col: int, row: int) -> Rect:
        """Where the whole board would lie on the paper of tile (col, row): it is clipped to the window."""
        window, on_paper = self.board_window(col, row), self.paper_window()
        return Rect(on_paper.x - window.x, on_paper.y - window.y, *self.board)

    def shown(self, col: int, row: int) -> Rect:
        """The window on the paper with the bleed on every side: the board's own bleed at its edges, the
        neighbouring tile's art at a seam, so that a cut a little outside the crop marks leaves no white."""
        return self.paper_window().inset(-self.bleed)

    def to_paper(self, col: int, row: int, x: float, y: float) -> tuple[float, float]:
        origin = self.board_origin(col, row)
        return (origin.x + x, origin.y + y)


EDGES = ("left", "right", "top", "bottom")


def tile_edges(layout: TileLayout, col: int, row: int) -> dict[str, str]:
    """What each edge of tile (col, row) is, as the assembly cuts it: `outer` (the board's own edge, cut at the crop
    marks), `overlap` (cut at the crop marks and laid over the earlier tile beyond it) or `under` (left whole: the
    later tile beyond it covers it)."""
    inner = {"left": col > 0, "top": row > 0, "right": col + 1 < layout.cols, "bottom": row + 1 < layout.rows}
    laid_over = {"left", "top"}  # a later tile (right or below) lies over the earlier one
    return {edge: "outer" if not inner[edge] else "overlap" if edge in laid_over else "under" for edge in EDGES}


def neighbour(layout: TileLayout, col: int, row: int, edge: str) -> str:
    """The name of the tile beyond an edge of tile (col, row)."""
    dc, dr = {"left": (-1, 0), "right": (1, 0), "top": (0, -1), "bottom": (0, 1)}[edge]
    return layout.name(col + dc, row + dr)


def row_letters(row: int) -> str:
    letters = ""
    row += 1
    while row:
        row, rest = divmod(row - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _count(length: float, window: float, overlap: float) -> int:
    if length <= window + 1e-6:
        return 1
    return math.ceil((length - overlap) / (window - overlap) - 1e-9)


def tile_window(paper: tuple[float, float], margin: float = MARGIN_MM, bleed: float = 0.0) -> tuple[float, float]:
    """The most of a board one tile of the paper (as oriented) shows: the window with its bleed BAND_MM inside
    the printer's margin above and below, SIDE_ROOM_MM at the sides."""
    side, edge = margin + bleed + SIDE_ROOM_MM, margin + BAND_MM + bleed
    return (paper[0] - 2 * side, paper[1] - 2 * edge)


def tile_layout(
    board: tuple[float, float],
    paper_name: str,
    overlap: float = OVERLAP_MM,
    margin: float = MARGIN_MM,
    bleed: float = 0.0,
) -> TileLayout:
    """The fewest tiles for the board on this paper, portrait or landscape (portrait on a tie), each
    window (with its bleed) BAND_MM inside the printer's margin above and below, SIDE_ROOM_MM at the sides."""
    w, h = ALL_PAPERS[paper_name]
    layouts = []
    for paper in ((w, h), (h, w)):
        window = tile_window(paper, margin, bleed)
        cols, rows = _count(board[0], window[0], overlap), _count(board[1], window[1], overlap)
        layouts.append(TileLayout(paper, board, cols, rows, overlap, margin, bleed))
    return min(layouts, key=lambda layout: layout.count)  # the first, portrait, on a tie


# --- marks ---------------------------------------------------------------------------------------


def target_points(layout: TileLayout) -> list[tuple[float, float]]:
    """Registration targets in board coordinates: in every overlap strip, between the crossings."""
    h = layout.board[1]
    sx, sy = layout.step
    ww, wh = layout.window
    half = layout.overlap / 2
    xs_strip = [(c + 1) * sx + half for c in range(layout.cols - 1)]  # vertical strips' centres
    ys_strip = [h - (r + 1) * sy - half for r in range(layout.rows - 1)]
    rows_mid = [h - r * sy - wh / 2 for r in range(layout.rows)]
    cols_mid = [c * sx + ww / 2 for c in range(layout.cols)]
    points = [(x, y) for x in xs_strip for y in rows_mid] + [(x, y) for y in ys_strip for x in cols_mid]
    points += [(x, y) for x in xs_strip for y in ys_strip]
    return points


def covered_targets(layout: TileLayout, col: int, row: int) -> list[tuple[float, float]]:
    """The targets tile (col, row) shows that a later tile (in reading order) covers after assembly."""

    def shows(c: int, r: int, x: float, y: float) -> bool:
        w = layout.board_window(c, r)
        return w.x <= x <= w.x + w.w and w.y <= y <= w.y + w.h

    later = [(c, r) for c, r in layout.tiles() if (r, c) > (row, col)]
    return [
        (x, y) for x, y in target_points(layout) if shows(col, row, x, y) and any(shows(c, r, x, y) for c, r in later)
    ]


def target(x: float, y: float) -> str:
    """A thin circle with a cross through it, centred on (x, y) mm."""
    r = TARGET_RADIUS_MM
    return circle(x, y, r) + pdf_line(x - 1.6 * r, y, x + 1.6 * r, y) + pdf_line(x, y - 1.6 * r, x, y + 1.6 * r)


def tile_marks(layout: TileLayout, col: int, row: int) -> str:
    """Crop marks at the window's edges, overlap ticks in the margin, and the targets this tile shows."""
    out = [block_marks([layout.shown(col, row)], [layout.paper_window()], printable(layout.paper, layout.margin))]
    out.append("q 0 G 0.25 w\n")
    for bx, by in covered_targets(layout, col, row):
        out.append(target(*layout.to_paper(col, row, bx, by)))
    out.append("Q\n")
    out.append(overlap_ticks(layout, col, row))
    return "".join(out)


def overlap_ticks(layout: TileLayout, col: int, row: int) -> str:
    """Red ticks in the margin where a neighbour's window begins: its edge goes on this line."""
    on_paper = layout.paper_window()
    sx, sy = layout.step
    bottom, top = on_paper.y, on_paper.y + on_paper.h
    left, right = on_paper.x, on_paper.x + on_paper.w
    start = layout.bleed + 0.5  # outside the window's bleed, where the crop marks start
    reach = start + min(5.0, left - layout.margin - start)  # up to the printer's margin
    lines = []
    if col + 1 < layout.cols:
        x = left + sx
        lines += [pdf_line(x, top + start, x, top + reach), pdf_line(x, bottom - start, x, bottom - reach)]
    if row + 1 < layout.rows:
        y = top - sy
        lines += [pdf_line(left - start, y, left - reach, y), pdf_line(right + start, y, right + reach, y)]
    return "q 0.8 0 0 RG 0.5 w\n" + "".join(lines) + "Q\n" if lines else ""


def mini_map_cell(layout: TileLayout) -> float:
    """The mini map fits the band above the window."""
    return min(3.0, (BAND_MM - 1.0) / layout.rows)


def mini_map(layout: TileLayout, col: int, row: int, at: tuple[float, float], cell: float = 3.0) -> str:
    """A small grid of the tiles with this one filled, its top-left corner at `at` (mm)."""
    out = ["q 0 G 0.2 w\n"]
    for c, r in layout.tiles():
        x, y = at[0] + c * cell, at[1] - (r + 1) * cell
        fill = "0.2 g" if (c, r) == (col, row) else "1 g"
        out.append(
            f"{fill} {pdf_number(x * MM)} {pdf_number(y * MM)} {pdf_number(cell * MM)} {pdf_number(cell * MM)} re B\n"
        )
    out.append("Q\n")
    return "".join(out)


def scale_bar_at(layout: TileLayout) -> tuple[float, float]:
    """Left end of the 50 mm bar: in the band below the window, clear of the crop mark at its corner."""
    return (layout.paper_window().x + 3, layout.margin + BAND_MM / 2)


# --- the page map -------------------------------------------------------------------------------

MAP_TOP_MM = 40.0  # room above the map for the title and instructions
CUT_LINE_MM = 4.5  # and for each tile's line of what to cut (a 9 pt line)


def map_frame(layout: TileLayout) -> Rect:
    """Where the whole board is drawn, scaled down, on the page-map page."""
    pw, ph = layout.paper
    edge = layout.margin + BAND_MM
    room_w, room_h = pw - 2 * edge, ph - MAP_TOP_MM - CUT_LINE_MM * layout.count - 2 * edge
    scale = min(room_w / layout.board[0], room_h / layout.board[1])
    w, h = layout.board[0] * scale, layout.board[1] * scale
    return Rect((pw - w) / 2, edge + (room_h - h) / 2, w, h)


def map_outlines(layout: TileLayout) -> str:
    """Each tile's window outlined on the scaled board of the page map."""
    frame = map_frame(layout)
    scale = frame.w / layout.board[0]
    out = ["q 0.8 0 0 RG 0.6 w\n"]
    for col, row in layout.tiles():
        window = layout.board_window(col, row)
        x, y = frame.x + window.x * scale, frame.y + window.y * scale
        out.append(
            f"{pdf_number(x * MM)} {pdf_number(y * MM)} "
            f"{pdf_number(window.w * scale * MM)} {pdf_number(window.h * scale * MM)} re S\n"
        )
    out.append("Q\n")
    return "".join(out)


def map_label_positions(layout: TileLayout) -> dict[str, tuple[float, float]]:
    """Centre of each tile's own area on the page map, in mm from the paper's top-left (for HTML)."""
    frame = map_frame(layout)
    scale = frame.w / layout.board[0]
    out = {}
    for col, row in layout.tiles():
        window = layout.board_window(col, row)
        cx = frame.x + (window.x + window.w / 2) * scale
        cy = frame.y + (window.y + window.h / 2) * scale
        out[layout.name(col, row)] = (cx, layout.paper[1] - cy)
    return out


def write_tiles(writer: SheetWriter, layout: TileLayout, board_page, furniture: list) -> int:
    """The page map (when there is more than one tile), then every tile; `furniture` holds one
    paper-size page of texts for each of those pages, in the same order. Returns pages added."""
    before = len(writer.pdf.pages)
    pages = iter(furniture)
    if layout.count > 1:
        frame = map_frame(layout)
        scale = frame.w / layout.board[0]
        writer.add_page(
            layout.paper,
            [(board_page, frame.inset(-layout.bleed * scale), False)],
            map_outlines(layout),
            furniture=[next(pages)],
        )
    window = layout.paper_window()
    for col, row in layout.tiles():
        overlay = tile_marks(layout, col, row)
        if layout.count > 1:
            cell = mini_map_cell(layout)
            top = layout.paper[1] - layout.margin - 0.5
            overlay += mini_map(layout, col, row, (window.x + window.w - layout.cols * cell - 8, top), cell)
        overlay += scale_bar(*scale_bar_at(layout))
        shown = layout.shown(col, row)
        writer.add_page(
            layout.paper,
            [(board_page, layout.board_origin(col, row).inset(-layout.bleed), False, shown)],
            overlay,
            (window, shown),
            [next(pages)],
        )
    return len(writer.pdf.pages) - before
