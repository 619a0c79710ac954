"""Every sheet of an XLSX or ODS file measured from its own XML before python-calamine reads any of it.

python-calamine allocates a sheet as the rectangle from A1 to its last value (and an ODS cell repeated a
million times as a million cells) before it returns anything, so one value at XFD1048576 asks for hundreds of
gigabytes and aborts the process. Its declared size (an XLSX `<dimension>`) is a claim, not a bound. So each
part is streamed here through expat (no DTD, so no entity can expand), with the same rules calamine uses to
place values (an XLSX cell's `r`, or the cell after the previous one; ODS repeats), and the sheet is refused
at the first value beyond the limits, naming that cell: rows, columns, the rectangle's cells, the cells holding
values, and the characters calamine would copy into them (a shared string is copied into every cell that
names it, an ODS cell into every repeat). Everything this pass keeps is bounded by those limits.

The scan also says what calamine does not: which sheets are hidden, and which cells are formulas (a value
pnpgen would otherwise read as the spreadsheet last computed it). Constant booleans, as LibreOffice writes
every boolean (`of:=TRUE()` holding the number 1) and as Excel stores a typed `=TRUE()`, are read as booleans;
any other formula is a located error.
"""

from __future__ import annotations

import posixpath
import re
import xml.parsers.expat
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from generator.errors import InputError, Problem
from generator.model.table.archive import Archive, Overflow
from generator.model.table.columns import column_letters

MAX_ROWS = 100_000
MAX_COLUMNS = 1_000
MAX_CELLS = 500_000  # the rectangle from A1 to the last value, and the cells holding values (10,000 cards x 50)
MAX_TEXT_CHARS = 10_000_000  # the characters of every value, as calamine copies them
MAX_ELEMENTS = 2_000_000  # XML elements in the whole file: a 500,000-cell sheet has about 1,050,000
SHOWN_FORMULAS = 50
FORMULA_SHOWN_CHARS = 60
TRIM_HINT = "delete the rows and columns beyond the cards (select them, Delete) and save again"
CONSTANT_BOOLEAN = re.compile(r"\s*(?:[a-z]+:)?=?\s*(TRUE|FALSE)\s*(?:\(\s*\))?\s*", re.IGNORECASE)
CELL_REF = re.compile(r"([A-Z]{1,3})([0-9]{1,7})")
BOOLEAN_BITS = 11  # a boolean cell is kept as (row << BOOLEAN_BITS) | (column << 1) | value
VALUE_ATTRIBUTES = {"value", "string-value", "date-value", "time-value", "boolean-value"}


class Refused(Exception):
    """A limit crossed at a cell (row and column from 0) of the sheet being scanned."""

    def __init__(self, message: str, row: int = 0, col: int = 0, hint: str = TRIM_HINT):
        super().__init__(message)
        self.message, self.row, self.col, self.hint = message, row, col, hint


@dataclass
class SheetScan:
    """One sheet as measured: its extent, the values it holds, its formulas."""

    name: str
    part: str = ""
    hidden: bool = False
    rows: int = 0  # one past the last row holding a value (from row 1)
    columns: int = 0
    cells: int = 0  # cells holding values, each repeat counted
    chars: int = 0
    shared: array[int] = field(default_factory=lambda: array("L"))  # XLSX: the shared string each cell names
    booleans: array[int] = field(default_factory=lambda: array("Q"))
    formulas: list[tuple[int, int, str | None]] = field(default_factory=list)  # of the first SHOWN_FORMULAS
    formula_count: int = 0

    def value(self, row: int, col: int, rows: int = 1, cols: int = 1, chars: int = 0) -> None:
        """Values in the rows x cols block at (row, col), each of `chars` characters: refused past a limit."""
        last_row, last_col = row + rows - 1, col + cols - 1
        if last_col >= MAX_COLUMNS:
            raise Refused(
                f"values reach column {column_letters(last_col)} ({last_col + 1:,}): "
                f"at most {MAX_COLUMNS:,} columns are read",
                row,
                max(col, MAX_COLUMNS),
            )
        if last_row >= MAX_ROWS:
            raise Refused(
                f"values reach row {last_row + 1:,}: at most {MAX_ROWS:,} rows are read", max(row, MAX_ROWS), col
            )
        self.rows, self.columns = max(self.rows, last_row + 1), max(self.columns, last_col + 1)
        if self.rows * self.columns > MAX_CELLS:
            raise Refused(
                f"the values span {self.rows:,} rows x {self.columns:,} columns: more than {MAX_CELLS:,} cells",
                last_row,
                last_col,
            )
        self.cells += rows * cols
        if self.cells > MAX_CELLS:
            raise Refused(f"more than {MAX_CELLS:,} cells hold values", last_row, last_col)
        self.add_chars(chars * rows * cols, last_row, last_col)

    def add_chars(self, chars: int, row: int, col: int) -> None:
        self.chars += chars
        if self.chars > MAX_TEXT_CHARS:
            raise Refused(
                f"the cells hold more than {MAX_TEXT_CHARS:,} characters",
                row,
                col,
                "a card list is far smaller: is this the file you meant?",
            )

    def formula(self, row: int, col: int, text: str | None, rows: int = 1, cols: int = 1) -> None:
        """A formula cell (block): a constant boolean becomes its value, any other is remembered as an error."""
        match = CONSTANT_BOOLEAN.fullmatch(text) if text is not None else None
        if match:
            flag = int(match[1].upper() == "TRUE")
            for r in range(row, row + rows):
                self.booleans.extend((r << BOOLEAN_BITS) | (c << 1) | flag for c in range(col, col + cols))
            return
        self.formula_count += rows * cols
        if len(self.formulas) < SHOWN_FORMULAS:
            self.formulas.append((row, col, text))

    def boolean_cells(self) -> Iterator[tuple[int, int, bool]]:
        mask = (1 << (BOOLEAN_BITS - 1)) - 1
        for packed in self.booleans:
            yield packed >> BOOLEAN_BITS, (packed >> 1) & mask, bool(packed & 1)


@dataclass
class Book:
    """The sheets of a workbook in their order, each measured."""

    path: Path
    sheets: list[SheetScan]


def scan_book(path: Path) -> Book:
    """Every part of the file inflated within bounds and every sheet measured; InputError naming the file,
    the sheet and the cell at the first limit crossed. The kind of workbook is told by its parts, as
    python-calamine tells it, and one that could be read two ways is refused."""
    with Archive(path) as archive:
        entries = archive.entries
        if "xl/workbook.bin" in entries:
            raise archive.error("an XLSB workbook", "save it as .xlsx or .ods")
        if "xl/workbook.xml" in entries and "content.xml" in entries:
            raise archive.error("the archive holds both an XLSX workbook and ODS content")
        if "xl/workbook.xml" in entries:
            return Book(Path(path), XlsxScan(archive).scan())
        if "content.xml" in entries:
            return Book(Path(path), OdsScan(archive).scan())
        raise archive.error("not an XLSX or ODS spreadsheet", "save it as .xlsx or .ods")


def cell_name(row: int, col: int) -> str:
    return f"{column_letters(col)}{row + 1}"


# --- XML, streamed ---------------------------------------------------------------------------------


class PartParser:
    """One part streamed through expat: handlers get local names and attributes by local name; no DTD."""

    def __init__(self, archive: Archive, counter: list[int]):
        self.archive, self.counter = archive, counter

    def parse(
        self,
        part: str,
        start: Callable[[str, dict[str, str]], None],
        end: Callable[[str], None] | None = None,
        text: Callable[[str], None] | None = None,
        where: Callable[[], tuple[int, int] | None] | None = None,
    ) -> None:
        """Stream the part through the handlers; Refused at `where()` (the cell reached) when the archive's
        budget runs out inside it."""
        parser = xml.parsers.expat.ParserCreate()
        parser.buffer_text = True

        def on_start(name: str, attributes: dict[str, str]) -> None:
            self.counter[0] += 1
            if self.counter[0] > MAX_ELEMENTS:
                raise self.archive.error(f"more than {MAX_ELEMENTS:,} XML elements", part=part)
            start(local(name), attributes)

        def refuse_dtd(*_args: object) -> None:
            raise self.archive.error("the part declares a DTD, which no spreadsheet program writes", part=part)

        parser.StartElementHandler = on_start
        parser.StartDoctypeDeclHandler = refuse_dtd
        parser.EntityDeclHandler = refuse_dtd
        if end is not None:
            parser.EndElementHandler = lambda name: end(local(name))
        if text is not None:
            parser.CharacterDataHandler = text
        try:
            for chunk in self.archive.chunks(part):
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
        except xml.parsers.expat.ExpatError as error:
            raise self.archive.error(f"malformed XML ({error})", part=part) from None
        except Overflow:
            cell = where() if where is not None else None
            if cell is None:
                raise self.archive.error(Overflow.message, Overflow.hint, part) from None
            raise Refused(Overflow.message, cell[0], cell[1], Overflow.hint) from None


def local(name: str) -> str:
    return name.rpartition(":")[2]


def attribute(attributes: dict[str, str], name: str, prefix: str | None = None) -> str | None:
    """An attribute by its local name (by its full name when `prefix` is given and present)."""
    if prefix is not None and f"{prefix}:{name}" in attributes:
        return attributes[f"{prefix}:{name}"]
    if name in attributes:
        return attributes[name]
    return next((value for key, value in attributes.items() if local(key) == name), None)


def whole(text: str | None, default: int, archive: Archive, part: str) -> int:
    if text is None:
        return default
    if not text.strip().isdigit() or len(text.strip()) > 9:
        raise archive.error(f"'{text[:20]}' where a count was expected", part=part)
    return int(text)


# --- XLSX ------------------------------------------------------------------------------------------


class XlsxScan:
    """Every part of an XLSX archive inflated; its workbook's sheets in order, each part holding cells
    measured, the shared strings' lengths counted into the cells that name them."""

    def __init__(self, archive: Archive):
        self.archive = archive
        self.parser = PartParser(archive, [0])
        self.sheets: list[SheetScan] = []
        self.shared_lengths = array("L")

    def scan(self) -> list[SheetScan]:
        entries = self.archive.entries
        targets = self.relationships("xl/_rels/workbook.xml.rels") if "xl/_rels/workbook.xml.rels" in entries else {}
        self.workbook(targets)
        strings = next((target for target, kind in targets.values() if kind.endswith("/sharedStrings")), None)
        if strings in entries:  # first, so that a cell naming a long string is counted as it streams by
            self.part(strings, SheetScan(strings, strings))
        sheet_parts = [sheet.part for sheet in self.sheets if sheet.part in entries] + [strings]
        for sheet in self.sheets:  # the sheets next: one that crosses a limit is named at its cell
            if sheet.part in entries:
                self.part(sheet.part, sheet)
        self.archive.check_declared()
        scanned = [sheet for sheet in self.sheets if sheet.part in entries]
        for name in entries:
            if name in ("xl/workbook.xml", "xl/_rels/workbook.xml.rels") or name in sheet_parts:
                continue
            if name.endswith((".xml", ".rels", ".vml")):  # any part could be what calamine reads as a sheet
                scanned.append(SheetScan(name, name))
                self.part(name, scanned[-1])
            else:
                self.archive.measure(name)
        for sheet in scanned:
            self.count_shared(sheet)
        return self.sheets

    def relationships(self, part: str) -> dict[str, tuple[str, str]]:
        """The workbook's relationships: id -> (the part it names, its type)."""
        targets: dict[str, tuple[str, str]] = {}

        def start(name: str, attrs: dict[str, str]) -> None:
            if name == "Relationship" and attrs.get("Id") and attrs.get("Target"):
                target = attrs["Target"]
                resolved = target.lstrip("/") if target.startswith("/") else posixpath.join("xl", target)
                targets[attrs["Id"]] = (posixpath.normpath(resolved), attrs.get("Type", ""))

        self.parser.parse(part, start)
        return targets

    def workbook(self, targets: dict[str, tuple[str, str]]) -> None:
        def start(name: str, attrs: dict[str, str]) -> None:
            if name == "sheet" and "name" in attrs:
                rel = next((value for key, value in attrs.items() if key != "id" and local(key) == "id"), None)
                hidden = attrs.get("state") in ("hidden", "veryHidden")
                self.sheets.append(SheetScan(attrs["name"], targets.get(rel or "", ("", ""))[0], hidden))

        self.parser.parse("xl/workbook.xml", start)

    def part(self, part: str, sheet: SheetScan) -> None:
        """Any part: its cells (inside `sheetData`) measured into `sheet`, its shared strings counted."""
        cells = XlsxCells(sheet, self)
        try:
            self.parser.parse(part, cells.start, cells.end, cells.text, lambda: (cells.row, cells.col))
        except Refused as refused:
            raise located(self.archive.path, sheet, refused) from None

    def count_shared(self, sheet: SheetScan) -> None:
        lengths = self.shared_lengths
        chars = 0
        for index in sheet.shared:
            chars += lengths[index] if index < len(lengths) else 0
        try:
            sheet.add_chars(chars, max(sheet.rows - 1, 0), max(sheet.columns - 1, 0))
        except Refused as refused:
            raise located(self.archive.path, sheet, refused) from None


class XlsxCells:
    """The expat handlers for one XLSX part: cells placed as calamine places them (a cell's `r`, else the
    cell after the previous one; a row's `r` sets the row, its end moves to the next), shared strings
    (`<si>`) counted with their lengths."""

    def __init__(self, sheet: SheetScan, book: XlsxScan):
        self.sheet, self.book = sheet, book
        self.in_data = False
        self.row = self.col = 0
        self.cell: tuple[int, int] | None = None
        self.has_value = False
        self.cell_type: str | None = None
        self.shared_formula: tuple[str, str | None, bool] | None = None  # (si, ref, is master)
        self.formula_text: list[str] | None = None
        self.value_text: list[str] | None = None
        self.chars = 0
        self.counting: str | None = None  # inside a <v>, <t> or <f> (its name): its characters count
        self.string_chars: int | None = None  # inside a shared string <si>
        self.shared_kinds: dict[str, str | None] = {}  # a shared formula's index -> its master's text
        self.root: str | None = None

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if self.root is None:
            self.root = name
            if name == "sst" and self.book.shared_lengths:
                raise self.book.archive.error("two shared string tables", part=self.sheet.part)
        if name == "sheetData":
            self.in_data = True
        elif not self.in_data:
            if name == "si" and self.root == "sst":
                self.string_chars = 0
            elif name == "t" and self.string_chars is not None:
                self.counting = "t"
            elif name == "dimension" and "ref" in attrs:
                self.dimension(attrs["ref"])
        elif name == "row":
            if "r" in attrs:
                row = whole(attrs["r"], 1, self.book.archive, self.sheet.part)
                self.row = max(row - 1, 0)
        elif name == "c":
            self.cell = self.position(attrs.get("r"))
            self.has_value, self.cell_type, self.chars = False, attrs.get("t"), 0
            self.formula_text = self.value_text = self.shared_formula = None
        elif self.cell is not None:
            if name in ("v", "is"):
                self.has_value = True
                if name == "v":
                    self.value_text, self.counting = [], "v"
            elif name == "t":
                self.counting = "t"
            elif name == "f":
                self.formula_text, self.counting = [], "f"
                if attrs.get("t") == "shared" and "si" in attrs:
                    self.shared_formula = (attrs["si"], attrs.get("ref"), bool(attrs.get("ref")))

    def end(self, name: str) -> None:
        if name in ("v", "t", "f"):
            self.counting = None
        if name == "si" and self.string_chars is not None:
            self.book.shared_lengths.append(self.string_chars)
            if len(self.book.shared_lengths) > MAX_CELLS:
                raise Refused(f"more than {MAX_CELLS:,} shared strings")
            self.string_chars = None
        elif name == "sheetData":
            self.in_data = False
        elif name == "row" and self.in_data:
            self.row += 1
            self.col = 0
        elif name == "c" and self.cell is not None:
            self.end_cell()

    def text(self, data: str) -> None:
        if not self.counting:
            return
        if self.string_chars is not None:
            self.string_chars += len(data)
            return
        self.chars += len(data)
        kept = {"f": self.formula_text, "v": self.value_text}.get(self.counting)
        if kept is not None and sum(map(len, kept)) < FORMULA_SHOWN_CHARS:
            kept.append(data)

    def position(self, ref: str | None) -> tuple[int, int]:
        if ref is None:
            return self.row, self.col
        match = CELL_REF.fullmatch(ref)
        if not match:
            raise self.book.archive.error(f"'{ref[:20]}' is not a cell name", part=self.sheet.part)
        col = 0
        for letter in match[1]:
            col = col * 26 + ord(letter) - 64
        self.col = col - 1
        return int(match[2]) - 1, col - 1

    def dimension(self, ref: str) -> None:
        """The sheet's declared extent: refused as soon as it claims more than the limits (a first cheap check;
        the cells themselves are measured as they stream by)."""
        last = ref.split(":")[-1].replace("$", "")
        match = CELL_REF.fullmatch(last)
        if not match:
            return
        col = 0
        for letter in match[1]:
            col = col * 26 + ord(letter) - 64
        rows, cols = int(match[2]), col
        if rows > MAX_ROWS or cols > MAX_COLUMNS or rows * cols > MAX_CELLS:
            raise Refused(
                f"the sheet declares cells up to {last} (its dimension): more than {MAX_ROWS:,} rows, "
                f"{MAX_COLUMNS:,} columns or {MAX_CELLS:,} cells",
                rows - 1,
                cols - 1,
            )

    def end_cell(self) -> None:
        assert self.cell is not None
        row, col = self.cell
        self.col = col + 1
        formula = self.formula_text is not None
        if self.has_value or formula:
            self.sheet.value(row, col, chars=self.chars)
            if self.cell_type == "s" and self.value_text:
                self.shared_string(row, col, "".join(self.value_text).strip())
        if formula:
            self.sheet.formula(row, col, self.formula_source())
        self.cell = None

    def shared_string(self, row: int, col: int, index: str) -> None:
        """A cell naming a shared string holds a copy of it: counted now when the string is known, else once
        every part has been read."""
        if not index.isdigit() or len(index) > 9:
            return
        lengths = self.book.shared_lengths
        if int(index) < len(lengths):
            self.sheet.add_chars(lengths[int(index)], row, col)
        else:
            self.sheet.shared.append(int(index))

    def formula_source(self) -> str | None:
        """The formula's text; a shared formula's follower has none of its own: its master's, when known."""
        text = "".join(self.formula_text or [])
        if self.shared_formula is None:
            return text
        index, _ref, master = self.shared_formula
        if master:
            if len(self.shared_kinds) < MAX_CELLS:
                self.shared_kinds[index] = text[:FORMULA_SHOWN_CHARS]
            return text
        return self.shared_kinds.get(index)


# --- ODS -------------------------------------------------------------------------------------------


class OdsScan:
    """content.xml streamed once: hidden tables (a table style with `table:display="false"`), and every
    table's values placed with their row and column repeats."""

    def __init__(self, archive: Archive):
        self.archive = archive
        self.parser = PartParser(archive, [0])
        self.sheets: list[SheetScan] = []

    def scan(self) -> list[SheetScan]:
        content = OdsCells(self)
        try:
            self.parser.parse(
                "content.xml",
                content.start,
                content.end,
                content.text,
                lambda: (content.row, content.col) if content.sheet else None,
            )
        except Refused as refused:
            raise located(self.archive.path, content.sheet, refused) from None
        self.archive.check_declared()
        for name in self.archive.entries:
            if name != "content.xml":
                self.archive.measure(name)
        return self.sheets


class OdsCells:
    """The expat handlers for content.xml, placing values as calamine does: a row repeated N times is N
    rows, a cell repeated N times N cells; a cell holds a value when it has a value attribute, a formula or
    the string type."""

    def __init__(self, book: OdsScan):
        self.book = book
        self.hidden_styles: set[str] = set()
        self.style: str | None = None
        self.sheet: SheetScan | None = None
        self.row = 0
        self.row_repeats = 1
        self.col = 0
        self.cell: tuple[int, int, bool, str | None] | None = None  # col, repeats, holds a value, formula
        self.chars = 0
        self.note_depth = 0  # inside an annotation: its text is not the cell's

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if name == "style":
            self.style = attribute(attrs, "name", "style")
        elif name == "table-properties" and self.style and attribute(attrs, "display", "table") == "false":
            self.hidden_styles.add(self.style)
        elif name == "table" and self.cell is None:
            table = SheetScan(attribute(attrs, "name", "table") or "", "content.xml")
            table.hidden = attribute(attrs, "style-name", "table") in self.hidden_styles
            self.book.sheets.append(table)
            self.sheet, self.row = table, 0
        elif self.sheet is None:
            return
        elif name == "table-row":
            self.row_repeats = self.count(attrs, "number-rows-repeated")
            self.col = 0
        elif name in ("table-cell", "covered-table-cell"):
            self.start_cell(attrs)
        elif name == "annotation":
            self.note_depth += 1
        elif name == "s" and self.cell is not None and not self.note_depth:
            self.chars += self.count(attrs, "c")
        elif name in ("tab", "line-break", "p") and self.cell is not None and not self.note_depth:
            self.chars += 1

    def count(self, attrs: dict[str, str], name: str) -> int:
        archive = self.book.archive
        counts = [whole(value, 1, archive, "content.xml") for key, value in attrs.items() if local(key) == name]
        return max(counts, default=1)

    def start_cell(self, attrs: dict[str, str]) -> None:
        repeats = self.count(attrs, "number-columns-repeated")
        formula = attribute(attrs, "formula", "table") or None
        value_type = attribute(attrs, "value-type", "office")
        holds = formula is not None or value_type == "string" or any(local(k) in VALUE_ATTRIBUTES for k in attrs)
        string_value = attribute(attrs, "string-value", "office") or ""
        self.chars = len(string_value) + len(formula or "")
        self.cell = (self.col, repeats, holds, formula)

    def end(self, name: str) -> None:
        if name == "annotation":
            self.note_depth -= 1
        elif name in ("table-cell", "covered-table-cell") and self.cell is not None and self.sheet is not None:
            col, repeats, holds, formula = self.cell
            if holds:
                self.sheet.value(self.row, col, self.row_repeats, repeats, self.chars)
                if formula is not None:
                    self.sheet.formula(self.row, col, formula, self.row_repeats, repeats)
            self.col = col + repeats
            self.cell = None
        elif name == "table-row" and self.sheet is not None:
            self.row += self.row_repeats
            self.row_repeats, self.col = 1, 0
        elif name == "table" and self.cell is None:
            self.sheet = None
        elif name == "style":
            self.style = None

    def text(self, data: str) -> None:
        if self.cell is not None and not self.note_depth:
            self.chars += len(data)


def located(path: Path, sheet: SheetScan | None, refused: Refused) -> InputError:
    name = sheet.name if sheet is not None else ""
    cell = f"{name}!{cell_name(refused.row, refused.col)}" if name else cell_name(refused.row, refused.col)
    return InputError(Problem(path, None, refused.message, hint=refused.hint, cell=cell))
