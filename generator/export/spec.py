"""The component spec a manufacturer quotes from: each printed component's finished size, bleed, count, sides,
corner, material and the file and pages of its print-shop export; the components the kit does not print.

Sizes and bleeds are the data's (a deck's size, a token's diameter, a board's size), which are the TrimBoxes
of `pnpgen export --to pdfx`; a deck's distinct faces are counted as that export pages them (export/pdfx.py:
fronts in card order, then the backs), from the faces' HTML (the templates run, nothing is rendered).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from generator.build.decks import prepare_game
from generator.export.deck_images import DeckExport
from generator.model.game import Component, Game
from generator.render.components import component_words
from generator.render.faces import CARD_CORNER_MM
from generator.render.memo import FaceMemo
from generator.render.printed import aid_size

PDFX_FOLDER = "pdfx-{lang}"  # where `pnpgen export --to pdfx` writes, under OUT/<game>/ (commands/export.py)
SPEC_PAPER = "a4"  # the paper a half-page aid's size is given for
COLUMNS = {
    "id": "id",
    "name": "component",
    "kind": "kind",
    "count": "count",
    "faces": "distinct faces (fronts / backs)",
    "width_mm": "width (mm)",
    "height_mm": "height (mm)",
    "bleed_mm": "bleed (mm)",
    "sides": "sides printed",
    "corner_mm": "corner radius (mm)",
    "material": "material",
    "export": "print-shop file",
    "pages": "pages",
}


@dataclass
class SpecRow:
    id: str
    name: str
    kind: str  # cards, tokens, board, aid, rules, or "not printed"
    count: int
    faces: str = ""  # distinct faces, fronts / backs: "11 / 1"
    width_mm: float | None = None
    height_mm: float | None = None
    bleed_mm: float | None = None
    sides: str = ""  # 4/4: both sides in colour, 4/0: one
    corner_mm: str = ""  # a radius, or "round" for a round token
    material: str = ""
    export: str = ""
    pages: str = ""

    def cells(self) -> list:
        return [getattr(self, key) if getattr(self, key) is not None else "" for key in COLUMNS]


def spec_rows(game: Game, lang: str, cache_dir=None) -> list[SpecRow]:
    """One row per component of components.yaml, in its order; the printed ones in full."""
    exports = deck_exports(game, lang, cache_dir)
    not_printed = component_words(game, lang)["not_printed"]
    rows = []
    for component in game.components:
        name = component.name.get(lang, game.source_language)
        if not component.printed or component.source is None:
            rows.append(SpecRow(component.id, name, not_printed, component.count))
            continue
        rows.append(printed_row(game, component, name, lang, exports))
    return rows


def deck_exports(game: Game, lang: str, cache_dir) -> dict[str, DeckExport]:
    """Each deck's distinct faces as the PDF/X export pages them (faces' HTML only: nothing rendered)."""
    memo = FaceMemo(cache_dir) if cache_dir is not None else None
    prepared = prepare_game(game, [lang], memo)[lang]
    return {deck.faces.deck.id: DeckExport.of(deck) for deck in prepared if deck.faces.deck.cards}


def printed_row(game: Game, component: Component, name: str, lang: str, exports: dict[str, DeckExport]) -> SpecRow:
    assert component.source is not None
    kind, item_id = component.source
    row = SpecRow(component.id, name, kind, component.count)
    printables = game.printables
    if kind == "deck" and item_id in game.decks:
        deck = game.decks[item_id]
        export = exports.get(item_id)
        fronts = len([face for face in export.faces if face.side == "front"]) if export else 0
        backs = len(export.backs) if export else 0
        row.kind = "cards"
        row.width_mm, row.height_mm = deck.size_mm
        row.bleed_mm, row.material = deck.bleed_mm, deck.material or ""
        row.faces = f"{fronts} / {backs}"
        row.sides, row.corner_mm = ("4/4" if backs else "4/0"), f"{CARD_CORNER_MM:g}"
        row.export = f"{PDFX_FOLDER.format(lang=lang)}/{deck.id}.pdf"
        row.pages = page_range(1, fronts) + (f"; backs {page_range(fronts + 1, fronts + backs)}" if backs else "")
    elif kind == "tokens" and printables and item_id in printables.tokens:
        sheet = printables.tokens[item_id]
        row.width_mm = row.height_mm = sheet.size_mm
        row.bleed_mm, row.material = sheet.bleed_mm, sheet.material or ""
        row.faces = f"{len(sheet.tokens)} / {len(sheet.tokens) if sheet.sides == 2 else 0}"
        row.sides = "4/4" if sheet.sides == 2 else "4/0"
        row.corner_mm = "round" if sheet.shape == "round" else "0"
        row.count = sheet.pieces
    elif kind == "board" and printables and item_id in printables.boards:
        board = printables.boards[item_id]
        row.width_mm, row.height_mm = board.size_mm
        row.bleed_mm, row.material = 3.0, board.material or ""
        row.faces, row.sides, row.corner_mm = "1 / 0", "4/0", "0"
    elif kind == "aid" and printables and item_id in printables.aids:
        aid = printables.aids[item_id]
        row.width_mm, row.height_mm = (round(v, 1) for v in aid_size(aid, SPEC_PAPER))
        row.bleed_mm, row.material = 0.0, aid.material or ""
        row.faces, row.sides, row.corner_mm = "1 / 0", "4/0", "0"
    return row  # the rules: a booklet the print shop lays out from the rule sheet, no size of its own here


def page_range(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


def spec_csv(rows: list[SpecRow]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(list(COLUMNS))
    writer.writerows(row.cells() for row in rows)
    return buffer.getvalue()


def spec_markdown(rows: list[SpecRow], title: str) -> str:
    lines = [f"## {title}", "", "| " + " | ".join(COLUMNS.values()) + " |", "|" + "---|" * len(COLUMNS)]
    for row in rows:
        cells = (f"{cell:g}" if isinstance(cell, float) else str(cell) for cell in row.cells())
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def spec_xlsx(rows: list[SpecRow], title: str) -> bytes:
    """A workbook of one sheet: a header row (frozen), a row per component, sizes as numbers."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "components"
    sheet.append([title])
    sheet["A1"].font = Font(bold=True, size=13)
    sheet.append(list(COLUMNS.values()))
    for cell in sheet[2]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append(row.cells())
    sheet.freeze_panes = "A3"
    for column, width in zip("ABCDEFGHIJKLM", (18, 28, 12, 8, 14, 11, 11, 10, 12, 16, 36, 26, 16)):
        sheet.column_dimensions[column].width = width
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
