"""validate: every text of the game (the string inventory, model/texts.py) has each language asked for."""

from __future__ import annotations

from generator.errors import Problem
from generator.model.game import Game
from generator.model.texts import texts


def check_translations(game: Game, langs: list[str] | None = None) -> list[Problem]:
    problems = []
    wanted = [lang for lang in game.languages if langs is None or lang in langs]
    for label, text in texts(game):
        missing = [lang for lang in wanted if not text.has(lang)]
        if missing:
            problems.append(
                Problem(
                    text.file,
                    text.line,
                    f"{label} has no {', '.join(missing)} text",
                    hint=f"add `{missing[0]}: ...` beside " + ", ".join(f"{k}" for k in text.values)
                    if text.values
                    else None,
                )
            )
    return problems
