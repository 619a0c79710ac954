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

Readers are strict: every malformed line, duplicate id or short row is an InputError with its line. A
translation file carries text only: a control character (NUL, carriage return, bell ...; tab and line feed
are text) is refused when read and never written. PO files are read at least as strictly as `msgfmt
--check`: escapes are `\n \t \" \\` only (gettext's octal and hex escapes stand for bytes, which a
UTF-8 file writes as characters; msgfmt cuts a string at a NUL).
"""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from generator.errors import InputError, Problem
from generator.model.schema import UNPRINTABLE, character_name

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
    id_name: str = "string id"  # what the format calls an entry's id: msgctxt, trans-unit id, context
    # Where the file says which game and language it holds: "game", "source", "target" -> line.
    lines: dict[str, int] = field(default_factory=dict)
    # How the file would say its language, for the hint when it does not.
    language_header: str = "its language"

    def line_of(self, what: str) -> int:
        return self.lines.get(what, 1)


def control_character(text: str) -> str | None:
    """How to name the first character of text that is not text (`U+000D (carriage return)`), None when none.
    A translation file neither carries nor accepts them (`schema.UNPRINTABLE`: tab, line feed and NEL are text)."""
    match = UNPRINTABLE.search(text)
    return character_name(match.group()) if match else None


def control_problems(entries: list[Entry], path: Path) -> list[Problem]:
    """Every entry whose source or translation holds a control character."""
    problems = []
    for entry in entries:
        for what, text in (("translation", entry.target), ("source", entry.source)):
            found = control_character(text)
            if found:
                problems.append(
                    Problem(
                        path,
                        entry.line,
                        f"the {what} holds {found}, which is not text",
                        entry.id or None,
                        "remove it (a line break is a line feed; tab is the one other control character kept)",
                    )
                )
                break
    return problems


def format_of(path: Path) -> str:
    suffix = path.suffix.lower()
    for name, ext in FORMATS.items():
        if suffix == ext or (name == "xliff" and suffix == ".xliff"):
            return name
    raise InputError(
        Problem(path, None, f"unknown translation file type '{suffix}'", hint="use a .po, .xlf (.xliff) or .csv file")
    )


def write(exchange: Exchange, fmt: str) -> str:
    """The file's text. The texts hold no control character (`transfer.build_exchange` refuses them)."""
    for entry in exchange.entries:
        for text in (entry.id, entry.source, entry.target, entry.previous or ""):
            if control_character(text):
                raise ValueError(f"{entry.id}: {control_character(text)} in a text to write")
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
    refuse_duplicates(exchange.entries, path, exchange.id_name)
    problems = control_problems(exchange.entries, path)
    if problems:
        raise InputError(problems)
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

# The escapes a translation needs; gettext's others stand for control characters or bytes (see read_po).
PO_ESCAPES = {"\\": "\\\\", '"': '\\"', "\t": "\\t"}
PO_UNESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"'}
PO_NEEDS_ESCAPE = re.compile(r'[\\"\t]')


def po_quote(text: str) -> str:
    """A PO string literal (a text without control characters: build_exchange refuses them)."""
    escaped = PO_NEEDS_ESCAPE.sub(lambda match: PO_ESCAPES[match.group()], text)
    if "\n" not in escaped:
        return f'"{escaped}"'
    parts = escaped.split("\n")
    lines = [f'"{part}\\n"' for part in parts[:-1]] + ([f'"{parts[-1]}"'] if parts[-1] else [])
    return '""\n' + "\n".join(lines)


# gettext's plural rule of each language (as its plural table and translate-toolkit have them), so that
# translators' tools find the header they expect; pnpgen's own strings have no plural forms.
PLURAL_RULES = {
    "nplurals=1; plural=0;": "ja ko zh th vi id ms lo km my",
    "nplurals=2; plural=(n != 1);": "en de nl sv da nb nn fi et it es ca gl eu el bg he hu tr eo af sq az ka",
    "nplurals=2; plural=(n > 1);": "fr pt-BR fa hi",
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);": (
        "ru uk be sr hr bs"
    ),
    "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);": "pl",
    "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;": "cs sk",
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);": "lt",
    "nplurals=3; plural=(n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2);": "ro",
    "nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);": "sl",
    "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;": "ar",
}
PLURAL_FORMS = {lang: rule for rule, langs in PLURAL_RULES.items() for lang in langs.split()}


def plural_forms(lang: str) -> str:
    """The Plural-Forms header for a language tag (`pt-BR`, `pt_BR`, `zh-Hant`); English's rule when unknown."""
    tag = lang.replace("_", "-")
    base = tag.split("-")[0].lower()
    return PLURAL_FORMS.get(tag) or PLURAL_FORMS.get(base) or PLURAL_FORMS["en"]


def write_po(exchange: Exchange) -> str:
    """The file; its PO-Revision-Date is when it was written (msgfmt warns about gettext's placeholder)."""
    revised = datetime.now(UTC).strftime("%Y-%m-%d %H:%M%z")
    header = (
        f"Project-Id-Version: {exchange.game}\\n\nPO-Revision-Date: {revised}\\n\n"
        "Last-Translator: \\n\nLanguage-Team: \\n\n"
        f"Language: {exchange.target_lang}\\n\n"
        "MIME-Version: 1.0\\n\nContent-Type: text/plain; charset=UTF-8\\n\n"
        f"Content-Transfer-Encoding: 8bit\\n\nPlural-Forms: {plural_forms(exchange.target_lang)}\\n\n"
        f"X-Source-Language: {exchange.source_lang}\\n\n"
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
# A run of octal or hex escapes (gettext reads them as bytes, not characters), or any other escape.
PO_ESCAPE = re.compile(r"(?P<bytes>(?:\\(?:[0-7]{1,3}|x[0-9A-Fa-f]+))+)|\\(?P<char>.?)")
PO_BYTE = re.compile(r"\\(?:([0-7]{1,3})|x([0-9A-Fa-f]+))")
PO_CONTROL_ESCAPES = {"r": "carriage return", "a": "bell", "b": "backspace", "f": "form feed", "v": "vertical tab"}


def po_unquote(literal: str, path: Path, line: int, problems: list[Problem]) -> str:
    """The text of one quoted PO string. A string that cannot be read raises; an escape or character that
    is not text is added to problems (so that a file shows all of them at once)."""
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
        pieces.append(_po_plain(body[position : match.start()], path, line, problems))
        pieces.append(_po_unescape(match, path, line, problems))
        position = match.end()
    pieces.append(_po_plain(body[position:], path, line, problems))
    return "".join(pieces)


def _po_plain(text: str, path: Path, line: int, problems: list[Problem]) -> str:
    if '"' in text:
        raise InputError(
            Problem(
                path, line, "a quote inside the string is not escaped", hint='write \\" for a quote inside the text'
            )
        )
    found = control_character(text)
    if found:
        problems.append(Problem(path, line, f"the string holds {found}, which is not text", hint="remove it"))
    return text


def _po_unescape(match: re.Match, path: Path, line: int, problems: list[Problem]) -> str:
    if match["bytes"]:
        return _po_bytes(match["bytes"], path, line, problems)
    char = match["char"]
    if char in PO_UNESCAPES:
        return PO_UNESCAPES[char]
    if char == "":
        raise InputError(
            Problem(
                path, line, "the string ends in a backslash", hint="write \\\\ for a backslash at the end of the text"
            )
        )
    if char in PO_CONTROL_ESCAPES:
        problems.append(
            Problem(
                path,
                line,
                f"'\\{char}' is a control character ({PO_CONTROL_ESCAPES[char]}), not text",
                hint="remove it: a line break is \\n, and \\r is a Windows line end left in the text"
                if char == "r"
                else "remove it",
            )
        )
    else:
        problems.append(
            Problem(
                path,
                line,
                f"'\\{char}' is not a gettext escape",
                hint='a translation needs only \\n \\t \\" and \\\\; write any other character as itself',
            )
        )
    return ""


def _po_bytes(escapes: str, path: Path, line: int, problems: list[Problem]) -> str:
    """Octal and hex escapes: gettext reads them as bytes, which a UTF-8 file writes as characters."""
    values = [int(octal, 8) if octal else int(hexa, 16) for octal, hexa in PO_BYTE.findall(escapes)]
    try:
        text = bytes(values).decode("utf-8")
    except (ValueError, UnicodeDecodeError):  # a value over 255, or bytes that are no UTF-8
        text = ""
    found = control_character(text)
    if "\x00" in text:
        message, hint = f"'{escapes}' is a NUL character: msgfmt cuts the string there", "remove it"
    elif found:
        message, hint = f"'{escapes}' is {found}, not text", "remove it"
    elif text:
        message = f"'{escapes}' is '{text}' written as escaped bytes"
        hint = f"write '{text}' itself: a PO file is UTF-8 text, and gettext reads such escapes as bytes"
    else:
        message, hint = f"'{escapes}' are bytes that are no UTF-8 text", "write the characters themselves"
    problems.append(Problem(path, line, message, hint=hint))
    return text


class PoReader:
    """A PO file, line by line. What cannot be parsed raises at once; every other mistake (an escape, a
    control character, a missing msgstr, line breaks msgfmt refuses) is collected and raised at the end."""

    def __init__(self, path: Path):
        self.path = path
        self.entries: list[Entry] = []
        self.problems: list[Problem] = []
        self.header: dict[str, tuple[str, int]] = {}  # field -> (value, line)
        self.header_line: int | None = None
        self._reset()

    def _reset(self) -> None:
        self.strings: dict[str, list[tuple[int, str]]] = {}  # keyword -> (line, text) of each quoted piece
        self.flags: set[str] = set()
        self.key: str | None = None
        self.start: int | None = None
        self.location = ""

    def text(self, keyword: str) -> str:
        return "".join(piece for _, piece in self.strings.get(keyword, []))

    def read(self, text: str) -> Exchange:
        # Only \n ends a line: NEL, U+2028 and the like are text in a PO string, not line breaks.
        for number, raw in enumerate(text.split("\n"), 1):
            self.read_line(number, raw.strip(" \t\r"))
        self.finish()
        if self.problems:
            raise InputError(self.problems)
        return self.exchange()

    def read_line(self, number: int, line: str) -> None:
        if not line:
            self.finish()
        elif line.startswith("#"):
            if "msgid" in self.strings:
                self.finish()
            if line.startswith("#,"):
                self.flags.update(flag.strip() for flag in line[2:].split(",") if flag.strip())
            elif line.startswith("#:") and not self.location:
                self.location = line[2:].strip().split()[0] if line[2:].strip() else ""
        elif line.startswith('"'):
            if self.key is None:
                raise InputError(
                    Problem(
                        self.path,
                        number,
                        "a quoted string outside an entry",
                        hint="a continued string follows msgctxt, msgid or msgstr",
                    )
                )
            self.strings[self.key].append((number, po_unquote(line, self.path, number, self.problems)))
        else:
            self.read_keyword(number, line)

    def read_keyword(self, number: int, line: str) -> None:
        match = PO_KEYWORD.match(line)
        if not match:
            raise InputError(
                Problem(
                    self.path,
                    number,
                    f"cannot read this line: {line[:40]}",
                    hint="expected msgctxt, msgid or msgstr followed by a quoted string",
                )
            )
        keyword = match.group(1)
        if keyword == "msgid_plural" or keyword.startswith("msgstr["):
            raise InputError(Problem(self.path, number, "plural forms are not used by pnpgen strings"))
        if keyword in self.strings or (keyword in ("msgctxt", "msgid") and "msgstr" in self.strings):
            self.finish()
        if self.start is None:
            self.start = number
        self.key = keyword
        self.strings[keyword] = [(number, po_unquote(match.group(2), self.path, number, self.problems))]

    def finish(self) -> None:
        if "msgid" in self.strings:
            if "msgstr" not in self.strings:
                self.problems.append(
                    Problem(self.path, self.start, "an entry without msgstr", hint='add msgstr "" (not translated yet)')
                )
            elif self.text("msgid") == "" and "msgctxt" not in self.strings:
                self.read_header()
            else:
                self.add_entry()
        elif self.strings:
            raise InputError(
                Problem(self.path, self.start, "an entry without msgid", hint="each entry needs msgid and msgstr")
            )
        self._reset()

    def add_entry(self) -> None:
        entry = Entry(
            self.text("msgctxt"),
            self.text("msgid"),
            self.text("msgstr"),
            stale="fuzzy" in self.flags,
            line=self.start,
            location=self.location,
            ignored=flags_to_checks(self.flags),
        )
        self.entries.append(entry)
        if not entry.target:
            return
        for where, test in (("start", str.startswith), ("end", str.endswith)):
            if test(entry.source, "\n") != test(entry.target, "\n"):
                self.problems.append(
                    Problem(
                        self.path,
                        self.strings["msgid"][0][0],
                        f"msgid and msgstr do not both {where} with a line break (\\n)",
                        entry.id or None,
                        f"{where} both with \\n or neither; msgfmt refuses this too",
                    )
                )

    def read_header(self) -> None:
        """The fields of the header entry (msgid ""), each with the line it is written on."""
        if self.header_line is not None:
            self.problems.append(
                Problem(
                    self.path,
                    self.start,
                    f'a second header (msgid "" without msgctxt; the first is at line {self.header_line})',
                    hint="keep one header",
                )
            )
            return
        self.header_line = self.start
        buffer, begins = "", self.start or 1
        for number, piece in self.strings["msgstr"]:
            if not buffer:
                begins = number
            buffer += piece
            while "\n" in buffer:
                field_text, buffer = buffer.split("\n", 1)
                self.header_field(field_text, begins)
                begins = number
        self.header_field(buffer, begins)

    def header_field(self, text: str, line: int) -> None:
        name, _, value = text.partition(":")
        if name.strip():
            self.header[name.strip()] = (value.strip(), line)

    def exchange(self) -> Exchange:
        """The game is X-Pnpgen-Game, else the first word of Project-Id-Version unless it is gettext's
        placeholder (PACKAGE VERSION, as translate-toolkit's csv2po writes)."""
        game, game_line = self.header.get("X-Pnpgen-Game") or self.header.get("Project-Id-Version") or ("", 1)
        game = game.split()[0] if game.split() and game.split()[0] != "PACKAGE" else ""
        exchange = Exchange(
            game,
            self.header.get("X-Source-Language", ("", 1))[0],
            self.header.get("Language", ("", 1))[0],
            self.entries,
            id_name="msgctxt",
            language_header='a "Language: LANG" line in the header (msgid "")'
            if self.header_line
            else 'it has no header (msgid "" with a "Language: LANG" line)',
        )
        exchange.lines = {
            "game": game_line,
            "source": self.header.get("X-Source-Language", ("", 1))[1],
            "target": self.header.get("Language", ("", self.header_line or 1))[1],
        }
        return exchange


def read_po(text: str, path: Path) -> Exchange:
    return PoReader(path).read(text)


# --- XLIFF 1.2 -----------------------------------------------------------------------------------

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
    return Exchange(
        "",
        "",
        languages.pop() if languages else "",
        entries,
        id_name="context",
        language_header='a "language" column naming it on every row',
    )


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
