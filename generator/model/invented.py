"""What a game holds invented: the data marked `placeholder:`, gathered for the rule sheet's prototype note.

A card says which of its fields are invented (`placeholder: [trend]`) or that all of it is (`true`). A deck, a
component, a board, an aid, a token sheet, a board's element and the game itself say it the same way, or in
words (`placeholder: {ja: ..., en: ...}`). `inventions` gathers them in the order of the box contents, each under
the component that holds it; the rule sheet names them in each language (render/prototype.py), validate checks
that every invented key can be named (checks/invented.py). A card still without its picture (an image field
with no file yet) is listed too, from what the renderer finds (render/images.unpictured).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from generator.model.game import Card, Game, Text

CARD_KEYS = ("name", "count", "remove_at", "back")  # a card's own keys that may be invented, beside its fields
# The keys of a deck, component, board, aid or token sheet a `placeholder:` list may name: the rule sheet
# has a word for each (render/prototype.py); anything else is said in words.
THING_KEYS = ("size", "count", "copies", "bleed", "elements", "tokens", "sections", "sets", "background")


@dataclass
class Invention:
    """The invented data of one thing in the box (a component, or a deck or printable no component names)."""

    name: Text  # the component's (deck's, board's ...) name, as the box contents list it
    whole: bool = False  # `placeholder: true` on the thing itself (a component's: its count)
    keys: list[str] = field(default_factory=list)  # its invented keys (THING_KEYS)
    words: list[Text] = field(default_factory=list)  # what is invented, said in words
    cards: list[Card] = field(default_factory=list)  # its cards with invented data, in deck order
    parts: list[Text] = field(default_factory=list)  # a board's invented elements, by their label
    deck_id: str | None = None  # the deck whose cards these are (their fields' labels name the keys)
    unpictured: list[Card] = field(default_factory=list)  # its cards printing a placeholder box for a picture

    def __bool__(self) -> bool:
        return bool(self.whole or self.keys or self.words or self.cards or self.parts or self.unpictured)


def inventions(game: Game, unpictured: Collection[tuple[str, str]] = ()) -> list[Invention]:
    """Every thing of the game holding invented data: the game itself, then the box contents in order, then
    the decks and printables no component names. `unpictured`: the (deck, card) ids still without their
    picture (whether a file decodes is the renderer's to say: render/images.unpictured)."""
    found = []
    own = Invention(game.title)
    add_marked(own, game.placeholder)
    found.append(own)
    named: set[tuple[str, str]] = set()
    for component in game.components:
        invention = Invention(component.name)
        add_marked(invention, component.placeholder, whole="count")  # a component's `true`: how many
        if component.source:
            named.add(component.source)
            add_source(game, invention, *component.source, unpictured=unpictured)
        found.append(invention)
    for deck_id, deck in game.decks.items():
        if ("deck", deck_id) not in named:
            found.append(add_source(game, Invention(deck.name), "deck", deck_id, unpictured=unpictured))
    printables = game.printables
    for kind, items in (
        ("board", printables.boards if printables else {}),
        ("aid", printables.aids if printables else {}),
        ("tokens", printables.tokens if printables else {}),
    ):
        for item_id, item in items.items():
            if (kind, item_id) not in named:
                found.append(add_source(game, Invention(item.name), kind, item_id))
    return [invention for invention in found if invention]


def add_marked(invention: Invention, marked: bool | list[str] | Text, whole: str | None = None) -> None:
    """One `placeholder:` value: true (the whole thing, or the key `whole` names), a list of keys, or a text."""
    if marked is True and whole:
        invention.keys.append(whole)
    elif marked is True:
        invention.whole = True
    elif isinstance(marked, Text):
        invention.words.append(marked)
    elif isinstance(marked, list):
        invention.keys += [key for key in marked if key not in invention.keys]


def add_source(
    game: Game, invention: Invention, kind: str, item_id: str, unpictured: Collection[tuple[str, str]] = ()
) -> Invention:
    """The invented data of the deck (and its cards) or printable a component is printed from."""
    if kind == "deck" and item_id in game.decks:
        deck = game.decks[item_id]
        add_marked(invention, deck.placeholder)
        invention.cards = [card for card in deck.cards if card.placeholder]
        invention.unpictured = [card for card in deck.cards if (deck.id, card.id) in unpictured]
        invention.deck_id = deck.id
        return invention
    printables = game.printables
    items = {"board": "boards", "aid": "aids", "tokens": "tokens"}
    item = getattr(printables, items[kind]).get(item_id) if printables and kind in items else None
    if item is not None:
        add_marked(invention, item.placeholder)
        for element in getattr(item, "elements", []):
            label = element.get("label")
            if element.get("placeholder") and isinstance(label, Text) and label not in invention.parts:
                invention.parts.append(label)
    return invention


def invented_keys(card: Card) -> tuple[str, ...] | None:
    """The keys a card holds invented; None when the whole card is."""
    return None if card.placeholder is True else tuple(card.placeholder or ())
