"""Translation exchange files: gettext PO, XLIFF 1.2 and CSV, written and read back.

One model serves the three formats: a file holds one target language, and each entry a string id
(PO msgctxt, XLIFF trans-unit id, CSV `id` column), the source text, the translation, whether it is
stale (PO fuzzy with the previous msgid, XLIFF needs-review-translation, CSV state `stale`), a note
(what the string is and the size of its box) and where it is written.
"""
from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from generator.errors import InputError, Problem

FORMATS = {"po": ".po", "xliff": ".xlf", "csv": ".csv"}
XLIFF_NS = "urn:oasis:names:tc:xliff:document:1.2"
STALE_STATES = {"needs-review-translation", "needs-translation", "needs-adaptation", "needs-l10n", "stale"}


@dataclass
class Entry:
    id: str
    source: str
    target: str = ""
    stale: bool = False
    previous: str | None = None   # the source the translation was made from, when stale
    note: str = ""                # what the string is
    width_mm: float | None = None  # the box it is printed in
    height_mm: float | None = None
    location: str = ""            # file:line in the game directory
    line: int | None = None       # where the entry starts in the exchange file (when read)

    @property
    def limit(self) -> str:
        if self.width_mm is None:
            return ""
        return f"fits a {self.width_mm:g} x {self.height_mm:g} mm box"


@dataclass
class Exchange:
    game: str
    source_lang: str
    target_lang: str
    entries: list[Entry] = field(default_factory=list)
    path: Path | None = None


def format_of(path: Path) -> str:
    suffix = path.suffix.lower()
    for name, ext in FORMATS.items():
        if suffix == ext or (name == "xliff" and suffix == ".xliff"):
            return name
    raise InputError(Problem(path, None, f"unknown translation file type '{suffix}'",
                             hint="use a .po, .xlf (.xliff) or .csv file"))


def write(exchange: Exchange, fmt: str) -> str:
    return {"po": write_po, "xliff": write_xliff, "csv": write_csv}[fmt](exchange)


def read(path: Path) -> Exchange:
    fmt = format_of(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError(Problem(path, None, "file not found"))
    except UnicodeDecodeError as exc:
        raise InputError(Problem(path, None, f"not UTF-8 text ({exc.reason})", hint="save the file as UTF-8"))
    exchange = {"po": read_po, "xliff": read_xliff, "csv": read_csv}[fmt](text, path)
    exchange.path = path
    return exchange


# --- PO ---------------------------------------------------------------------------------------

def po_quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    if "\n" not in escaped:
        return f'"{escaped}"'
    parts = escaped.split("\n")
    lines = [f'"{part}\\n"' for part in parts[:-1]] + ([f'"{parts[-1]}"'] if parts[-1] else [])
    return '""\n' + "\n".join(lines)


def write_po(exchange: Exchange) -> str:
    header = (f"Project-Id-Version: {exchange.game}\\n\nPO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n\n"
              "Last-Translator: \\n\nLanguage-Team: \\n\n"
              f"Language: {exchange.target_lang}\\n\n"
              "MIME-Version: 1.0\\n\nContent-Type: text/plain; charset=UTF-8\\n\n"
              f"Content-Transfer-Encoding: 8bit\\n\nX-Source-Language: {exchange.source_lang}\\n\n"
              "X-Generator: pnpgen\\n")
    out = [f"# {exchange.game}: {exchange.source_lang} -> {exchange.target_lang}, written by `pnpgen i18n export`.",
           "# msgctxt is the string's id; keep it. Read back with `pnpgen i18n import`.",
           'msgid ""', 'msgstr ""'] + [f'"{line}"' for line in header.split("\n")] + [""]
    for entry in exchange.entries:
        out += [f"#. {line}" for line in (entry.note, entry.limit) if line]
        if entry.location:
            out.append(f"#: {entry.location}")
        if entry.stale:
            out.append("#, fuzzy")
            if entry.previous is not None:
                out.append("#| msgid " + po_quote(entry.previous).replace("\n", "\n#| "))
        out += [f"msgctxt {po_quote(entry.id)}", f"msgid {po_quote(entry.source)}",
                f"msgstr {po_quote(entry.target)}", ""]
    return "\n".join(out)


PO_KEYWORD = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+(".*")\s*$')


def po_unquote(literal: str, path: Path, line: int) -> str:
    if len(literal) < 2 or not (literal.startswith('"') and literal.endswith('"')):
        raise InputError(Problem(path, line, "expected a quoted string"))
    body = literal[1:-1]
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def read_po(text: str, path: Path) -> Exchange:
    entries, headers = [], {}
    current, flags, key, start = {}, set(), None, None

    def finish():
        nonlocal current, flags, key, start
        if "msgid" in current:
            if current["msgid"] == "" and "msgctxt" not in current:
                for line in current.get("msgstr", "").split("\n"):
                    name, _, value = line.partition(":")
                    if name.strip():
                        headers[name.strip()] = value.strip()
            else:
                entries.append(Entry(current.get("msgctxt", ""), current["msgid"], current.get("msgstr", ""),
                                     stale="fuzzy" in flags, line=start))
        current, flags, key, start = {}, set(), None, None

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            finish()
        elif line.startswith("#,"):
            if "msgid" in current:
                finish()
            flags.update(flag.strip() for flag in line[2:].split(","))
        elif line.startswith("#"):
            if "msgid" in current:
                finish()
        elif line.startswith('"'):
            if key is None:
                raise InputError(Problem(path, number, "a quoted string outside an entry"))
            current[key] += po_unquote(line, path, number)
        else:
            match = PO_KEYWORD.match(line)
            if not match:
                raise InputError(Problem(path, number, f"cannot read this line: {line[:40]}",
                                         hint="expected msgctxt, msgid or msgstr followed by a quoted string"))
            keyword = match.group(1)
            if keyword == "msgid_plural" or keyword.startswith("msgstr["):
                raise InputError(Problem(path, number, "plural forms are not used by pnpgen strings"))
            if keyword in current or (keyword in ("msgctxt", "msgid") and "msgstr" in current):
                finish()
            if start is None:
                start = number
            key = keyword
            current[key] = po_unquote(match.group(2), path, number)
    finish()
    return Exchange(headers.get("Project-Id-Version", ""), headers.get("X-Source-Language", ""),
                    headers.get("Language", ""), entries)


# --- XLIFF 1.2 -----------------------------------------------------------------------------------

def write_xliff(exchange: Exchange) -> str:
    ET.register_namespace("", XLIFF_NS)
    root = ET.Element("xliff", {"version": "1.2", "xmlns": XLIFF_NS})
    file = ET.SubElement(root, "file", {"original": exchange.game, "datatype": "plaintext",
                                        "source-language": exchange.source_lang,
                                        "target-language": exchange.target_lang, "tool-id": "pnpgen"})
    header = ET.SubElement(file, "header")
    ET.SubElement(header, "tool", {"tool-id": "pnpgen", "tool-name": "pnpgen"})
    body = ET.SubElement(file, "body")
    for entry in exchange.entries:
        attributes = {"id": entry.id, "resname": entry.id}
        if entry.width_mm is not None:
            attributes.update({"maxwidth": f"{entry.width_mm:g}", "maxheight": f"{entry.height_mm:g}",
                               "size-unit": "mm"})
        unit = ET.SubElement(body, "trans-unit", attributes)
        ET.SubElement(unit, "source").text = entry.source
        state = "needs-review-translation" if entry.stale else ("translated" if entry.target else "new")
        ET.SubElement(unit, "target", {"state": state}).text = entry.target
        if entry.location:
            group = ET.SubElement(unit, "context-group", {"purpose": "location"})
            name, _, line = entry.location.rpartition(":")
            ET.SubElement(group, "context", {"context-type": "sourcefile"}).text = name
            ET.SubElement(group, "context", {"context-type": "linenumber"}).text = line
        note = "; ".join(part for part in (entry.note, entry.limit) if part)
        if note:
            ET.SubElement(unit, "note", {"from": "pnpgen"}).text = note
        if entry.stale and entry.previous is not None:
            ET.SubElement(unit, "note", {"from": "previous-source"}).text = entry.previous
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def read_xliff(text: str, path: Path) -> Exchange:
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise InputError(Problem(path, exc.position[0], f"malformed XML: {exc}"))
    ns = {"x": XLIFF_NS}
    file = root.find("x:file", ns)
    if root.tag != f"{{{XLIFF_NS}}}xliff" or file is None:
        raise InputError(Problem(path, 1, "not an XLIFF 1.2 file", hint="expected <xliff version=\"1.2\"> with a <file>"))
    lines = {match.group(1): text.count("\n", 0, match.start()) + 1
             for match in re.finditer(r'<trans-unit[^>]*\sid="([^"]*)"', text)}
    entries = []
    for unit in file.iterfind(".//x:trans-unit", ns):
        target = unit.find("x:target", ns)
        source = unit.find("x:source", ns)
        string_id = unit.get("id", "")
        entries.append(Entry(string_id, _xml_text(source), _xml_text(target),
                             stale=target is not None and target.get("state") in STALE_STATES,
                             line=lines.get(_xml_escape_attr(string_id))))
    return Exchange(file.get("original", ""), file.get("source-language", ""), file.get("target-language", ""),
                    entries)


def _xml_text(element) -> str:
    return "".join(element.itertext()) if element is not None else ""


def _xml_escape_attr(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")


# --- CSV -------------------------------------------------------------------------------------------

CSV_STATES = ("translated", "stale", "missing")


def write_csv(exchange: Exchange) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(["id", exchange.source_lang, exchange.target_lang, "state", "previous source", "note", "limit",
                     "location"])
    for entry in exchange.entries:
        state = "stale" if entry.stale else ("translated" if entry.target else "missing")
        writer.writerow([entry.id, entry.source, entry.target, state, entry.previous or "", entry.note,
                         entry.limit, entry.location])
    # A byte order mark makes spreadsheets read the file as UTF-8 (Japanese stays Japanese).
    return "\ufeff" + buffer.getvalue()


def read_csv(text: str, path: Path) -> Exchange:
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or len(rows[0]) < 4 or rows[0][0] != "id" or rows[0][3] != "state":
        raise InputError(Problem(path, 1, "expected the header id, SOURCE-LANG, TARGET-LANG, state, ...",
                                 hint="export a CSV with `pnpgen i18n export --format csv` to see the layout"))
    header = rows[0]
    entries = []
    line = 1
    for row in rows[1:]:
        line += 1
        if not any(cell.strip() for cell in row):
            continue
        cells = row + [""] * (4 - len(row))
        entries.append(Entry(cells[0].strip(), cells[1], cells[2], stale=cells[3].strip().lower() == "stale",
                             line=line))
        line += sum(cell.count("\n") for cell in row)
    return Exchange("", header[1].strip(), header[2].strip(), entries)
