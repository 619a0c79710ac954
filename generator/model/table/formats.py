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
from dataclasses import dataclass, field
from pathlib import Path

from generator.errors import InputError, Problem
from generator.model.table.columns import column_letters

FORMATS = ("csv", "xlsx", "ods")
MAX_FILE_BYTES = 50 * 1024 * 1024
MAX_ROWS = 100_000
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "'")  # "'" too, so that the guard reads back unambiguously
LIST_INLINE_MAX = 255  # Excel's limit for a drop-down list written into the validation itself
EXTRA_VALIDATED_ROWS = 500  # drop-downs reach this far below the last card, for new rows


@dataclass
class Header:
    label: str
    doc: str = ""
    choices: list = field(default_factory=list)
    width: int = 12


@dataclass
class Sheet:
    """The cells of one sheet: row 0 is the header. `name` is None for a CSV file (it has no sheets)."""

    file: Path
    name: str | None
    rows: list[list]

    def cell(self, row: int, col: int) -> str:
        """The spreadsheet's name of a cell, like `assets!C12` (rows and columns from 0)."""
        ref = f"{column_letters(col)}{row + 1}"
        return f"{self.name}!{ref}" if self.name else ref

    def problem(self, row: int, col: int, message: str, key: str | None = None, hint: str | None = None):
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


def write_sheet(fmt: str, name: str, headers: list[Header], rows: list[list]) -> bytes:
    """The file's bytes (the caller writes them atomically)."""
    return {"csv": write_csv, "xlsx": write_xlsx, "ods": write_ods}[fmt](sheet_title(name), headers, rows)


def sheet_title(name: str) -> str:
    """A sheet name every program accepts: at most 31 characters, none of []:*?/\\."""
    return "".join("-" if c in "[]:*?/\\" else c for c in name)[:31] or "cards"


def csv_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, float) else str(value)
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def write_csv(name: str, headers: list[Header], rows: list[list]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([csv_text(h.label) for h in headers])
    writer.writerows([[csv_text(value) for value in row] for row in rows])
    return buffer.getvalue().encode("utf-8-sig")  # the mark tells Excel the file is UTF-8


def write_xlsx(name: str, headers: list[Header], rows: list[list]) -> bytes:
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
    lists = None
    last_row = len(rows) + 1 + EXTRA_VALIDATED_ROWS
    for index, header in enumerate(headers):
        letter = column_letters(index)
        cell = sheet.cell(row=1, column=index + 1)
        cell.font = Font(bold=True)
        if header.doc:
            cell.comment = Comment(header.doc, "pnpgen", width=300, height=120)
        sheet.column_dimensions[letter].width = header.width
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


def write_ods(name: str, headers: list[Header], rows: list[list]) -> bytes:
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.office import Annotation
    from odf.style import Style, TableColumnProperties, TextProperties
    from odf.table import ContentValidation, ContentValidations, Table, TableCell, TableColumn, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    bold = Style(name="header", family="table-cell")
    bold.addElement(TextProperties(fontweight="bold"))
    document.automaticstyles.addElement(bold)
    table = Table(name=name)
    validation_of = {}
    validations = ContentValidations()
    for index, header in enumerate(headers):
        width = Style(name=f"col{index}", family="table-column")
        width.addElement(TableColumnProperties(columnwidth=f"{header.width * 0.21:.2f}cm"))
        document.automaticstyles.addElement(width)
        table.addElement(TableColumn(stylename=width))
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
    if validation_of:
        spare = ods_row([None] * len(headers), validation_of, TableRow, TableCell, P)
        spare.setAttribute("numberrowsrepeated", str(EXTRA_VALIDATED_ROWS))
        table.addElement(spare)
    document.spreadsheet.addElement(table)
    freeze_header(document, name)
    buffer = io.BytesIO()
    document.write(buffer)
    return buffer.getvalue()


def ods_row(values, validation_of, TableRow, TableCell, P):  # noqa: N803 (odfpy's element classes)
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


def freeze_header(document, table_name: str) -> None:
    """LibreOffice's view settings for a frozen first row."""
    from odf.config import ConfigItem, ConfigItemMapEntry, ConfigItemMapIndexed, ConfigItemMapNamed, ConfigItemSet

    def item(name, kind, value):
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


def read_sheet(path: Path, preferred: str | None = None, fmt: str | None = None) -> Sheet:
    """The sheet named `preferred` (else the first) of a file, with trailing empty rows and columns cut."""
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
    sheet = read_csv(path) if fmt == "csv" else read_book(path, preferred)
    sheet.rows = trimmed(sheet.rows)
    if len(sheet.rows) > MAX_ROWS:
        raise InputError(Problem(path, None, f"{len(sheet.rows)} rows, more than {MAX_ROWS}"))
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
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(
            Problem(path, None, f"not UTF-8 text ({error.reason})", hint="save the file as CSV UTF-8")
        ) from None
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as error:
        raise InputError(Problem(path, None, f"malformed CSV: {error}")) from None
    return Sheet(path, None, [[unguarded(value) for value in row] for row in rows])


def unguarded(text: str) -> str:
    """A CSV cell as it was before the formula guard of csv_text."""
    return text[1:] if text.startswith("'") and text[1:].startswith(FORMULA_STARTS) else text


def read_book(path: Path, preferred: str | None) -> Sheet:
    from python_calamine import CalamineWorkbook

    try:
        book = CalamineWorkbook.from_path(str(path))
        names = [n for n in book.sheet_names if n != "lists"] or list(book.sheet_names)
        wanted = sheet_title(preferred) if preferred else None
        name = wanted if wanted in names else names[0]
        rows = book.get_sheet_by_name(name).to_python(skip_empty_area=False)
    except InputError:
        raise
    except Exception as error:  # noqa: BLE001 - calamine's errors have no common base class
        raise InputError(
            Problem(path, None, f"cannot read the spreadsheet: {error}", hint="save it again as .xlsx or .ods")
        ) from None
    return Sheet(path, name, [[None if value == "" else value for value in row] for row in rows])


def trimmed(rows: list[list]) -> list[list]:
    def empty(value):
        return value is None or (isinstance(value, str) and not value.strip())

    rows = [list(row) for row in rows]
    while rows and all(empty(v) for v in rows[-1]):
        rows.pop()
    width = max((max((i + 1 for i, v in enumerate(row) if not empty(v)), default=0) for row in rows), default=0)
    return [row[:width] + [None] * (width - len(row)) for row in rows]
