"""Spreadsheet files written byte by byte, as an attacker (or a damaged program) would: XLSX and ODS parts
zipped by hand, so that a sheet can claim, repeat and place whatever it likes."""

from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
DOC_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
ODS_NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" '
    'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"'
)
ODS_MIME = "application/vnd.oasis.opendocument.spreadsheet"


def write_zip(path: Path, parts: dict[str, bytes | str | list]) -> Path:
    """A zip of the parts; a part given as a list of strings is streamed (a part of hundreds of MB)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for name, data in parts.items():
            if name == "mimetype":
                archive.writestr(zipfile.ZipInfo(name), data, compress_type=zipfile.ZIP_STORED)
            elif isinstance(data, list):
                with archive.open(name, "w", force_zip64=False) as out:
                    for piece in data:
                        out.write(piece.encode() if isinstance(piece, str) else piece)
            else:
                archive.writestr(name, data)
    return path


def xlsx(path: Path, sheet_data, dimension: str | None = None, sheets=None, shared: list[str] | None = None) -> Path:
    """An XLSX file. `sheet_data`: the `<sheetData>` content of the sheet `assets` (a string, or a list of
    strings streamed); `sheets`: [(name, state, sheet data)] for a workbook of several sheets."""
    sheets = sheets or [("assets", "visible", sheet_data)]
    book = "".join(
        f'<sheet name="{name}" sheetId="{i + 1}" state="{state}" r:id="rId{i + 1}"/>'
        for i, (name, state, _data) in enumerate(sheets)
    )
    rels = "".join(
        f'<Relationship Id="rId{i + 1}" Type="{DOC_RELS}/worksheet" Target="worksheets/sheet{i + 1}.xml"/>'
        for i in range(len(sheets))
    )
    if shared is not None:
        rels += f'<Relationship Id="rIdS" Type="{DOC_RELS}/sharedStrings" Target="sharedStrings.xml"/>'
    parts: dict = {
        "[Content_Types].xml": '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
        'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
        'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>',
        "_rels/.rels": f'<?xml version="1.0"?><Relationships xmlns="{RELS}"><Relationship Id="rId1" '
        f'Type="{DOC_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<?xml version="1.0"?><workbook xmlns="{MAIN}" xmlns:r="{DOC_RELS}"><sheets>{book}'
        "</sheets></workbook>",
        "xl/_rels/workbook.xml.rels": f'<?xml version="1.0"?><Relationships xmlns="{RELS}">{rels}</Relationships>',
    }
    if shared is not None:
        items = "".join(f"<si><t>{text}</t></si>" for text in shared)
        parts["xl/sharedStrings.xml"] = f'<?xml version="1.0"?><sst xmlns="{MAIN}" count="{len(shared)}">{items}</sst>'
    for i, (_name, _state, data) in enumerate(sheets):
        head = f'<?xml version="1.0"?><worksheet xmlns="{MAIN}">'
        head += f'<dimension ref="{dimension}"/>' if dimension else ""
        pieces = data if isinstance(data, list) else [data]
        parts[f"xl/worksheets/sheet{i + 1}.xml"] = [head + "<sheetData>", *pieces, "</sheetData></worksheet>"]
    return write_zip(path, parts)


def inline(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


HEADER = '<row r="1">' + inline("A1", "id") + "</row>"


def ods(path: Path, tables: str, styles: str = "") -> Path:
    """An ODS file whose `<office:spreadsheet>` holds `tables` (a string or a list of strings streamed)."""
    head = (
        f'<?xml version="1.0"?><office:document-content {ODS_NAMESPACES} office:version="1.2">'
        f"<office:automatic-styles>{styles}</office:automatic-styles><office:body><office:spreadsheet>"
    )
    pieces = tables if isinstance(tables, list) else [tables]
    return write_zip(
        path,
        {
            "mimetype": ODS_MIME,
            "META-INF/manifest.xml": '<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:'
            'opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" '
            f'manifest:media-type="{ODS_MIME}"/></manifest:manifest>',
            "content.xml": [head, *pieces, "</office:spreadsheet></office:body></office:document-content>"],
        },
    )


def text_cell(text: str, repeat: int = 1) -> str:
    extra = f' table:number-columns-repeated="{repeat}"' if repeat > 1 else ""
    return f'<table:table-cell office:value-type="string"{extra}><text:p>{text}</text:p></table:table-cell>'


def table(name: str, rows: str, style: str | None = None) -> str:
    styled = f' table:style-name="{style}"' if style else ""
    return f'<table:table table:name="{name}"{styled}>{rows}</table:table>'


def lie_about_size(path: Path, part: str, declared: int) -> None:
    """Make the zip's directory (and the part's local header) declare `declared` bytes for the part, with a
    checksum that matches that many bytes of its true content: a reader trusting the directory is fooled."""
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(part)
        true_prefix = archive.read(part)[:declared]
    crc = zlib.crc32(true_prefix)
    name = part.encode()
    at = 0
    while True:
        central = data.find(b"PK\x01\x02", at)
        if central < 0:
            break
        name_length = struct.unpack_from("<H", data, central + 28)[0]
        if bytes(data[central + 46 : central + 46 + name_length]) == name:
            struct.pack_into("<I", data, central + 16, crc)
            struct.pack_into("<I", data, central + 24, declared)
        at = central + 4
    local = info.header_offset
    struct.pack_into("<I", data, local + 14, crc)
    struct.pack_into("<I", data, local + 22, declared)
    path.write_bytes(bytes(data))
