"""XLIFF 1.2 files (1.1 read too, as translate-toolkit's po2xliff writes it): the string id is the
trans-unit id, the box a unit's maxwidth and maxheight in mm."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from generator.errors import InputError, Problem
from generator.i18n.exchange.entries import Entry, Exchange, flags_to_checks

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
FLAGS_NOTE = "pnpgen-flags"

# Characters XML 1.0 cannot hold even as a reference travel as an empty placeholder
# `<x id="cN" ctype="x-char-fffe"/>`, which tools keep: U+FFFE and U+FFFF (the control characters among
# them are refused before writing, and read back from a placeholder only to be refused with their line).
XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
CHAR_CTYPE = re.compile(r"^x-char-([0-9a-f]{4})$")
# Characters an XML parser would turn into a line feed or that tools read as line ends: written as references.
XML_AS_REFERENCE = {"\x85": "&#133;", "\u2028": "&#8232;", "\u2029": "&#8233;"}


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
        if entry.developer_note:  # xliff2po makes it a `#.` comment
            _xml_content(ET.SubElement(unit, "note", {"from": "developer"}), entry.developer_note)
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
    declaration = re.search(r"<!(DOCTYPE|ENTITY)", text)
    if declaration:
        raise InputError(
            Problem(
                path,
                text.count("\n", 0, declaration.start()) + 1,
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
    file_tag = re.search(r"<(\w+:)?file[\s>]", text)
    file_line = text.count("\n", 0, file_tag.start()) + 1 if file_tag else 1
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
        id_name="trans-unit id",
        lines={"game": file_line, "source": file_line, "target": file_line},
        language_header="the target-language attribute of <file>",
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
