"""A small typed schema for YAML documents.

Every check records a located Problem (file, line, key path, what was expected) instead of raising,
so that one run reports every mistake in a file. Deck files declare their own card fields in the
same vocabulary (`fields: {number: {type: int, min: 10}}`), compiled by `compile_field`.
"""

from __future__ import annotations

import dataclasses
import datetime
import difflib
import enum
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Final, Generic, Protocol, TypeVar

from generator.errors import Problem, did_you_mean
from generator.model.game import Text
from generator.yamlio.positions import Positions, item_line, key_line, node_line


class Invalid(enum.Enum):
    """The one value a check returns when it recorded a problem (an enum member, so that `is INVALID` narrows)."""

    INVALID = "invalid"


INVALID: Final = Invalid.INVALID
T = TypeVar("T")


@dataclass
class Where:
    """Where a value sits: its file, line, the key path shown to the user, and the path in the document."""

    file: Path
    line: int | None
    key: str
    path: tuple[str | int, ...] = ()

    def child(self, container: object, key: str | int) -> Where:
        if isinstance(key, int):
            line = item_line(container, key)
            label = f"{self.key}[{key}]"
        else:
            positions = getattr(container, "lc", None)  # key_line's common case inline: a card's every key
            found = positions.data.get(key) if isinstance(positions, Positions) else None
            line = found[0] + 1 if found is not None else key_line(container, key)
            label = f"{self.key}.{key}" if self.key else str(key)
        return Where(self.file, line or self.line, label, self.path + (key,))

    def relabel(self, key: str) -> Where:
        return Where(self.file, self.line, key, self.path)


class Checker:
    """Collects problems for one file."""

    def __init__(self, languages: list[str] | None = None):
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []
        self.languages = languages or []

    def report(self, where: Where, message: str, hint: str | None = None) -> Invalid:
        self.problems.append(Problem(where.file, where.line, message, where.key or None, hint))
        return INVALID

    def warn(self, where: Where, message: str, hint: str | None = None) -> None:
        """Something read as meant but better written otherwise (an old key's name): the file still loads."""
        self.warnings.append(Problem(where.file, where.line, message, where.key or None, hint))


def type_name(value: object) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return f"the text '{value}'"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return type(value).__name__


class Spec(Generic[T]):
    """What a YAML value must be; `check` gives what it makes of one (a T) or INVALID."""

    @property
    def expected(self) -> str:  # a subclass overrides it with a text or a property
        return "a value"

    def check(self, value: object, where: Where, checker: Checker) -> T | Invalid:
        raise NotImplementedError

    def wrong(self, value: object, where: Where, checker: Checker, hint: str | None = None) -> Invalid:
        return checker.report(where, f"expected {self.expected}, found {type_name(value)}", hint)


@dataclass
class Int(Spec[float]):
    min: float | None = None
    max: float | None = None
    whole: bool = True

    @property
    def expected(self) -> str:
        kind = "a whole number" if self.whole else "a number"
        if self.min is not None and self.max is not None:
            return f"{kind} from {self.min} to {self.max}"
        if self.min is not None:
            return f"{kind} of at least {self.min}"
        if self.max is not None:
            return f"{kind} of at most {self.max}"
        return kind

    def check(self, value: object, where: Where, checker: Checker) -> float | Invalid:
        ok_types = (int,) if self.whole else (int, float)
        if isinstance(value, bool) or not isinstance(value, ok_types):
            return self.wrong(value, where, checker)
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            return checker.report(where, f"expected {self.expected}, found {value}")
        return value


class Str(Spec[str]):
    expected = "a text"

    def check(self, value: object, where: Where, checker: Checker) -> str | Invalid:
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            return self.wrong(value, where, checker)
        return str(value)


PLACEHOLDER_IMAGE = "placeholder"  # an image field's value for art still to come: a marked box prints
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".tif", ".tiff", ".svg")


class ImagePath(Str):
    """A picture file given by its path inside the game's folder (`art/apple.png`), or `placeholder`. Whether
    the file is there and decodes is validate's check (checks/art.py): a game is loaded before its files are read."""

    expected = "a picture's path inside the game's folder, like art/apple.png, or placeholder"

    def check(self, value: object, where: Where, checker: Checker) -> str | Invalid:
        text = super().check(value, where, checker)
        if text is INVALID or text == PLACEHOLDER_IMAGE:
            return text
        if why := image_path_problem(text):
            return checker.report(where, f"expected {self.expected}, found {text!r}: {why}")
        return text


def image_path_problem(path: str) -> str | None:
    """Why a written picture path cannot name a file inside the game's folder, or None."""
    parts = path.replace("\\", "/").split("/")
    if path.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", path) or "://" in path:
        return "a path relative to the game's folder is expected"
    if ".." in parts or "" in parts or len(path) > 500:
        return "it must lead down from the game's folder (no '..', no empty part)"
    if not path.lower().endswith(IMAGE_SUFFIXES):
        return "a PNG, JPEG, WebP, GIF, TIFF or SVG file is expected"
    return None


# Characters no text is imported with: C0 and C1 controls (but tab, line feed and NEL, U+0085, which YAML
# holds as text), DEL and the two noncharacters. A text holding one prints as nothing or as a box.
UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x84\x86-\x9f\ufffe\uffff\ud800-\udfff]")


def unprintable(text: str) -> str | None:
    """Why a text coming from outside (a spreadsheet cell, a translation file, the editor) cannot be imported
    as it is: a control character, named with where it is; None when it can."""
    found = UNPRINTABLE.search(text)
    if found is None:
        return None
    kind = "a noncharacter" if ord(found[0]) > 0xFF else "a control character"
    return f"{kind}, {character_name(found[0])}, at character {found.start() + 1}"


def character_name(char: str) -> str:
    """`U+000D (carriage return)`: how messages name a character that prints as nothing."""
    name = CONTROL_NAMES.get(char) or unicodedata.name(char, "").lower()
    return f"U+{ord(char):04X}{f' ({name})' if name else ''}"


CONTROL_NAMES = {
    "\x00": "NUL",
    "\a": "bell",
    "\b": "backspace",
    "\x0b": "vertical tab",
    "\x0c": "form feed",
    "\r": "carriage return",
    "\x1b": "escape",
    "\x7f": "delete",
}


class Name(Str):
    """An id or a language code: it becomes part of file names, HTML attributes and CSS classes, so it holds
    only letters, digits, '-' and '_' (`x/../../escaped` would name a file outside the output folder)."""

    def __init__(self, pattern: str, expected: str, hint: str):
        self.pattern, self.expected, self.hint = re.compile(pattern), expected, hint

    def check(self, value: object, where: Where, checker: Checker) -> str | Invalid:
        text = super().check(value, where, checker)
        if text is INVALID or self.pattern.fullmatch(text):
            return text
        return checker.report(where, f"expected {self.expected}, found {text!r}", self.hint)


def Id() -> Name:  # noqa: N802 - used like a spec class
    return Name(
        r"[^\W_][\w-]{0,63}", "an id (letters, digits, '-' and '_', at most 64)", "for example coal-mine or card_12"
    )


def LanguageCode() -> Name:  # noqa: N802
    return Name(
        r"[a-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}",
        "a language code like ja, en or pt-BR",
        "the ISO 639 code, optionally with a region: ja, en, en-US",
    )


COLOUR = re.compile(
    r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})|[a-zA-Z]{3,30}"
    r"|(?:rgba?|hsla?|device-cmyk)\([0-9a-z.%,/ +-]{1,80}\)"
)


def is_colour(value: object) -> bool:
    """A CSS colour and nothing more: it is written into style attributes (`red; background: url(...)` is not)."""
    return isinstance(value, str) and COLOUR.fullmatch(value.strip()) is not None


class IsoDate(Spec[str]):
    """A day, written `2025-01-20` (YAML reads it as a date) or quoted: kept as that ISO text."""

    expected = "a date like 2025-01-20"

    def check(self, value: object, where: Where, checker: Checker) -> str | Invalid:
        text = value.isoformat() if isinstance(value, datetime.date) else value
        if isinstance(text, str) and ISO_DATE.fullmatch(text):
            try:
                return datetime.date.fromisoformat(text).isoformat()
            except ValueError:
                pass
        return checker.report(where, f"expected {self.expected}, found {value!r}")


ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class Colour(Str):
    expected = "a colour like #2f5d62, rgb(47, 93, 98) or teal"

    def check(self, value: object, where: Where, checker: Checker) -> str | Invalid:
        text = super().check(value, where, checker)
        if text is INVALID or is_colour(text):
            return text
        return checker.report(where, f"expected {self.expected}, found {text!r}")


class AnyValue(Spec[object]):
    expected = "a value of the field's type"

    def check(self, value: object, where: Where, checker: Checker) -> object:
        return plain(value)


class Bool(Spec[bool]):
    expected = "true or false"

    def check(self, value: object, where: Where, checker: Checker) -> bool | Invalid:
        return value if isinstance(value, bool) else self.wrong(value, where, checker)


@dataclass
class Enum(Spec[Any]):
    values: list[Any]  # texts or numbers, as the YAML gives them

    @property
    def expected(self) -> str:
        return "one of " + ", ".join(str(v) for v in self.values)

    def check(self, value: object, where: Where, checker: Checker) -> Any | Invalid:
        if value in self.values and not isinstance(value, bool):
            return value
        hint = did_you_mean(value, self.values) if isinstance(value, str) else None
        return checker.report(where, f"expected {self.expected}, found {value!r}", hint)


@dataclass
class Ref(Spec[str]):
    """A card id in another deck. Whether it exists is checked once the whole game is loaded."""

    deck: str

    @property
    def expected(self) -> str:
        return f"the id of a card in deck '{self.deck}'"

    def check(self, value: object, where: Where, checker: Checker) -> str | Invalid:
        return str(value) if isinstance(value, str) else self.wrong(value, where, checker)


LOCALIZED_DOC = """\
A text printed in several languages is a mapping from each of the game's languages to its text. A language
left out, or left empty, is a missing translation: validate and `pnpgen i18n status` list it, and a build
prints the source language's text there until it is translated.

Short texts fit on one line in flow style, `name: {ja: 炭鉱, en: Coal Mine}`. Inside the braces a comma
ends the text, and a colon followed by a space, ` #`, or braces and brackets (placeholders like
`{deck.assets}`, furigana `{札|ふだ}`) break it: quote such a text, `{ja: 炭鉱, en: "Coal, Mine"}`, or write
the texts in block style, one language a line, which is also easier to read for anything long:

```yaml
title:
  ja: その案件、弊社なら1金で受けれますが？
  en: We'll Take That Job for 1 Gold
text:
  ja: "{札|ふだ}を2枚引く。"
  en: Draw 2 cards, then discard 1.
```

In block style a text may hold commas, but one that starts with `{`, `[`, `"`, `'`, `&`, `*`, `!`, `|`, `>`, `%`
or `@`, or holds `: ` or ` #`, is still quoted. A multi-line text is a block scalar: `ja: |` followed by the
lines, indented. pnpgen's error for a text YAML cannot read says so, with its file and line."""


COMMA_IN_FLOW = (
    "a comma inside {ja: ..., en: ...} ends a text, and YAML read what follows it as a key: quote "
    'the text ("...") or write one language a line (block style)'
)
BRACES_READ_AS_MAPPING = (
    "YAML reads a text starting with { or [ (furigana {漢字|かんじ}, a placeholder) as a "
    'mapping or a list: quote it, like "{札|ふだ}を引く"'
)


class Localized(Spec[Text]):
    """Text in several languages: {ja: ..., en: ...}. Missing languages are reported by validate."""

    expected = "a mapping of languages to text, like {ja: ..., en: ...}"

    def check(self, value: object, where: Where, checker: Checker) -> Text | Invalid:
        if not isinstance(value, dict):
            return self.wrong(value, where, checker)
        values: dict[str, str] = {}
        lines: dict[str, int | None] = {}
        for lang, text in value.items():
            at = where.child(value, lang)
            lines[str(lang)] = at.line
            if checker.languages and lang not in checker.languages:
                hint = COMMA_IN_FLOW if text is None else did_you_mean(lang, checker.languages)
                checker.report(
                    at, f"'{lang}' is not one of the game's languages ({', '.join(checker.languages)})", hint
                )
                continue
            if text is None:
                continue  # an empty entry is a missing translation, not a type error
            if not isinstance(text, (str, int, float)) or isinstance(text, bool):
                hint = BRACES_READ_AS_MAPPING if isinstance(text, (dict, list)) else None
                checker.report(at, f"expected text, found {type_name(text)}", hint)
                continue
            values[str(lang)] = str(text)
        return Text(values, where.file, where.line, where.path, lines)


@dataclass
class ListOf(Spec[list[Any]]):
    of: Spec[Any]

    @property
    def expected(self) -> str:
        return f"a list of {self.of.expected}"

    def check(self, value: object, where: Where, checker: Checker) -> list[Any] | Invalid:
        if not isinstance(value, list):
            return self.wrong(value, where, checker)
        out = [self.of.check(item, where.child(value, i), checker) for i, item in enumerate(value)]
        return [v for v in out if v is not INVALID]


@dataclass
class Counts(Spec[dict[str, float]]):
    """A mapping from card ids of a deck to whole numbers, like {coal: 2}."""

    deck: str
    min: float | None = None
    max: float | None = None

    @property
    def expected(self) -> str:
        return f"a mapping from ids of deck '{self.deck}' to numbers, like {{id: 1}}"

    def check(self, value: object, where: Where, checker: Checker) -> dict[str, float] | Invalid:
        if not isinstance(value, dict):
            return self.wrong(value, where, checker)
        number = Int(self.min, self.max)
        out = {}
        for key, amount in value.items():
            checked = number.check(amount, where.child(value, key), checker)
            if checked is not INVALID:
                out[str(key)] = checked
        return out


@dataclass
class OneOf(Spec[Any]):
    options: list[Spec[Any]]
    expected: str = "a value"

    def check(self, value: object, where: Where, checker: Checker) -> Any | Invalid:
        for option in self.options:
            trial = Checker(checker.languages)
            result = option.check(value, where, trial)
            if not trial.problems:
                return result
        return self.wrong(value, where, checker)


@dataclass
class Field:
    spec: Spec[Any]
    required: bool = False
    default: Any = None
    doc: str = ""
    # Where the value goes in the model object (see Model): the attribute named like the key, or `attr`
    # ("" for none: the loader reads the key and keeps what it makes of it); templates see it unless not `shown`,
    # as `doc` says (docs/templates.md), or as `view_doc` says when they see another value than the one written.
    attr: str | None = None
    shown: bool = True
    view_doc: str = ""
    label: Text | None = None  # a card field's name in every language (a deck's `fields:` declaration)
    # The key this one is the old name of: its value is read as that key's, with a located warning saying what to
    # write instead (Checker.warnings: the loader of the file passes them on, as load_printables does).
    old_name_of: str = ""


@dataclass
class Object(Spec[dict[str, Any]]):
    fields: dict[str, Field]
    what: str = "mapping"
    extra: bool = False  # accept keys not listed (checked elsewhere)
    doc: str = ""  # what the mapping is, for docs/schema.md

    @property
    def expected(self) -> str:
        return f"a {self.what} with keys " + ", ".join(self.fields)

    def check(self, value: object, where: Where, checker: Checker) -> dict[str, Any] | Invalid:
        if not isinstance(value, dict):
            return self.wrong(value, where, checker)
        out = {}
        misspelt = set()  # required keys an unknown key probably meant: one mistake, one message
        for key, item in value.items():
            at = where.child(value, key)
            spec = self.fields.get(key)
            if spec is None:
                if self.extra:
                    out[key] = plain(item)
                else:
                    checker.report(at, f"unknown key in {self.what}", hint_for_unknown(key, self.fields))
                    misspelt.update(difflib.get_close_matches(str(key), list(self.fields), n=1, cutoff=0.6))
                continue
            if item is None and not spec.required:
                continue
            checked = spec.spec.check(item, at, checker)
            if spec.old_name_of and checked is not INVALID:
                key = renamed_key(key, spec.old_name_of, value, at, checker)
            if checked is not INVALID and key:
                out[key] = checked
        for key, spec in self.fields.items():
            if key in value or key in misspelt:
                continue
            if spec.required:
                missing = where.relabel(f"{where.key}.{key}" if where.key else key)
                checker.report(missing, f"missing required key in {self.what}: expected {spec.spec.expected}")
            elif spec.default is not None and key not in out:  # (an old name may have given it)
                out[key] = spec.default
        return out


def renamed_key(old: str, new: str, value: dict[Any, Any], at: Where, checker: Checker) -> str:
    """The key an old name's value goes to: the new one, with a warning; none when both are written (a problem)."""
    if new in value:
        checker.report(at, f"`{old}` is the old name of `{new}`, which is also written", f"remove `{old}`")
        return ""
    written = json.dumps(plain(value[old]), ensure_ascii=False)
    checker.warn(at, f"`{old}` is the old name of `{new}`", f"write `{new}: {written}` instead")
    return new


class Dataclass(Protocol):
    """A dataclass, as `dataclasses.fields` takes it: a model class is one."""

    __dataclass_fields__: ClassVar[dict[str, Any]]


Made = TypeVar("Made", bound=Dataclass)


class Model(Generic[Made]):
    """A model class filled from a schema's checked mapping, one declaration per key: the value of each key goes
    to the attribute its Field names (`attr`, else the key's own name), and the template view shows it (unless
    the Field says it is not `shown`). `given` names the attributes the loader gives: those no key carries (where
    the object was written, its id) and those it makes of a key (a size in mm, an =expression resolved).
    A key added to the schema reaches the object and its view with no code of its own; `unmatched` says where
    the schema and the class disagree (tests/test_models.py runs it on every model)."""

    def __init__(self, cls: type[Made], fields: dict[str, Field], given: Iterable[str] = ()):
        self.cls = cls
        self.fields = fields  # the schema's own: a key added to it is carried from then on
        self.given = tuple(given)
        self._viewed: list[tuple[str, str, bool]] | None = None  # (key, attribute, holds texts), for every view

    def refresh(self) -> None:
        """Forget what views were made from (after a key is added to the schema while running, as tests do)."""
        self._viewed = None

    def carried(self) -> list[tuple[str, str]]:
        """(key, attribute) for every key an attribute of the model carries."""
        return [(key, key if item.attr is None else item.attr) for key, item in self.fields.items() if item.attr != ""]

    def required(self) -> frozenset[str]:
        """The keys a mapping is complete with (a missing one is a problem the checker reported)."""
        return frozenset(key for key, item in self.fields.items() if item.required)

    def maker(self) -> Callable[..., Made]:
        """make(), the keys looked up once: for a loader making many objects of one schema (a deck's cards)."""
        cls = self.cls
        read = [
            (key, attr, item.default, item.required or item.default is not None)
            for key, attr in self.carried()
            if attr not in self.given
            for item in (self.fields[key],)
        ]

        def make(checked: dict[str, Any], **given: Any) -> Made:
            found = {attr: checked.get(key, default) for key, attr, default, always in read if always or key in checked}
            return cls(**found, **given)

        return make

    def make(self, checked: dict[str, Any], **given: Any) -> Made:
        """The model object of a checked mapping, with the attributes the loader gives. A key whose value the
        checker refused takes its default, as if left out; a required key it found missing is None (such an object
        only serves to go on checking the game's other files, which may name it)."""
        return self.maker()(checked, **given)

    def shown(self) -> list[tuple[str, str]]:
        """(key, attribute) of what templates see."""
        return [(key, attr) for key, attr in self.carried() if self.fields[key].shown]

    def shown_docs(self) -> dict[str, str]:
        """What templates see of each shown key, in words (docs/templates.md)."""
        return {key: self.fields[key].view_doc or self.fields[key].doc for key, _ in self.shown()}

    def view(self, made: Made, localize: Callable[[Any], Any]) -> dict[str, Any]:
        """What templates see of the object: each shown key's value as its attribute carries it, its texts
        localized (made for every card a template sees: what to localize is found once)."""
        if self._viewed is None:
            self._viewed = [(key, attr, holds_text(self.fields[key].spec)) for key, attr in self.shown()]
        return {
            key: localize(getattr(made, attr)) if texts else getattr(made, attr) for key, attr, texts in self._viewed
        }

    def unmatched(self) -> list[str]:
        """Where the class and the schema disagree: a key whose attribute the class lacks, an attribute that no key
        carries and the loader does not give, one the loader gives that the class lacks."""
        attributes = {item.name for item in dataclasses.fields(self.cls)}
        carried = self.carried()
        name = self.cls.__name__
        return (
            [f"key '{key}': {name} has no attribute '{attr}'" for key, attr in carried if attr not in attributes]
            + [
                f"{name}.{attr}: no key carries it and the loader does not give it"
                for attr in sorted(attributes - {attr for _, attr in carried} - set(self.given))
            ]
            + [
                f"{name}.{attr}: the loader gives it, the class has no such attribute"
                for attr in self.given
                if attr not in attributes
            ]
        )


def holds_text(spec: Spec[Any]) -> bool:
    """Whether a value of this spec may hold a Text, which a view localizes."""
    if isinstance(spec, (Int, Str, Bool, Enum, Ref, Counts, AnyValue, Mapping)):
        return False
    if isinstance(spec, ListOf):
        return holds_text(spec.of)
    if isinstance(spec, MapOf):
        return holds_text(spec.values)
    if isinstance(spec, OneOf):
        return any(holds_text(option) for option in spec.options)
    if isinstance(spec, Object):
        return any(holds_text(item.spec) for item in spec.fields.values())
    if isinstance(spec, Described):
        return holds_text(spec.spec) or holds_text(spec.shape)
    return True  # Localized, and any spec not known here


@dataclass
class Mapping(Spec[dict[Any, Any]]):
    """A mapping whose keys other code checks (a deck's cards, by its declared fields): returned as it is, its
    keys not walked (a deck of 20,000 cards is walked once, by the cards' own schema)."""

    what: str = "mapping"

    @property
    def expected(self) -> str:
        return f"a {self.what} (keys and values)"

    def check(self, value: object, where: Where, checker: Checker) -> dict[Any, Any] | Invalid:
        return value if isinstance(value, dict) else self.wrong(value, where, checker)


@dataclass
class MapOf(Spec[dict[Any, Any]]):
    """A mapping whose keys the author chooses (label keys, string ids, languages), each value of one kind."""

    keys: Spec[Any]
    values: Spec[Any]
    what: str = "mapping"
    key: str = "name"  # what a key is, in docs/schema.md's paths: `fields.<name>`, `made_from.<string id>`

    @property
    def expected(self) -> str:
        return f"a {self.what} of {self.keys.expected} to {self.values.expected}"

    def check(self, value: object, where: Where, checker: Checker) -> dict[Any, Any] | Invalid:
        if not isinstance(value, dict):
            return self.wrong(value, where, checker)
        out = {}
        for key, item in value.items():
            at = where.child(value, key)
            checked_key = self.keys.check(key, at, checker)
            checked = self.values.check(item, at, checker)
            if checked_key is not INVALID and checked is not INVALID:
                out[checked_key] = checked
        return out


@dataclass
class Described(Spec[T]):
    """A value checked by `spec` here and in full by other code (a card by its deck's declared fields), whose
    documented shape is `shape`."""

    spec: Spec[T]
    shape: Spec[Any]

    @property
    def expected(self) -> str:
        return self.spec.expected

    def check(self, value: object, where: Where, checker: Checker) -> T | Invalid:
        return self.spec.check(value, where, checker)


@dataclass(frozen=True)
class FileKind:
    """A kind of YAML file in a game's folder, as `pnpgen schema` documents it."""

    path: str  # where it lives in the game's folder, like `decks/<deck>.yaml`
    schema: Object
    doc: str  # what the file is for (Markdown, a paragraph)
    required: bool = False


def plain(node: object) -> object:
    """ruamel's mappings and lists as plain Python values."""
    if isinstance(node, dict):
        return {k: plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    return node


def hint_for_unknown(key: object, fields: Iterable[str]) -> str:
    return did_you_mean(key, fields) or "allowed keys: " + ", ".join(fields)


# --- deck field declarations ---------------------------------------------------------------------

FIELD_TYPE_DOCS = {
    "int": "a whole number, within `min` and `max`",
    "number": "a number (decimals allowed), within `min` and `max`",
    "str": "a text printed the same in every language (a code, a letter)",
    "bool": "true or false",
    "text": "a localized text, one per language (`{ja: ..., en: ...}`): a translation string",
    "enum": "one of the listed `values`",
    "ref": "the id of a card in the deck `ref` names (a reference between cards, checked by validate)",
    "counts": "a mapping from ids of cards in the deck `ref` names to whole numbers, like `{coal: 2}`",
    "list": "a list, each item declared by `of`",
    "object": "a mapping with its own declared `fields`",
    "image": "a picture: its path inside the game's folder (`art/apple.png`; an `art/` folder by convention), or "
    "`placeholder`; validate checks that the file is there and decodes, templates place it with `image()`, and a "
    "card without one (no value, `placeholder`, a file missing) prints a marked placeholder box and is warned about",
}
FIELD_TYPES = list(FIELD_TYPE_DOCS)
KEYS_BY_TYPE = {
    "int": {"min", "max"},
    "number": {"min", "max"},
    "counts": {"ref", "min", "max"},
    "enum": {"values"},
    "ref": {"ref"},
    "list": {"of"},
    "object": {"fields"},
}
# The keys of a field declaration, for docs/schema.md; compile_field checks them (which keys go with which type).
FIELD_DECLARATION = Object(
    {
        "type": Field(Enum(FIELD_TYPES), required=True, doc="the kind of value (see the field types below)"),
        "required": Field(Bool(), default=False, doc="every card must give it"),
        "doc": Field(Str(), doc="what the field means: shown in spreadsheet headers and docs"),
        "label": Field(
            Localized(),
            doc="the field's name in every language, a translation string: the rule sheet's prototype note "
            "names a card's invented fields (`placeholder: [trend]`) by it",
        ),
        "default": Field(AnyValue(), doc="the value of a card that leaves the field out"),
        "min": Field(Int(whole=False), doc="int, number, counts: the smallest value allowed"),
        "max": Field(Int(whole=False), doc="int, number, counts: the largest value allowed"),
        "values": Field(ListOf(Str()), doc="enum: the values allowed"),
        "ref": Field(Id(), doc="ref, counts: the id of the deck whose card ids the value names"),
    },
    what="field declaration",
    doc="How a deck declares one of its cards' own fields, like `number: {type: int, min: 10, max: 49}`.",
)
FIELD_DECLARATION.fields["of"] = Field(FIELD_DECLARATION, doc="list: the declaration of each item")
FIELD_DECLARATION.fields["fields"] = Field(
    MapOf(Str(), FIELD_DECLARATION, key="field"), doc="object: the declarations of its keys, by name"
)


def compile_field(node: object, where: Where, checker: Checker) -> Field | None:
    """Turn a field declaration like {type: int, min: 0} into a Field; record problems."""
    if not isinstance(node, dict):
        checker.report(where, f"expected a field declaration like {{type: int}}, found {type_name(node)}")
        return None
    kind = node.get("type")
    if kind not in FIELD_TYPES:
        checker.report(
            where.child(node, "type") if "type" in node else where,
            f"expected a field type: one of {', '.join(FIELD_TYPES)}, found {kind!r}",
            did_you_mean(kind, FIELD_TYPES) if isinstance(kind, str) else None,
        )
        return None
    allowed = {"type", "required", "doc", "default", "label"} | KEYS_BY_TYPE.get(kind, set())
    for key in node:
        if key not in allowed:
            checker.report(
                where.child(node, key), f"unknown key in a field of type {kind}", hint_for_unknown(key, sorted(allowed))
            )
    spec = _compile_spec(kind, node, where, checker)
    if spec is None:
        return None
    required = node.get("required", False)
    if not isinstance(required, bool):
        checker.report(where.child(node, "required"), f"expected true or false, found {type_name(required)}")
        required = False
    label = Localized().check(node["label"], where.child(node, "label"), checker) if "label" in node else None
    return Field(
        spec,
        required=required,
        default=node.get("default"),
        doc=str(node.get("doc", "")),
        label=label if isinstance(label, Text) else None,
    )


def _number(node: dict[Any, Any], key: str, where: Where, checker: Checker) -> float | None:
    value = node.get(key)
    if value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)):
        return value
    checker.report(where.child(node, key), f"expected a number, found {type_name(value)}")
    return None


def _compile_spec(kind: str, node: dict[Any, Any], where: Where, checker: Checker) -> Spec[Any] | None:
    if kind in ("int", "number"):
        return Int(_number(node, "min", where, checker), _number(node, "max", where, checker), whole=kind == "int")
    if kind == "str":
        return Str()
    if kind == "image":
        return ImagePath()
    if kind == "bool":
        return Bool()
    if kind == "text":
        return Localized()
    if kind == "enum":
        values = node.get("values")
        if not isinstance(values, list) or not values:
            checker.report(
                where.child(node, "values") if "values" in node else where,
                "an enum field needs `values:`, a non-empty list",
            )
            return None
        return Enum(list(values))
    if kind in ("ref", "counts"):
        deck = node.get("ref")
        if not isinstance(deck, str):
            checker.report(
                where.child(node, "ref") if "ref" in node else where,
                f"a {kind} field needs `ref:`, the id of the deck it points into",
            )
            return None
        if kind == "ref":
            return Ref(deck)
        return Counts(deck, _number(node, "min", where, checker), _number(node, "max", where, checker))
    if kind == "list":
        if "of" not in node:
            checker.report(where, "a list field needs `of:`, the declaration of its items")
            return None
        item = compile_field(node["of"], where.child(node, "of"), checker)
        return ListOf(item.spec) if item else None
    if kind == "object":
        fields = node.get("fields")
        if not isinstance(fields, dict) or not fields:
            checker.report(
                where.child(node, "fields") if "fields" in node else where,
                "an object field needs `fields:`, a mapping of field declarations",
            )
            return None
        compiled = {}
        for name, sub in fields.items():
            f = compile_field(sub, where.child(fields, name), checker)
            if f:
                compiled[str(name)] = f
        return Object(compiled, what=f"'{where.key.split('.')[-1]}' object")
    return None


def walk_refs(
    spec: Spec[Any], value: object, path: tuple[str | int, ...] = ()
) -> Iterator[tuple[tuple[str | int, ...], str, str]]:
    """Yield (path, deck, id) for every reference inside a checked value."""
    for where, found, item in walk_values(spec, value, (Ref, Counts), path):
        if isinstance(found, Ref) and isinstance(item, str):
            yield where, found.deck, item
        elif isinstance(found, Counts) and isinstance(item, dict):
            for key in item:
                yield where + (key,), found.deck, key


def walk_images(
    spec: Spec[Any], value: object, path: tuple[str | int, ...] = ()
) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """Yield (path, picture path or `placeholder`) for every image value inside a checked value."""
    for where, _, item in walk_values(spec, value, (ImagePath,), path):
        if isinstance(item, str):
            yield where, item


def walk_values(
    spec: Spec[Any], value: object, kinds: tuple[type, ...], path: tuple[str | int, ...] = ()
) -> Iterator[tuple[tuple[str | int, ...], Spec[Any], object]]:
    """Yield (path, spec, value) for every value inside a checked value whose spec is one of kinds."""
    if isinstance(spec, kinds):
        yield path, spec, value
    elif isinstance(spec, ListOf) and isinstance(value, list):
        for i, item in enumerate(value):
            yield from walk_values(spec.of, item, kinds, path + (i,))
    elif isinstance(spec, Object) and isinstance(value, dict):
        for name, f in spec.fields.items():
            if name in value:
                yield from walk_values(f.spec, value[name], kinds, path + (name,))


def start(file: Path, document: object) -> Where:

    return Where(Path(file), node_line(document) or 1, "")
