"""The ink-saving version: the game as it prints when ink matters more than colour.

`ink_saver_game(game)` is the same game marked as that variant (and, where game.yaml's `ink_saver: {backs: omit}`
says the backs tell nothing, without backs). Every builder run on it prints its faces, tokens, aids and boards
light: with the game's own ink-saving stylesheet after its stylesheets (`ink_saver: {style: ...}`), whose faces
are rendered and cached apart from the normal ones; without one, the normal faces are drawn light onto the
sheets (render/lighten.py: shapes and pictures take a fraction of their ink, text keeps its own).
"""

from __future__ import annotations

import dataclasses

from generator.errors import InputError, Problem
from generator.model.game import Game
from generator.paths import find_template

INK_SAVER = "ink-saver"


def ink_saver_game(game: Game) -> Game:
    """The game as its ink-saving version prints: the variant marked, the backs left out where it says so."""
    check_ink_saver(game)
    variant = dataclasses.replace(game, variant=INK_SAVER)
    if not backs_omitted(game):
        return variant
    decks = {
        deck_id: dataclasses.replace(
            deck,
            back_template=None,
            cards=[dataclasses.replace(card, back=None) if card.back else card for card in deck.cards],
        )
        for deck_id, deck in game.decks.items()
    }
    printables = game.printables
    if printables is not None:
        tokens = {sheet_id: dataclasses.replace(sheet, sides=1) for sheet_id, sheet in printables.tokens.items()}
        printables = dataclasses.replace(printables, tokens=tokens)
    return dataclasses.replace(variant, decks=decks, printables=printables)


def backs_omitted(game: Game) -> bool:
    return game.ink_saver.get("backs") == "omit"


def check_ink_saver(game: Game) -> None:
    """The game's ink-saver stylesheet exists (raised before anything is written)."""
    style_file(game)


def style_file(game: Game):
    """The game's own ink-saving stylesheet, or None."""
    name = game.ink_saver.get("style")
    if not name:
        return None
    found = find_template(game.dir, name)
    if found is None:
        raise InputError(
            Problem(
                game.files.get("game"),
                None,
                f"ink-saver stylesheet '{name}' not found",
                "ink_saver.style",
                hint="put it in the game's templates/ folder, or leave `style:` out to have pnpgen print the faces "
                "light",
            )
        )
    return found


def variant_css(game: Game) -> str:
    """What the game's variant adds after its stylesheets: its own ink-saving stylesheet, else nothing."""
    style = style_file(game) if game.variant == INK_SAVER else None
    return "" if style is None else "\n" + style.read_text(encoding="utf-8")


def prints_light(game: Game) -> bool:
    """Whether the sheets draw the game's faces light: its ink-saving version, when it has no stylesheet for it."""
    return game.variant == INK_SAVER and style_file(game) is None
