"""`pnpgen components`: the box contents list, in the game's languages."""

from __future__ import annotations

from generator.build import select_languages
from generator.commands.options import add_game, add_lang
from generator.model import load_game
from generator.paths import resolve_game
from generator.render.components import component_rows, component_words, format_rows


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "components",
        help="print the box contents list",
        description="Print the box contents (内容物 / Components) from components.yaml and the decks: what the "
        "kit does not print is marked for the players to bring their own, and invented counts carry the stamp "
        "(TBD / 仮). CSV adds the columns printed and invented.",
    )
    add_game(parser)
    add_lang(parser, "language (default: the game's source language)", default=None)
    parser.add_argument("--players", type=int, help="also show how many of each are used with N players")
    parser.add_argument(
        "--format", default="text", choices=["text", "csv", "md"], help="a text table, CSV or a Markdown table"
    )
    parser.set_defaults(run=run)


def run(args) -> int:
    game = load_game(resolve_game(args.game), require_templates=False)
    lang = select_languages(game, args.lang)[0] if args.lang else game.source_language
    rows = component_rows(game, lang, args.players)
    print(format_rows(rows, lang, args.format, args.players, component_words(game, lang)), end="")
    return 0
