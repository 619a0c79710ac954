"""Every localized text of a game, each labelled with where it is: the string inventory.

Labels are the string ids `pnpgen i18n` uses (PO msgctxt), validate's translation check reads them, and a build
names the texts it printed untranslated by them. A stage with texts of its own adds a source to TEXT_SOURCES.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from generator.model.game import Game, Text
from generator.model.rules import has_rules, load_rules

Labelled = Iterator[tuple[str, Text]]  # (label, text): the label says where the text is


def texts(game: Game) -> Labelled:
    """Every localized text of the game with a label saying where it is.

    A label reads `collection[id].field` (or a bare key of game.yaml, like `title`); `pnpgen i18n` uses
    labels as string ids (PO msgctxt). Stages with texts of their own (rule blocks, boards, aids) add a
    function to TEXT_SOURCES yielding (label, Text), e.g. ("rules[setup].text", text).
    """
    for source in TEXT_SOURCES:
        yield from source(game)


def card_data_texts(game: Game) -> Labelled:
    """The title, box contents, deck and card texts, field names, setup labels and what is invented."""
    yield "title", game.title
    if isinstance(game.placeholder, Text):
        yield "placeholder", game.placeholder
    for component in game.components:
        yield f"components[{component.id}].name", component.name
        if component.note:
            yield f"components[{component.id}].note", component.note
        if isinstance(component.placeholder, Text):
            yield f"components[{component.id}].placeholder", component.placeholder
    for deck in game.decks.values():
        yield f"decks[{deck.id}].name", deck.name
        if isinstance(deck.placeholder, Text):
            yield f"decks[{deck.id}].placeholder", deck.placeholder
        for name, declared in deck.fields.items():
            if declared.label is not None:
                yield f"decks[{deck.id}].fields.{name}.label", declared.label
        for card in deck.cards:
            yield f"cards[{card.id}].name", card.name
            for name, value in card.fields.items():
                for path, text in nested_texts(value, name):
                    yield f"cards[{card.id}].{path}", text
    for index, entry in enumerate(game.setup):
        if isinstance(entry.get("label"), Text):
            yield f"setup[{index}].label", entry["label"]


def nested_texts(value: object, path: str) -> Labelled:
    if isinstance(value, Text):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from nested_texts(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from nested_texts(item, f"{path}[{index}]")


def rules_texts(game: Game) -> Labelled:
    """Every text of the rule sheet's blocks, labelled `rules[block id].field`."""
    if has_rules(game):
        for block in load_rules(game).blocks:
            for field_label, text in block.texts():
                yield f"rules[{block.id}].{field_label}", text


def label_texts(game: Game) -> Labelled:
    """The template labels of labels.yaml, labelled `labels[key].text`."""
    for key, text in game.labels.items():
        yield f"labels[{key}].text", text


def printable_texts(game: Game) -> Labelled:
    """The texts of boards, player aids and token sheets: `boards[main].name`, `aids[phases].sections[0].text`."""
    printables = game.printables
    if printables is None:
        return
    for collection, items in (("boards", printables.boards), ("aids", printables.aids), ("tokens", printables.tokens)):
        for item_id, item in items.items():
            for name, value in vars(item).items():
                for path, text in nested_texts(value, name):
                    yield f"{collection}[{item_id}].{path}", text


TEXT_SOURCES: list[Callable[[Game], Labelled]] = [card_data_texts, label_texts, printable_texts, rules_texts]


def printed_texts(game: Game) -> Labelled:
    """The texts of boards, aids and token sheets, labelled `boards[id]...`, `aids[id]...`, `tokens[id]...`."""
    printables = game.printables
    for folder in ("boards", "aids", "tokens"):
        for item_id, item in (getattr(printables, folder, {}) or {}).items() if printables else ():
            for name in ("elements", "title", "sections", "tokens"):
                if hasattr(item, name):
                    yield from nested_texts(getattr(item, name), f"{folder}[{item_id}].{name}")
