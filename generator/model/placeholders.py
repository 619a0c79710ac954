"""Numbers and names in the rules come from the data: `{...}` placeholders resolved from the model.

Syntax: PLACEHOLDER_SYNTAX below (docs/schema.md prints it). Furigana `{漢字|かんじ}` has a `|` and is left
alone. An unknown placeholder is a located error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any

from generator.model.expr import ExpressionError, Namespace, evaluate
from generator.model.setup import PlayerCount, deal, functions_for, names_for
from generator.errors import InputError, Problem, did_you_mean
from generator.model.game import Game, Text

PLACEHOLDER = re.compile(r"\{([^{}|]+)\}")
PLACEHOLDER_SYNTAX = (  # (example, what it prints), inside a text in every language; docs/schema.md prints it
    ("{numbers.storage_costs[1]}", "a value of game.yaml's `numbers:` (keys with `.`, list items with `[i]`)"),
    ("{deck.assets}", "copies of a deck in the box; `{component.dice}` a component's count"),
    (
        "{deck.assets@3}",
        (
            "copies in play with 3 players; also `removed`, `dealt`, `left`, `returned` (to the box by a deal's "
            "`rest: box`) and `reserved` (`rest: reserve`) @N"
        ),
    ),
    ("{deck.assets // players @3}", "any expression `checks:` understand, at a player count"),
    ("{setup.assets.per_player}", "a value of a `setup:` deal, named by its deck"),
    ("{card:coal-mine}", "a card's name in the language being written"),
    ("{card:coal-mine.number}", "a field of a card (`{card:coal.count}`: its copies)"),
    ("{field('a', 'power') + field('b', 'power')}", "numbers of several cards in one expression"),
    ("{deck:goods}", "a deck's name"),
)
# What a placeholder's expression sees besides an expression's names and functions (setup.EXPRESSION_NAMES, ...)
PLACEHOLDER_NAMES = {"setup": "`setup.<deck>.<key>`: a value of game.yaml's `setup:` deal of that deck"}
PLACEHOLDER_FUNCTIONS = {"field": "`field(card, name)`: a number field of a card, for sums of several cards"}
AT_PLAYERS = re.compile(r"^(.*?)\s*@\s*(\d+)\s*$")
NAMED = re.compile(r"^(card|deck):([\w-]+)(?:\.(\w+))?$")
LIST_SEPARATOR = {"ja": "、", "en": ", "}


class PlaceholderError(Exception):
    """A placeholder that names nothing in the data (message says what and what exists)."""


@dataclass
class DataNames:
    """What placeholders can name in one game: the numbers, decks, components and per-count tables."""

    game: Game
    tables: dict[int, PlayerCount]

    @classmethod
    def of(cls, game: Game) -> DataNames:
        problems: list[Problem] = []  # deal problems are validate's to report
        low, high = game.players
        return cls(game, {n: deal(game, n, problems) for n in range(low, high + 1)})

    def names(self, players: int | None) -> dict[str, Any]:
        game = self.game
        setup = {
            "setup": Namespace(
                {entry["deck"]: Namespace({k: v for k, v in entry.items() if k[0] != "_"}) for entry in game.setup}
            )
        }
        if players is None:
            return {
                **setup,
                "deck": Namespace({d.id: d.copies for d in game.decks.values()}),
                "total": Namespace({d.id: d.copies for d in game.decks.values()}),
                "component": Namespace({c.id: c.count for c in game.components}),
                "numbers": Namespace(game.numbers),
                "min_players": game.players[0],
                "max_players": game.players[1],
            }
        row = self.tables.get(players)
        if row is None:
            low, high = game.players
            raise PlaceholderError(f"{players} players is outside the game's range {low}-{high}")
        return {**setup, **names_for(game, row)}

    def field(self, card_id: str, name: str) -> float:
        """field('coal-mine', 'number') in an expression: a card's field, for sums of several cards."""
        value = self.named("card", card_id, name, self.game.source_language)
        if value is None:
            return 0
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise ExpressionError(f"field {name} of card '{card_id}' is not a number")
        return value

    def functions(self, players: int | None) -> dict[str, Callable[..., Any]]:
        """The functions a placeholder's expression may call: an expression's, and PLACEHOLDER_FUNCTIONS."""
        return {**functions_for(self.game, players), "field": self.field}

    def evaluate(self, expression: str, players: int | None) -> Any:
        try:
            return evaluate(expression, self.names(players), self.functions(players))
        except ExpressionError as error:
            needs_count = players is None and re.search(
                r"\b(players|dealt|left|removed|returned|reserved)\b", expression
            )
            hint = " (add @N for a player count, like @3)" if needs_count else ""
            if "-" in expression and not hint:
                hint = " (a name with a hyphen is written like component['debt-tokens'])"
            raise PlaceholderError(f"{error}{hint}") from None

    def named(self, kind: str, ident: str, field_name: str | None, lang: str) -> object:
        game = self.game
        if kind == "deck":
            deck = game.decks.get(ident)
            if deck is None:
                raise PlaceholderError(f"no deck '{ident}'" + _hint(ident, game.decks))
            return deck.name.get(lang, game.source_language)
        cards = {card.id: card for card in game.cards()}
        card = cards.get(ident)
        if card is None:
            raise PlaceholderError(f"no card '{ident}'" + _hint(ident, cards))
        if field_name is None:
            return card.name.get(lang, game.source_language)
        if field_name == "count":
            return card.count
        if field_name not in card.fields and field_name in game.decks[card.deck_id].fields:
            return None  # declared but left out on this card
        if field_name not in card.fields:
            raise PlaceholderError(f"card '{ident}' has no field '{field_name}'" + _hint(field_name, card.fields))
        return card.fields[field_name]


def _hint(word: str, choices: Iterable[str]) -> str:
    hint = did_you_mean(word, list(choices))
    return f" ({hint})" if hint else ""


def format_value(value: object, lang: str) -> str:
    if value is None:
        raise PlaceholderError("the card leaves this field out")
    if isinstance(value, Text):
        return value.get(lang)
    if isinstance(value, bool):
        raise PlaceholderError(f"the value is {value}, not a number or a text")
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:g}"
    if isinstance(value, (list, tuple)):
        return LIST_SEPARATOR.get(lang, ", ").join(format_value(v, lang) for v in value)
    if isinstance(value, dict):
        raise PlaceholderError("the value is a mapping: name one of its keys, like .ceo or [3]")
    return str(value)


def resolve_one(source: str, data: DataNames, lang: str, players: int | None = None) -> str:
    """The text one placeholder (without braces) stands for, in lang."""
    expression = source.strip()
    at = AT_PLAYERS.match(expression)
    if at:
        expression, players = at.group(1), int(at.group(2))
    named = NAMED.match(expression)
    if named:
        return format_value(data.named(named.group(1), named.group(2), named.group(3), lang), lang)
    return format_value(data.evaluate(expression, players), lang)


def resolve(text: str, data: DataNames, lang: str) -> str:
    """Every placeholder of text replaced; the first unknown one raises PlaceholderError."""

    def replace(match: re.Match[str]) -> str:
        try:
            return resolve_one(match.group(1), data, lang)
        except PlaceholderError as error:
            raise PlaceholderError(f"placeholder {match.group(0)}: {error}") from None

    return PLACEHOLDER.sub(replace, text)


def data_names(game: Game) -> DataNames:
    """The game's DataNames, made once per loaded game (the deal tables of every player count)."""
    if "_data_names" not in game.__dict__:
        game.__dict__["_data_names"] = DataNames.of(game)
    names: DataNames = game.__dict__["_data_names"]
    return names


def resolve_text(text: Text, lang: str, fallback: str | None, data: DataNames) -> str:
    """A localized text as it prints in lang, its placeholders resolved: the one way every printed text
    (card fields and names, token labels, aids, boards) goes, as rule sheets do. An unknown placeholder
    is an InputError at the text's file and line."""
    source = text.get(lang, fallback)
    if "{" not in source:
        return source
    try:
        return resolve(source, data, lang)
    except PlaceholderError as error:
        key = ".".join(str(part) for part in text.path) if text.path else None
        raise InputError(Problem(text.file, text.line_of(lang), f"{error} ({lang})", key)) from None


def resolve_all(value: Any, data: DataNames, langs: Collection[str]) -> Any:
    """value with every Text inside it resolved in each of langs (for boards and aids laid out from data): a
    copy of the same shape (a Text, a board's elements, an aid's sections)."""
    if isinstance(value, Text):
        resolved = {lang: resolve_text(value, lang, None, data) for lang in value.values if lang in langs}
        return Text({**value.values, **resolved}, value.file, value.line, value.path, value.lines)
    if isinstance(value, dict):
        return {key: item if key in OWN_FORMATS else resolve_all(item, data, langs) for key, item in value.items()}
    if isinstance(value, list):
        return [resolve_all(item, data, langs) for item in value]
    return value


OWN_FORMATS = {"format"}  # a board's slot label format: its {n} and {value} are filled in per slot
