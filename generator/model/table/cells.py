"""Texts written where they are written: a text of a YAML file through the YAML writer (yamlio/writeback.py), a
card text of a deck that reads its cards from a spreadsheet (`cards_from:`) into its cell (patch.py), a column
added at the right of the sheet for a language it lacks (`name.de`), a text inside a cell of YAML (a list of
objects) into that YAML.

Each spreadsheet's new bytes are read back, with the reader the game is loaded with, before anything is written:
the sheet must hold exactly its old cells with the new texts in their places. A spreadsheet that cannot be written
(patch.Unwritable, or a file that would not read back) is left as it is, and each of its texts is named by its
cell, for the user to fill in; the callers write the rest (`i18n import`, the editor's saves), all together in one
OutputSet.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.errors import InputError
from generator.fsutil import write_atomic
from generator.model.game import Game, SheetSource
from generator.model.table.columns import CellError, column_letters, flow_yaml, read_yaml
from generator.model.table.formats import format_of, read_sheet, trimmed
from generator.model.table.patch import Edits, Unwritable, patched
from generator.model.table.places import SheetPlace, change_place
from generator.yamlio.writeback import prepare, write_all

Change = tuple[Path, tuple[Any, ...], str, str]  # (file, key path, language, text), as writeback.prepare takes them


@dataclass
class SheetWrite:
    """The texts to write into one spreadsheet file (into one or more of its sheets): its new bytes, or why it
    cannot be written."""

    file: Path
    texts: list[tuple[Change, SheetPlace]] = field(default_factory=list)
    data: bytes | None = None  # read back as intended; None: nothing of it is written
    why: str | None = None
    added: list[str] = field(default_factory=list)  # the columns added, like `name.de (J)`

    def describe(self) -> str:
        names = dict.fromkeys(place.source.name for _, place in self.texts if place.source.name)
        sheets = f" (sheet {', '.join(repr(name) for name in names)})" if names else ""
        added = f", adding the column(s) {', '.join(self.added)}" if self.added else ""
        return f"{len(self.texts)} text(s) into {self.file.name}{sheets}{added}"


@dataclass
class TextWrites:
    """Every file a set of text changes writes, prepared and checked, nothing written yet."""

    yaml: dict[Path, str]  # file -> its new text
    sheets: list[SheetWrite]

    @property
    def files(self) -> list[Path]:
        return list(self.yaml) + [sheet.file for sheet in self.sheets if sheet.data is not None]

    @property
    def unwritten(self) -> list[tuple[Change, SheetPlace, str]]:
        """(change, its cell, why) of each text that cannot be written."""
        refused = [sheet for sheet in self.sheets if sheet.data is None]
        return [(change, place, sheet.why or "") for sheet in refused for change, place in sheet.texts]

    def write(self) -> None:
        """Write every file that can be (inside the caller's OutputSet: together, or none)."""
        write_all(self.yaml)
        for sheet in self.sheets:
            if sheet.data is not None:
                write_atomic(sheet.file, sheet.data)


def prepare_texts(game: Game, changes: list[Change]) -> TextWrites:
    """The new text of every YAML file and the new bytes of every spreadsheet the changes touch, each checked to
    read back as intended; InputError for a YAML file that would not."""
    in_yaml: list[Change] = []
    sheets: dict[Path, SheetWrite] = {}
    for change in changes:
        file, path, lang, _text = change
        found = change_place(game, file, path, lang)
        if found is None:
            in_yaml.append(change)  # writeback refuses a spreadsheet's text it is given, naming the file
            continue
        sheets.setdefault(file, SheetWrite(file)).texts.append((change, found))
    for sheet in sheets.values():
        try:
            sheet.data = sheet_bytes(sheet)
        except Unwritable as error:
            sheet.why = str(error)
    return TextWrites(prepare(in_yaml), list(sheets.values()))


def sheet_bytes(write: SheetWrite) -> bytes:
    """The spreadsheet with the texts in their cells and a column added for each language a sheet lacks, read
    back."""
    fmt = format_of(write.file)
    by_sheet: dict[SheetSource, list[tuple[str, SheetPlace]]] = {}
    for (_file, _path, _lang, text), place in write.texts:
        by_sheet.setdefault(place.source, []).append((text, place))
    edits: dict[str | None, Edits] = {}
    expected: dict[str | None, list[list[Any]]] = {}
    for source, texts in by_sheet.items():
        rows = current_rows(source, fmt)
        edits[source.name], added = sheet_edits(rows, texts)
        write.added += [f"{source.name}!{label}" if len(by_sheet) > 1 else label for label in added]
        expected[source.name] = with_edits(rows, edits[source.name])
    data = patched(fmt, write.file, edits)
    if any(read_back(data, fmt, name) != rows for name, rows in expected.items()):
        raise Unwritable("the written file would not read back as the texts say")
    return data


def current_rows(source: SheetSource, fmt: str) -> list[list[Any]]:
    """The sheet's cells as they are now, which must still have the columns the game was read with."""
    try:
        sheet = read_sheet(source.file, fmt=fmt, named=source.name)
    except InputError as error:
        raise Unwritable(f"it cannot be read again ({error.problems[0].message})") from None
    labels = tuple("" if label is None else str(label).strip() for label in sheet.rows[0])
    if labels != source.labels:
        raise Unwritable("its columns changed since the game was read; run the command again")
    return sheet.rows


def sheet_edits(rows: list[list[Any]], texts: list[tuple[str, SheetPlace]]) -> tuple[Edits, list[str]]:
    """The cells to write in one sheet (a new column's header too), and the columns added, like `name.de (J)`."""
    edits: Edits = {}
    new_columns: dict[str, int] = {}
    for text, place in texts:
        col = place.col
        if col is None:
            col = new_columns.setdefault(place.label, len(rows[0]) + len(new_columns))
            edits[(0, col)] = place.label
        cell = (place.row - 1, col)
        edits[cell] = in_yaml_cell(edits.get(cell, cell_value(rows, cell)), place, text) if place.in_yaml else text
    return edits, [f"{label} ({column_letters(col)})" for label, col in new_columns.items()]


def cell_value(rows: list[list[Any]], cell: tuple[int, int]) -> Any:
    row, col = cell
    return rows[row][col] if row < len(rows) and col < len(rows[row]) else None


def in_yaml_cell(raw: Any, place: SheetPlace, text: str) -> str:
    """The cell of YAML (a list of objects) with the text set at the place's keys, in the language."""
    try:
        value = read_yaml(str(raw)) if raw is not None else None
    except CellError as error:
        raise Unwritable(f"cell {place.cell} holds no YAML pnpgen can read ({error})") from None
    node: Any = value
    for key in place.inner:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            raise Unwritable(f"cell {place.cell} no longer holds the text") from None
    if not isinstance(node, dict):
        raise Unwritable(f"cell {place.cell} holds the text in one language only: it has no room for another")
    node[place.lang] = text
    return flow_yaml(value)


def with_edits(rows: list[list[Any]], edits: Edits) -> list[list[Any]]:
    expected = [list(row) for row in rows]
    for (row, col), value in edits.items():
        expected += [[] for _ in range(row + 1 - len(expected))]
        expected[row] += [None] * (col + 1 - len(expected[row]))
        expected[row][col] = value
    return trimmed(expected)


def read_back(data: bytes, fmt: str, sheet: str | None) -> list[list[Any]] | None:
    """The sheet's cells as the game's loader would read them from these bytes (None: not readable)."""
    with tempfile.TemporaryDirectory(prefix="pnpgen-sheet-") as folder:
        probe = Path(folder) / f"written.{fmt}"
        probe.write_bytes(data)
        try:
            return read_sheet(probe, fmt=fmt, named=sheet).rows
        except InputError:
            return None
