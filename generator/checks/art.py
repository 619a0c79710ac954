"""The pictures cards, boards and tokens name (image fields, a board's `background_image` and image elements, a
token's `picture`): validate reports a file that is not there or does not decode; a build also warns about each
piece still printing a placeholder box for want of its picture.

Both come from one look at each piece's pictures (render/images.unpictured for cards, printed_pictures here for
boards and tokens): the template helper `image()` prints the marked box for exactly those.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from generator.errors import Problem
from generator.model.game import Game
from generator.render.images import NO_PICTURE, art_problem, unpictured

HINT = "put the picture in the game's art/ folder and name it here, like art/apple.png"


def check_art(game: Game) -> list[Problem]:
    """A picture a piece names that is not there, leads out of the game's folder or cannot be decoded."""
    return [problem for problem, why in art_problems(game) if why != NO_PICTURE]


def placeholder_art(game: Game) -> list[Problem]:
    """Every piece printing a placeholder box because it has no picture yet (none given, or `placeholder`)."""
    return [problem for problem, why in art_problems(game) if why == NO_PICTURE]


def art_problems(game: Game) -> Iterator[tuple[Problem, str]]:
    for deck, card, key, why in unpictured(game):
        yield art_problem_at(deck, card, key, why), why
    for file, line, key, what, written in printed_pictures(game):
        problem = art_problem(game.dir, written)
        if problem is not None:
            message = f"{what} {problem}: a placeholder box marked 'art' prints in its place"
            yield Problem(file, line, message, key, HINT), problem


def art_problem_at(deck, card, key: str, why: str) -> Problem:
    field = key.split(".")[0].split("[")[0]
    return Problem(
        card.file,
        card.line_of(field),
        f"card '{card.id}' of deck '{deck.id}' {why}: a placeholder box marked 'art' prints in its place",
        key,
        hint=HINT,
    )


def printed_pictures(game: Game) -> Iterator[tuple[Path, int | None, str, str, str]]:
    """(file, line, key, what, written) of each picture a board or token sheet names: a board's background
    picture and image elements, a token's picture (front and back)."""
    printables = game.printables
    if printables is None:
        return
    for board in printables.boards.values():
        if board.background_image:
            line = key_line(board.file, "background_image")
            yield board.file, line, "background_image", f"board '{board.id}'", board.background_image
        for element in board.elements:
            if element["kind"] == "image":
                key, line = element["written_at"]
                yield board.file, line, f"{key}.src", f"board '{board.id}'", element["src"]
    for sheet in printables.tokens.values():
        for index, token in enumerate(sheet.tokens):
            for side, values in (("", token), ("back.", token.get("back") or {})):
                if values.get("picture"):
                    where = f"token '{token['id']}' of sheet '{sheet.id}'" + (" (its back)" if side else "")
                    yield sheet.file, token.get("line"), f"tokens[{index}].{side}picture", where, values["picture"]


def key_line(file: Path, key: str) -> int | None:
    """The line of a top-level key in a YAML file (where a finding on it points)."""
    try:
        lines = file.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    return next((number for number, line in enumerate(lines, 1) if line.startswith(f"{key}:")), None)
