"""A deck's cards as spreadsheet columns, and the cell form of every kind of field value.

One column per card key (`id`, `count`, `remove_at`, `placeholder`, `back`) and per declared field; a localized
text is one column per language (`name.ja`, `name.en`), an object one column per sub-field (`recipe.inputs`).
Cell forms (docs/spreadsheets.md):
- numbers are numbers, true/false are booleans (CSV: `true`, `false`);
- a list of plain values is written `3, 4` (a list cell starting with `[` is read as YAML: `[a, "b, c"]`);
- counts are written `land:1, oil:2` (a cell starting with `{` is read as YAML);
- anything deeper (a list of objects) is one line of YAML: `[{colour: red, difficulty: 7}]`.
A cell is read back to a plain value here and then checked by the deck's own schema (generator.model.schema).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date, time, timedelta
from typing import Any

import yaml as pyyaml

from generator.model.cards import BACK, PLACEHOLDER
from generator.model.schema import (
    Bool,
    Counts,
    Enum,
    Field,
    Int,
    ListOf,
    Localized,
    Object,
    OneOf,
    Ref,
    Spec,
    Str,
    unprintable,
)

MAX_CELL_CHARS = 10_000  # a card text is far shorter; longer cells are a located error, not a slow build
INTEGER = re.compile(r"^[+-]?\d{1,15}$")
NUMBER = re.compile(r"^[+-]?(\d{1,15}(\.\d{0,15})?|\.\d{1,15})([eE][+-]?\d{1,3})?$")
PAIR = re.compile(r"^\s*([^:,\s][^:,]*?)\s*:\s*(\S.*?)\s*$")

CellValue = str | int | float | bool | None  # what pnpgen writes into a cell (None: an empty cell)
ReadCell = CellValue | date | time | timedelta  # what a cell read holds (python-calamine gives dates and times)


@dataclass
class Column:
    """One spreadsheet column: where its value goes in a card (`path`) and how it is checked (`spec`)."""

    label: str  # the header: name.ja, recipe.inputs, count
    path: tuple[str, ...]  # keys in the card: ("name", "ja"), ("recipe", "inputs"), ("count",)
    spec: Spec[Any]  # the schema of the cell's value (a language's text is a Str)
    required: bool = False
    default: object = None  # the value a card without the key has (count: 1)
    doc: str = ""
    choices: list[object] = field(default_factory=list)  # a drop-down's values (enum values, a ref's card ids)
    ref_ids: list[str] = field(default_factory=list)  # the ids a counts cell may name, for its example

    @property
    def text(self) -> bool:
        """Whether the cell holds text (formatted as text in a spreadsheet: a typed 007 stays 007)."""
        spec = self.spec
        if isinstance(spec, Enum):
            return any(isinstance(value, str) for value in spec.values)
        return not isinstance(spec, (Int, Bool, OneOf))

    @property
    def form(self) -> str:
        """How the cell is written, for the header's comment."""
        spec = self.spec
        if isinstance(spec, Counts):
            a, b = (self.ref_ids + ["id", "id"])[:2] if len(self.ref_ids) != 1 else (self.ref_ids[0], "id")
            return f"ids of deck '{spec.deck}' with amounts, like {a}:1, {b}:2"
        if isinstance(spec, ListOf) and is_plain(spec.of):
            return "a list, like 3, 4"
        if isinstance(spec, OneOf):
            return "true, or the invented fields, like number, trend"
        if is_yaml_cell(spec):
            return "one line of YAML, like [{key: value}]"
        return ""


def is_plain(spec: Spec[Any]) -> bool:
    return isinstance(spec, (Int, Str, Bool, Enum, Ref))


def is_yaml_cell(spec: Spec[Any]) -> bool:
    return (
        not is_plain(spec)
        and not isinstance(spec, (Counts, OneOf))
        and not (isinstance(spec, ListOf) and is_plain(spec.of))
    )


def deck_columns(
    fields: dict[str, Field],
    languages: list[str],
    ids_by_deck: dict[str, list[str]] | None = None,
    with_back: bool = True,
) -> list[Column]:
    """The columns of a deck: built-in card keys, the name per language, then the declared fields."""
    langs, ids_by_deck = list(languages), ids_by_deck or {}
    columns = [
        Column("id", ("id",), Str(), required=True, doc="the card's id: references and translations use it"),
        Column("count", ("count",), Int(0, 10000), default=1, doc="copies of the card (default 1)"),
        Column("remove_at", ("remove_at",), ListOf(Int(1, 20)), doc="player counts without this card"),
        Column("placeholder", ("placeholder",), PLACEHOLDER, doc="invented values, to replace"),
    ]
    if with_back:
        columns.append(
            Column("back", ("back", "template"), BACK.fields["template"].spec, doc="this card's own back template")
        )
    columns += [Column(f"name.{lang}", ("name", lang), Str(), doc=f"the card's name ({lang})") for lang in langs]
    for name, declared in fields.items():
        columns += field_columns(name, (name,), declared, langs, ids_by_deck)
    return columns


def field_columns(
    label: str, path: tuple[str, ...], declared: Field, langs: list[str], ids_by_deck: dict[str, list[str]]
) -> list[Column]:
    spec = declared.spec
    if isinstance(spec, Localized):
        return [
            Column(f"{label}.{lang}", path + (lang,), Str(), doc=f"{declared.doc} ({lang})".strip()) for lang in langs
        ]
    if isinstance(spec, Object) and all(not isinstance(sub.spec, Object) for sub in spec.fields.values()):
        columns: list[Column] = []
        for sub_name, sub in spec.fields.items():
            for column in field_columns(f"{label}.{sub_name}", path + (sub_name,), sub, langs, ids_by_deck):
                column.required = column.required and declared.required
                column.doc = column.doc or declared.doc
                columns.append(column)
        return columns
    choices: list[object] = []
    if isinstance(spec, Enum):
        choices = list(spec.values)
    elif isinstance(spec, Ref):
        choices = list(ids_by_deck.get(spec.deck, []))
    ref_ids = list(ids_by_deck.get(spec.deck, [])) if isinstance(spec, Counts) else []
    return [
        Column(
            label,
            path,
            spec,
            required=declared.required,
            default=declared.default,
            doc=declared.doc,
            choices=choices,
            ref_ids=ref_ids,
        )
    ]


# --- values -> cells ------------------------------------------------------------------------------


def to_cell(column: Column, value: object) -> CellValue:
    """The cell for a card's value (None: an empty cell)."""
    if value is None:
        return None
    spec = column.spec
    if isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        return value
    if isinstance(spec, OneOf) and isinstance(value, list):  # placeholder: [number, trend]
        return plain_list(value)
    if isinstance(spec, Counts) and isinstance(value, dict) and all(safe_word(k) for k in value):
        return ", ".join(f"{key}:{amount}" for key, amount in value.items())
    if isinstance(spec, ListOf) and is_plain(spec.of) and isinstance(value, list):
        return plain_list(value)
    return flow_yaml(value)


def plain_list(items: list[object]) -> str:
    if all(safe_word(item) for item in items):
        return ", ".join(str(item) for item in items)
    return flow_yaml(items)


def safe_word(item: object) -> bool:
    """An item that reads back as itself from a comma list."""
    if isinstance(item, bool) or not isinstance(item, (str, int, float)):
        return False
    text = str(item)
    return bool(text) and text == text.strip() and not any(c in text for c in ",:[]{}\n")


def flow_yaml(value: object) -> str:
    return (
        pyyaml.safe_dump(value, default_flow_style=True, width=10**9, allow_unicode=True, sort_keys=False)
        .strip()
        .removesuffix("...")
        .strip()
    )


# --- cells -> values ------------------------------------------------------------------------------

EMPTY = object()  # an empty cell: the card has no such key


class CellError(Exception):
    """A cell that cannot even be read as a value of its column's form."""


def blank(raw: object) -> bool:
    """An empty cell, or one holding only spaces and tabs (what a slip of the keyboard leaves)."""
    return raw is None or (isinstance(raw, str) and not raw.strip(" \t"))


def from_cell(column: Column, raw: ReadCell) -> object:
    """The plain value of a cell, to be checked by the column's spec; EMPTY for an empty cell."""
    if blank(raw):
        return EMPTY
    if isinstance(raw, str):
        if len(raw) > MAX_CELL_CHARS:
            raise CellError(f"the cell holds {len(raw)} characters, more than {MAX_CELL_CHARS}")
        problem = unprintable(raw)
        if problem:
            raise CellError(f"the cell holds {problem}")
        if not raw.strip():  # line or paragraph separators, no-break spaces: not an empty cell, not a text
            shown = ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, '')}".strip() for c in dict.fromkeys(raw))
            raise CellError(f"the cell holds only invisible characters ({shown})")
    return parse(column.spec, whole_number(raw))


def whole_number(raw: ReadCell) -> ReadCell:
    """Spreadsheets store every number as a float: 3.0 is the whole number 3."""
    if isinstance(raw, float) and raw.is_integer() and abs(raw) < 2**53:
        return int(raw)
    return raw


def parse(spec: Spec[Any], raw: ReadCell) -> object:
    if isinstance(spec, Int):
        return number(raw, whole=spec.whole)
    if isinstance(spec, Bool):
        if isinstance(raw, str) and raw.strip().lower() in ("true", "false"):
            return raw.strip().lower() == "true"
        return raw
    if isinstance(spec, Enum):
        text = str(raw).strip()
        return next((value for value in spec.values if str(value) == text), raw)
    if isinstance(spec, (Str, Ref)):
        return raw if isinstance(raw, (bool, str)) else str(raw)
    if isinstance(spec, OneOf):  # placeholder: true, or a list of field names
        if isinstance(raw, bool) or str(raw).strip().lower() in ("true", "false"):
            return raw if isinstance(raw, bool) else str(raw).strip().lower() == "true"
        return parse_list(ListOf(Str()), str(raw))
    if isinstance(spec, Counts):
        text = str(raw).strip()
        return read_yaml(text) if text.startswith("{") else parse_counts(text)
    if isinstance(spec, ListOf) and is_plain(spec.of):
        return parse_list(spec, raw)
    return read_yaml(str(raw))


def number(raw: ReadCell, whole: bool) -> ReadCell:
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return raw
    text = str(raw).strip()
    if INTEGER.match(text):
        return int(text)
    if not whole and NUMBER.match(text):
        return float(text)
    return raw  # the schema says what was expected


def parse_list(spec: ListOf, raw: ReadCell) -> object:
    if not isinstance(raw, str):
        return [parse(spec.of, raw)]
    text = raw.strip()
    if text.startswith("["):
        value = read_yaml(text)
        return value if not isinstance(value, list) else [parse(spec.of, item) for item in value]
    return [parse(spec.of, item.strip()) for item in text.split(",") if item.strip()]


def parse_counts(text: str) -> dict[str, ReadCell]:
    counts: dict[str, ReadCell] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        match = PAIR.match(item)
        if not match:
            raise CellError(f"expected id:amount pairs like land:1, oil:2, found '{item.strip()}'")
        key = match[1]
        if key in counts:
            raise CellError(f"'{key}' appears twice")
        counts[key] = number(match[2], whole=True)
    return counts


def read_yaml(text: str) -> Any:
    """One line of YAML in a cell; no anchors or aliases (they could expand without bound)."""
    try:
        events = list(pyyaml.parse(text, Loader=pyyaml.SafeLoader))
        if any(isinstance(event, pyyaml.AliasEvent) or getattr(event, "anchor", None) for event in events):
            raise CellError("anchors and aliases (& and *) are not allowed in a cell")
        return pyyaml.safe_load(text)
    except pyyaml.YAMLError as error:
        problem = getattr(error, "problem", None) or "malformed YAML"
        raise CellError(f"cannot read the cell as YAML: {problem}") from None


def column_letters(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters
