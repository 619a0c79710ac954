"""The rule sheet's prototype note ("About this prototype" / 「この試作について」), made from the data.

Every value marked `placeholder:` (model/invented.py gathers them) is named in each of the game's languages:
a heading, what a prototype is and what the stamp on its cards means, then one item per thing in the box.
The blocks are generated, not written in rules.yaml: they are not translation strings, and a kit cannot
forget one. A rules.yaml block `type: prototype` says where they go; without one they close the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from generator.model.game import Card, Game, Text
from generator.model.invented import Invention, inventions, invented_keys
from generator.model.placeholders import LIST_SEPARATOR
from generator.model.rules import Block
from generator.render.images import unpictured

# pnpgen's own words (rulebook.LABELS holds them; a game's labels.yaml may word each as `rules_<key>`).
WORDS = {
    "ja": {
        "prototype": "この試作について",
        "prototype_intro": "これは試作版です。元の資料で決まっていない値は、遊べるように仮に決めてあります。"
        "下の一覧がそのすべてです。テストプレイで確かめ、正式な値が分かったら差し替えてください。",
        "prototype_stamp": "カードの「{stamp}」の印は、そのカードに仮の値があることを示します。",
        "prototype_item": "**{name}**：{what}",
        "prototype_end": "。",
        "prototype_pieces": "。",
        "prototype_keys": "{keys}が仮",
        "prototype_whole": "全体が仮",
        "prototype_words": "{text}が仮",
        "prototype_cards": "すべて仮のカード（{count}）：{cards}",
        "prototype_card_count": "{n}枚",
        "prototype_card_count_one": "{n}枚",
        "prototype_kind_count": "{kinds}種類{n}枚",
        "prototype_card_keys": "{keys}が仮のカード：{cards}",
        "prototype_art": "絵がまだなく仮画像を印刷したカード（{count}）：{cards}",
        "prototype_and": "・",
        "key_size": "大きさ",
        "key_count": "数",
        "key_copies": "部数",
        "key_bleed": "塗り足し",
        "key_elements": "配置",
        "key_tokens": "トークンの種類と数",
        "key_sections": "内容",
        "key_sets": "セット数",
        "key_background": "背景色",
        "key_name": "名前",
        "key_remove_at": "人数による除外",
        "key_back": "裏面",
    },
    "en": {
        "prototype": "About this prototype",
        "prototype_intro": "This is a prototype. Where the source documents leave a value open, one has been "
        "made up so that the game can be played; the list below names every one of them. Test them in play "
        "and replace them once the real values are known.",
        "prototype_stamp": 'The "{stamp}" stamp on a card means that it holds at least one of these values.',
        "prototype_item": "**{name}**: {what}",
        "prototype_end": ".",
        "prototype_pieces": "; ",
        "prototype_keys": "invented {keys}",
        "prototype_whole": "invented as a whole",
        "prototype_words": "{text} (invented)",
        "prototype_cards": "cards invented in full ({count}): {cards}",
        "prototype_card_count": "{n} cards",
        "prototype_card_count_one": "{n} card",
        "prototype_kind_count": "{kinds} kinds, {n} cards",
        "prototype_card_keys": "invented {keys} on {cards}",
        "prototype_art": "cards printed with placeholder art, their pictures still to come ({count}): {cards}",
        "prototype_and": ", ",
        "key_size": "size",
        "key_count": "count",
        "key_copies": "copies",
        "key_bleed": "bleed",
        "key_elements": "layout",
        "key_tokens": "kinds and numbers of tokens",
        "key_sections": "contents",
        "key_sets": "number of sets",
        "key_background": "background colour",
        "key_name": "name",
        "key_remove_at": "removal by player count",
        "key_back": "back",
    },
}
STAMP_LABEL = "tbd"  # the game's label for the stamp its templates print on invented data

Word = Callable[..., str]  # word(key, lang, **values): RulebookWriter.word


def prototype_blocks(game: Game, file: Path, word: Word) -> list[Block]:
    """The prototype note as rule blocks (a heading, a paragraph, a list), or none when nothing is invented."""
    found = inventions(game, {(deck.id, card.id) for deck, card, _, _ in unpictured(game)})
    if not found:
        return []
    langs = game.languages

    def text(make: Callable[[str], str]) -> Text:
        return Text({lang: make(lang) for lang in langs}, file)

    stamp = game.labels.get(STAMP_LABEL)
    blocks = [
        Block("about-prototype", "heading", file, None, text=text(lambda lang: word("prototype", lang))),
        Block("about-prototype-intro", "paragraph", file, None, text=text(lambda lang: word("prototype_intro", lang))),
    ]
    if stamp is not None:  # the stamp the game's templates print on invented data
        said = text(lambda lang: word("prototype_stamp", lang, stamp=stamp.get(lang, game.source_language)))
        blocks.append(Block("about-prototype-stamp", "paragraph", file, None, text=said))
    items = [text(partial(describe, game, item, word=word)) for item in found]
    blocks.append(Block("about-prototype-list", "list", file, None, items=items))
    for block in blocks:
        block.generated = True
    return blocks


def describe(game: Game, item: Invention, lang: str, *, word: Word) -> str:
    """One thing's invented data in one language: `**Asset cards**: invented number on Coal Mine, ...`."""
    fallback = game.source_language
    pieces = []
    if item.whole:
        pieces.append(word("prototype_whole", lang))
    if item.keys:
        keys = joined([key_word(key, lang, word) for key in item.keys], lang, word)
        pieces.append(word("prototype_keys", lang, keys=keys))
    pieces += [word("prototype_words", lang, text=words.get(lang, fallback).rstrip("。.")) for words in item.words]
    if item.parts:
        names = [part.get(lang, fallback) for part in item.parts]
        pieces.append(word("prototype_keys", lang, keys=joined(names, lang, word)))
    pieces += card_pieces(game, item, lang, word)
    what = word("prototype_pieces", lang).join(pieces)
    said = word("prototype_item", lang, name=item.name.get(lang, fallback), what=what)
    end = word("prototype_end", lang)
    return said if said.endswith(end) else said + end


def card_pieces(game: Game, item: Invention, lang: str, word: Word) -> list[str]:
    """The cards invented in full, then the others grouped by the keys they hold invented."""
    fallback = game.source_language
    separator = LIST_SEPARATOR.get(lang, ", ")
    whole = [card for card in item.cards if invented_keys(card) is None]
    groups: dict[tuple[str, ...], list[Card]] = {}
    for card in item.cards:
        keys = invented_keys(card)
        if keys:
            groups.setdefault(keys, []).append(card)
    pieces = []
    if whole:
        names = separator.join(card.name.get(lang, fallback) for card in whole)
        pieces.append(word("prototype_cards", lang, count=card_count(whole, lang, word), cards=names))
    deck = game.decks.get(item.deck_id or "")
    for keys, cards in groups.items():
        named = [field_word(deck.fields.get(k) if deck else None, k, lang, word, fallback) for k in keys]
        names = separator.join(card.name.get(lang, fallback) for card in cards)
        pieces.append(word("prototype_card_keys", lang, keys=joined(named, lang, word), cards=names))
    if item.unpictured:
        names = separator.join(card.name.get(lang, fallback) for card in item.unpictured)
        pieces.append(word("prototype_art", lang, count=card_count(item.unpictured, lang, word), cards=names))
    return pieces


def card_count(cards: list[Card], lang: str, word: Word) -> str:
    """How many cards: "6 cards" when each is one card, "6 kinds, 54 cards" when some are printed more than once."""
    copies = sum(card.count for card in cards)
    if copies == len(cards):
        return word("prototype_card_count_one" if copies == 1 else "prototype_card_count", lang, n=copies)
    return word("prototype_kind_count", lang, kinds=len(cards), n=copies)


def field_word(declared, key: str, lang: str, word: Word, fallback: str) -> str:
    """A card key's name: its declaration's label, or pnpgen's word for a built-in key."""
    if declared is not None and declared.label is not None:
        return declared.label.get(lang, fallback)
    return key_word(key, lang, word)


def key_word(key: str, lang: str, word: Word) -> str:
    try:
        return word(f"key_{key}", lang)
    except KeyError:  # validate reports a key there is no word for (checks/invented.py)
        return key


def joined(words: list[str], lang: str, word: Word) -> str:
    return word("prototype_and", lang).join(words)
