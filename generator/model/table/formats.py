"""Spreadsheet files, one reader and writer per format behind one interface: a Sheet in, a Sheet out.

XLSX is written by openpyxl, ODS by odfpy (both can freeze the header row, attach a comment to a header cell
and give a column a drop-down list); both are read by python-calamine, which reads a 10,000-row sheet about
ten times faster than openpyxl and thirty times faster than odfpy (bench/tables.py). CSV uses the standard
library; as it has no cell types, a text cell that a spreadsheet would run as a formula (starting with
= + - @) is written with a leading apostrophe, which reading takes off again.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from generator.errors import InputError, Problem, ProblemList
from generator.model.table.columns import CellValue, ReadCell, blank, column_letters
from generator.model.table.scan import Book, Refused, SheetScan, cell_name, scan_book

FORMATS = ("csv", "xlsx", "ods")
MAX_FILE_BYTES = 50 * 1024 * 1024
MAX_CSV_ROW_CHARS = 1_000_000  # a CSV row (its lines, when a cell holds line breaks) the csv module may hold
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "'")  # "'" too, so that the guard reads back unambiguously
TEXT_FORMAT = "@"  # Excel's number format of text
LIST_INLINE_MAX = 255  # Excel's limit for a drop-down list written into the validation itself
EXTRA_VALIDATED_ROWS = 500  # drop-downs and text formats reach this far below the last card, for new rows
OdfClass = Callable[..., Any]  # an odfpy element class (odfpy has no type information: its elements are Any)


@dataclass
class Header:
    label: str
    doc: str = ""
    choices: list[object] = field(default_factory=list)
    width: int = 12
    text: bool = False  # a text column: its cells are formatted as text, so that 007 typed stays 007


@dataclass
class Sheet:
    """The cells of one sheet: row 0 is the header. `name` is None for a CSV file (it has no sheets)."""

    file: Path
    name: str | None
    rows: list[list[ReadCell]]
    notes: ProblemList = field(default_factory=ProblemList)  # warnings: what was read differently than written

    def cell(self, row: int, col: int) -> str:
        """The spreadsheet's name of a cell, like `assets!C12` (rows and columns from 0)."""
        ref = f"{column_letters(col)}{row + 1}"
        return f"{self.name}!{ref}" if self.name else ref

    def problem(self, row: int, col: int, message: str, key: str | None = None, hint: str | None = None) -> Problem:
        return Problem(self.file, None, message, key, hint, cell=self.cell(row, col))


def format_of(path: Path, given: str | None = None) -> str:
    fmt = (given or Path(path).suffix.lstrip(".")).lower()
    if fmt not in FORMATS:
        raise InputError(
            Problem(
                Path(path),
                None,
                f"unknown spreadsheet format '{fmt or Path(path).name}'",
                hint="use a .csv, .xlsx or .ods file, or --format csv|xlsx|ods",
            )
        )
    return fmt


# --- writing --------------------------------------------------------------------------------------


def write_sheet(fmt: str, name: str, headers: list[Header], rows: list[list[CellValue]]) -> bytes:
    """The file's bytes (the caller writes them atomically)."""
    return {"csv": write_csv, "xlsx": write_xlsx, "ods": write_ods}[fmt](sheet_title(name), headers, rows)


def sheet_title(name: str) -> str:
    """A sheet name every program accepts: at most 31 characters, none of []:*?/\\."""
    return "".join("-" if c in "[]:*?/\\" else c for c in name)[:31] or "cards"


def csv_text(value: CellValue) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, float) else str(value)
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def write_csv(name: str, headers: list[Header], rows: list[list[CellValue]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([csv_text(h.label) for h in headers])
    writer.writerows([[csv_text(value) for value in row] for row in rows])
    return buffer.getvalue().encode("utf-8-sig")  # the mark tells Excel the file is UTF-8


def write_xlsx(name: str, headers: list[Header], rows: list[list[CellValue]]) -> bytes:
    from openpyxl import Workbook
    from openpyxl.comments import Comment
    from openpyxl.styles import Font
    from openpyxl.worksheet.datavalidation import DataValidation

    book = Workbook()
    sheet = book.active
    sheet.title = name
    sheet.append([h.label for h in headers])
    for row in rows:
        sheet.append(row)
    for row in sheet.iter_rows(min_row=2):
        for cell in row:
            if isinstance(cell.value, str) and cell.value.startswith("="):
                cell.data_type = "s"  # text, never a formula
            if headers[cell.column - 1].text:
                cell.number_format = TEXT_FORMAT
    lists = None
    last_row = len(rows) + 1 + EXTRA_VALIDATED_ROWS
    for index, header in enumerate(headers):
        letter = column_letters(index)
        cell = sheet.cell(row=1, column=index + 1)
        cell.font = Font(bold=True)
        if header.doc:
            cell.comment = Comment(header.doc, "pnpgen", width=300, height=120)
        sheet.column_dimensions[letter].width = header.width
        if header.text:  # the rows typed below the cards too
            sheet.column_dimensions[letter].number_format = TEXT_FORMAT
        if not header.choices:
            continue
        inline = ",".join(str(c) for c in header.choices)
        if len(inline) + 2 <= LIST_INLINE_MAX and not any("," in str(c) or '"' in str(c) for c in header.choices):
            formula = f'"{inline}"'
        else:  # a long list lives in a hidden sheet
            lists = lists or book.create_sheet("lists")
            lists.sheet_state = "hidden"
            for row_index, choice in enumerate(header.choices, start=1):
                lists.cell(row=row_index, column=index + 1, value=str(choice)).data_type = "s"
            formula = f"lists!${letter}$1:${letter}${len(header.choices)}"
        validation = DataValidation(type="list", formula1=formula, allow_blank=True, showDropDown=False)
        validation.error = f"choose one of the values of {header.label}"
        validation.add(f"{letter}2:{letter}{last_row}")
        sheet.add_data_validation(validation)
    sheet.freeze_panes = "A2"
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def write_ods(name: str, headers: list[Header], rows: list[list[CellValue]]) -> bytes:
    from odf.number import TextContent, TextStyle
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.office import Annotation
    from odf.style import Style, TableColumnProperties, TextProperties
    from odf.table import ContentValidation, ContentValidations, Table, TableCell, TableColumn, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    bold = Style(name="header", family="table-cell")
    bold.addElement(TextProperties(fontweight="bold"))
    document.automaticstyles.addElement(bold)
    text_format = TextStyle(name="text-format")
    text_format.addElement(TextContent())
    document.automaticstyles.addElement(text_format)
    text_cell = Style(name="text", family="table-cell", datastylename="text-format")
    document.automaticstyles.addElement(text_cell)
    table = Table(name=name)
    validation_of = {}
    validations = ContentValidations()
    for index, header in enumerate(headers):
        width = Style(name=f"col{index}", family="table-column")
        width.addElement(TableColumnProperties(columnwidth=f"{header.width * 0.21:.2f}cm"))
        document.automaticstyles.addElement(width)
        column = {"defaultcellstylename": text_cell} if header.text else {}  # every cell below the header
        table.addElement(TableColumn(stylename=width, **column))
        if header.choices:
            quoted = ";".join('"' + str(c).replace('"', '""') + '"' for c in header.choices)
            validation_of[index] = f"list{index}"
            validations.addElement(
                ContentValidation(
                    name=f"list{index}",
                    condition=f"of:cell-content-is-in-list({quoted})",
                    allowemptycell="true",
                    displaylist="unsorted",
                    basecelladdress=f"{name}.{column_letters(index)}2",
                )
            )
    if validation_of:
        document.spreadsheet.addElement(validations)
    header_row = TableRow()
    for header in headers:
        cell = TableCell(valuetype="string", stylename=bold)
        if header.doc:
            note = Annotation()
            for line in header.doc.split("\n"):
                note.addElement(P(text=line))
            cell.addElement(note)
        cell.addElement(P(text=header.label))
        header_row.addElement(cell)
    table.addElement(header_row)
    for row in rows:
        table.addElement(ods_row(row, validation_of, TableRow, TableCell, P))
    if validation_of or any(header.text for header in headers):  # Calc formats only rows the file has
        spare = ods_row([None] * len(headers), validation_of, TableRow, TableCell, P)
        spare.setAttribute("numberrowsrepeated", str(EXTRA_VALIDATED_ROWS))
        table.addElement(spare)
    document.spreadsheet.addElement(table)
    freeze_header(document, name)
    buffer = io.BytesIO()
    document.write(buffer)
    return buffer.getvalue()


def ods_row(
    values: list[CellValue],
    validation_of: dict[int, str],
    TableRow: OdfClass,  # noqa: N803 (odfpy's element classes)
    TableCell: OdfClass,  # noqa: N803
    P: OdfClass,  # noqa: N803
) -> Any:
    row = TableRow()
    for index, value in enumerate(values):
        extra = {"contentvalidationname": validation_of[index]} if index in validation_of else {}
        if value is None or value == "":
            cell = TableCell(**extra)
        elif isinstance(value, bool):
            cell = TableCell(valuetype="boolean", booleanvalue="true" if value else "false", **extra)
            cell.addElement(P(text="TRUE" if value else "FALSE"))
        elif isinstance(value, (int, float)):
            cell = TableCell(valuetype="float", value=str(value), **extra)
            cell.addElement(P(text=str(value)))
        else:
            cell = TableCell(valuetype="string", **extra)
            for line in str(value).split("\n"):
                cell.addElement(P(text=line))
        row.addElement(cell)
    return row


def freeze_header(document: Any, table_name: str) -> None:  # an odfpy OpenDocumentSpreadsheet
    """LibreOffice's view settings for a frozen first row."""
    from odf.config import ConfigItem, ConfigItemMapEntry, ConfigItemMapIndexed, ConfigItemMapNamed, ConfigItemSet

    def item(name: str, kind: str, value: object) -> Any:
        element = ConfigItem(name=name, type=kind)
        element.addText(str(value))
        return element

    tables = ConfigItemMapNamed(name="Tables")
    entry = ConfigItemMapEntry(name=table_name)
    for name, kind, value in [
        ("VerticalSplitMode", "short", 2),
        ("VerticalSplitPosition", "int", 1),
        ("ActiveSplitRange", "short", 2),
        ("PositionTop", "int", 0),
        ("PositionBottom", "int", 1),
    ]:
        entry.addElement(item(name, kind, value))
    tables.addElement(entry)
    view = ConfigItemMapEntry()
    view.addElement(item("ViewId", "string", "view1"))
    view.addElement(tables)
    view.addElement(item("ActiveTable", "string", table_name))
    views = ConfigItemMapIndexed(name="Views")
    views.addElement(view)
    settings = ConfigItemSet(name="ooo:view-settings")
    settings.addElement(views)
    document.settings.addElement(settings)


# --- reading --------------------------------------------------------------------------------------


def read_sheet(path: Path, preferred: str | None = None, fmt: str | None = None, named: str | None = None) -> Sheet:
    """A sheet of a file, with trailing empty rows and columns cut: the sheet `named`, else the visible sheet
    named `preferred`, else the first visible one. Every sheet is measured before any is read (scan.py)."""
    path = Path(path)
    fmt = format_of(path, fmt)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise InputError(Problem(path, None, "file not found", hint="check the path")) from None
    if size > MAX_FILE_BYTES:
        raise InputError(
            Problem(
                path,
                None,
                f"the file is {size // 2**20} MB, more than {MAX_FILE_BYTES // 2**20} MB",
                hint="a card list is far smaller",
            )
        )
    if fmt == "csv" and named is not None:
        raise InputError(Problem(path, None, "a CSV file has no sheets to name", "--sheet", hint="leave --sheet out"))
    sheet = read_csv(path) if fmt == "csv" else read_book(path, preferred, named)
    sheet.rows = trimmed(sheet.rows)
    if not sheet.rows:
        raise InputError(
            Problem(
                path,
                None,
                "the sheet is empty",
                hint="its first row names the columns; `pnpgen table export` writes one",
            )
        )
    return sheet


def read_csv(path: Path) -> Sheet:
    """A CSV file streamed a row at a time within the limits of a sheet (scan.SheetScan): a line or a row
    longer than MAX_CSV_ROW_CHARS is refused before the csv module holds it, empty rows are kept only once a
    value follows them."""
    measure = SheetScan("")
    rows: list[list[ReadCell]] = []
    blank = 0
    reader = CsvLines(path)
    try:
        with path.open(encoding="utf-8-sig", newline="") as file:
            for row in csv.reader(reader.lines(file)):
                reader.row_done()
                while row and not row[-1]:
                    row.pop()
                if not row:
                    blank += 1
                    continue
                row_index = len(rows) + blank
                measure.value(row_index, len(row) - 1)  # the last value first: a refusal names its cell
                measure.value(row_index, 0, 1, len(row) - 1)
                measure.add_chars(sum(map(len, row)), row_index, len(row) - 1)
                rows += [[] for _ in range(blank)] + [[unguarded(one_line_ends(value)) for value in row]]
                blank = 0
    except UnicodeDecodeError as error:
        raise InputError(
            Problem(path, None, f"not UTF-8 text ({error.reason})", hint="save the file as CSV UTF-8")
        ) from None
    except csv.Error as error:
        raise InputError(Problem(path, reader.line, f"malformed CSV: {error}")) from None
    except Refused as refused:
        cell = cell_name(refused.row, refused.col)
        raise InputError(Problem(path, None, refused.message, hint=refused.hint, cell=cell)) from None
    return Sheet(path, None, rows)


class CsvLines:
    """The lines of a CSV file as the csv module pulls them, each row's characters counted as they come."""

    def __init__(self, path: Path):
        self.path, self.line, self.row_chars = path, 0, 0

    def lines(self, file: TextIO) -> Iterator[str]:
        while True:
            text = file.readline(MAX_CSV_ROW_CHARS + 1)
            if not text:
                return
            self.line += 1
            self.row_chars += len(text)
            if self.row_chars > MAX_CSV_ROW_CHARS:
                raise InputError(
                    Problem(
                        self.path,
                        self.line,
                        f"a row longer than {MAX_CSV_ROW_CHARS:,} characters",
                        hint="a card's row is far shorter: is this the file you meant?",
                    )
                )
            yield text

    def row_done(self) -> None:
        self.row_chars = 0


def one_line_ends(text: str) -> str:
    """Line ends inside a cell as every other reader gives them, line feeds (Windows writes CR LF)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def unguarded(text: str) -> str:
    """A CSV cell as it was before the formula guard of csv_text."""
    return text[1:] if text.startswith("'") and text[1:].startswith(FORMULA_STARTS) else text


def read_book(path: Path, preferred: str | None, named: str | None) -> Sheet:
    """The chosen sheet of an XLSX or ODS file, read by python-calamine once the whole file is measured;
    a formula is an error at its cell, except a constant boolean, which is read as the boolean."""
    book = scan_book(path)
    scan, notes = chosen_sheet(book, preferred, named)
    if scan.formula_count:
        raise InputError(formula_problems(path, scan))
    from python_calamine import CalamineWorkbook

    try:
        with path.open("rb") as file:
            workbook = CalamineWorkbook.from_filelike(file)
        read = workbook.get_sheet_by_name(scan.name).to_python(skip_empty_area=False)
    except InputError:
        raise
    except Exception as error:  # noqa: BLE001 - calamine's errors have no common base class
        raise InputError(
            Problem(path, None, f"cannot read the spreadsheet: {error}", hint="save it again as .xlsx or .ods")
        ) from None
    rows: list[list[ReadCell]] = [[None if value == "" else value for value in row] for row in read]
    for row, col, value in scan.boolean_cells():
        while len(rows) <= row:
            rows.append([])
        rows[row] += [None] * (col + 1 - len(rows[row]))
        rows[row][col] = value
    sheet = Sheet(path, scan.name, rows)
    sheet.notes.add(notes)
    return sheet


def chosen_sheet(book: Book, preferred: str | None, named: str | None) -> tuple[SheetScan, list[Problem]]:
    """The sheet `named` (hidden or not), else the visible sheet called `preferred`, else the first visible
    one: what the user sees is what is read. A hidden sheet called `preferred` is noted, not read."""
    names = ", ".join(sheet.name + (" (hidden)" if sheet.hidden else "") for sheet in book.sheets)
    if named is not None:
        found = next((sheet for sheet in book.sheets if sheet.name == named), None)
        if found is None:
            raise InputError(Problem(book.path, None, f"no sheet '{named}'", hint=f"its sheets: {names}"))
        return found, []
    visible = [sheet for sheet in book.sheets if not sheet.hidden]
    if not visible:
        raise InputError(
            Problem(book.path, None, "every sheet is hidden", hint=f"show one, or name one with --sheet ({names})")
        )
    wanted = sheet_title(preferred) if preferred else None
    chosen = next((sheet for sheet in visible if sheet.name == wanted), visible[0])
    notes = [
        Problem(
            book.path,
            None,
            f"the sheet '{wanted}' is hidden: read the visible sheet '{chosen.name}'",
            hint=f"--sheet {wanted} reads the hidden one",
        )
        for sheet in book.sheets
        if sheet.hidden and sheet.name == wanted and chosen.name != wanted
    ]
    return chosen, notes


def formula_problems(path: Path, scan: SheetScan) -> list[Problem]:
    found = ProblemList()
    for row, col, text in scan.formulas:
        shown = f" ({text})" if text else ""
        found.add(
            [
                Problem(
                    path,
                    None,
                    f"a formula{shown}: pnpgen reads typed values, not formulas",
                    hint="replace it by its value (copy the cell, then paste special: values only)",
                    cell=f"{scan.name}!{cell_name(row, col)}",
                )
            ]
        )
    found.more += scan.formula_count - len(scan.formulas)
    return found.final()


def trimmed(rows: list[list[ReadCell]]) -> list[list[ReadCell]]:
    rows = [list(row) for row in rows]
    while rows and all(blank(v) for v in rows[-1]):
        rows.pop()
    width = max((max((i + 1 for i, v in enumerate(row) if not blank(v)), default=0) for row in rows), default=0)
    return [row[:width] + [None] * (width - len(row)) for row in rows]
