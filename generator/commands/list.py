"""`pnpgen list`: the games under cards/."""

from __future__ import annotations

import sys

from generator.errors import InputError
from generator.model import load_game
from generator.paths import list_games, why_no_games


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "list",
        help="list the games under cards/",
        description="List the games under cards/ with their players and decks.",
    )
    parser.set_defaults(run=run)


def run(args) -> int:
    games = list_games()
    if not games:
        print(
            f"no games: {why_no_games()}; `pnpgen new NAME` makes one, and every command also takes a "
            "path to a game directory",
            file=sys.stderr,
        )
    for game_dir in games:
        try:
            game = load_game(game_dir)
        except InputError as error:
            print(
                f"{game_dir.name:<14} (cannot be read: {len(error.problems)} problem(s); "
                f"run `pnpgen build {game_dir.name}` to see them)"
            )
            continue
        copies = sum(d.copies for d in game.decks.values())
        print(
            f"{game.id:<14} {game.title.get('en', game.source_language)} / {game.title.get('ja', 'en')}"
            f"  {game.players[0]}-{game.players[1]} players, {len(game.decks)} decks, {copies} cards"
            f"  [{', '.join(game.languages)}]"
        )
    return 0
