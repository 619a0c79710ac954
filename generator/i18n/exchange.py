"""Translation exchange files: gettext PO, XLIFF 1.2 and CSV, written and read back.

One model serves the three formats: a file holds one target language, and each entry a string id
(PO msgctxt, XLIFF trans-unit id, CSV `context` column), the source text, the translation, its state, a
note (what the string is and the size of its box), where it is written and the checks silenced for it.

States as translators' tools read them:
- confirmed (the lock records the current source): PO plain, XLIFF `approved="yes"` `state="signed-off"`
  (translate-toolkit counts it reviewed, Weblate imports it approved), CSV fuzzy False;
- unconfirmed (written by hand since): PO plain, XLIFF `state="translated"` not approved;
- stale: PO `#, fuzzy` with the previous msgid, XLIFF `state="needs-translation"` (Weblate and Poedit
  mark it for editing; translate-toolkit's po2xliff writes the same for fuzzy), CSV fuzzy True;
- missing: empty target, XLIFF `state="new"`.
A check silenced for a string (`ignore-numbers`) is a PO flag (`#, ignore-numbers`, as Weblate's flags),
an XLIFF `<note from="pnpgen-flags">` and a CSV `flags` cell.

Readers are strict: every malformed line, duplicate id or short row is an InputError with its line.
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
XLIFF_NAMESPACES = {XLIFF_NS, "urn:oasis:names:tc:xliff:document:1.1"}
STALE_STATES = {
    "needs-review-translation",
    "needs-translation",
    "needs-adaptation",
    "needs-l10n",
    "new",
    "needs-review-adaptation",
    "needs-review-l10n",
}
FLAG_PREFIX = "ignore-"
FLAGS_NOTE = "pnpgen-flags"


@dataclass
class Entry:
    id: str
    source: str
    target: str = ""
    stale: bool = False
    previous: str | None = None  # the source the translation was made from, when stale
    note: str = ""  # what the string is
    width_mm: float | None = None  # the box it is printed in
    height_mm: float | None = None
    location: str = ""  # file:line in the game directory
    line: int | None = None  # where the entry starts in the exchange file (when read)
    confirmed: bool = False  # the lock records the current source (XLIFF approved="yes")
    ignored: tuple[str, ...] = ()  # checks silenced for this translation: numbers, glossary ...

    @property
    def limit(self) -> str:
        if self.width_mm is None:
            return ""
        return f"fits a {self.width_mm:g} x {self.height_mm:g} mm box"

    @property
    def flags(self) -> list[str]:
        return [FLAG_PREFIX + check for check in self.ignored]


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
    raise InputError(
        Problem(path, None, f"unknown translation file type '{suffix}'", hint="use a .po, .xlf (.xliff) or .csv file")
    )


def write(exchange: Exchange, fmt: str) -> str:
    return {"po": write_po, "xliff": write_xliff, "csv": write_csv}[fmt](exchange)


def read(path: Path) -> Exchange:
    fmt = format_of(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(Problem(path, None, "file not found")) from None
    except OSError as exc:
        raise InputError(Problem(path, None, f"cannot read the file ({exc.strerror})")) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(Problem(path, line, f"not UTF-8 text ({exc.reason})", hint="save the file as UTF-8")) from None
    try:
        exchange = {"po": read_po, "xliff": read_xliff, "csv": read_csv}[fmt](text, path)
    except RecursionError:
        raise InputError(
            Problem(path, None, "elements nested too deeply", hint="a translation file is flat: units in a body")
        ) from None
    refuse_duplicates(exchange.entries, path, {"po": "msgctxt", "xliff": "trans-unit id", "csv": "context"}[fmt])
    exchange.path = path
    return exchange


def refuse_duplicates(entries: list[Entry], path: Path, what: str) -> None:
    first: dict[str, int | None] = {}
    problems = []
    for entry in entries:
        if not entry.id:
            continue
        if entry.id in first:
            problems.append(
                Problem(
                    path,
                    entry.line,
                    f"{what} '{entry.id}' appears twice (first at line {first[entry.id]})",
                    entry.id,
                    "keep one entry per string",
                )
            )
        else:
            first[entry.id] = entry.line
    if problems:
        raise InputError(problems)


# Weblate's names for the checks pnpgen shares with it.
WEBLATE_CHECKS = {"same": "untranslated"}


def flags_to_checks(flags) -> tuple[str, ...]:
    checks = {flag[len(FLAG_PREFIX) :] for flag in flags if flag.startswith(FLAG_PREFIX)}
    return tuple(sorted(WEBLATE_CHECKS.get(check, check) for check in checks))


# --- PO ---------------------------------------------------------------------------------------

# gettext's C escapes; other control characters as octal, which gettext reads too.
PO_ESCAPES = {"\\": "\\\\", '"': '\\"', "\a": "\\a", "\b": "\\b", "\t": "\\t", "\v": "\\v", "\f": "\\f", "\r": "\\r"}
PO_UNESCAPES = {"n": "\n", "a": "\a", "b": "\b", "t": "\t", "v": "\v", "f": "\f", "r": "\r", "\\": "\\", '"': '"'}
PO_NEEDS_ESCAPE = re.compile(r'[\\"\x00-\x09\x0b-\x1f]')


def _po_escape_char(match: re.Match) -> str:
    char = match.group()
    return PO_ESCAPES.get(char) or f"\\{ord(char):03o}"


def po_quote(text: str) -> str:
    escaped = PO_NEEDS_ESCAPE.sub(_po_escape_char, text)
    if "\n" not in escaped:
        return f'"{escaped}"'
    parts = escaped.split("\n")
    lines = [f'"{part}\\n"' for part in parts[:-1]] + ([f'"{parts[-1]}"'] if parts[-1] else [])
    return '""\n' + "\n".join(lines)


def write_po(exchange: Exchange) -> str:
    header = (
        f"Project-Id-Version: {exchange.game}\\n\nPO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n\n"
        "Last-Translator: \\n\nLanguage-Team: \\n\n"
        f"Language: {exchange.target_lang}\\n\n"
        "MIME-Version: 1.0\\n\nContent-Type: text/plain; charset=UTF-8\\n\n"
        f"Content-Transfer-Encoding: 8bit\\n\nX-Source-Language: {exchange.source_lang}\\n\n"
        f"X-Pnpgen-Game: {exchange.game}\\n\nX-Generator: pnpgen\\n"
    )
    out = (
        [
            f"# {exchange.game}: {exchange.source_lang} -> {exchange.target_lang}, written by `pnpgen i18n export`.",
            "# msgctxt is the string's id; keep it. Read back with `pnpgen i18n import`.",
            'msgid ""',
            'msgstr ""',
        ]
        + [f'"{line}"' for line in header.split("\n")]
        + [""]
    )
    for entry in exchange.entries:
        out += [f"#. {line}" for line in _one_line(entry.note, entry.limit) if line]
        if entry.location:
            out.append(f"#: {_one_line(entry.location)[0]}")
        flags = (["fuzzy"] if entry.stale else []) + entry.flags
        if flags:
            out.append("#, " + ", ".join(flags))
        if entry.stale and entry.previous is not None:
            out.append("#| msgid " + po_quote(entry.previous).replace("\n", "\n#| "))
        out += [
            f"msgctxt {po_quote(entry.id)}",
            f"msgid {po_quote(entry.source)}",
            f"msgstr {po_quote(entry.target)}",
            "",
        ]
    return "\n".join(out)


def _one_line(*texts: str) -> list[str]:
    """Comments are one line each: any line break in them becomes a space."""
    return [re.sub(r"[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+", " ", text) for text in texts]


PO_KEYWORD = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)[ \t]+(".*)$')
PO_ESCAPE = re.compile(r"\\([0-7]{1,3}|.?)")


def po_unquote(literal: str, path: Path, line: int) -> str:
    """The text of one quoted PO string: gettext escapes only, every mistake located."""
    literal = literal.rstrip(" \t")
    if len(literal) < 2 or not (literal.startswith('"') and literal.endswith('"')):
        raise InputError(
            Problem(
                path,
                line,
                "expected a string in double quotes on this line",
                hint='a PO string is "text", with \\" for a quote and \\n for a new line',
            )
        )
    body = literal[1:-1]
    pieces, position = [], 0
    for match in PO_ESCAPE.finditer(body):
        plain = body[position : match.start()]
        if '"' in plain:
            raise InputError(
                Problem(
                    path, line, "a quote inside the string is not escaped", hint='write \\" for a quote inside the text'
                )
            )
        pieces.append(plain)
        pieces.append(_po_unescape(match, body, path, line))
        position = match.end()
    rest = body[position:]
    if '"' in rest:
        raise InputError(
            Problem(
                path, line, "a quote inside the string is not escaped", hint='write \\" for a quote inside the text'
            )
        )
    return "".join(pieces) + rest


def _po_unescape(match: re.Match, body: str, path: Path, line: int) -> str:
    char = match.group(1)
    if char in PO_UNESCAPES:
        return PO_UNESCAPES[char]
    if char[:1] in tuple("01234567"):
        if len(char) != 3:
            raise InputError(Problem(path, line, f"octal escape '\\{char}' needs three digits"))
        return chr(int(char, 8))
    if char == "":
        raise InputError(
            Problem(
                path, line, "the string ends in a backslash", hint="write \\\\ for a backslash at the end of the text"
            )
        )
    raise InputError(
        Problem(
            path,
            line,
            f"'\\{char}' is not a gettext escape",
            hint='PO strings know \\n \\t \\r \\" \\\\ (and \\a \\b \\f \\v); write any other character as itself',
        )
    )


def read_po(text: str, path: Path) -> Exchange:
    entries, headers = [], {}
    current, flags, key, start, location = {}, set(), None, None, ""

    def finish():
        nonlocal current, flags, key, start, location
        if "msgid" in current:
            if current["msgid"] == "" and "msgctxt" not in current:
                for line in current.get("msgstr", "").split("\n"):
                    name, _, value = line.partition(":")
                    if name.strip():
                        headers[name.strip()] = value.strip()
            else:
                entries.append(
                    Entry(
                        current.get("msgctxt", ""),
                        current["msgid"],
                        current.get("msgstr", ""),
                        stale="fuzzy" in flags,
                        line=start,
                        location=location,
                        ignored=flags_to_checks(flags),
                    )
                )
        elif current:
            raise InputError(Problem(path, start, "an entry without msgid", hint="each entry needs msgid and msgstr"))
        current, flags, key, start, location = {}, set(), None, None, ""

    # Only \n ends a line: CR, NEL, U+2028 and the like are text in a PO string, not line breaks.
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip(" \t\r")
        if not line:
            finish()
        elif line.startswith("#"):
            if "msgid" in current:
                finish()
            if line.startswith("#,"):
                flags.update(flag.strip() for flag in line[2:].split(",") if flag.strip())
            elif line.startswith("#:") and not location:
                location = line[2:].strip().split()[0] if line[2:].strip() else ""
        elif line.startswith('"'):
            if key is None:
                raise InputError(
                    Problem(
                        path,
                        number,
                        "a quoted string outside an entry",
                        hint="a continued string follows msgctxt, msgid or msgstr",
                    )
                )
            current[key] += po_unquote(line, path, number)
        else:
            match = PO_KEYWORD.match(line)
            if not match:
                raise InputError(
                    Problem(
                        path,
                        number,
                        f"cannot read this line: {line[:40]}",
                        hint="expected msgctxt, msgid or msgstr followed by a quoted string",
                    )
                )
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
    game = headers.get("X-Pnpgen-Game") or (
        headers.get("Project-Id-Version", "") if headers.get("X-Generator") == "pnpgen" else ""
    )
    return Exchange(game, headers.get("X-Source-Language", ""), headers.get("Language", ""), entries)


# --- XLIFF 1.2 -----------------------------------------------------------------------------------

# Characters XML 1.0 cannot hold even as a reference (form feed, vertical tab, other C0 controls,
# U+FFFE/FFFF) travel as an empty placeholder `<x id="cN" ctype="x-char-000c"/>`, which tools keep.
XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
CHAR_CTYPE = re.compile(r"^x-char-([0-9a-f]{4})$")
# Characters an XML parser would turn into a line feed or that tools read as line ends: written as references.
XML_AS_REFERENCE = {"\r": "&#13;", "\x85": "&#133;", "\u2028": "&#8232;", "\u2029": "&#8233;"}


def _xml_content(element: ET.Element, text: str) -> None:
    """Set element's text, control characters as placeholders."""
    pieces = XML_FORBIDDEN.split(text)
    chars = XML_FORBIDDEN.findall(text)
    element.text = pieces[0]
    for index, (char, after) in enumerate(zip(chars, pieces[1:]), 1):
        placeholder = ET.SubElement(element, "x", {"id": f"c{index}", "ctype": f"x-char-{ord(char):04x}"})
        placeholder.tail = after


def write_xliff(exchange: Exchange) -> str:
    ET.register_namespace("", XLIFF_NS)
    root = ET.Element("xliff", {"version": "1.2", "xmlns": XLIFF_NS})
    file = ET.SubElement(
        root,
        "file",
        {
            "original": exchange.game,
            "datatype": "plaintext",
            "source-language": exchange.source_lang,
            "target-language": exchange.target_lang,
            "tool-id": "pnpgen",
        },
    )
    header = ET.SubElement(file, "header")
    ET.SubElement(header, "tool", {"tool-id": "pnpgen", "tool-name": "pnpgen"})
    body = ET.SubElement(file, "body")
    for entry in exchange.entries:
        attributes = {"id": entry.id, "resname": entry.id}
        if entry.target and not entry.stale:
            attributes["approved"] = "yes" if entry.confirmed else "no"
        if entry.width_mm is not None:
            attributes.update(
                {"maxwidth": f"{entry.width_mm:g}", "maxheight": f"{entry.height_mm:g}", "size-unit": "mm"}
            )
        unit = ET.SubElement(body, "trans-unit", attributes)
        _xml_content(ET.SubElement(unit, "source"), entry.source)
        state = (
            "needs-translation"
            if entry.stale
            else ("signed-off" if entry.confirmed else "translated")
            if entry.target
            else "new"
        )
        _xml_content(ET.SubElement(unit, "target", {"state": state}), entry.target)
        if entry.location:
            group = ET.SubElement(unit, "context-group", {"purpose": "location"})
            name, _, line = entry.location.rpartition(":")
            if not (name and line.isdigit()):
                name, line = entry.location, ""
            ET.SubElement(group, "context", {"context-type": "sourcefile"}).text = name
            if line:
                ET.SubElement(group, "context", {"context-type": "linenumber"}).text = line
        note = "; ".join(part for part in (entry.note, entry.limit) if part)
        if note:
            _xml_content(ET.SubElement(unit, "note", {"from": "developer"}), note)  # xliff2po: a `#.` comment
        if entry.stale and entry.previous is not None:
            _xml_content(ET.SubElement(unit, "note", {"from": "previous-source"}), entry.previous)
        if entry.flags:
            ET.SubElement(unit, "note", {"from": FLAGS_NOTE}).text = ", ".join(entry.flags)
    _indent(root)
    text = ET.tostring(root, encoding="unicode")
    for char, reference in XML_AS_REFERENCE.items():
        text = text.replace(char, reference)  # only text holds them raw: ElementTree escapes attributes
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + text + "\n"


def _indent(element: ET.Element, level: int = 0) -> None:
    """ET.indent, but text elements (source, target, note) keep their content exactly: whitespace around
    an inline placeholder is text."""
    if element.tag in ("source", "target", "note", "context") or not len(element):
        return
    element.text = "\n" + "  " * (level + 1)
    for child in element:
        _indent(child, level + 1)
        child.tail = "\n" + "  " * (level + 1)
    child.tail = "\n" + "  " * level


def read_xliff(text: str, path: Path) -> Exchange:
    if re.search(r"<!(DOCTYPE|ENTITY)", text):
        raise InputError(
            Problem(
                path,
                text.count("\n", 0, re.search(r"<!(DOCTYPE|ENTITY)", text).start()) + 1,
                "XLIFF files have no DOCTYPE or entity declarations",
                hint="remove them",
            )
        )
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise InputError(Problem(path, exc.position[0], f"malformed XML: {exc}")) from None
    # XLIFF 1.1 (translate-toolkit's po2xliff writes it) has the same elements in its own namespace.
    ns = {"x": root.tag[1:].partition("}")[0] if root.tag.startswith("{") else ""}
    file = root.find("x:file", ns)
    if ns["x"] not in XLIFF_NAMESPACES or root.tag != f"{{{ns['x']}}}xliff" or file is None:
        raise InputError(Problem(path, 1, "not an XLIFF 1.2 file", hint='expected <xliff version="1.2"> with a <file>'))
    files = root.findall("x:file", ns)
    if len(files) > 1:
        raise InputError(
            Problem(
                path,
                None,
                f"the file holds {len(files)} <file> elements; pnpgen reads one language of one game",
                hint="export each language to its own file",
            )
        )
    lines = [text.count("\n", 0, match.start()) + 1 for match in re.finditer(r"<trans-unit[\s>]", text)]
    entries = []
    for index, unit in enumerate(file.iterfind(".//x:trans-unit", ns)):
        if unit.get("restype") == "x-gettext-domain-header":
            continue  # the PO header, as translate-toolkit's po2xliff keeps it
        target = unit.find("x:target", ns)
        state = target.get("state") if target is not None else None
        notes = {note.get("from"): _xml_text(note) for note in unit.iterfind("x:note", ns)}
        flags = [flag.strip() for flag in notes.get(FLAGS_NOTE, "").split(",")]
        flags += [flag.strip() for flag in (unit.get("weblate-flags") or "").split(",")]
        translation = _xml_text(target)
        entries.append(
            Entry(
                unit.get("id", ""),
                _xml_text(unit.find("x:source", ns)),
                translation,
                stale=bool(translation) and state in STALE_STATES and unit.get("approved") != "yes",
                confirmed=unit.get("approved") == "yes",
                location=_xliff_location(unit, ns),
                line=lines[index] if index < len(lines) else None,
                ignored=flags_to_checks(flags),
            )
        )
    return Exchange(
        file.get("original", "") if file.get("tool-id") == "pnpgen" else "",
        file.get("source-language", "") if file.get("tool-id") == "pnpgen" else "",
        file.get("target-language", ""),
        entries,
    )


def _xliff_location(unit: ET.Element, ns: dict) -> str:
    for group in unit.iterfind("x:context-group", ns):
        if group.get("purpose") != "location":
            continue
        parts = {context.get("context-type"): _xml_text(context) for context in group.iterfind("x:context", ns)}
        if parts.get("sourcefile"):
            return parts["sourcefile"] + (f":{parts['linenumber']}" if parts.get("linenumber") else "")
    return ""


def _xml_text(element) -> str:
    """An element's text with its inline placeholders: x-char ones become their character again."""
    if element is None:
        return ""
    pieces = [element.text or ""]
    for child in element:
        match = CHAR_CTYPE.match(child.get("ctype") or "")
        char = chr(int(match.group(1), 16)) if match else ""
        pieces.append(char if XML_FORBIDDEN.match(char) else _xml_text(child))
        pieces.append(child.tail or "")
    return "".join(pieces)


# --- CSV -------------------------------------------------------------------------------------------

# translate-toolkit's column names (csv2po reads them: context becomes msgctxt); `language` names the
# target language on every row, so that a sorted or filtered sheet still says it.
CSV_COLUMNS = ["location", "source", "target", "context", "fuzzy", "developer_comments", "flags", "language"]
# A cell a spreadsheet would run as a formula gets a leading apostrophe (as OWASP and translate-toolkit do);
# one more apostrophe is added to a cell that already starts with apostrophes before such a character, so
# that removing one on import gives back exactly what was written.
FORMULA = re.compile(r"^'*[=+\-@\t\r]")
TRUE = {"1", "x", "true", "yes", "fuzzy", "stale"}
# Other names translate-toolkit reads for the same columns. Without `context` (po2csv's default columns are
# location, source, target) each row is matched by its location and source text.
CSV_ALIASES = {
    "original": "source",
    "untranslated": "source",
    "translated": "target",
    "translation": "target",
    "state": "fuzzy",
    "msgctxt": "context",
}


def csv_cell(text: str) -> str:
    return "'" + text if FORMULA.match(text) else text


def csv_value(cell: str) -> str:
    return cell[1:] if cell.startswith("'") and FORMULA.match(cell) else cell


def write_csv(exchange: Exchange) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for entry in exchange.entries:
        notes = "; ".join(part for part in (entry.note, entry.limit) if part)
        if entry.stale and entry.previous is not None:
            notes += f"\nprevious source: {entry.previous}"
        writer.writerow(
            [
                csv_cell(cell)
                for cell in (
                    entry.location,
                    entry.source,
                    entry.target,
                    entry.id,
                    "True" if entry.stale else "False",
                    notes,
                    ", ".join(entry.flags),
                    exchange.target_lang,
                )
            ]
        )
    # A byte order mark makes spreadsheets read the file as UTF-8 (Japanese stays Japanese).
    return "\ufeff" + buffer.getvalue()


def read_csv(text: str, path: Path) -> Exchange:
    rows = _csv_rows(text, path)
    header = (
        [CSV_ALIASES.get(name, name) for name in (cell.strip().lower().replace(" ", "_") for cell in rows[0][1])]
        if rows
        else []
    )
    if "source" not in header or "target" not in header:
        raise InputError(
            Problem(
                path,
                1,
                "expected a header row with the columns source and target (and context, the string id)",
                hint="export a CSV with `pnpgen i18n export --format csv` to see the layout",
            )
        )
    column = {name: header.index(name) for name in CSV_COLUMNS if name in header}
    entries, languages, problems = [], set(), []
    for line, row in rows[1:]:
        if not any(cell.strip() for cell in row):
            continue
        if len(row) <= column["target"]:
            problems.append(
                Problem(
                    path,
                    line,
                    f"this row has {len(row)} cell(s): the translation is column {column['target'] + 1} ('target')",
                    hint="give every row a target cell, empty when not translated",
                )
            )
            continue
        cell = {name: csv_value(row[index]) if index < len(row) else "" for name, index in column.items()}
        if cell.get("language", "").strip():
            languages.add(cell["language"].strip())
        entries.append(
            Entry(
                cell.get("context", "").strip(),
                cell["source"],
                cell["target"],
                stale=cell.get("fuzzy", "").strip().lower() in TRUE,
                line=line,
                location=cell.get("location", "").strip(),
                ignored=flags_to_checks(flag.strip() for flag in cell.get("flags", "").split(",")),
            )
        )
    if len(languages) > 1:
        problems.append(
            Problem(
                path,
                None,
                f"rows name different languages: {', '.join(sorted(languages))}",
                "language",
                "a file holds one language",
            )
        )
    if problems:
        raise InputError(problems)
    return Exchange("", "", languages.pop() if languages else "", entries)


def _csv_rows(text: str, path: Path) -> list[tuple[int, list[str]]]:
    """(line where the row starts, cells) for every row."""
    reader = csv.reader(io.StringIO(text, newline=""))
    rows, line = [], 1
    try:
        for row in reader:
            rows.append((line, row))
            line = reader.line_num + 1
    except csv.Error as exc:
        raise InputError(Problem(path, line, f"malformed CSV: {exc}")) from None
    return rows
