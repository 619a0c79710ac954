"""The component spec a manufacturer quotes from: each printed component's finished size, bleed, count, sides,
corner, material and the file and pages of its print-shop export; the components the kit does not print.

Each printed deck, token sheet, board and aid is described as `pnpgen export --to pdfx` writes it, from the same
pseudo-decks (build/pieces.py): the size is its pages' TrimBox, the bleed their BleedBox, its distinct faces
counted as that export pages them (fronts in card order, then the backs), from the faces' HTML (the templates
run, nothing is rendered).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from generator.build import piece_faces
from generator.build.decks import prepare_game
from generator.export.deck_images import DeckExport
from generator.export.pdfx import BLEED_MM
from generator.model.game import Component, Game
from generator.render.components import component_words
from generator.render.faces import CARD_CORNER_MM
from generator.render.memo import FaceMemo

PDFX_FOLDER = "pdfx-{lang}"  # where `pnpgen export --to pdfx` writes, under OUT/<game>/ (commands/export.py)
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
    exports = print_shop_files(game, lang, cache_dir)
    not_printed = component_words(game, lang)["not_printed"]
    rows = []
    for component in game.components:
        name = component.name.get(lang, game.source_language)
        if not component.printed or component.source is None:
            rows.append(SpecRow(component.id, name, not_printed, component.count))
            continue
        export = exports.get(export_id(component.source))
        # the rules: a booklet the print shop lays out from the rule sheet, no size of its own here
        rows.append(
            printed_row(game, component, name, export)
            if export
            else SpecRow(component.id, name, component.source[0], component.count)
        )
    return rows


def print_shop_files(game: Game, lang: str, cache_dir) -> dict[str, DeckExport]:
    """The decks, token sheets, boards and aids as `pnpgen export --to pdfx` pages them, by the name of the file it
    writes (a deck's id, `tokens-ID`, `board-ID`, `aid-ID`): their distinct faces from the faces' HTML, nothing
    rendered."""
    memo = FaceMemo(cache_dir) if cache_dir is not None else None
    prepared = prepare_game(game, [lang], memo)[lang]
    exports = [DeckExport.of(deck) for deck in prepared if deck.faces.deck.cards]
    exports += [DeckExport.of_faces(faces, []) for faces, _batch in piece_faces(game, lang, BLEED_MM)]
    return {export.deck.id: export for export in exports}


def export_id(source: tuple[str, str]) -> str:
    """The file name (less .pdf) the print shop's export gives what a component prints: its deck, `tokens-money`."""
    kind, item_id = source
    return item_id if kind == "deck" else f"{kind}-{item_id}"


def printed_row(game: Game, component: Component, name: str, export: DeckExport) -> SpecRow:
    """A printed component as its print-shop file has it: the size and bleed of its pages' TrimBox and BleedBox,
    its distinct faces and the pages they are on."""
    assert component.source is not None
    kind, item_id = component.source
    piece = export.deck
    fronts = len([face for face in export.faces if face.side == "front"])
    backs = len(export.backs)
    row = SpecRow(component.id, name, "cards" if kind == "deck" else kind, component.count)
    row.width_mm, row.height_mm = (round(value, 1) for value in piece.size_mm)
    row.bleed_mm, row.faces, row.sides = piece.bleed_mm, f"{fronts} / {backs}", "4/4" if backs else "4/0"
    row.export = f"{PDFX_FOLDER.format(lang=export.lang)}/{piece.id}.pdf"
    row.pages = page_range(1, fronts) + (f"; backs {page_range(fronts + 1, fronts + backs)}" if backs else "")
    row.corner_mm, row.material = "0", ""
    printables = game.printables
    if kind == "deck":
        row.corner_mm, row.material = f"{CARD_CORNER_MM:g}", game.decks[item_id].material or ""
    elif kind == "tokens" and printables:
        sheet = printables.tokens[item_id]
        row.corner_mm, row.material, row.count = (
            ("round" if sheet.shape == "round" else "0"),
            sheet.material or "",
            sheet.pieces,
        )
    elif kind == "board" and printables:
        row.material = printables.boards[item_id].material or ""
    elif kind == "aid" and printables:
        row.material = printables.aids[item_id].material or ""
    return row


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
