"""validate: every `{...}` placeholder of the printed texts resolves (the language is model/placeholders.py)."""

from __future__ import annotations

import itertools

from generator.errors import InputError, Problem
from generator.model.game import Game
from generator.model.placeholders import OWN_FORMATS, data_names, resolve_text
from generator.model.texts import card_data_texts, printed_texts


def check_placeholders(game: Game) -> list[Problem]:
    """Placeholders in card texts, token labels, aids and boards resolve as in the rules (those are
    checked with the rules)."""
    return text_problems(game, itertools.chain(card_data_texts(game), printed_texts(game)))


def text_problems(game: Game, labelled_texts) -> list[Problem]:
    """validate's check: every placeholder of the given (label, Text) pairs resolves in every language."""
    data = data_names(game)
    problems = []
    for label, text in labelled_texts:
        if label.rsplit(".", 1)[-1] in OWN_FORMATS:
            continue
        for lang in text.values:
            try:
                resolve_text(text, lang, None, data)
            except InputError as error:
                problems += [Problem(p.file, p.line, p.message, f"{label}.{lang}") for p in error.problems]
    return problems
