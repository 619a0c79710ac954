"""Planned sheets drawn as pages: each copy's front in its slot, its back where it prints behind the front
(mirrored for a duplex flip, or below a gutter fold, turned), and the crop marks, cut lines and fold line as
the page's overlay. A SheetPage is what sheet_writer writes and what its sheet label says.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.render.paper import Rect
from generator.render.sheet_marks import between_blocks, block_marks, cut_lines, fold_line, round_guides
from generator.render.sheet_plan import (
    CopyGroup,
    FoldSheet,
    Grid,
    Placed,
    Sheet,
    SheetOptions,
    card_area,
    place_copies,
    plan_pages,
)


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


def sheet_pages(groups: list[CopyGroup], options: SheetOptions) -> list[SheetPage]:
    """Every page of the sheets for these groups of copies: fronts, each followed by its backs."""
    return pages_of(plan_pages(groups, options), options)


def pages_of(planned: list[Sheet | FoldSheet], options: SheetOptions, first: int = 1) -> list[SheetPage]:
    """The pages of planned sheets numbered from `first`: fronts, each followed by its backs."""
    pages = []
    backed = has_backs(planned, options)
    for number, sheet in enumerate(planned, first):
        if isinstance(sheet, FoldSheet):
            pages.append(_gutterfold_page(sheet, options, number))
        else:
            pages += _duplex_pages(sheet, options, number, backed)
    return pages


def has_backs(planned: list[Sheet | FoldSheet], options: SheetOptions) -> bool:
    """Whether the file prints double-sided: then every sheet has its back page, a blank one behind a sheet of
    one-sided pieces, so that each back stays behind its front when the whole file is printed duplex."""
    duplex = [sheet for sheet in planned if isinstance(sheet, Sheet)]
    return options.duplex != "none" and any(copy.back is not None for sheet in duplex for copy in sheet.copies)


def page_heads(planned: list[Sheet | FoldSheet], options: SheetOptions, first: int = 1) -> list[SheetPage]:
    """The pages pages_of draws, with what their labels say (paper, side, sheet, decks, whether the label's bands
    are free) and nothing placed or drawn: a sheet label needs no more, and placing and marks are the cost."""
    heads = []
    backed = has_backs(planned, options)
    for number, sheet in enumerate(planned, first):
        if isinstance(sheet, FoldSheet):
            heads.append(
                SheetPage(sheet.grid.paper, [], "", "gutterfold", number, sheet.decks, labelled=sheet.labelled)
            )
            continue
        heads.append(SheetPage(sheet.paper, [], "", "front", number, sheet.decks))
        if backed:
            heads.append(SheetPage(sheet.paper, [], "", "back", number, sheet.decks))
    return heads


def _duplex_pages(sheet: Sheet, options: SheetOptions, number: int, backed: bool) -> list[SheetPage]:
    if sheet.copies and sheet.copies[0].slot is None:
        place_copies(sheet)
    fronts = [(c.front, c.slot, False, c.clip) if c.clip else (c.front, c.slot, False) for c in sheet.copies]
    overlay = ""
    for block, area in zip(sheet.blocks, sheet.mark_areas):
        slots = [block.slot(i) for i in range(block.count)]
        trims = [block.trim(i) for i in range(block.count)]
        overlay += cut_lines(slots, trims) if options.cuts else ""
        overlay += block_marks([block.outline()], trims, area) if options.marks else ""
        overlay += round_guides(trims) if block.round and options.marks else ""
    if options.marks:
        for upper, lower, area in zip(sheet.blocks, sheet.blocks[1:], sheet.mark_areas):
            overlay += between_blocks(upper.outline(), lower.outline(), area)
    single = sheet.copies[0] if len(sheet.copies) == 1 else None
    boxes = (single.trim, single.slot) if single else None
    pages = [SheetPage(sheet.paper, fronts, overlay, "front", number, sheet.decks, boxes)]
    backs = [_back_placement(sheet.paper, c, options.duplex) for c in sheet.copies if c.back is not None]
    if backed:  # a sheet of one-sided pieces only: a blank back
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
    overlay += block_marks(slots, trims, upper) if options.marks else ""
    return SheetPage(
        grid.paper,
        fronts + backs,
        overlay + fold_line(grid.paper, options.margin),
        "gutterfold",
        number,
        sheet.decks,
        labelled=sheet.labelled,
    )


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
