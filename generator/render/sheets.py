"""Sheets: copies of the rendered faces placed on paper by pikepdf, with our own crop marks.

Geometry is in millimetres with the origin at the paper's bottom-left corner (PDF convention).
A slot is the card's bleed box; marks are drawn outside the bleed so they are never under a card.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

import pikepdf

MM = 72.0 / 25.4
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # portrait, mm
MARGIN_MM = 5.0  # home printers leave the paper's outer edge blank: nothing is placed there
MARK_OFFSET_MM = 0.5  # gap between the bleed edge and a crop mark
MARK_LENGTH_MM = 5.0
MIN_MARK_MM = 2.0  # a block leaves at least this much room for its marks on every side
MARK_ROOM_MM = MARK_OFFSET_MM + MIN_MARK_MM
LABEL_BAND_MM = 4.5  # above and below the cards: the sheet label, the 100% note and the scale bar
FOLD_GAP_MM = 2.0  # gutter-fold: space between a card's bleed and the fold line
DUPLEX_MODES = ("long", "short", "none")
LAYOUTS = ("duplex", "gutterfold")
SHEET_MODES = ("shared", "per-deck")


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    def inset(self, d: float) -> Rect:
        return Rect(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    @property
    def top(self) -> float:
        return self.y + self.h

    @property
    def right(self) -> float:
        return self.x + self.w


def printable(paper: tuple[float, float], margin: float) -> Rect:
    """The part of the paper a home printer prints: everything pnpgen draws stays inside it."""
    return Rect(margin, margin, paper[0] - 2 * margin, paper[1] - 2 * margin)


def card_area(paper: tuple[float, float], margin: float, labels: bool) -> Rect:
    """Where blocks of cards and their marks go: the printable part less the label bands."""
    band = LABEL_BAND_MM if labels else 0.0
    area = printable(paper, margin)
    return Rect(area.x, area.y + band, area.w, area.h - 2 * band)


@dataclass(frozen=True)
class Grid:
    """Where the copies go on one sheet: columns x rows of bleed boxes, centred on the paper."""

    paper: tuple[float, float]
    cols: int
    rows: int
    cell: tuple[float, float]  # bleed box size
    bleed: float
    top: float  # y of the grid's top edge

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


@dataclass(frozen=True)
class Block:
    """Copies of one card size on a sheet, `cols` across, filled row by row from the top left.

    With full bleed every copy keeps its own bleed and the copies sit side by side; a gang block puts
    the trim boxes edge to edge (neighbours share a cut line) with bleed only around the block.
    """

    card: tuple[float, float]
    bleed: float
    cols: int
    count: int
    gang: bool
    x: float = 0.0  # left edge of the block's bleed
    top: float = 0.0  # top edge of the block's bleed

    @property
    def rows(self) -> int:
        return -(-self.count // self.cols)

    @property
    def used_cols(self) -> int:
        return min(self.cols, self.count)

    @property
    def pitch(self) -> tuple[float, float]:
        extra = 0.0 if self.gang else 2 * self.bleed
        return (self.card[0] + extra, self.card[1] + extra)

    @property
    def size(self) -> tuple[float, float]:
        """The bleed box of the whole block."""
        extra = 2 * self.bleed if self.gang else 0.0
        return (self.used_cols * self.pitch[0] + extra, self.rows * self.pitch[1] + extra)

    def outline(self) -> Rect:
        w, h = self.size
        return Rect(self.x, self.top - h, w, h)

    def trim(self, index: int) -> Rect:
        row, col = divmod(index, self.cols)
        inner = self.bleed  # gang: the block's bleed; full bleed: each copy's own
        left = self.x + inner + col * self.pitch[0]
        top = self.top - inner - row * self.pitch[1]
        return Rect(left, top - self.card[1], *self.card)

    def slot(self, index: int) -> Rect:
        """Where the copy's face (with its bleed) is placed."""
        return self.trim(index).inset(-self.bleed)

    def clip(self, index: int) -> Rect | None:
        """What of the copy's bleed box is shown: in a gang block, only the bleed on the block's outside."""
        if not self.gang:
            return None
        row, col = divmod(index, self.cols)
        trim, b = self.trim(index), self.bleed
        left = b if col == 0 else 0.0
        right = b if col == self.cols - 1 or index + 1 == self.count else 0.0
        above = b if row == 0 else 0.0
        below = b if index + self.cols >= self.count else 0.0
        return Rect(trim.x - left, trim.y - below, trim.w + left + right, trim.h + above + below)

    def moved(self, x: float, top: float) -> Block:
        return Block(self.card, self.bleed, self.cols, self.count, self.gang, x, top)


def fit_block(
    card: tuple[float, float], bleed: float, copies: int, width: float, height: float, gang: bool
) -> Block | None:
    """The block holding most of `copies` in width x height (room for the marks included), or None."""
    extra = 2 * bleed
    if gang:
        cols = int((width - 2 * MARK_ROOM_MM - extra + 1e-6) // card[0])
        rows = int((height - 2 * MARK_ROOM_MM - extra + 1e-6) // card[1])
    else:
        cols = int((width - 2 * MARK_ROOM_MM + 1e-6) // (card[0] + extra))
        rows = int((height - 2 * MARK_ROOM_MM + 1e-6) // (card[1] + extra))
    if cols <= 0 or rows <= 0 or copies <= 0:
        return None
    return Block(card, bleed, cols, min(copies, cols * rows), gang)


def best_block(card: tuple[float, float], bleed: float, copies: int, width: float, height: float) -> Block | None:
    """Full bleed unless sharing cut lines holds more of the copies (the usual print-and-play gang layout)."""
    full = fit_block(card, bleed, copies, width, height, gang=False)
    gang = fit_block(card, bleed, copies, width, height, gang=True) if bleed > 0 else None
    if gang is not None and (full is None or gang.count > full.count):
        return gang
    return full


@dataclass
class Placed:
    """One copy on a sheet: its front and back pages, the deck it belongs to, where it goes."""

    front: Any  # a face page, or what names one (a face key: render/volumes.FaceRef)
    back: Any
    deck: str
    slot: Rect
    clip: Rect | None
    trim: Rect


@dataclass
class Sheet:
    paper: tuple[float, float]
    blocks: list[Block] = field(default_factory=list)
    copies: list[Placed] = field(default_factory=list)
    mark_areas: list[Rect] = field(default_factory=list)  # one per block: where its crop marks may go

    @property
    def decks(self) -> list[str]:
        return list(dict.fromkeys(copy.deck for copy in self.copies))

    @property
    def landscape(self) -> bool:
        return self.paper[0] > self.paper[1]


@dataclass
class CopyGroup:
    """Copies of one card size (one deck, or decks of the same size sharing sheets)."""

    card: tuple[float, float]
    bleed: float
    copies: list[tuple]  # (front page, back page or None, deck id)


def plan_sheets(
    groups: list[CopyGroup],
    paper_name: str,
    margin: float = MARGIN_MM,
    labels: bool = True,
    shared: bool = True,
    place: bool = True,
) -> list[Sheet]:
    """Blocks of copies stacked down sheets. Each new sheet takes the way round that holds the most of the
    copies still to place (a tie: portrait); with `shared`, the next group continues below the last
    group's block when a row of it fits there, so small decks share sheets."""
    sheets: list[Sheet] = []
    current: Sheet | None = None
    free = 0.0
    for group in groups:
        start = 0  # the first copy still to place (an index: slicing off the rest is quadratic in the deck)
        if not shared:
            current = None
        while start < len(group.copies):
            left = len(group.copies) - start
            block = None
            if current is not None:
                area = card_area(current.paper, margin, labels)
                block = best_block(group.card, group.bleed, left, area.w, free)
            if block is None or current is None:
                current, block = _new_sheet(group, left, paper_name, margin, labels)
                sheets.append(current)
                free = card_area(current.paper, margin, labels).h
            placed = group.copies[start : start + block.count]
            start += block.count
            height = block.size[1] + 2 * MARK_ROOM_MM
            area = card_area(current.paper, margin, labels)
            top = area.top - (area.h - free) - MARK_ROOM_MM
            block = block.moved(area.x + (area.w - block.size[0]) / 2, top)
            current.blocks.append(block)
            # their places come from _settle, once the sheet's blocks are centred
            unplaced = [Placed(front, back, deck, None, None, None) for front, back, deck in placed]  # type: ignore[arg-type]
            current.copies += unplaced
            free -= height
    for sheet in sheets:
        _settle(sheet, card_area(sheet.paper, margin, labels))
        if place:
            place_copies(sheet)
    return sheets


def _new_sheet(group: CopyGroup, copies: int, paper_name: str, margin: float, labels: bool) -> tuple[Sheet, Block]:
    best: tuple[Sheet, Block] | None = None
    for paper in _orientations(paper_name):
        area = card_area(paper, margin, labels)
        block = best_block(group.card, group.bleed, copies, area.w, area.h)
        if block is not None and (best is None or block.count > best[1].count):
            best = (Sheet(paper), block)
    if best is None:
        raise ValueError(
            f"a {group.card[0]:g}x{group.card[1]:g} mm card with {group.bleed:g} mm bleed does not "
            f"fit inside the {margin:g} mm margin of {paper_name}"
        )
    return best


def _settle(sheet: Sheet, area: Rect) -> None:
    """Centre the stack of blocks in the area and give each block its mark area."""
    used = sum(block.size[1] + 2 * MARK_ROOM_MM for block in sheet.blocks)
    shift = (area.h - used) / 2
    sheet.blocks = [block.moved(block.x, block.top - shift) for block in sheet.blocks]
    for number, block in enumerate(sheet.blocks):
        above = area.top if number == 0 else block.top + MARK_ROOM_MM
        below = area.y if number == len(sheet.blocks) - 1 else block.outline().y - MARK_ROOM_MM
        sheet.mark_areas.append(Rect(area.x, below, area.w, above - below))


def place_copies(sheet: Sheet) -> None:
    """Give each copy of a planned sheet its place in its block (a plan alone, without the places, is
    enough to tell which copies a sheet holds and how its blocks lie)."""
    copies = iter(sheet.copies)
    for block in sheet.blocks:
        for index in range(block.count):
            copy = next(copies)
            copy.slot, copy.clip, copy.trim = block.slot(index), block.clip(index), block.trim(index)


def first_sheet(
    paper_name: str,
    card: tuple[float, float],
    bleed: float,
    copies: int | None = None,
    margin: float = MARGIN_MM,
    labels: bool = True,
) -> Sheet:
    """The first sheet of a deck of `copies` cards alone (as many as a page holds when None)."""
    group = CopyGroup(card, bleed, [(None, None, "")] * (copies or 1000))
    return plan_sheets([group], paper_name, margin, labels)[0]


def gutterfold_grid(
    paper_name: str, card: tuple[float, float], bleed: float, margin: float = MARGIN_MM, labels: bool = True
) -> tuple[Grid, bool]:
    """Fronts in the upper half, as many rows as fit above the fold; backs mirror them below. With `labels`,
    the bands for the sheet label are left unless leaving them costs cards (a row of poker cards on
    landscape A4 or Letter): then the grid and False."""
    cell = (card[0] + 2 * bleed, card[1] + 2 * bleed)
    best, best_key = None, None
    for labelled in (True, False) if labels else (False,):
        for turn, paper in enumerate(_orientations(paper_name)):
            area = card_area(paper, margin, labelled)
            half = area.top - paper[1] / 2 - FOLD_GAP_MM
            cols = int((area.w - 2 * MARK_ROOM_MM + 1e-6) // cell[0])
            rows = max(0, int((half - MARK_ROOM_MM + 1e-6) // cell[1]))
            key = (cols * rows, labelled, -turn)
            if best_key is None or key > best_key:
                best_key = key
                best = (Grid(paper, cols, rows, cell, bleed, paper[1] / 2 + FOLD_GAP_MM + rows * cell[1]), labelled)
    if best is None or best[0].per_page == 0:
        raise ValueError(f"a {card[0]}x{card[1]} mm card does not fit half of {paper_name} for a gutter fold")
    return best


def _orientations(paper_name: str):
    w, h = PAPERS[paper_name]
    return [(w, h), (h, w)]


def back_slot(paper: tuple[float, float], front: Rect, duplex: str) -> Rect:
    """Where the back of a card goes so that it prints exactly behind the front.

    The sheet turns over about its long edge or its short edge: turning about a vertical axis
    mirrors x (reverses the columns), about a horizontal axis mirrors y (reverses the rows).
    """
    pw, ph = paper
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


def pdf_number(value: float) -> str:
    """A number as a PDF content stream writes it: at most 4 decimals, no trailing zeros."""
    return f"{value:.4f}".rstrip("0").rstrip(".")


def place(name: str, bbox, at: Rect, rotate: bool = False, clip: Rect | None = None) -> str:
    """Content stream that draws form XObject `name` so its bbox fills `at` (optionally turned 180°).

    With `clip`, only the part inside that rectangle of the paper is drawn (a tile of a board).
    Where `at` is larger or smaller than the bbox, the form is scaled to fill it (a page map)."""
    x0, y0, x1, y1 = (float(v) for v in bbox)
    if clip is not None:
        corner = f"{pdf_number(clip.x * MM)} {pdf_number(clip.y * MM)}"
        box = f"{corner} {pdf_number(clip.w * MM)} {pdf_number(clip.h * MM)} re W n "
        return f"q {box}{place(name, bbox, at, rotate).strip()} Q\n"
    scale = at.w * MM / (x1 - x0)
    if abs(scale - 1) > 1e-3:
        return (
            f"q {pdf_number(scale)} 0 0 {pdf_number(scale)} "
            f"{pdf_number(at.x * MM - x0 * scale)} {pdf_number(at.y * MM - y0 * scale)} cm "
            f"{name} Do Q\n"
        )
    if rotate:
        return f"q -1 0 0 -1 {pdf_number(at.x * MM + x1)} {pdf_number(at.y * MM + y1)} cm {name} Do Q\n"
    return f"q 1 0 0 1 {pdf_number(at.x * MM - x0)} {pdf_number(at.y * MM - y0)} cm {name} Do Q\n"


def pdf_line(x0, y0, x1, y1) -> str:
    """A stroked line from (x0, y0) to (x1, y1), in mm, as content stream operators."""
    return f"{pdf_number(x0 * MM)} {pdf_number(y0 * MM)} m {pdf_number(x1 * MM)} {pdf_number(y1 * MM)} l S\n"


def _edges(slots: list[Rect], trims: list[Rect]):
    block = Rect(min(s.x for s in slots), min(s.y for s in slots), 0, 0)
    block = Rect(block.x, block.y, max(s.right for s in slots) - block.x, max(s.top for s in slots) - block.y)
    xs = sorted({round(t.x, 4) for t in trims} | {round(t.right, 4) for t in trims})
    ys = sorted({round(t.y, 4) for t in trims} | {round(t.top, 4) for t in trims})
    return block, xs, ys


def crop_marks(grid: Grid, used: int, area: Rect | None = None) -> str:
    """Marks on the trim lines of the first `used` slots of a grid (see block_marks)."""
    if used == 0:
        return ""
    return block_marks(
        [grid.slot(i) for i in range(used)], [grid.trim(i) for i in range(used)], area or Rect(0, 0, *grid.paper)
    )


def block_marks(slots: list[Rect], trims: list[Rect], area: Rect) -> str:
    """Marks on the trim lines, outside the bleed of the whole block, as long as `area` allows."""
    if not slots:
        return ""
    block, xs, ys = _edges(slots, trims)
    out = ["q 0 G 0.25 w 0 J\n"]
    ends = ((block.top + MARK_OFFSET_MM, area.top, 1), (block.y - MARK_OFFSET_MM, area.y, -1))
    for start, edge, sign in ends:
        end = start + sign * min(MARK_LENGTH_MM, max(0.0, sign * (edge - start)))
        if abs(end - start) >= 0.5:
            out += [pdf_line(x, start, x, end) for x in xs]
    ends = ((block.right + MARK_OFFSET_MM, area.right, 1), (block.x - MARK_OFFSET_MM, area.x, -1))
    for start, edge, sign in ends:
        end = start + sign * min(MARK_LENGTH_MM, max(0.0, sign * (edge - start)))
        if abs(end - start) >= 0.5:
            out += [pdf_line(start, y, end, y) for y in ys]
    out.append("Q\n")
    return "".join(out)


def cut_lines(slots: list[Rect], trims: list[Rect]) -> str:
    """Thin grey dashed lines along every trim edge, across the block (for cutting with scissors)."""
    if not slots:
        return ""
    block, xs, ys = _edges(slots, trims)
    out = ["q 0.6 G 0.3 w [2 2] 0 d\n"]
    out += [pdf_line(x, block.y, x, block.top) for x in xs]
    out += [pdf_line(block.x, y, block.right, y) for y in ys]
    out.append("Q\n")
    return "".join(out)


def scale_bar(x: float, y: float, length: float = 50.0) -> str:
    """A bar `length` mm long with end ticks: measure it to check the print is at 100%."""
    return (
        "q 0 G 0.3 w\n"
        + pdf_line(x, y, x + length, y)
        + pdf_line(x, y - 1, x, y + 1)
        + pdf_line(x + length, y - 1, x + length, y + 1)
        + "Q\n"
    )


def fold_line(grid: Grid, margin: float = MARGIN_MM) -> str:
    fold = grid.paper[1] / 2
    area = printable(grid.paper, margin)
    return "q 0.4 G 0.4 w [4 3] 0 d\n" + pdf_line(area.x, fold, area.right, fold) + "Q\n"


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

    def add_page(
        self,
        paper: tuple[float, float],
        placements: list[tuple],
        overlay: str = "",
        boxes: tuple[Rect, ...] | None = None,
    ) -> None:
        """Placements are (page, rect, rotated) or (page, rect, rotated, clip rect). `boxes` (trim, bleed)
        become the page's TrimBox and BleedBox: for a page that holds one trimmed item."""
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
        if boxes is not None:
            sheet.TrimBox, sheet.BleedBox = (pdf_box(rect) for rect in boxes)
        self.pdf.pages.append(pikepdf.Page(sheet))


def pdf_box(rect: Rect) -> pikepdf.Array:
    return pikepdf.Array([round(v * MM, 4) for v in (rect.x, rect.y, rect.right, rect.top)])


@dataclass
class SheetOptions:
    paper: str = "a4"
    duplex: str = "long"  # long | short | none
    layout: str = "duplex"  # duplex | gutterfold
    marks: bool = True
    cuts: bool = False
    margin: float = MARGIN_MM  # nothing is drawn nearer the paper's edge
    sheets: str = "shared"  # shared: decks of one size continue on the same sheet | per-deck
    labels: bool = False  # leave bands above and below the cards for the sheet label and 100% note


@dataclass
class SheetPage:
    """One page of a sheet PDF before it is written; `side` and `decks` are what its label says."""

    paper: tuple[float, float]
    placements: list
    overlay: str
    side: str  # front | back | gutterfold
    sheet: int  # 1-based number of the sheet (a front and its back share it)
    decks: list[str]
    boxes: tuple[Rect, ...] | None = None  # a lone card's trim and slot boxes
    labelled: bool = True  # the bands for the label are free (see gutterfold_grid)


@dataclass
class FoldSheet:
    """A gutter-fold sheet as planned: fronts of `copies` in the grid's upper half, backs below."""

    grid: Grid
    labelled: bool
    copies: list[Placed]

    @property
    def decks(self) -> list[str]:
        return list(dict.fromkeys(copy.deck for copy in self.copies))


def plan_pages(groups: list[CopyGroup], options: SheetOptions) -> list[Sheet | FoldSheet]:
    """The sheets for these groups of copies, planned (which copies each holds, how its blocks lie) but not
    drawn: cheap for thousands of sheets; sheet n is the n-th. `pages_of` draws them."""
    if options.layout == "gutterfold":
        planned: list[Sheet | FoldSheet] = []
        for group in groups:
            grid, labelled = gutterfold_grid(options.paper, group.card, group.bleed, options.margin, options.labels)
            for start in range(0, len(group.copies), grid.per_page):
                chunk = group.copies[start : start + grid.per_page]
                unplaced = [Placed(f, b, d, None, None, None) for f, b, d in chunk]  # type: ignore[arg-type]  # placed when drawn
                planned.append(FoldSheet(grid, labelled, unplaced))
        return planned
    return list(
        plan_sheets(groups, options.paper, options.margin, options.labels, options.sheets == "shared", place=False)
    )


def sheet_pages(groups: list[CopyGroup], options: SheetOptions) -> list[SheetPage]:
    """Every page of the sheets for these groups of copies: fronts, each followed by its backs."""
    return pages_of(plan_pages(groups, options), options)


def pages_of(planned: list[Sheet | FoldSheet], options: SheetOptions, first: int = 1) -> list[SheetPage]:
    """The pages of planned sheets numbered from `first`: fronts, each followed by its backs."""
    pages = []
    for number, sheet in enumerate(planned, first):
        if isinstance(sheet, FoldSheet):
            pages.append(_gutterfold_page(sheet, options, number))
        else:
            pages += _duplex_pages(sheet, options, number)
    return pages


def page_heads(planned: list[Sheet | FoldSheet], options: SheetOptions, first: int = 1) -> list[SheetPage]:
    """The pages pages_of draws, with what their labels say (paper, side, sheet, decks, whether the label's bands
    are free) and nothing placed or drawn: a sheet label needs no more, and placing and marks are the cost."""
    heads = []
    for number, sheet in enumerate(planned, first):
        if isinstance(sheet, FoldSheet):
            heads.append(
                SheetPage(sheet.grid.paper, [], "", "gutterfold", number, sheet.decks, labelled=sheet.labelled)
            )
            continue
        heads.append(SheetPage(sheet.paper, [], "", "front", number, sheet.decks))
        if options.duplex != "none" and any(copy.back is not None for copy in sheet.copies):
            heads.append(SheetPage(sheet.paper, [], "", "back", number, sheet.decks))
    return heads


def _duplex_pages(sheet: Sheet, options: SheetOptions, number: int) -> list[SheetPage]:
    if sheet.copies and sheet.copies[0].slot is None:
        place_copies(sheet)
    fronts = [(c.front, c.slot, False, c.clip) if c.clip else (c.front, c.slot, False) for c in sheet.copies]
    overlay = ""
    for block, area in zip(sheet.blocks, sheet.mark_areas):
        slots = [block.slot(i) for i in range(block.count)]
        trims = [block.trim(i) for i in range(block.count)]
        overlay += cut_lines(slots, trims) if options.cuts else ""
        overlay += block_marks([block.outline()], trims, area) if options.marks else ""
    single = sheet.copies[0] if len(sheet.copies) == 1 else None
    boxes = (single.trim, single.slot) if single else None
    pages = [SheetPage(sheet.paper, fronts, overlay, "front", number, sheet.decks, boxes)]
    backs = [_back_placement(sheet.paper, c, options.duplex) for c in sheet.copies if c.back is not None]
    if options.duplex != "none" and backs:
        back_boxes = tuple(back_slot(sheet.paper, r, options.duplex) for r in boxes) if boxes else None
        pages.append(SheetPage(sheet.paper, backs, "", "back", number, sheet.decks, back_boxes))
    return pages


def _back_placement(paper, copy: Placed, duplex: str) -> tuple:
    at = back_slot(paper, copy.slot, duplex)
    if copy.clip is None:
        return (copy.back, at, False)
    return (copy.back, at, False, back_slot(paper, copy.clip, duplex))


def _gutterfold_page(sheet: FoldSheet, options: SheetOptions, number: int) -> SheetPage:
    grid, chunk = sheet.grid, sheet.copies
    fronts = [(copy.front, grid.slot(i), False) for i, copy in enumerate(chunk)]
    backs = [(copy.back, fold_slot(grid, grid.slot(i)), True) for i, copy in enumerate(chunk) if copy.back]
    slots, trims = [grid.slot(i) for i in range(len(chunk))], [grid.trim(i) for i in range(len(chunk))]
    overlay = cut_lines(slots, trims) if options.cuts else ""
    fold = grid.paper[1] / 2
    area = card_area(grid.paper, options.margin, sheet.labelled)
    upper = Rect(area.x, fold, area.w, area.top - fold)
    overlay += crop_marks(grid, len(chunk), upper) if options.marks else ""
    return SheetPage(
        grid.paper,
        fronts + backs,
        overlay + fold_line(grid, options.margin),
        "gutterfold",
        number,
        sheet.decks,
        labelled=sheet.labelled,
    )


def write_pages(writer: SheetWriter, pages: list[SheetPage], furniture: list[list] | None = None, face=None) -> int:
    """Add the pages to the writer, each with its paper-size pages of printed texts when given. `face` turns
    what the placements name into a page (a face key read back from the face cache) when they name no page."""
    for index, page in enumerate(pages):
        placements = list(page.placements) if face is None else [(face(what), *rest) for what, *rest in page.placements]
        if furniture is not None:
            placements += [(texts, Rect(0, 0, *page.paper), False) for texts in furniture[index]]
        writer.add_page(page.paper, placements, page.overlay, page.boxes)
    return len(pages)


def impose_deck(
    writer: SheetWriter,
    card: tuple[float, float],
    bleed: float,
    copies: list[tuple[pikepdf.Page, pikepdf.Page | None]],
    options: SheetOptions,
) -> int:
    """Place every copy of one deck (front page, back page or None) on sheets; return pages added."""
    group = CopyGroup(card, bleed, [(front, back, "") for front, back in copies])
    return write_pages(writer, sheet_pages([group], options))


def needed_version(pdf: pikepdf.Pdf) -> str:
    """The lowest PDF version with the features the file uses: OpenType font programs need 1.6,
    transparency (groups, soft masks, constant alpha, blend modes) 1.4."""
    version = "1.3"
    for obj in pdf.objects:
        if not isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
            continue
        if obj.get("/Subtype") == "/OpenType":
            return "1.6"
        group = obj.get("/Group")
        if (
            (isinstance(group, pikepdf.Dictionary) and group.get("/S") == "/Transparency")
            or ("/SMask" in obj and obj.get("/SMask") != "/None")
            or any(key in obj and float(obj[key]) < 1 for key in ("/CA", "/ca"))
            or obj.get("/BM") not in (None, "/Normal", "/Compatible")
        ):
            version = "1.4"
    return version


def save_pdf_bytes(pdf: pikepdf.Pdf, title: str, lang: str) -> bytes:
    """The file as written: its title and language (`/Lang`, what a screen reader and a viewer's title bar
    use) and the header version its content needs."""
    pdf.docinfo["/Title"] = title
    pdf.docinfo["/Creator"] = "pnpgen"
    pdf.Root.Lang = pikepdf.String(lang.split("+")[0])  # a bilingual file: its first language
    pdf.Root.ViewerPreferences = pikepdf.Dictionary(DisplayDocTitle=True)
    buffer = io.BytesIO()
    pdf.save(buffer, deterministic_id=True, force_version=needed_version(pdf))
    return buffer.getvalue()
