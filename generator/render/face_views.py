"""What a face template sees: `card`, `deck`, `decks` and `game` (CARD_FACE documents them, and
docs/templates.md from it), made from the model in the language being built, texts localized and `{...}`
placeholders resolved. The keys of `card`, `deck` and `game` are those their schemas show (schema.Model), each
documented by its Field: a key added to a schema reaches the view and docs/templates.md with no code here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from generator.model.cards import CARD_MODEL
from generator.model.game import Deck, Game
from generator.model.loader import DECK_MODEL, GAME_MODEL
from generator.model.schema import Model
from generator.render.templating import TemplateKind, localize


class ViewKeys(Mapping):
    """The keys of a view made from a model (schema.Model): those the view adds of its own, around each key its
    schema shows templates, documented by its Field (read when asked: a key added to the schema is documented)."""

    def __init__(self, model: Model, before: dict[str, str], after: dict[str, str]):
        self.model, self.before, self.after = model, before, after

    def documented(self) -> dict[str, str]:
        return {**self.before, **self.model.shown_docs(), **self.after}

    def __getitem__(self, key: str) -> str:
        return self.documented()[key]

    def __iter__(self):
        return iter(self.documented())

    def __len__(self) -> int:
        return len(self.documented())


CARD_FACE = TemplateKind(
    "Card faces",
    "a deck's `template:` (the front) and `back: {template: ...}` (the back, also a card's own `back:`); a "
    "token sheet's `token.html` and `token-back.html` and a player aid's `aid.html`, whose `card` is the token or "
    "the aid (see below)",
    {
        "card": "the card drawn, its texts in the language being built",
        "deck": "its deck, its texts in the language being built",
        "decks": "every card of every deck, by deck id and card id, each as `card` is: "
        "`decks.goods[card.produces].name`. A face that reads it is made again whenever a file of the game changes",
        "game": "the game, its texts in the language being built",
    },
    {
        "card": ViewKeys(
            CARD_MODEL,
            {},
            {
                "<field>": "each field the deck's `fields:` declares, texts in the language being built and their "
                "`{...}` placeholders resolved; none (`{% if card.x %}`) when the card leaves it out",
            },
        ),
        "deck": ViewKeys(
            DECK_MODEL,
            {"id": "the deck's id"},
            {"width": "the card's width in mm (without bleed)", "height": "its height in mm"},
        ),
        "game": ViewKeys(
            GAME_MODEL,
            {"id": "the game's id (its folder's name)"},
            {"titles": "its title by language (`game.titles.ja`)"},
        ),
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
    DataNames are given), declared fields present (None if unset), and each key of the card schema it shows."""
    view = dict.fromkeys(deck.fields)
    view.update(localize(card.fields, lang, fallback, data))
    view.update(CARD_MODEL.view(card, lambda value: localize(value, lang, fallback, data)))
    return view


def deck_view(deck: Deck, lang: str, fallback: str) -> dict:
    """What a template sees as `deck`: its id, its keys as deck.yaml's schema shows them (size: the size's name,
    None for a size of its own), and its width and height in mm."""
    return {
        "id": deck.id,
        **DECK_MODEL.view(deck, lambda value: localize(value, lang, fallback)),
        "width": deck.size_mm[0],
        "height": deck.size_mm[1],
    }


def game_view(game: Game, lang: str) -> dict:
    """What a template sees as `game`: its id, its keys as game.yaml's schema shows them, its title by language."""
    return {
        "id": game.id,
        **GAME_MODEL.view(game, lambda value: localize(value, lang, game.source_language)),
        "titles": dict(game.title.values),
    }


def decks_view(game: Game, lang: str, data=None) -> DeckViews:
    """What a template sees as `decks`: every card of every deck, each as `card` is."""
    fallback = game.source_language
    return DeckViews(
        lambda: {d.id: {c.id: card_view(c, d, lang, fallback, data) for c in d.cards} for d in game.decks.values()}
    )
