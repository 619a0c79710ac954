"""What a face template sees: `card`, `deck`, `decks` and `game` (CARD_FACE documents them, and
docs/templates.md from it), made from the model in the language being built, texts localized and `{...}`
placeholders resolved.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from generator.model.game import Deck, Game
from generator.render.templating import TemplateKind, localize

CARD_FACE = TemplateKind(
    "Card faces",
    "a deck's `template:` (the front) and `back: {template: ...}` (the back, also a card's own `back:`); a "
    "token sheet's `token.html` and `token-back.html` and a player aid's `aid.html`, whose `card` is the token or "
    "the aid (see below)",
    {
        "card": "the card drawn, its texts in the language being built",
        "deck": "its deck",
        "decks": "every card of every deck, by deck id and card id, each as `card` is: "
        "`decks.goods[card.produces].name`. A face that reads it is made again whenever a file of the game changes",
        "game": "the game",
    },
    {
        "card": {
            "id": "the card's id",
            "name": "its name",
            "count": "its copies in the box",
            "remove_at": "the player counts it is removed at",
            "placeholder": "`true`, or the list of its invented keys, when its values are invented for want of the "
            "real ones",
            "<field>": "each field the deck's `fields:` declares, texts in the language being built and their "
            "`{...}` placeholders resolved; none (`{% if card.x %}`) when the card leaves it out",
        },
        "deck": {
            "id": "the deck's id",
            "name": "its name",
            "size": "its size's name (`poker`, `mini` ...), none for a size in mm",
            "width": "the card's width in mm (without bleed)",
            "height": "its height in mm",
            "placeholder": "`true`, or the list of the deck's invented keys (`size` ...)",
        },
        "game": {
            "id": "the game's id (its folder's name)",
            "title": "its title in the language being built",
            "titles": "its title by language (`game.titles.ja`)",
        },
    },
)


class DeckViews(Mapping):
    """`decks` as templates see it (every card of every deck), made only if a template reads it."""

    def __init__(self, make: Callable[[], dict]):
        self._make = make
        self._views: dict | None = None

    @property
    def views(self) -> dict:
        if self._views is None:
            self._views = self._make()
        return self._views

    def __getitem__(self, key):
        return self.views[key]

    def __iter__(self):
        return iter(self.views)

    def __len__(self) -> int:
        return len(self.views)

    def __repr__(self) -> str:
        return repr(self.views)


def card_view(card, deck: Deck, lang: str, fallback: str, data=None) -> dict:
    """What a template sees as `card`: every field localized (placeholders resolved when the game's
    DataNames are given), declared fields present (None if unset)."""
    view = dict.fromkeys(deck.fields)
    view.update(localize(card.fields, lang, fallback, data))
    view.update(
        id=card.id,
        name=localize(card.name, lang, fallback, data),
        count=card.count,
        remove_at=card.remove_at,
        placeholder=card.placeholder,
    )
    return view


def deck_view(deck: Deck, lang: str, fallback: str) -> dict:
    """What a template sees as `deck`."""
    return {
        "id": deck.id,
        "name": localize(deck.name, lang, fallback),
        "size": deck.size_name,
        "width": deck.size_mm[0],
        "height": deck.size_mm[1],
        "placeholder": deck.placeholder,
    }


def game_view(game: Game, lang: str) -> dict:
    """What a template sees as `game`."""
    return {"id": game.id, "title": localize(game.title, lang, game.source_language), "titles": dict(game.title.values)}


def decks_view(game: Game, lang: str, data=None) -> DeckViews:
    """What a template sees as `decks`: every card of every deck, each as `card` is."""
    fallback = game.source_language
    return DeckViews(
        lambda: {d.id: {c.id: card_view(c, d, lang, fallback, data) for c in d.cards} for d in game.decks.values()}
    )
