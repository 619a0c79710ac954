"""Sheets: copies of the rendered faces placed on paper by pikepdf, with our own crop marks.

Geometry is in millimetres with the origin at the paper's bottom-left corner (PDF convention).
A slot is the card's bleed box; marks are drawn outside the bleed so they are never under a card.
"""
from __future__ import annotations

from dataclasses import dataclass

import pikepdf

MM = 72.0 / 25.4
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # portrait, mm
MIN_MARGIN_MM = 1.0      # the grid keeps this much paper around it
MARK_OFFSET_MM = 1.0     # gap between the bleed edge and a crop mark
MARK_LENGTH_MM = 5.0
FOLD_GAP_MM = 2.0        # gutter-fold: space between a card's bleed and the fold line
DUPLEX_MODES = ("long", "short", "none")
LAYOUTS = ("duplex", "gutterfold")


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    def inset(self, d: float) -> "Rect":
        return Rect(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)


@dataclass(frozen=True)
class Grid:
    """Where the copies go on one sheet: columns x rows of bleed boxes, centred on the paper."""

    paper: tuple[float, float]
    cols: int
    rows: int
    cell: tuple[float, float]   # bleed box size
    bleed: float
    top: float                  # y of the grid's top edge

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def left(self) -> float:
        return (self.paper[0] - self.cols * self.cell[0]) / 2

    def slot(self, index: int) -> Rect:
        """Bleed box of slot index, filled row by row from the top left."""
        row, col = divmod(index, self.cols)
        return Rect(self.left + col * self.cell[0], self.top - (row + 1) * self.cell[1], *self.cell)

    def trim(self, index: int) -> Rect:
        return self.slot(index).inset(self.bleed)

    @property
    def landscape(self) -> bool:
        return self.paper[0] > self.paper[1]


def _fit(length: float, cell: float) -> int:
    return max(0, int((length - 2 * MIN_MARGIN_MM + 1e-6) // cell))


def duplex_grid(paper_name: str, card: tuple[float, float], bleed: float, copies: int | None = None) -> Grid:
    """As many cards as fit, on portrait or landscape paper: the way round that needs fewer pages for
    `copies` cards (or holds more cards a page), and on a tie the one leaving more paper around the
    block for crop marks and the printer's margin (portrait when that ties too)."""
    cell = (card[0] + 2 * bleed, card[1] + 2 * bleed)
    grids = []
    for paper in _orientations(paper_name):
        cols, rows = _fit(paper[0], cell[0]), _fit(paper[1], cell[1])
        grids.append(Grid(paper, cols, rows, cell, bleed, (paper[1] + rows * cell[1]) / 2))
    fitting = [grid for grid in grids if grid.per_page] or grids
    best = min(fitting, key=lambda grid: (_pages(grid, copies), -grid.per_page if copies is None else 0,
                                          -_margin(grid)))
    if best.per_page == 0:
        raise ValueError(f"a {card[0]}x{card[1]} mm card does not fit on {paper_name}")
    return best


def _pages(grid: Grid, copies: int | None) -> int:
    return -(-copies // grid.per_page) if copies else 0


def _margin(grid: Grid) -> float:
    """The narrowest strip of paper left around a full block."""
    return min(grid.paper[0] - grid.cols * grid.cell[0], grid.paper[1] - grid.rows * grid.cell[1]) / 2


def gutterfold_grid(paper_name: str, card: tuple[float, float], bleed: float) -> Grid:
    """Fronts in the upper half, as many rows as fit above the fold; backs mirror them below."""
    cell = (card[0] + 2 * bleed, card[1] + 2 * bleed)
    best = None
    for paper in _orientations(paper_name):
        half = paper[1] / 2 - FOLD_GAP_MM
        cols = _fit(paper[0], cell[0])
        rows = max(0, int((half - MIN_MARGIN_MM + 1e-6) // cell[1]))
        if best is None or cols * rows > best.per_page:
            best = Grid(paper, cols, rows, cell, bleed, paper[1] / 2 + FOLD_GAP_MM + rows * cell[1])
    if best.per_page == 0:
        raise ValueError(f"a {card[0]}x{card[1]} mm card does not fit half of {paper_name} for a gutter fold")
    return best


def _orientations(paper_name: str):
    w, h = PAPERS[paper_name]
    return [(w, h), (h, w)]


def back_slot(grid: Grid, front: Rect, duplex: str) -> Rect:
    """Where the back of a card goes so that it prints exactly behind the front.

    The sheet turns over about its long edge or its short edge: turning about a vertical axis
    mirrors x (reverses the columns), about a horizontal axis mirrors y (reverses the rows).
    """
    pw, ph = grid.paper
    portrait = ph >= pw
    mirror_x = (duplex == "long") == portrait
    if mirror_x:
        return Rect(pw - front.x - front.w, front.y, front.w, front.h)
    return Rect(front.x, ph - front.y - front.h, front.w, front.h)


def fold_slot(grid: Grid, front: Rect) -> Rect:
    """Gutter fold: the back sits below the fold line, mirrored across it (and drawn upside down)."""
    fold = grid.paper[1] / 2
    return Rect(front.x, 2 * fold - front.y - front.h, front.w, front.h)


# --- drawing ---------------------------------------------------------------------------------------

def _f(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")


def place(name: str, bbox, at: Rect, rotate: bool = False, clip: Rect | None = None) -> str:
    """Content stream that draws form XObject `name` so its bbox fills `at` (optionally turned 180°).

    With `clip`, only the part inside that rectangle of the paper is drawn (a tile of a board).
    Where `at` is larger or smaller than the bbox, the form is scaled to fill it (a page map)."""
    x0, y0, x1, y1 = (float(v) for v in bbox)
    if clip is not None:
        box = f"{_f(clip.x * MM)} {_f(clip.y * MM)} {_f(clip.w * MM)} {_f(clip.h * MM)} re W n "
        return f"q {box}{place(name, bbox, at, rotate).strip()} Q\n"
    scale = at.w * MM / (x1 - x0)
    if abs(scale - 1) > 1e-3:
        return (f"q {_f(scale)} 0 0 {_f(scale)} {_f(at.x * MM - x0 * scale)} {_f(at.y * MM - y0 * scale)} cm "
                f"{name} Do Q\n")
    if rotate:
        return (f"q -1 0 0 -1 {_f(at.x * MM + x1)} {_f(at.y * MM + y1)} cm {name} Do Q\n")
    return f"q 1 0 0 1 {_f(at.x * MM - x0)} {_f(at.y * MM - y0)} cm {name} Do Q\n"


def _line(x0, y0, x1, y1) -> str:
    return f"{_f(x0 * MM)} {_f(y0 * MM)} m {_f(x1 * MM)} {_f(y1 * MM)} l S\n"


def _edges(grid: Grid, used: int):
    slots = [grid.slot(i) for i in range(used)]
    trims = [grid.trim(i) for i in range(used)]
    block = Rect(min(s.x for s in slots), min(s.y for s in slots), 0, 0)
    block = Rect(block.x, block.y, max(s.x + s.w for s in slots) - block.x, max(s.y + s.h for s in slots) - block.y)
    xs = sorted({round(t.x, 4) for t in trims} | {round(t.x + t.w, 4) for t in trims})
    ys = sorted({round(t.y, 4) for t in trims} | {round(t.y + t.h, 4) for t in trims})
    return block, xs, ys


def crop_marks(grid: Grid, used: int, area: Rect | None = None) -> str:
    """Marks on the trim lines, outside the bleed of the whole block, as long as `area` allows."""
    if used == 0:
        return ""
    area = area or Rect(0, 0, *grid.paper)
    block, xs, ys = _edges(grid, used)
    out = ["q 0 G 0.25 w 0 J\n"]
    ends = ((block.y + block.h + MARK_OFFSET_MM, area.y + area.h, 1), (block.y - MARK_OFFSET_MM, area.y, -1))
    for start, edge, sign in ends:
        end = start + sign * min(MARK_LENGTH_MM, max(0.0, sign * (edge - start)))
        if abs(end - start) >= 0.5:
            out += [_line(x, start, x, end) for x in xs]
    ends = ((block.x + block.w + MARK_OFFSET_MM, area.x + area.w, 1), (block.x - MARK_OFFSET_MM, area.x, -1))
    for start, edge, sign in ends:
        end = start + sign * min(MARK_LENGTH_MM, max(0.0, sign * (edge - start)))
        if abs(end - start) >= 0.5:
            out += [_line(start, y, end, y) for y in ys]
    out.append("Q\n")
    return "".join(out)


def cut_lines(grid: Grid, used: int) -> str:
    """Thin grey dashed lines along every trim edge, across the block (for cutting with scissors)."""
    if used == 0:
        return ""
    block, xs, ys = _edges(grid, used)
    out = ["q 0.6 G 0.3 w [2 2] 0 d\n"]
    out += [_line(x, block.y, x, block.y + block.h) for x in xs]
    out += [_line(block.x, y, block.x + block.w, y) for y in ys]
    out.append("Q\n")
    return "".join(out)


def fold_line(grid: Grid) -> str:
    fold = grid.paper[1] / 2
    return "q 0.4 G 0.4 w [4 3] 0 d\n" + _line(0, fold, grid.paper[0], fold) + "Q\n"


class SheetWriter:
    """Builds a sheet PDF: each distinct face becomes one form XObject, placed as often as needed."""

    def __init__(self):
        self.pdf = pikepdf.new()
        self._forms: dict[int, tuple[pikepdf.Object, list]] = {}

    def form(self, page: pikepdf.Page) -> tuple[pikepdf.Object, list]:
        key = id(page)
        if key not in self._forms:
            # as_form_xobject keeps only the TrimBox: widen it to the bleed first so the bleed survives
            page.obj.TrimBox = page.obj.get("/BleedBox", page.mediabox)
            form = self.pdf.copy_foreign(page.as_form_xobject())
            self._forms[key] = (form, [float(v) for v in form.BBox])
        return self._forms[key]

    def add_page(self, paper: tuple[float, float], placements: list[tuple], overlay: str = "") -> None:
        """Placements are (page, rect, rotated) or (page, rect, rotated, clip rect)."""
        resources = pikepdf.Dictionary()
        content = []
        names: dict[int, str] = {}
        for page, at, rotate, *clip in placements:
            form, bbox = self.form(page)
            name = names.setdefault(id(form), f"/F{len(names)}")
            resources[name] = form
            content.append(place(name, bbox, at, rotate, clip[0] if clip else None))
        content.append(overlay)
        sheet = pikepdf.Dictionary(
            Type=pikepdf.Name.Page,
            MediaBox=pikepdf.Array([0, 0, paper[0] * MM, paper[1] * MM]),
            Resources=pikepdf.Dictionary(XObject=resources),
            Contents=self.pdf.make_stream("".join(content).encode("ascii")),
        )
        self.pdf.pages.append(pikepdf.Page(sheet))


@dataclass
class SheetOptions:
    paper: str = "a4"
    duplex: str = "long"        # long | short | none
    layout: str = "duplex"      # duplex | gutterfold
    marks: bool = True
    cuts: bool = False


def impose_deck(writer: SheetWriter, card: tuple[float, float], bleed: float,
                copies: list[tuple[pikepdf.Page, pikepdf.Page | None]], options: SheetOptions) -> int:
    """Place every copy of a deck (front page, back page or None) on sheets; return pages added."""
    before = len(writer.pdf.pages)
    if options.layout == "gutterfold":
        grid = gutterfold_grid(options.paper, card, bleed)
    else:
        grid = duplex_grid(options.paper, card, bleed, len(copies))
    for start in range(0, len(copies), grid.per_page):
        chunk = copies[start:start + grid.per_page]
        fronts = [(front, grid.slot(i), False) for i, (front, _) in enumerate(chunk)]
        overlay = cut_lines(grid, len(chunk)) if options.cuts else ""
        if options.layout == "gutterfold":
            backs = [(back, fold_slot(grid, grid.slot(i)), True) for i, (_, back) in enumerate(chunk) if back]
            fold = grid.paper[1] / 2
            upper = Rect(0, fold, grid.paper[0], grid.paper[1] - fold)
            overlay += crop_marks(grid, len(chunk), upper) if options.marks else ""
            writer.add_page(grid.paper, fronts + backs, overlay + fold_line(grid))
            continue
        overlay += crop_marks(grid, len(chunk)) if options.marks else ""
        writer.add_page(grid.paper, fronts, overlay)
        backs = [(back, back_slot(grid, grid.slot(i), options.duplex), False)
                 for i, (_, back) in enumerate(chunk) if back]
        if options.duplex != "none" and backs:
            writer.add_page(grid.paper, backs)
    return len(writer.pdf.pages) - before
