"""The pictures cards name (image fields): validate reports a file that is not there or does not decode; a build
also warns about each card still printing a placeholder box for want of its picture.

Both come from one look at each card's pictures (render/images.unpictured): the template helper `image()` prints
the marked box for exactly those.
"""

from __future__ import annotations

from generator.errors import Problem
from generator.model.game import Game
from generator.render.images import NO_PICTURE, unpictured


def check_art(game: Game) -> list[Problem]:
    """A picture a card names that is not there, leads out of the game's folder or cannot be decoded."""
    return [art_problem_at(deck, card, key, why) for deck, card, key, why in unpictured(game) if why != NO_PICTURE]


def placeholder_art(game: Game) -> list[Problem]:
    """Every card printing a placeholder box because it has no picture yet (none given, or `placeholder`)."""
    return [art_problem_at(deck, card, key, why) for deck, card, key, why in unpictured(game) if why == NO_PICTURE]


def art_problem_at(deck, card, key: str, why: str) -> Problem:
    field = key.split(".")[0].split("[")[0]
    return Problem(
        card.file,
        card.line_of(field),
        f"card '{card.id}' of deck '{deck.id}' {why}: a placeholder box marked 'art' prints in its place",
        key,
        hint="put the picture in the game's art/ folder and name it here, like art/apple.png",
    )
