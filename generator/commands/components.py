"""`pnpgen components`: the box contents list, in the game's languages."""

from __future__ import annotations

from pathlib import Path

from generator.build import select_languages
from generator.commands.options import add_game, add_lang, add_out
from generator.errors import InputError, Problem
from generator.export.spec import spec_csv, spec_markdown, spec_rows, spec_xlsx
from generator.fsutil import write_atomic
from generator.model import load_game
from generator.paths import cache_dir, resolve_game
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
        "--format",
        default="text",
        choices=["text", "csv", "md", "xlsx"],
        help="a text table, CSV, a Markdown table or (with --spec) an XLSX workbook",
    )
    parser.add_argument(
        "--spec",
        action="store_true",
        help="the spec for a manufacturer's quote: each printed component's finished size, bleed, count and "
        "distinct faces, sides printed (4/4, 4/0), corner radius, material (`material:` of its deck, board, aid "
        "or token sheet) and the file and pages of its `pnpgen export --to pdfx`; then those not printed",
    )
    parser.add_argument(
        "--output",
        "-o",
        type=Path,
        metavar="FILE",
        help="write to FILE rather than print (an XLSX workbook goes to OUT/<game>/components-spec-LANG.xlsx "
        "without it)",
    )
    add_out(parser, "where the build's output and caches are (default: output/)")
    parser.set_defaults(run=run)


def run(args) -> int:
    if args.format == "xlsx" and not args.spec:
        raise InputError(Problem(None, None, "--format xlsx is the spec's", hint="add --spec, or use csv"))
    game = load_game(resolve_game(args.game), require_templates=not args.spec)
    lang = select_languages(game, args.lang)[0] if args.lang else game.source_language
    if not args.spec:
        rows = component_rows(game, lang, args.players)
        return put(args, format_rows(rows, lang, args.format, args.players, component_words(game, lang)))
    spec = spec_rows(game, lang, cache_dir(game.dir, args.out))
    title = game.title.get(lang, game.source_language)
    if args.format == "xlsx":
        path = args.output or args.out / game.id / f"components-spec-{lang}.xlsx"
        write_atomic(path, spec_xlsx(spec, title))
        print(f"wrote {path} ({len(spec)} components)")
        return 0
    return put(args, spec_markdown(spec, title) if args.format == "md" else spec_csv(spec))


def put(args, text: str) -> int:
    """Print the list, or write it to --output."""
    if args.output:
        write_atomic(args.output, text)
    else:
        print(text, end="")
    return 0
