"""Boards, player aids and token sheets: cards/<game>/{boards,aids,tokens}/<id>.yaml.

Each file is checked against its schema like a deck (every problem located). Numbers and texts can
be read from the game's data with `=expression` values (the expression language of game.yaml's
checks): `=card.price_min` inside a `for_each: goods` element, `=numbers.storage_costs`,
`=max_players`. Expressions are evaluated while loading, so a wrong one is reported with its line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.model.cards import BLEED, INVENTED, INVENTED_DOC, MATERIAL, MATERIAL_DOC
from generator.model.expr import ExpressionError, Namespace, evaluate
from generator.errors import InputError, Problem
from generator.model.colours import tint
from generator.model.game import CARD_SIZES, Aid, Board, BoardFace, Deck, Printables, Text, TokenSheet
from generator.model.schema import (
    INVALID,
    Bool,
    Checker,
    Colour,
    Enum,
    Field,
    FileKind,
    Id,
    ImagePath,
    Int,
    Invalid,
    ListOf,
    Localized,
    Model,
    Object,
    OneOf,
    Spec,
    Str,
    Where,
    is_colour,
    start,
    type_name,
)
from generator.yamlio.positions import item_line
from generator.yamlio.read import load_yaml

KINDS = ("boards", "aids", "tokens")
HALF_PAGE = "half-page"
HOLD_ROOM_MM = 1.0  # around a piece in a place sized for it (`holds:` without `slot:`)


# --- schema vocabulary ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Expr:
    """An `=expression` value, evaluated once the game's data is known."""

    source: str
    where: Where


class Value(Spec[str | float | Expr]):
    """A number, a text, or `=expression`."""

    expected = "a number, a text or an =expression"

    def check(self, value: object, where: Where, checker: Checker) -> str | float | Expr | Invalid:
        if isinstance(value, str) and value.startswith("="):
            return Expr(value[1:].strip(), where)
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            return self.wrong(value, where, checker)
        return value


class ColourValue(Value):
    """A colour, or an =expression giving one (checked once evaluated: see Resolver.colours)."""

    expected = "a colour like #2f5d62 or an =expression"

    def check(self, value: object, where: Where, checker: Checker) -> str | float | Expr | Invalid:
        if isinstance(value, str) and value.startswith("="):
            return super().check(value, where, checker)
        return Colour().check(value, where, checker)


COLOUR_KEYS = ("colour", "text_colour", "background", "line", "fill")


@dataclass
class Pair(Spec[tuple[float, float]]):
    """Two numbers in millimetres, like [x, y] or [width, height]."""

    what: str = "[x, y]"

    @property
    def expected(self) -> str:
        return f"two numbers in mm, {self.what}"

    def check(self, value: object, where: Where, checker: Checker) -> tuple[float, float] | Invalid:
        if (
            not isinstance(value, list)
            or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in value)
        ):
            return self.wrong(value, where, checker)
        return (float(value[0]), float(value[1]))


@dataclass
class Tagged(Spec[dict[str, Any]]):
    """A mapping whose `kind:` chooses its schema."""

    options: dict[str, Object]
    what: str = "element"
    common: dict[str, Field] = field(default_factory=dict)  # the Fields every option holds, documented once
    every: Object = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.every = Object(
            self.common, what=f"every {self.what}", doc=f"The keys every {self.what} has, whatever its `kind:`."
        )

    @property
    def expected(self) -> str:
        return f"an {self.what} with `kind:` one of {', '.join(self.options)}"

    def check(self, value: object, where: Where, checker: Checker) -> dict[str, Any] | Invalid:
        if not isinstance(value, dict):
            return self.wrong(value, where, checker)
        kind = Enum(list(self.options)).check(value.get("kind"), where.child(value, "kind"), checker)
        if kind is INVALID:
            return INVALID
        return self.options[kind].check(value, where, checker)


TEXT = OneOf([Localized(), Value()], expected="a text {ja: ..., en: ...}, a plain text or an =expression")
NUMBER = Value()


ELEMENT_KEYS = {
    "at": Field(Pair(), required=True, doc="top-left corner, mm from the board's top-left"),
    "for_each": Field(Str(), doc="repeat once per card of this deck (`card` in expressions)"),
    "spacing": Field(Pair("[dx, dy]"), default=(0.0, 14.0), doc="offset between repeats"),
    "label": Field(TEXT, doc="a caption printed beside (a track) or above the element (slots, a grid, a hex grid)"),
    "text_colour": Field(
        ColourValue(), doc="the colour of its texts; left out, dark or light, whichever reads on what is behind them"
    ),
    "placeholder": Field(INVENTED, doc=INVENTED_DOC),
}


def old_name(new: str) -> Field:
    """`colour:`, the old name of a colour key: still read, with a warning saying what to write."""
    return Field(ColourValue(), doc=f"the old name of `{new}:` (read, with a warning)", old_name_of=new)


DRAWN_COLOURS = {  # the colour keys of an element drawn in spaces, slots, cells or hexes
    "line": Field(ColourValue(), doc="the colour of its lines (a track's also fills its label and starting space)"),
    "fill": Field(ColourValue(), doc="the colour inside its spaces, slots, cells or hexes (a tint of `line` left out)"),
    "colour": old_name("line"),
}


def element(kind: str, fields: dict[str, Field], doc: str) -> Object:
    own_kind = {"kind": Field(Enum([kind]), required=True, doc="what the element is")}
    return Object({**own_kind, **ELEMENT_KEYS, **fields}, what=f"{kind} ({doc})", doc=f"`kind: {kind}`: {doc}.")


def drawn(kind: str, fields: dict[str, Field], doc: str) -> Object:
    """An element drawn in spaces, slots, cells or hexes: with their line and fill colours."""
    return element(kind, {**fields, **DRAWN_COLOURS}, doc)


STEP = Object(
    {
        "from": Field(NUMBER, required=True, doc="the first value the step applies from"),
        "step": Field(NUMBER, required=True, doc="the difference between neighbouring spaces"),
    },
    what="step band",
    doc="A band of a counted track: from a value on, spaces go up by `step`.",
)
ELEMENT = Tagged(
    {
        "track": drawn(
            "track",
            {
                "values": Field(
                    OneOf([ListOf(Value()), Value()], expected="a list of values or an =expression"),
                    doc="the spaces, listed; or count them with `from`, `to` and `step`",
                ),
                "from": Field(NUMBER, doc="the first space of a counted track"),
                "to": Field(NUMBER, doc="the last space of a counted track"),
                "step": Field(NUMBER, doc="the difference between neighbouring spaces"),
                "steps": Field(ListOf(STEP), doc="a different step from a value on: [{from: 50, step: 10}]"),
                "start": Field(Value(), doc="the starting space"),
                "cell": Field(Pair("[width, height]"), default=(9.0, 9.0), doc="size of a space, mm"),
                "label_width": Field(Int(0, 300, whole=False), default=30, doc="mm left of the spaces for the label"),
                "sign": Field(Bool(), default=False, doc="print +1 rather than 1"),
            },
            "a row of spaces",
        ),
        "slots": drawn(
            "slots",
            {
                "slots": Field(
                    OneOf([ListOf(TEXT), Value()], expected="a list of labels or an =expression"),
                    required=True,
                    doc="the places: their labels, or an =expression giving the values",
                ),
                "format": Field(Localized(), doc="each slot's label, with {value} and {n} (1, 2, ...)"),
                "slot": Field(Pair("[width, height]"), default=(30.0, 20.0), doc="size of a place, mm"),
                "columns": Field(Int(1, 50), doc="places in a row (all in one row when left out)"),
                "gap": Field(Int(0, 100, whole=False), default=3, doc="mm between places"),
                "holds": Field(
                    Str(),
                    doc="the deck or token sheet whose piece goes in each place: left out, `slot` is the piece's size "
                    f"with {HOLD_ROOM_MM:g} mm of room on every side; a `slot` smaller than the piece is an error",
                ),
                "turned": Field(Bool(), default=False, doc="the held card lies on its side (its long edge across)"),
            },
            "an area of labelled places",
        ),
        "grid": drawn(
            "grid",
            {
                "columns": Field(Int(1, 100), required=True, doc="cells across"),
                "rows": Field(Int(1, 100), required=True, doc="cells down"),
                "cell": Field(Pair("[width, height]"), default=(10.0, 10.0), doc="size of a cell, mm"),
            },
            "a square grid",
        ),
        "hexgrid": drawn(
            "hexgrid",
            {
                "columns": Field(Int(1, 100), required=True, doc="hexes across"),
                "rows": Field(Int(1, 100), required=True, doc="hexes down"),
                "size": Field(Int(2, 200, whole=False), default=20, doc="width of a hex (pointy top), mm"),
                "cells": Field(
                    ListOf(
                        Object(
                            {
                                "at": Field(Pair("[column, row]"), required=True, doc="which hex, from 0"),
                                "label": Field(TEXT, doc="text printed in the hex"),
                                "fill": Field(ColourValue(), doc="the hex's fill"),
                                "colour": old_name("fill"),
                            },
                            what="hex",
                            doc="One hex of a hex grid given a label or a colour.",
                        )
                    ),
                    doc="hexes given a label or a colour",
                ),
            },
            "a grid of pointy-top hexes",
        ),
        "image": element(
            "image",
            {
                "src": Field(ImagePath(), required=True, doc="the picture, a file of the game's folder: art/map.png"),
                "size": Field(Pair("[width, height]"), required=True, doc="its box, mm"),
                "fit": Field(
                    Enum(["cover", "contain", "fill"]),
                    default="cover",
                    doc="`cover` fills the box, cropping what runs over; `contain` shows all; `fill` stretches it",
                ),
                "focus": Field(Str(), default="center", doc="the point kept in view, as CSS `object-position`"),
            },
            "a picture",
        ),
        "text": element(
            "text",
            {
                "width": Field(Int(1, 2000, whole=False), default=100, doc="mm; the text wraps inside it"),
                "size": Field(Int(4, 200, whole=False), default=12, doc="points"),
                "align": Field(Enum(["left", "center", "right"]), default="left", doc="alignment inside the width"),
                "colour": old_name("text_colour"),
            },
            "a text",
        ),
    },
    common=ELEMENT_KEYS,
)

BOARD_SCHEMA = Object(
    {
        "name": Field(Localized(), required=True, doc="the board's name"),
        "size": Field(
            Pair("[width, height]"), required=True, doc="mm; larger than the paper prints in tiles", attr="size_mm"
        ),
        "copies": Field(NUMBER, default=1, doc="how many are printed (of each card's, with `for_each`)"),
        "for_each": Field(
            Str(),
            doc="print the board once per card of this deck, `card` in its =expressions: a company board per company "
            "card, with `background: =tint(card.colour)` and a text `label: =card.name`",
        ),
        "background": Field(
            ColourValue(), default="#ffffff", doc="the board's background colour (or an =expression giving one)"
        ),
        "background_image": Field(
            ImagePath(),
            doc="a picture covering the whole board and its bleed (cropped to it, like CSS `cover`): a painted map",
        ),
        "template": Field(
            Str(),
            doc="a Jinja/HTML template of the game's templates/ drawn over the background and under the elements, "
            "like a card's: it sees `board` (with its `data`), `game`, `name`, `width`, `height`, `bleed` and the "
            "helpers `image()`, `asset()`, `label()`",
        ),
        "data": Field(
            Object({}, what="board data", extra=True),
            default={},
            doc="values of the board's own for its template (`board.data.cities`)",
        ),
        "bleed": BLEED,
        "elements": Field(ListOf(ELEMENT), default=[], doc="what is drawn, each with its `kind:` (see below)"),
        "placeholder": Field(INVENTED, doc=INVENTED_DOC),
        "material": Field(MATERIAL, doc=MATERIAL_DOC, shown=False),
    },
    what="board",
)

SIZE_NAMES = [*CARD_SIZES, HALF_PAGE]
AID_SECTION = Object(
    {
        "heading": Field(Localized(), required=True, doc="the section's heading"),
        "mark": Field(Str(), doc="a short mark before the heading, like a phase number"),
        "text": Field(Localized(), doc="a paragraph"),
        "items": Field(ListOf(Localized()), doc="a bulleted list"),
        "numbers": Field(
            ListOf(
                Object(
                    {
                        "label": Field(Localized(), required=True, doc="what the number is"),
                        "value": Field(Value(), required=True, doc="the number, or an =expression"),
                        "unit": Field(TEXT, doc="printed after the value"),
                    },
                    what="number",
                    doc="A labelled number in an aid's table.",
                )
            ),
            doc="a table of labelled numbers",
        ),
    },
    what="section",
    doc="One section of a player aid: a heading and a text, a list or numbers.",
)
AID_SCHEMA = Object(
    {
        "name": Field(Localized(), required=True, doc="the aid's name (box contents, file labels)"),
        "size": Field(
            OneOf(
                [Enum(SIZE_NAMES), Pair("[width, height]")],
                expected=f"one of {', '.join(SIZE_NAMES)} or [width, height]",
            ),
            required=True,
            doc=f"a card size ({', '.join(CARD_SIZES)}), {HALF_PAGE}, or [width, height] in mm",
        ),
        "copies": Field(NUMBER, required=True, doc="how many are printed, e.g. =max_players"),
        "title": Field(Localized(), required=True, doc="printed at the top of the aid"),
        "colour": Field(Colour(), default="#2f5d62", doc="the colour of the title band and headings"),
        "bleed": BLEED,
        "sections": Field(ListOf(AID_SECTION), required=True, doc="the aid's sections, top to bottom"),
        "placeholder": Field(INVENTED, doc=INVENTED_DOC),
        "material": Field(MATERIAL, doc=MATERIAL_DOC, shown=False),
    },
    what="player aid",
)

TOKEN_SIDE = {
    "label": Field(TEXT, doc="text printed on the token"),
    "value": Field(Value(), doc="a number printed large (a coin's value)"),
    "colour": Field(ColourValue(), doc="the token's fill"),
    "text_colour": Field(Colour(), doc="the colour of its text"),
    "picture": Field(ImagePath(), doc="a picture over the whole side and its bleed, under its text: art/coin.png"),
}
TOKEN = Object(
    {
        "id": Field(Id(), required=True, doc="names the token in errors and translations"),
        "count": Field(Int(1, 1000), required=True, doc="copies on the sheet (in each set)"),
        **TOKEN_SIDE,
        "back": Field(
            Object(TOKEN_SIDE, what="token back", doc="The other side of a two-sided token."),
            doc="the other side, for `sides: 2`",
        ),
    },
    what="token",
    doc="One kind of token and how many of it.",
)
TOKENS_SCHEMA = Object(
    {
        "name": Field(Localized(), required=True, doc="the sheet's name"),
        "shape": Field(Enum(["round", "square"]), required=True, doc="how the tokens are cut"),
        "size": Field(Int(8, 150, whole=False), required=True, doc="diameter or side, mm", attr="size_mm"),
        "sides": Field(Int(1, 2), default=1, doc="2: a back printed behind each token"),
        "bleed": BLEED,
        "sets": Field(Int(1, 100), doc="the box counts sets (like 1 set of money), each set all the tokens"),
        "tokens": Field(ListOf(TOKEN), required=True, doc="the tokens of the sheet"),
        "placeholder": Field(INVENTED, doc=INVENTED_DOC),
        "material": Field(MATERIAL, doc=MATERIAL_DOC, shown=False),
    },
    what="token sheet",
)

# The id of each is its file's name; the loader resolves the =expressions of copies, elements, sections, tokens.
BOARD_MODEL = Model(Board, BOARD_SCHEMA.fields, given=("id", "file", "copies", "background", "elements", "faces"))
AID_MODEL = Model(Aid, AID_SCHEMA.fields, given=("id", "file", "copies", "sections"))
TOKENS_MODEL = Model(TokenSheet, TOKENS_SCHEMA.fields, given=("id", "file", "size_mm", "bleed_mm", "tokens"))

VALUES_DOC = (
    "Numbers and texts can come from the game's data: a value `=expression` is evaluated as game.yaml's "
    "checks are, with `numbers`, `min_players`, `max_players` and, inside `for_each: <deck>`, `card` "
    "(`=card.price_min`); `tint(colour, amount)` mixes a colour with white (amount 0 to 1, 0.8 when left out)."
)
BOARD_FILE = FileKind(
    "boards/<board>.yaml",
    BOARD_SCHEMA,
    doc=(
        "A board, drawn from a template, a background picture and its elements (any of them); the file name is its "
        "id (components name it with `board:`). "
        "A board larger than the paper is printed at 100% in tiles. " + VALUES_DOC
    ),
)
AID_FILE = FileKind(
    "aids/<aid>.yaml",
    AID_SCHEMA,
    doc=(
        "A player aid: a titled sheet of sections, its text set as large as fits; the file name is its id "
        "(components name it with `aid:`). " + VALUES_DOC
    ),
)
TOKENS_FILE = FileKind(
    "tokens/<sheet>.yaml",
    TOKENS_SCHEMA,
    doc=(
        "A sheet of round or square tokens with their counts; the file name is its id (components name it with "
        "`tokens:`). " + VALUES_DOC
    ),
)


# --- loading -------------------------------------------------------------------------------------


class Resolver:
    """Evaluates =expressions against the game's data; a failure becomes a located problem."""

    def __init__(self, decks: dict[str, Deck], numbers: dict[str, Any], players: tuple[int, int], checker: Checker):
        self.decks = decks
        self.names = {"numbers": Namespace(numbers), "min_players": players[0], "max_players": players[1]}
        self.checker = checker

    def value(self, value: object, card: dict[str, Any] | None = None) -> Any:
        """The value with its =expressions evaluated (an expression gives any value: see expr.evaluate)."""
        if isinstance(value, list):
            return [self.value(item, card) for item in value]
        if isinstance(value, dict):
            return {key: self.value(item, card) for key, item in value.items()}
        if not isinstance(value, Expr):
            return value
        names = dict(self.names, card=Namespace(card)) if card is not None else self.names
        try:
            return evaluate(value.source, names, {"len": len, "min": min, "max": max, "tint": tint})
        except ExpressionError as exc:
            return self.checker.report(value.where, str(exc))

    def colours(self, resolved: dict[str, Any], raw: dict[str, Any], where: Where) -> dict[str, Any]:
        """Report a colour an =expression gave that is not a colour (it would be written into a style)."""
        for key in COLOUR_KEYS:
            value = resolved.get(key)
            if value is not None and value is not INVALID and isinstance(raw.get(key), Expr) and not is_colour(value):
                resolved[key] = self.checker.report(
                    raw[key].where, f"the expression gave {value!r}, not a colour like #2f5d62, rgb(47, 93, 98) or teal"
                )
        return resolved

    def cards(self, deck_id: str, where: Where) -> list[dict[str, Any]]:
        deck = self.decks.get(deck_id)
        if deck is None:
            self.checker.report(where, f"no deck '{deck_id}' to repeat over", "decks: " + ", ".join(self.decks))
            return []
        return [{**card.fields, "id": card.id, "name": card.name} for card in deck.cards]

    def count(self, value: object, where: Where) -> int:
        number = self.value(value)
        if isinstance(number, bool) or not isinstance(number, (int, float)) or number < 1 or number != int(number):
            if number is not INVALID:
                self.checker.report(where, f"expected a whole number of copies of at least 1, found {number!r}")
            return 0
        return int(number)


def load_printables(
    game_dir: Path,
    languages: list[str],
    decks: dict[str, Deck],
    numbers: dict[str, Any],
    players: tuple[int, int],
    problems: list[Problem],
) -> Printables:
    found = Printables()
    loaders: dict[str, tuple[Object, Callable[..., Board | Aid | TokenSheet], dict[str, Any]]] = {
        "boards": (BOARD_SCHEMA, _board, found.boards),
        "aids": (AID_SCHEMA, _aid, found.aids),
        "tokens": (TOKENS_SCHEMA, _tokens, found.tokens),
    }
    for folder, (schema, build, into) in loaders.items():
        for path in sorted((game_dir / folder).glob("*.yaml")) if (game_dir / folder).is_dir() else []:
            checker = Checker(languages)
            resolver = Resolver(decks, numbers, players, checker)
            try:
                document = load_yaml(path)
            except InputError as error:  # keep going: every file's problems are reported at once
                problems.extend(error.problems)
                continue
            root = start(path, document)
            checked = schema.check(document, root, checker)
            if checked is not INVALID and not checker.problems:
                item = build(path, checked, resolver, root, document)
                if not checker.problems:
                    into[item.id] = item
            problems += once(checker.problems)
            found.warnings += once(checker.warnings)
    problems += held_pieces(found, decks)
    return found


def once(problems: list[Problem]) -> list[Problem]:
    """Each problem once (a board printed per card meets its file's mistakes once a card)."""
    found: dict[tuple[Any, ...], Problem] = {}
    for problem in problems:
        found.setdefault((problem.file, problem.line, problem.message, problem.key, problem.hint), problem)
    return list(found.values())


def held_pieces(found: Printables, decks: dict[str, Deck]) -> list[Problem]:
    """Size each place that holds a piece (`holds:`) from the piece, or check that its `slot:` takes it."""
    problems: list[Problem] = []
    for board in found.boards.values():
        for face in board.faces:
            for element in face.elements:
                if element["kind"] == "slots" and "holds" in element:
                    problems += hold(board, element, decks, found)
    return once(problems)


def held_size(name: str, decks: dict[str, Deck], found: Printables) -> tuple[float, float] | None:
    """The size of the piece a place holds: a card of the deck, or a token of the sheet."""
    if name in decks:
        return decks[name].size_mm
    if name in found.tokens:
        size = found.tokens[name].size_mm
        return (size, size)
    return None


def hold(board: Board, element: dict[str, Any], decks: dict[str, Deck], found: Printables) -> list[Problem]:
    key, lines = element["written_at"][0], element["lines"]
    size = held_size(element["holds"], decks, found)
    if size is None:
        known = "decks and token sheets: " + ", ".join([*decks, *found.tokens])
        message = f"no deck or token sheet '{element['holds']}'"
        return [Problem(board.file, lines["holds"], message, f"{key}.holds", known)]
    width, height = sorted(size, reverse=True) if element["turned"] else size
    if "slot" not in lines:
        element["slot"] = (width + 2 * HOLD_ROOM_MM, height + 2 * HOLD_ROOM_MM)
        return []
    slot_w, slot_h = element["slot"]
    if slot_w >= width and slot_h >= height:
        return []
    side = " on its side" if element["turned"] else ""
    return [
        Problem(
            board.file,
            lines["slot"],
            f"a place of {slot_w:g} x {slot_h:g} mm is smaller than what it holds: a piece of "
            f"'{element['holds']}'{side}, {width:g} x {height:g} mm",
            f"{key}.slot",
            f"make `slot:` at least [{width:g}, {height:g}], or leave it out: the place is then the piece's size "
            f"with {HOLD_ROOM_MM:g} mm of room",
        )
    ]


def _board(path: Path, checked: dict[str, Any], resolver: Resolver, root: Where, document: dict[str, Any]) -> Board:
    cards = resolver.cards(checked["for_each"], root.child(document, "for_each")) if "for_each" in checked else [None]
    faces = [_face(path, checked, resolver, root, document, card) for card in cards]
    first = faces[0] if faces else BoardFace(None, "#ffffff", [])
    return BOARD_MODEL.make(
        checked,
        id=path.stem,
        file=path,
        copies=resolver.count(checked["copies"], root.child(document, "copies")),
        background=first.background,
        elements=first.elements,
        faces=faces,
    )


def _face(
    path: Path,
    checked: dict[str, Any],
    resolver: Resolver,
    root: Where,
    document: dict[str, Any],
    card: dict[str, Any] | None,
) -> BoardFace:
    """The board printed once, or for one card of its `for_each`: every =expression evaluated with that card."""
    elements = []
    raw = document.get("elements") or []
    for index, entry in enumerate(checked["elements"]):
        where = root.child(document, "elements").child(raw, index)
        elements += expand_element(entry, resolver, where, raw[index], card)
    width, height = checked.get("size", (0.0, 0.0))
    for element in elements:
        x, y = element["at"]
        if not (0 <= x < width and 0 <= y < height) and width and height:
            key, line = element["written_at"]
            of = f" for card '{element['card']}'" if "card" in element else ""
            resolver.checker.report(
                Where(path, line, f"{key}.at"),
                f"[{x:g}, {y:g}] is off the {width:g} x {height:g} mm board{of}: the element would not be printed",
                "positions are mm from the board's top-left corner",
            )
    colours = resolver.colours({"background": resolver.value(checked["background"], card)}, checked, root)
    background = colours["background"] if isinstance(colours["background"], str) else "#ffffff"
    return BoardFace(card["id"] if card is not None else None, background, elements)


def expand_element(
    entry: dict[str, Any], resolver: Resolver, where: Where, raw: dict[str, Any], board_card: dict[str, Any] | None
) -> list[dict[str, Any]]:
    """One element per card of `for_each` (or just the one, with the card its board is printed for), every value
    resolved."""
    unprinted_keys(entry, where, raw, resolver.checker)
    cards = resolver.cards(entry["for_each"], where) if "for_each" in entry else [board_card]
    out = []
    for index, card in enumerate(cards):
        resolved = {key: resolver.value(value, card) for key, value in entry.items() if key != "cells"}
        resolver.colours(resolved, entry, where)
        if INVALID in resolved.values():
            continue
        dx, dy = entry["spacing"]
        resolved["at"] = (entry["at"][0] + index * dx, entry["at"][1] + index * dy)
        resolved["written_at"] = (where.key, where.line)  # what a finding on its texts names
        if entry["kind"] == "slots":  # where its `slot:` and `holds:` are written (a place that holds a piece
            # without a `slot:` is sized from it)
            resolved["lines"] = {key: where.child(raw, key).line for key in ("slot", "holds") if key in raw}
        if card is not None and "for_each" in entry:
            resolved["card"] = card["id"]
        if entry["kind"] == "track":
            resolved["values"] = track_values(resolved, resolver, where, raw)
            if not resolved["values"]:
                continue
        if entry["kind"] == "hexgrid":
            resolved["cells"] = [
                resolver.colours({k: resolver.value(v, card) for k, v in cell.items()}, cell, where)
                for cell in entry.get("cells", [])
            ]
        out.append(resolved)
    return out


def unprinted_keys(entry: dict[str, Any], where: Where, raw: dict[str, Any], checker: Checker) -> None:
    """Refuse what the element accepts but could not print: a track's label with no room, a hex off its grid,
    a spacing with nothing repeated."""
    if "spacing" in raw and "for_each" not in entry:
        checker.report(
            where.child(raw, "spacing"),
            "`spacing:` is the offset between repeats, and the element is not repeated",
            "add `for_each: <deck>` to draw it once per card, or remove `spacing:`",
        )
    if entry["kind"] == "image":
        for key in ("label", "text_colour"):
            if entry.get(key) is not None:
                checker.report(
                    where.child(raw, key),
                    f"a picture element prints no `{key}:`",
                    "put the caption in a `kind: text` element beside it",
                )
    if entry["kind"] == "track" and entry.get("label") is not None and not entry["label_width"]:
        checker.report(
            where.child(raw, "label_width"),
            "a track with `label_width: 0` has no room for its `label:`",
            "give the label room (`label_width: 30`), or put it in a `kind: text` element",
        )
    for index, cell in enumerate(entry.get("cells", [])):
        col, row = cell["at"]
        if not (0 <= col < entry["columns"] and 0 <= row < entry["rows"] and col == int(col) and row == int(row)):
            checker.report(
                where.child(raw, "cells").child(raw["cells"], index).child(raw["cells"][index], "at"),
                f"hex [{col:g}, {row:g}] is not on the {entry['columns']:g} x {entry['rows']:g} grid",
                f"columns count 0 to {entry['columns'] - 1:g}, rows 0 to {entry['rows'] - 1:g}",
            )


def track_values(resolved: dict[str, Any], resolver: Resolver, where: Where, raw: dict[str, Any]) -> list[Any]:
    """The spaces of a track: listed, or counted from `from` to `to` by `step` (or step bands)."""
    values: list[Any]
    if "values" in resolved:
        values = resolved["values"]
        values = list(values) if isinstance(values, (list, tuple)) else [values]
    else:
        values = _counted(resolved, where, resolver.checker)
    if not values:
        return []
    if "start" in resolved and str(resolved["start"]) not in [str(v) for v in values]:
        resolver.checker.report(
            where.child(raw, "start"),
            f"the starting space {resolved['start']!r} is not on the track "
            f"({values[0]} to {values[-1]})" + (f" for card '{resolved['card']}'" if "card" in resolved else ""),
        )
        return []
    return values


def _counted(resolved: dict[str, Any], where: Where, checker: Checker) -> list[float]:
    missing = [key for key in ("from", "to") if key not in resolved]
    if missing or ("step" not in resolved and "steps" not in resolved):
        checker.report(where, "a track needs `values:`, or `from:`, `to:` and `step:` (or `steps:`)")
        return []
    bands = [(float("-inf"), resolved.get("step", 1))] + sorted(
        (band["from"], band["step"]) for band in resolved.get("steps", [])
    )
    numbers = [resolved["from"], resolved["to"], *[n for band in bands[1:] for n in band], bands[0][1]]
    if any(isinstance(n, bool) or not isinstance(n, (int, float)) for n in numbers) or any(
        step <= 0 for _, step in bands
    ):
        checker.report(
            where,
            f"track from/to/step must be numbers and steps positive, found {', '.join(type_name(n) for n in numbers)}",
        )
        return []
    values: list[float] = []
    value = resolved["from"]
    while value <= resolved["to"] and len(values) < 1000:
        values.append(value)
        value += [step for low, step in bands if low <= value][-1]
    if values[-1] != resolved["to"]:
        values.append(resolved["to"])
    return values


def _aid(path: Path, checked: dict[str, Any], resolver: Resolver, root: Where, document: dict[str, Any]) -> Aid:
    sections = []
    for section in checked["sections"]:
        numbers = [{**entry, "value": resolver.value(entry["value"])} for entry in section.get("numbers", [])]
        sections.append({**section, "numbers": numbers})
    return AID_MODEL.make(
        checked,
        id=path.stem,
        file=path,
        copies=resolver.count(checked["copies"], root.child(document, "copies")),
        sections=sections,
    )


def _tokens(
    path: Path, checked: dict[str, Any], resolver: Resolver, root: Where, document: dict[str, Any]
) -> TokenSheet:

    tokens = []
    for index, token in enumerate(checked["tokens"]):
        resolved = resolver.colours(
            {key: resolver.value(value) for key, value in token.items() if key != "back"}, token, root
        )
        resolved["line"] = item_line(document["tokens"], index)  # where a finding on the token points
        back = token.get("back", {})
        resolved["back"] = resolver.colours({key: resolver.value(value) for key, value in back.items()}, back, root)
        tokens.append(resolved)
    return TOKENS_MODEL.make(
        checked,
        id=path.stem,
        file=path,
        size_mm=float(checked["size"]),
        bleed_mm=float(checked["bleed"]),
        tokens=tokens,
    )


def plain_value(value: Any, lang: str, fallback: str) -> Any:
    """A resolved value as the templates see it: texts in one language."""
    return value.get(lang, fallback) if isinstance(value, Text) else value
