"""One declaration per key: each schema's keys are carried by its model class (schema.Model), the template views
show them, and a key added to a schema reaches the object, the view, the face memo, docs/schema.md and
docs/templates.md."""

from __future__ import annotations

import dataclasses

import pytest

from generator.commands.schema import schema_markdown
from generator.model import cards, load_game, loader, printables, rules
from generator.model.cards import CARD_KEYS, CARD_MODEL
from generator.model.game import Card, Deck, Game, Text
from generator.model.loader import DECK_MODEL, DECK_SCHEMA, GAME_MODEL, GAME_SCHEMA
from generator.model.schema import Colour, Enum, Field, Localized, Model, Str
from generator.render.face_views import card_view
from generator.render.faces import GameRenderer
from generator.render.memo import card_data, card_data_attributes
from generator.render.templatedoc import templates_markdown

MODELS = [
    value
    for module in (loader, cards, printables, rules)
    for value in vars(module).values()
    if isinstance(value, Model)
]


def test_every_schema_backed_class_has_its_model():
    assert {model.cls.__name__ for model in MODELS} == {
        "Game",
        "Component",
        "Deck",
        "Card",
        "Board",
        "Aid",
        "TokenSheet",
        "Block",
        "Rulebook",
    }


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.cls.__name__)
def test_each_key_of_a_schema_has_its_attribute_and_each_attribute_its_key_or_the_loader(model):
    assert model.unmatched() == []


def test_a_key_without_an_attribute_or_an_attribute_without_a_key_is_found():
    extra = Model(Deck, {**DECK_SCHEMA.fields, "sleeve": Field(Str())}, DECK_MODEL.given)
    assert extra.unmatched() == ["key 'sleeve': Deck has no attribute 'sleeve'"]
    fewer = Model(Deck, {k: v for k, v in DECK_SCHEMA.fields.items() if k != "template"}, DECK_MODEL.given)
    assert fewer.unmatched() == ["Deck.template: no key carries it and the loader does not give it"]
    misgiven = Model(Deck, DECK_SCHEMA.fields, (*DECK_MODEL.given, "sleeve"))
    assert misgiven.unmatched() == ["Deck.sleeve: the loader gives it, the class has no such attribute"]


def test_the_reserved_card_keys_and_the_views_come_from_the_schemas():
    assert list(CARD_KEYS) == ["id", "name", "count", "remove_at", "placeholder", "back"]
    assert [key for key, _ in CARD_MODEL.shown()] == ["id", "name", "count", "remove_at", "placeholder"]
    assert [key for key, _ in DECK_MODEL.shown()] == ["name", "size", "bleed", "placeholder"]
    assert [key for key, _ in GAME_MODEL.shown()] == ["title", "version", "date", "placeholder"]


@dataclasses.dataclass
class SleevedDeck(Deck):
    sleeve: str | None = None


@dataclasses.dataclass
class RatedCard(Card):
    rarity: str = "common"


@dataclasses.dataclass
class PublishedGame(Game):
    publisher: Text | None = None


@pytest.fixture
def added_keys(monkeypatch):
    """A key added to the deck, card and game schemas, and to the model classes (as a new key's change is)."""
    monkeypatch.setitem(DECK_SCHEMA.fields, "sleeve", Field(Colour(), doc="the colour of the sleeves"))
    monkeypatch.setattr(DECK_MODEL, "cls", SleevedDeck)
    monkeypatch.setitem(CARD_KEYS, "rarity", Field(Enum(["common", "rare"]), default="common", doc="how rare"))
    monkeypatch.setattr(CARD_MODEL, "cls", RatedCard)
    monkeypatch.setitem(GAME_SCHEMA, "publisher", Field(Localized(), doc="who publishes the game"))
    monkeypatch.setattr(GAME_MODEL, "cls", PublishedGame)
    forget = [card_data_attributes.cache_clear, DECK_MODEL.refresh, CARD_MODEL.refresh, GAME_MODEL.refresh]
    for made_once_from_the_keys in forget:
        made_once_from_the_keys()
    yield
    for made_once_from_the_keys in forget:
        made_once_from_the_keys()


def test_a_key_added_to_a_schema_reaches_the_object_the_view_the_memo_and_the_docs(small_game, added_keys):
    game_yaml = small_game / "game.yaml"
    game_yaml.write_text(game_yaml.read_text() + "publisher: {ja: 小さな出版社, en: Small Press}\n")
    deck_yaml = small_game / "decks" / "cards.yaml"
    text = deck_yaml.read_text().replace("size: poker", "size: poker\nsleeve: '#224466'")
    deck_yaml.write_text(text.replace("    count: 2\n    value: 2\n", "    count: 2\n    rarity: rare\n    value: 2\n"))
    template = small_game / "templates" / "card.html"
    template.write_text(
        template.read_text() + '<p class="added">{{ deck.sleeve }} {{ card.rarity }} {{ game.publisher }}</p>\n'
    )
    game = load_game(small_game)
    deck = game.decks["cards"]
    apple, pear = deck.cards[:2]
    assert (deck.sleeve, apple.rarity, pear.rarity) == ("#224466", "common", "rare")
    assert "rarity" not in pear.fields  # a built-in key, not one the deck declares
    assert game.publisher.values == {"ja": "小さな出版社", "en": "Small Press"}

    renderer = GameRenderer(game, "en")
    shared = renderer.deck_context(deck)
    assert shared["deck"]["sleeve"] == "#224466" and shared["game"]["publisher"] == "Small Press"
    assert card_view(pear, deck, "en", "ja")["rarity"] == "rare"
    html, _ = renderer.card_faces(deck, pear, shared)["front"]
    assert 'class="added">#224466 rare Small Press</p>' in html

    same_but_common = dataclasses.replace(pear, rarity="common")
    same_but_common.__dict__.pop("_data", None)
    assert card_data(pear) != card_data(same_but_common)  # an edit of the key renders the card again

    doc = schema_markdown()
    assert "| `sleeve` |" in doc and "| `rarity` |" in doc and "| `publisher` |" in doc
    doc = templates_markdown()  # what templates see, documented by the key's own Field
    for row in ("`deck.sleeve` | the colour of the sleeves", "`card.rarity` | how rare", "`game.publisher` | who"):
        assert row in doc, row


def test_an_added_key_left_out_takes_its_default_and_a_wrong_value_is_a_located_error(small_game, added_keys, cli):
    deck_yaml = small_game / "decks" / "cards.yaml"
    assert load_game(small_game).decks["cards"].sleeve is None
    deck_yaml.write_text(deck_yaml.read_text().replace("size: poker", "size: poker\nsleeve: 'red; x: y'"))
    result = cli("validate", small_game)
    assert result.code == 2 and "Traceback" not in result.err
    [error] = [line for line in result.err.splitlines() if line.startswith("error:")]
    assert "cards.yaml:3: sleeve: expected a colour" in error
