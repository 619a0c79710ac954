"""validate: every text of the game (the string inventory, model/texts.py) has each language asked for, and so
has every word pnpgen prints for it (render/own_words.py: the print-and-play guide's, the rule sheet's)."""

from __future__ import annotations

from generator.errors import Problem
from generator.model.game import Game, Text
from generator.model.table.places import text_place
from generator.model.texts import texts
from generator.render.game_words import labels_file
from generator.render.own_words import missing_words


def check_translations(game: Game, langs: list[str] | None = None) -> list[Problem]:
    """A problem per text without a language asked for, saying where to write it: beside the others in the YAML,
    or in the cell (the column to add) of its deck's spreadsheet."""
    problems = []
    wanted = [lang for lang in game.languages if langs is None or lang in langs]
    for word in missing_words(game, wanted):
        problems.append(Problem(labels_file(game), None, word.message(), f"labels.{word.label}", hint=word.hint()))
    for label, text in texts(game):
        missing = [lang for lang in wanted if not text.has(lang)]
        if not missing:
            continue
        message = f"{label} has no {', '.join(missing)} text"
        places = [place for lang in missing if (place := text_place(game, text, lang))]
        if places:
            hint = "; ".join(place.what_to_do() for place in places)
            problems.append(Problem(text.file, None, message, hint=hint, cell=places[0].cell))
        else:
            problems.append(Problem(text.file, text.line, message, hint=yaml_hint(text, missing)))
    return problems


def yaml_hint(text: Text, missing: list[str]) -> str | None:
    return f"add `{missing[0]}: ...` beside " + ", ".join(f"{k}" for k in text.values) if text.values else None
