"""Texts written into cells of an existing spreadsheet file, everything else in the file kept as it was.

XLSX and ODS: every part of the archive is copied as it is but the sheet's own (XLSX `xl/worksheets/sheetN.xml`,
ODS `content.xml`), and in that part only the rows holding a written cell change: the bytes of every other
element are kept, so styles, comments, drop-downs, pictures and charts survive (openpyxl, which loads a workbook
into its own model and saves a new one, would drop pictures and charts). A written cell is a string (XLSX an
inline string, ODS `office:value-type="string"`) with the style the cell had, or, for a cell the row did not
have, the style of the cell left of it (a new column's header is bold like the others). CSV: every row is
written again with the file's byte order mark and line ends, an unchanged cell as it was read (a text that
starts with `=` keeps the apostrophe that guards it), quoted where the csv module needs quotes.

Edits are {(row, column): text}, both from 0. A file that cannot be written safely raises Unwritable saying why
(a signed workbook, a part in another encoding than UTF-8, cells without references): the caller then names the
cells instead. The caller also reads the result back before writing it.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
import xml.parsers.expat
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from generator.model.table.archive import Archive
from generator.model.table.columns import column_letters
from generator.model.table.formats import csv_text
from generator.model.table.scan import CELL_REF, XlsxScan, local

Edits = dict[tuple[int, int], str]


def by_row(edits: Edits) -> dict[int, dict[int, str]]:
    """The edits of each row: row -> column -> text."""
    rows: dict[int, dict[int, str]] = {}
    for (row, col), text in edits.items():
        rows.setdefault(row, {})[col] = text
    return rows


class Unwritable(Exception):
    """The file cannot be written safely; the message says why, in the user's terms."""


def patched(fmt: str, path: Path, edits: dict[str | None, Edits]) -> bytes:
    """The bytes of the file at path with the edits made in each of its sheets (by name; None for a CSV file)."""
    if fmt == "csv":
        return patched_csv(path, edits.get(None, {}))
    with Archive(path) as archive:  # every part inflated within the archive's bounds
        signed = [name for name in archive.entries if name.startswith(SIGNATURE_PARTS)]
        if signed:
            raise Unwritable("the file is digitally signed: a change would break its signature")
        infos = archive.zip.infolist()
        parts = {info.filename: b"".join(archive.chunks(info.filename)) for info in infos}
        sheet_parts = xlsx_sheet_parts(archive) if fmt == "xlsx" else {}
    for sheet, sheet_edits in edits.items():
        part = sheet_parts.get(sheet or "") if fmt == "xlsx" else "content.xml"
        if part not in parts:
            raise Unwritable(f"the file has no sheet '{sheet}' any more")
        patch = patched_xlsx_sheet if fmt == "xlsx" else patched_ods_content
        parts[part] = patch(parts[part], sheet or "", sheet_edits)
    return zipped(infos, parts)


def xlsx_sheet_parts(archive: Archive) -> dict[str, str]:
    """Each sheet's part by the sheet's name, from the workbook and its relationships."""
    workbook = XlsxScan(archive)
    relationships = "xl/_rels/workbook.xml.rels"
    workbook.workbook(workbook.relationships(relationships) if relationships in archive.entries else {})
    return {sheet.name: sheet.part for sheet in workbook.sheets}


SIGNATURE_PARTS = ("_xmlsignatures/", "META-INF/documentsignatures.xml", "META-INF/macrosignatures.xml")


def zipped(infos: list[zipfile.ZipInfo], parts: dict[str, bytes]) -> bytes:
    """The archive again, its parts in their order with their names, dates and compression (an ODS file's
    uncompressed `mimetype` first)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for info in infos:
            copy = zipfile.ZipInfo(info.filename, info.date_time)
            copy.compress_type, copy.external_attr = info.compress_type, info.external_attr
            copy.create_system = info.create_system
            archive.writestr(copy, parts[info.filename])
    return buffer.getvalue()


# --- CSV ------------------------------------------------------------------------------------------


def patched_csv(path: Path, edits: Edits) -> bytes:
    raw = path.read_bytes()
    text = raw.decode("utf-8-sig")
    first_end = re.search(r"\r\n|\n|\r", text)
    newline = first_end.group(0) if first_end else "\r\n"
    rows = list(csv.reader(io.StringIO(text, newline="")))
    for (row, col), value in sorted(edits.items()):
        rows += [[] for _ in range(row + 1 - len(rows))]
        rows[row] += [""] * (col + 1 - len(rows[row]))
        rows[row][col] = csv_text(value)
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator=newline).writerows(rows)
    return (codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b"") + buffer.getvalue().encode("utf-8")


# --- XML parts, element by element ----------------------------------------------------------------

START_TAG = re.compile(rb"""<[^"'>]*(?:(?:"[^"]*"|'[^']*')[^"'>]*)*>""")
XML_DECLARATION = re.compile(rb"""^\s*<\?xml[^>]*encoding=["']([^"']+)["']""")
FORBIDDEN_IN_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


@dataclass
class Element:
    """One element of a part, by its byte offsets."""

    name: str  # as written, with its prefix
    attrs: dict[str, str]
    start: int  # the offset of its `<`
    head_end: int  # just past its start tag
    empty: bool  # written `<x/>`
    end: int = -1  # just past its last byte
    index: int = 0  # its row or column (from 0)
    repeat: int = 1  # how many rows or columns it stands for (ODS)
    children: list[Element] = field(default_factory=list)

    @property
    def prefix(self) -> str:
        return self.name.rpartition(":")[0] + ":" if ":" in self.name else ""


class PartReader:
    """An XML part through expat: `start(reader, name, attrs, parents)` is called for every element (parents: the
    local names of its ancestors) and returns the Element it wants (made with `reader.element`), which is given its
    end offset once it ends, or None."""

    def __init__(self, data: bytes, start: Callable[[PartReader, str, dict[str, str], list[str]], Element | None]):
        found = XML_DECLARATION.match(data)
        if found and found.group(1).decode("ascii", "replace").lower().replace("_", "-") not in ("utf-8", "utf8"):
            raise Unwritable(f"the sheet's XML is in {found.group(1).decode('ascii', 'replace')}, not UTF-8")
        self.data = data
        self.parser = parser = xml.parsers.expat.ParserCreate()
        names: list[str] = []
        open_elements: list[Element | None] = []

        def on_start(name: str, attrs: dict[str, str]) -> None:
            open_elements.append(start(self, name, attrs, names))
            names.append(local(name))

        def on_end(name: str) -> None:
            names.pop()
            element = open_elements.pop()
            if element is not None:
                at = parser.CurrentByteIndex
                element.end = element.head_end if element.empty else data.index(b">", at) + 1

        parser.StartElementHandler = on_start
        parser.EndElementHandler = on_end
        try:
            parser.Parse(data, True)
        except xml.parsers.expat.ExpatError as error:
            raise Unwritable(f"the sheet's XML could not be read ({error})") from None

    def element(self, name: str, attrs: dict[str, str]) -> Element:
        """The element starting where the parser is."""
        at = self.parser.CurrentByteIndex
        tag = START_TAG.match(self.data, at)
        if tag is None:
            raise Unwritable("the sheet's XML could not be followed")
        return Element(name, attrs, at, tag.end(), tag.group(0).endswith(b"/>"))


def splice(data: bytes, changes: list[tuple[int, int, bytes]]) -> bytes:
    """data with each (start, end, new bytes) made, the ranges apart from one another."""
    pieces, at = [], 0
    for start, end, new in sorted(changes, key=lambda change: (change[0], change[1])):
        pieces += [data[at:start], new]
        at = end
    return b"".join([*pieces, data[at:]])


def text_of(value: str) -> str:
    if FORBIDDEN_IN_XML.search(value):
        raise Unwritable("the text holds a character XML cannot carry")
    return escape(value).replace("\r", "&#13;")


def set_attribute(head: bytes, name: str, value: str | None) -> bytes:
    """A start tag with the attribute set (or removed, for None)."""
    pattern = re.compile(rb"\s" + re.escape(name.encode()) + rb"""\s*=\s*(?:"[^"]*"|'[^']*')""")
    head = pattern.sub(b"", head)
    if value is None:
        return head
    closing = b"/>" if head.endswith(b"/>") else b">"
    return head[: -len(closing)].rstrip() + f" {name}={quoteattr(value)}".encode() + closing


def opened(head: bytes) -> bytes:
    """The start tag of an element written empty (`<row r="3"/>`), as the start tag of one with content."""
    return head[:-2].rstrip() + b">" if head.endswith(b"/>") else head


# --- XLSX -----------------------------------------------------------------------------------------


def patched_xlsx_sheet(data: bytes, _sheet: str, edits: Edits) -> bytes:
    """The sheet part with the edited cells written as inline strings."""
    rows_wanted = by_row(edits)
    rows: dict[int, Element] = {}
    dimension: list[Element] = []
    open_row: list[Element] = []  # the wanted row being read

    def start(reader: PartReader, name: str, attrs: dict[str, str], parents: list[str]) -> Element | None:
        if name.endswith("row") and local(name) == "row" and parents[-1:] == ["sheetData"]:
            number = attrs.get("r")
            if number is None or not number.isdigit():
                raise Unwritable("a row of the sheet does not say its number")
            open_row[:] = [reader.element(name, attrs)] if int(number) - 1 in rows_wanted else []
            if open_row:
                open_row[0].index = int(number) - 1
                rows[open_row[0].index] = open_row[0]
            return open_row[0] if open_row else None
        if open_row and open_row[0].end < 0 and local(name) == "c" and parents[-2:] == ["sheetData", "row"]:
            ref = CELL_REF.fullmatch(attrs.get("r", ""))
            if ref is None:
                raise Unwritable("a cell of the sheet does not say its place")
            cell = reader.element(name, attrs)
            cell.index = column_index(ref.group(1))
            open_row[0].children.append(cell)
            return cell
        if local(name) == "dimension" and parents == ["worksheet"]:
            dimension.append(reader.element(name, attrs))
            return dimension[-1]
        return None

    PartReader(data, start)
    missing = set(rows_wanted) - set(rows)
    if missing:
        raise Unwritable(f"the sheet has no row {min(missing) + 1}")
    changes = []
    for index, row in rows.items():
        changes += xlsx_row_changes(data, row, rows_wanted[index])
    if dimension:
        changes.append(dimension_change(data, dimension[0], edits))
    return splice(data, changes)


def column_index(letters: str) -> int:
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - 64
    return index - 1


def xlsx_row_changes(data: bytes, row: Element, cells: dict[int, str]) -> list[tuple[int, int, bytes]]:
    """The changes that write `cells` into the row: a cell it has replaced, a new one put in column order."""
    existing = {cell.index: cell for cell in row.children}
    changes = []
    head = set_attribute(data[row.start : row.head_end], "spans", None)  # spans is a hint: it would be wrong
    inserted: dict[int, list[bytes]] = {}
    for col, text in sorted(cells.items()):
        old = existing.get(col)
        left = max((cell for cell in row.children if cell.index < col), key=lambda c: c.index, default=None)
        model = old or left  # the cell whose style the written one takes
        style = model.attrs.get("s") if model is not None else None
        new = xlsx_cell(row.prefix, f"{column_letters(col)}{row.index + 1}", style, text)
        if old is not None:
            changes.append((old.start, old.end, new))
            continue
        after = min((cell for cell in row.children if cell.index > col), key=lambda c: c.index, default=None)
        at = after.start if after else (max(cell.end for cell in row.children) if row.children else row.head_end)
        inserted.setdefault(at, []).append(new)
    if row.empty:
        new_cells = b"".join(piece for pieces in inserted.values() for piece in pieces)
        return [(row.start, row.end, opened(head) + new_cells + f"</{row.name}>".encode())]
    changes.append((row.start, row.head_end, head))
    changes += [(at, at, b"".join(pieces)) for at, pieces in inserted.items()]
    return changes


def xlsx_cell(prefix: str, ref: str, style: str | None, text: str) -> bytes:
    styled = f" s={quoteattr(style)}" if style is not None else ""
    return (
        f'<{prefix}c r="{ref}"{styled} t="inlineStr"><{prefix}is><{prefix}t xml:space="preserve">'
        f"{text_of(text)}</{prefix}t></{prefix}is></{prefix}c>"
    ).encode()


def dimension_change(data: bytes, dimension: Element, edits: Edits) -> tuple[int, int, bytes]:
    """The sheet's declared extent grown to the written cells."""
    refs = [CELL_REF.fullmatch(ref) for ref in dimension.attrs.get("ref", "A1").split(":")]
    last_col = max([column_index(ref.group(1)) for ref in refs if ref] + [col for _, col in edits])
    last_row = max([int(ref.group(2)) - 1 for ref in refs if ref] + [row for row, _ in edits])
    first = refs[0].group(0) if refs and refs[0] else "A1"
    extent = f"{first}:{column_letters(last_col)}{last_row + 1}"
    return dimension.start, dimension.head_end, set_attribute(data[dimension.start : dimension.head_end], "ref", extent)


# --- ODS ------------------------------------------------------------------------------------------

ODS_NAMESPACES = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
}
ODS_ROW_GROUPS = {"table-header-rows", "table-row-group", "table-rows"}
ODS_CELLS = ("table:table-cell", "table:covered-table-cell")
ROWS_REPEATED = "table:number-rows-repeated"
COLUMNS_REPEATED = "table:number-columns-repeated"
KEPT_CELL_ATTRIBUTES = ("table:style-name", "table:content-validation-name")


def patched_ods_content(data: bytes, sheet: str, edits: Edits) -> bytes:
    """content.xml with the edited cells of the sheet written as strings; a repeated row or cell holding one is
    split into the rows or cells before it, it, and those after it."""
    rows_wanted = by_row(edits)
    rows: list[Element] = []
    in_table, next_row = [False], [0]

    def start(reader: PartReader, name: str, attrs: dict[str, str], parents: list[str]) -> Element | None:
        if not parents:
            declared = {key.partition(":")[2]: value for key, value in attrs.items() if key.startswith("xmlns:")}
            if any(declared.get(prefix) != uri for prefix, uri in ODS_NAMESPACES.items()):
                raise Unwritable("the file names OpenDocument's parts otherwise than spreadsheet programs do")
        if name == "table:table":
            in_table[:] = [attrs.get("table:name") == sheet]  # the sheet's rows follow, up to the next sheet
            return None
        if not in_table[0]:
            return None
        if name == "table:table-row" and parents[-1] in ({"table"} | ODS_ROW_GROUPS):
            row = reader.element(name, attrs)
            row.index, row.repeat = next_row[0], count(attrs.get(ROWS_REPEATED))
            next_row[0] += row.repeat
            if holds_any(row, rows_wanted):
                rows.append(row)
                return row
        elif name in ODS_CELLS and parents[-1] == "table-row" and rows and rows[-1].end < 0:
            cell = reader.element(name, attrs)
            cell.index = sum(other.repeat for other in rows[-1].children)
            cell.repeat = count(attrs.get(COLUMNS_REPEATED))
            rows[-1].children.append(cell)
            return cell
        return None

    PartReader(data, start)
    found = {row for element in rows for row in range(element.index, element.index + element.repeat)}
    if set(rows_wanted) - found:
        raise Unwritable(f"the sheet '{sheet}' has no row {min(set(rows_wanted) - found) + 1}")
    return splice(data, [(row.start, row.end, ods_rows(data, row, rows_wanted)) for row in rows])


def holds_any(row: Element, wanted: dict[int, dict[int, str]]) -> bool:
    """Whether a (perhaps repeated) row element stands for one of the wanted rows."""
    return row.index in wanted or (row.repeat > 1 and any(row.index < at < row.index + row.repeat for at in wanted))


def count(text: str | None) -> int:
    if text is None:
        return 1
    if not text.isdigit():
        raise Unwritable(f"'{text}' where the sheet repeats a row or cell")
    return int(text)


def ods_rows(data: bytes, row: Element, edits: dict[int, dict[int, str]]) -> bytes:
    """The rows one (perhaps repeated) row element becomes: the edited ones written out alone, the rest repeated
    as before in the stretches between them."""
    pieces, at = [], row.index
    written = [row.index] if row.repeat == 1 else sorted(i for i in edits if row.index <= i < row.index + row.repeat)
    whole = data[row.start : row.end]
    for index in written:
        if index > at:
            pieces.append(repeated(whole, row, ROWS_REPEATED, index - at))
        pieces.append(ods_row(data, row, edits[index]))
        at = index + 1
    if row.index + row.repeat > at:
        pieces.append(repeated(whole, row, ROWS_REPEATED, row.index + row.repeat - at))
    return b"".join(pieces)


def repeated(whole: bytes, element: Element, attribute: str, times: int) -> bytes:
    """An element's bytes standing for `times` rows or cells."""
    head = set_attribute(whole[: element.head_end - element.start], attribute, str(times) if times > 1 else None)
    return head + whole[element.head_end - element.start :]


def ods_row(data: bytes, row: Element, cells: dict[int, str]) -> bytes:
    """One row of the element, not repeated, with `cells` written."""
    head = set_attribute(data[row.start : row.head_end], ROWS_REPEATED, None)
    pieces: list[bytes] = []
    written = dict(cells)
    left: dict[str, str] = {}  # the attributes of the cell before: a cell that had no style takes its style
    for cell in row.children:
        whole = data[cell.start : cell.end]
        styled = cell.attrs if "table:style-name" in cell.attrs else left
        at = cell.index
        for col in sorted(c for c in written if cell.index <= c < cell.index + cell.repeat):
            if col > at:
                pieces.append(repeated(whole, cell, COLUMNS_REPEATED, col - at))
            pieces.append(ods_cell(styled, written.pop(col)))
            at = col + 1
        if at == cell.index:
            pieces.append(whole)
        elif cell.index + cell.repeat > at:
            pieces.append(repeated(whole, cell, COLUMNS_REPEATED, cell.index + cell.repeat - at))
        left = cell.attrs
    last = sum(cell.repeat for cell in row.children)
    for col in sorted(written):  # past the row's last cell
        if col > last:
            gap = f' {COLUMNS_REPEATED}="{col - last}"' if col - last > 1 else ""
            pieces.append(f"<table:table-cell{gap}/>".encode())
        pieces.append(ods_cell(left, written[col]))
        last = col + 1
    if row.children:
        content, tail = data[row.head_end : row.children[0].start], data[row.children[-1].end : row.end]
    else:
        content, tail = b"", b"</table:table-row>" if row.empty else data[row.head_end : row.end]
    return opened(head) + content + b"".join(pieces) + tail


def ods_cell(attrs: dict[str, str], text: str) -> bytes:
    kept = "".join(f" {name}={quoteattr(attrs[name])}" for name in KEPT_CELL_ATTRIBUTES if name in attrs)
    lines = "".join(f"<text:p>{ods_text(line)}</text:p>" for line in text.split("\n"))
    return f'<table:table-cell{kept} office:value-type="string">{lines}</table:table-cell>'.encode()


def ods_text(line: str) -> str:
    """A line of text as OpenDocument keeps its spaces: a run of them (or one at the start) as text:s; a single
    space between words as it is. A tab would be text:tab, which the reader pnpgen loads spreadsheets with
    leaves out: refused."""
    if "\t" in line:
        raise Unwritable("a text holds a tab, which pnpgen's reader of OpenDocument sheets would not read back")

    def spaces(found: re.Match[str]) -> str:
        run = found.group(0)
        kept = "" if found.start() == 0 else " "
        rest = len(run) - len(kept)
        return kept + (f'<text:s text:c="{rest}"/>' if rest > 1 else "<text:s/>")

    return re.sub(r" {2,}|^ ", spaces, text_of(line))
