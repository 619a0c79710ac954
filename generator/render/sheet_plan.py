"""Sheet plans: which copies of the rendered faces go on which sheet, and where. Copies of one card size form a
block (full bleed, or gang: neighbours sharing cut lines), blocks stack down a sheet of the paper turned the way
that holds the most, and small decks continue below the last block; a gutter-fold sheet is a grid of fronts
above the fold. A plan is cheap (thousands of sheets): sheet_pages draws it, sheet_writer writes it.

A slot is the card's bleed box; around each block is room for its marks (sheet_marks.MARK_ROOM_MM).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from generator.render.paper import MARGIN_MM, Rect, orientations, printable
from generator.render.sheet_marks import BETWEEN_CLEAR_MM, MARK_ROOM_MM

LABEL_BAND_MM = 4.5  # above and below the cards: the sheet label, the 100% note and the scale bar
FOLD_GAP_MM = 2.0  # gutter-fold: space between a card's bleed and the fold line
DUPLEX_MODES = ("long", "short", "none")
LAYOUTS = ("duplex", "gutterfold")
SHEET_MODES = ("shared", "per-deck")


@dataclass
class SheetOptions:
    paper: str = "a4"
    duplex: str = "long"  # long | short | none
    layout: str = "duplex"  # duplex | gutterfold
    marks: bool = True
    cuts: bool = False
    margin: float = MARGIN_MM  # nothing is drawn nearer the paper's edge
    sheets: str = "shared"  # shared: decks of one size continue on the same sheet | per-deck
    label_bands: bool = False  # leave bands above and below the cards for the sheet label and 100% note


def card_area(paper: tuple[float, float], margin: float, label_bands: bool) -> Rect:
    """Where blocks of cards and their marks go: the printable part less the label bands."""
    band = LABEL_BAND_MM if label_bands else 0.0
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
    round: bool = False  # round pieces (tokens): cut along a circle inside each trim, never ganged

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
        return replace(self, x=x, top=top)


def block_room(width: float, height: float) -> tuple[float, float]:
    """What a block of cards may take of width x height: room for its marks is left on every side."""
    return (width - 2 * MARK_ROOM_MM, height - 2 * MARK_ROOM_MM)


def largest_alone(
    paper_name: str, bleed: float, margin: float = MARGIN_MM, label_bands: bool = False
) -> list[tuple[float, float]]:
    """The largest card (trim size) a sheet of the paper holds alone, portrait then landscape: what fit_block
    leaves room for, its bleed and marks inside the margin."""
    sizes = []
    for paper in orientations(paper_name):
        area = card_area(paper, margin, label_bands)
        room_w, room_h = block_room(area.w, area.h)
        sizes.append((room_w - 2 * bleed, room_h - 2 * bleed))
    return sizes


def fit_block(
    card: tuple[float, float], bleed: float, copies: int, width: float, height: float, gang: bool
) -> Block | None:
    """The block holding most of `copies` in width x height (room for the marks included), or None."""
    extra = 2 * bleed
    room_w, room_h = block_room(width, height)
    if gang:
        cols = int((room_w - extra + 1e-6) // card[0])
        rows = int((room_h - extra + 1e-6) // card[1])
    else:
        cols = int((room_w + 1e-6) // (card[0] + extra))
        rows = int((room_h + 1e-6) // (card[1] + extra))
    if cols <= 0 or rows <= 0 or copies <= 0:
        return None
    return Block(card, bleed, cols, min(copies, cols * rows), gang)


def best_block(
    card: tuple[float, float], bleed: float, copies: int, width: float, height: float, round_: bool = False
) -> Block | None:
    """Full bleed unless sharing cut lines holds more of the copies (the usual print-and-play gang layout); round
    pieces share no cut line, so each keeps its own bleed."""
    full = fit_block(card, bleed, copies, width, height, gang=False)
    gang = fit_block(card, bleed, copies, width, height, gang=True) if bleed > 0 and not round_ else None
    best = gang if gang is not None and (full is None or gang.count > full.count) else full
    return replace(best, round=True) if best is not None and round_ else best


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
    round: bool = False  # round pieces: see Block.round


def plan_sheets(
    groups: list[CopyGroup],
    paper_name: str,
    margin: float = MARGIN_MM,
    label_bands: bool = True,
    shared: bool = True,
    place: bool = True,
) -> list[Sheet]:
    """Blocks of copies stacked down sheets. Each new sheet takes the way round that holds the most of the
    copies still to place (a tie: the way that leaves the most room below, then portrait); with `shared`, the next
    group continues below the last group's block when a row of it fits there, and a group's last copies that would
    open a sheet of their own go below the blocks of an earlier sheet with room for them all, so small decks
    share sheets."""
    sheets: list[Sheet] = []
    frees: list[float] = []  # each sheet's height still free
    # a block needs a card's height, its bleed and the marks' room (fit_block): a sheet with less free holds no
    # block of any group again, and is no longer looked at (a game of thousands of sheets: not quadratic)
    lowest = min((group.card[1] + 2 * group.bleed for group in groups), default=0.0) + 2 * MARK_ROOM_MM - 1e-3
    roomy: list[int] = []  # the sheets with room for a row of some group's cards, in order
    for group in groups:
        start = 0  # the first copy still to place (an index: slicing off the rest is quadratic in the deck)
        own = len(sheets)  # per-deck: the group's first sheet
        while start < len(group.copies):
            left = len(group.copies) - start
            first = own if not shared else 0
            number, block = _room_for(group, left, sheets, frees, margin, label_bands, first, roomy)
            if block is None:
                sheet, block = _new_sheet(group, left, paper_name, margin, label_bands)
                sheets.append(sheet)
                frees.append(card_area(sheet.paper, margin, label_bands).h)
                number = len(sheets) - 1
                roomy.append(number)
            current = sheets[number]
            placed = group.copies[start : start + block.count]
            start += block.count
            area = card_area(current.paper, margin, label_bands)
            top = area.top - (area.h - frees[number]) - MARK_ROOM_MM
            current.blocks.append(block.moved(area.x + (area.w - block.size[0]) / 2, top))
            # their places come from _settle, once the sheet's blocks are centred
            unplaced = [Placed(front, back, deck, None, None, None) for front, back, deck in placed]  # type: ignore[arg-type]
            current.copies += unplaced
            frees[number] -= block.size[1] + 2 * MARK_ROOM_MM
            if frees[number] < lowest:
                roomy.remove(number)
    for sheet in sheets:
        _settle(sheet, card_area(sheet.paper, margin, label_bands))
        if place:
            place_copies(sheet)
    return sheets


def _room_for(
    group: CopyGroup,
    left: int,
    sheets: list[Sheet],
    frees: list[float],
    margin: float,
    label_bands: bool,
    first: int,
    roomy: list[int],
) -> tuple[int, Block | None]:
    """Where the next block of the group goes among the sheets from `first` on: below the last sheet's blocks
    (as many copies as fit there), else below an earlier sheet's, if all `left` copies fit there; (-1, None) for
    a new sheet. `roomy`: the sheets that may have room, in order (the others hold no block)."""

    def block_on(number: int) -> Block | None:
        area = card_area(sheets[number].paper, margin, label_bands)
        return best_block(group.card, group.bleed, left, area.w, frees[number], group.round)

    if len(sheets) > first:
        block = block_on(len(sheets) - 1)
        if block is not None:
            return len(sheets) - 1, block
    for number in roomy:
        if not first <= number < len(sheets) - 1:
            continue
        block = block_on(number)
        if block is not None and block.count == left:
            return number, block
    return -1, None


def _new_sheet(group: CopyGroup, copies: int, paper_name: str, margin: float, label_bands: bool) -> tuple[Sheet, Block]:
    best: tuple[Sheet, Block] | None = None
    best_key: tuple[int, float] | None = None
    for paper in orientations(paper_name):
        area = card_area(paper, margin, label_bands)
        block = best_block(group.card, group.bleed, copies, area.w, area.h, group.round)
        if block is None:
            continue
        candidates = [block]
        if block.count == copies and not group.round:  # the last copies: the lower block of the two, if they
            # differ, leaves the next group more room
            other = fit_block(group.card, group.bleed, copies, area.w, area.h, gang=not block.gang)
            candidates += [other] if other is not None and other.count == copies and group.bleed > 0 else []
        for candidate in candidates:
            room_below = area.w * (area.h - candidate.size[1] - 2 * MARK_ROOM_MM)  # what the next group may use
            key = (candidate.count, round(room_below, 6))
            if best_key is None or key > best_key:
                best, best_key = (Sheet(paper), candidate), key
    if best is None:
        raise ValueError(
            f"a {group.card[0]:g}x{group.card[1]:g} mm card with {group.bleed:g} mm bleed does not "
            f"fit inside the {margin:g} mm margin of {paper_name}"
        )
    return best


def _settle(sheet: Sheet, area: Rect) -> None:
    """Centre the stack of blocks in the area and give each block its mark area: between two blocks, its own half
    of the gap, short of the cut between them (sheet_marks.between_blocks)."""
    used = sum(block.size[1] + 2 * MARK_ROOM_MM for block in sheet.blocks)
    shift = (area.h - used) / 2
    sheet.blocks = [block.moved(block.x, block.top - shift) for block in sheet.blocks]
    for number, block in enumerate(sheet.blocks):
        above = area.top if number == 0 else block.top + MARK_ROOM_MM - BETWEEN_CLEAR_MM
        below = area.y if number == len(sheet.blocks) - 1 else block.outline().y - MARK_ROOM_MM + BETWEEN_CLEAR_MM
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
    label_bands: bool = True,
) -> Sheet:
    """The first sheet of a deck of `copies` cards alone (as many as a page holds when None)."""
    group = CopyGroup(card, bleed, [(None, None, "")] * (copies or 1000))
    return plan_sheets([group], paper_name, margin, label_bands)[0]


def gutterfold_grid(
    paper_name: str, card: tuple[float, float], bleed: float, margin: float = MARGIN_MM, label_bands: bool = True
) -> tuple[Grid, bool]:
    """Fronts in the upper half, as many rows as fit above the fold; backs mirror them below. With `label_bands`,
    the bands for the sheet label are left unless leaving them costs cards (a row of poker cards on
    landscape A4 or Letter): then the grid and False."""
    cell = (card[0] + 2 * bleed, card[1] + 2 * bleed)
    best, best_key = None, None
    for labelled in (True, False) if label_bands else (False,):
        for turn, paper in enumerate(orientations(paper_name)):
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
            grid, labelled = gutterfold_grid(
                options.paper, group.card, group.bleed, options.margin, options.label_bands
            )
            for start in range(0, len(group.copies), grid.per_page):
                chunk = group.copies[start : start + grid.per_page]
                unplaced = [Placed(f, b, d, None, None, None) for f, b, d in chunk]  # type: ignore[arg-type]  # placed when drawn
                planned.append(FoldSheet(grid, labelled, unplaced))
        return planned
    return list(
        plan_sheets(groups, options.paper, options.margin, options.label_bands, options.sheets == "shared", place=False)
    )
