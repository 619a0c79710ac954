"""The game's own words, which its pages never cut at a line's end: a user dictionary for the typesetting.

A reader of a game knows its key terms as words: 企業価値 is one (worth), though the morphological analyser
reads 企業|価値 and running Japanese may break between any two characters. Its words, in each language, are
- its card names and deck names, each written word (a name with spaces in it is several);
- its title's words (split at spaces and middle dots too: グリード|インコーポレイテッド);
- every form of every term of its glossary (glossary.yaml).
Furigana is dropped and each word written as typeset() sees a text (spaces tidied, punctuation full width).
typeset() marks each word it finds in a Japanese text (a span of class `term`); display text never breaks a
phrase inside one, and the layout passes keep each whole at a line's end where the spacing allows (unless
it is longer than the line). Latin text breaks only between words already.
"""

from __future__ import annotations

import re

from generator.model.game import Game, Text
from generator.render.typeset import SPACED, Words, full_width, plain, tidy_spaces

SHORTEST, LONGEST = 2, 12  # a longer "word" (a title that is a sentence) is no word a line keeps whole
NAME_WORDS = re.compile(r"\s+")
TITLE_WORDS = re.compile(r"[\s・]+")
BREAKABLE = re.compile(f"[{SPACED}]")  # a line breaks inside a word only in Japanese (kana and kanji)


def game_words(game: Game) -> dict[str, Words]:
    """The game's own words by language (each of the game's languages)."""
    names = [card.name for card in game.cards()] + [deck.name for deck in game.decks.values()]
    found: dict[str, Words] = {}
    for lang in game.languages:
        words = {word for name in names for word in _split(name, lang, NAME_WORDS)}
        words |= set(_split(game.title, lang, TITLE_WORDS))
        words |= {form for term in game.glossary for form in term.forms.get(lang, [])}
        found[lang] = Words(frozenset(word for word in map(_as_typeset, words) if _kept(word, lang)))
    return found


def _split(text: Text, lang: str, between: re.Pattern) -> list[str]:
    return between.split(plain(text.values.get(lang) or ""))


def _as_typeset(word: str) -> str:
    return full_width(tidy_spaces(plain(word))).strip()


def _kept(word: str, lang: str) -> bool:
    if not SHORTEST <= len(word) <= LONGEST or any(char.isspace() for char in word):
        return False
    return not lang.startswith("ja") or bool(BREAKABLE.search(word))
