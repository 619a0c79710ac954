"""Every word pnpgen itself prints for a game, by the page that prints it: the print-and-play guide's, the card
and token sheets' labels', the board tiles' and, when the game has rules, the rule sheet's. validate and `pnpgen
i18n status` read them here to list the words no label of the game translates into one of its languages
(render/game_words.py), as they list a missing card string.
"""

from __future__ import annotations

from generator.model.game import Game
from generator.model.rules import has_rules
from generator.render.game_words import GameWords, MissingWord
from generator.render.pnp_guide import guide_words
from generator.render.rulebook import rule_words
from generator.render.printed import TILE_WORD_SET
from generator.render.sheet_labels import SHEET_WORDS


def word_sets(game: Game) -> list[GameWords]:
    sets = [guide_words(game), SHEET_WORDS.words(game), TILE_WORD_SET.words(game)]
    if has_rules(game):
        sets.append(rule_words(game))
    return sets


def missing_words(game: Game, langs: list[str]) -> list[MissingWord]:
    """Each word pnpgen prints for the game that no label of it translates into a language of langs pnpgen has no
    words of, once (the rule sheet and the guide share the box contents' headings)."""
    found: dict[tuple[str, str], MissingWord] = {}
    for words in word_sets(game):
        for missing in words.untranslated_words(langs):
            found.setdefault((missing.lang, missing.string_id), missing)
    return list(found.values())
