"""gettext PO files: the string id is msgctxt, a stale translation `#, fuzzy` with its previous msgid.

Read at least as strictly as `msgfmt --check`: escapes are `\\n \\t \\" \\\\` only (gettext's octal and
hex escapes stand for bytes, which a UTF-8 file writes as characters; msgfmt cuts a string at a NUL).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from generator.errors import InputError, Problem
from generator.i18n.exchange.entries import Entry, Exchange, control_character, flags_to_checks

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
