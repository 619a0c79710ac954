"""The game at each player count: what is in play, what setup deals, and the names expressions see.

validate's deal and declared checks and the `{deck.assets@3}` placeholders read these tables. A deal's
`rest:` says where the cards of its pool that no player got go: `deck` (they stay in the deck, counted in
`left`), `box` (back to the box: removed at that player count, like a `remove_at`) or `reserve` (set aside
for later: in play, but not in the deck).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict

from generator.errors import Problem, did_you_mean
from generator.model.expr import ExpressionError, Namespace
from generator.model.game import Card, Game


@dataclass
class DeckRow:
    in_box: int
    removed: int  # out of the game at this count: `remove_at`, and the cards a deal returns to the box
    in_play: int
    dealt: int = 0
    returned: int = 0  # of `removed`: the undealt cards of deals with `rest: box`
    reserved: int = 0  # the undealt cards of deals with `rest: reserve`: in play, set aside

    @property
    def left(self) -> int:
        """The cards still in the deck once setup has dealt: in play, neither dealt nor set aside."""
        return self.in_play - self.dealt - self.reserved

    def set_rest(self, rest: str, undealt: int) -> None:
        """Where the undealt cards of a deal's pool go (`deck` leaves them in `left`)."""
        if rest == "box":
            self.returned += undealt
            self.removed += undealt
            self.in_play -= undealt
        elif rest == "reserve":
            self.reserved += undealt


class Dealt(TypedDict):
    """What one deal does at a player count (`validate --json` shows it)."""

    dealt: int
    pool: int
    left: int
    rest: str
    returned: int
    reserved: int


@dataclass
class PlayerCount:
    players: int
    decks: dict[str, DeckRow] = field(default_factory=dict)
    setup: dict[str, Dealt] = field(default_factory=dict)


def matches(card: Card, where: dict[str, Any]) -> bool:
    return all(card.fields.get(key) == value for key, value in where.items())


def seat_cards(entry: dict[str, Any], players: int) -> int:
    if entry.get("seats"):
        seats: list[int] = entry["seats"]
        return sum(seats[min(i, len(seats) - 1)] for i in range(players))
    per_player: int = entry.get("per_player", 0)
    return per_player * players


def deal(game: Game, players: int, problems: list[Problem]) -> PlayerCount:
    result = PlayerCount(players)
    for each in game.decks.values():
        in_play = each.copies_at(players)
        result.decks[each.id] = DeckRow(each.copies, each.copies - in_play, in_play)
    for entry in game.setup:
        deck = game.decks.get(entry["deck"])
        if deck is None:
            problems.append(
                Problem(
                    game.files["game"],
                    entry["_line"],
                    f"setup deals from deck '{entry['deck']}', which does not exist",
                    hint=did_you_mean(entry["deck"], game.decks),
                )
            )
            continue
        where = entry.get("where", {})
        pool = sum(c.copies(players) for c in deck.cards if matches(c, where))
        wanted = seat_cards(entry, players)
        row = result.decks[deck.id]
        row.dealt += wanted
        rest = entry.get("rest", "deck")
        row.set_rest(rest, max(pool - wanted, 0))
        result.setup[deck.id] = {
            "dealt": row.dealt,
            "pool": pool,
            "left": row.left,
            "rest": rest,
            "returned": row.returned,
            "reserved": row.reserved,
        }
        if wanted > pool:
            which = f" matching {dict(where)}" if where else ""
            problems.append(
                Problem(
                    game.files["game"],
                    entry["_line"],
                    f"with {players} players setup deals {wanted} cards from deck '{deck.id}', "
                    f"which has only {pool}{which} after removals",
                )
            )
    return result


# What an expression sees at a player count (names_for) and the functions it may call (functions_for), each with
# what it is: docs/schema.md lists them, and a test checks that they are the names and functions expressions get.
EXPRESSION_NAMES = {
    "players": "the player count",
    "deck": "`deck.<id>`: a deck's cards in play, after the removals at that count",
    "total": "`total.<id>`: a deck's cards in the box",
    "removed": "`removed.<id>`: a deck's cards removed at that count (`remove_at`, and the undealt cards a deal "
    "with `rest: box` returns to the box)",
    "returned": "`returned.<id>`: a deck's undealt cards that deals with `rest: box` return to the box",
    "dealt": "`dealt.<id>`: a deck's cards dealt by `setup:`",
    "reserved": "`reserved.<id>`: a deck's undealt cards set aside by deals with `rest: reserve` (in play)",
    "left": "`left.<id>`: a deck's cards still in the deck after setup: in play, neither dealt nor set aside",
    "component": "`component.<id>`, `component['debt-tokens']`: a component's `count` in components.yaml",
    "numbers": "game.yaml's `numbers:` (`numbers.years`, `numbers.storage_costs[1]`)",
    "min_players": "the fewest players the game takes",
    "max_players": "the most players it takes",
}
EXPRESSION_FUNCTIONS = {
    "max": "`max(a, b, ...)`, `max(list)`: the largest",
    "min": "`min(a, b, ...)`, `min(list)`: the smallest",
    "sum": "`sum(list)`: the total",
    "len": "`len(list)`: how many items",
    "abs": "`abs(x)`: x without its sign",
    "count": "`count(deck, field, value)`: the cards in play whose field is value",
    "values": "`values(deck, field)`: the field of every card in play, once per copy, those without it left out",
    "per": "`per(deck, field)`: the cards in play by each value of the field, `{red: 9, blue: 9}`",
    "values_of": "`values_of(list, key)`: the key of each mapping in a list",
    "joined": "`joined(lists)`: the items of several lists as one list, like `joined(values('map', 'hexes'))`: "
    "the hexes of every map card in play",
    "tally": "`tally(list)`: how often each value occurs, those without a value left out: `{black: 1, white: 2}`",
    "min_per": "`min_per(deck, field)`: the fewest cards in play sharing one value of the field",
    "max_per": "`max_per(deck, field)`: the most cards in play sharing one value of the field",
}


def functions_for(game: Game, players: int | None) -> dict[str, Callable[..., Any]]:
    def present(deck_id: str) -> list[tuple[Card, int]]:
        deck = game.decks.get(deck_id)
        if deck is None:
            raise ExpressionError(f"no deck '{deck_id}'")
        return [(card, card.copies(players)) for card in deck.cards]

    def per(deck_id: str, field_name: str) -> dict[Any, int]:
        totals: Counter[Any] = Counter()
        for card, copies in present(deck_id):
            if copies:
                totals[card.fields.get(field_name)] += copies
        return dict(totals)

    return {
        "max": max,
        "min": min,
        "sum": sum,
        "len": len,
        "abs": abs,
        "count": lambda deck_id, field_name, value: sum(
            n for c, n in present(deck_id) if c.fields.get(field_name) == value
        ),
        "values": lambda deck_id, field_name: [
            c.fields.get(field_name)
            for c, n in present(deck_id)
            for _ in range(n)
            if c.fields.get(field_name) is not None
        ],
        "per": per,
        "values_of": lambda items, key: [item.get(key) for item in items or [] if isinstance(item, dict)],
        "joined": lambda lists: [item for items in lists if isinstance(items, (list, tuple)) for item in items],
        "tally": lambda items: dict(Counter(item for item in items if item is not None)),
        "min_per": lambda deck_id, field_name: min(per(deck_id, field_name).values(), default=0),
        "max_per": lambda deck_id, field_name: max(per(deck_id, field_name).values(), default=0),
    }


def names_for(game: Game, row: PlayerCount) -> dict[str, Any]:
    return {
        "players": row.players,
        "deck": Namespace({d: r.in_play for d, r in row.decks.items()}),
        "total": Namespace({d: r.in_box for d, r in row.decks.items()}),
        "dealt": Namespace({d: r.dealt for d, r in row.decks.items()}),
        "left": Namespace({d: r.left for d, r in row.decks.items()}),
        "removed": Namespace({d: r.removed for d, r in row.decks.items()}),
        "returned": Namespace({d: r.returned for d, r in row.decks.items()}),
        "reserved": Namespace({d: r.reserved for d, r in row.decks.items()}),
        "component": Namespace({c.id: c.count for c in game.components}),
        "numbers": Namespace(game.numbers),
        "min_players": game.players[0],
        "max_players": game.players[1],
    }
