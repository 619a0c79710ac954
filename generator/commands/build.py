"""`pnpgen build`: every kit's card sheets, as print-ready PDFs, with a build report.

The command reads its options into a BuildOptions and calls build() (generator/build/), which does the work.
"""

from __future__ import annotations

import argparse

from generator.yamlio.remembered import remember_in
from generator.build import BuildOptions, build
from generator.commands.options import (
    add_games,
    add_jobs,
    add_lang,
    add_no_cache,
    add_out,
    add_paper,
    add_quiet,
    add_strict,
    chosen_papers,
)
from generator.heap import long_lived
from generator.model import load_game
from generator.paths import cache_dir, every_game, resolve_game
from generator.progress import Progress
from generator.render.paper import MARGIN_MM
from generator.render.sheet_plan import DUPLEX_MODES, LAYOUTS, SHEET_MODES
from generator.render.tiles import BOARD_PAPERS
from generator.render.volumes import VOLUME_SHEETS


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "build",
        help="build print-ready PDFs for games",
        description="Build each game's card sheets, boards, player aids, token sheets and rule sheets into "
        "OUT/<game>/, with OUT/<game>/build.json listing them. Unchanged outputs are kept.",
    )
    add_games(parser)
    add_lang(parser)
    add_paper(parser)
    parser.add_argument(
        "--duplex",
        default="long",
        choices=DUPLEX_MODES,
        help="backs on the following page for a long- or short-edge flip, or none (default: long)",
    )
    parser.add_argument(
        "--layout",
        default="duplex",
        choices=LAYOUTS,
        help="duplex sheets, or gutterfold (fronts above the fold, backs below)",
    )
    parser.add_argument(
        "--board-paper",
        choices=list(BOARD_PAPERS),
        help="also print each board on one sheet of this larger paper, at 100%%",
    )
    parser.add_argument(
        "--margin",
        type=float,
        default=MARGIN_MM,
        metavar="MM",
        help="the paper's outer edge a home printer cannot print; nothing is placed there "
        f"(default: {MARGIN_MM:g}). With 5 mm, A4 takes 9 poker or 16 mini cards a page, "
        "Letter 8 poker (landscape) or 12 mini: where cards with their own bleed fit "
        "fewer, they share cut lines, with bleed around the block",
    )
    parser.add_argument(
        "--sheets",
        default="shared",
        choices=SHEET_MODES,
        help="shared: decks of one card size continue on the same sheets, a small deck "
        "fills the room left below another, and the token files share the sheets of one tokens-LANG-PAPER.pdf; "
        "per-deck: every deck starts a new sheet and every token file is a PDF of its own",
    )
    parser.add_argument("--cut-lines", action="store_true", help="draw dashed cut lines along every trim edge")
    parser.add_argument("--no-marks", action="store_true", help="leave out the crop marks")
    parser.add_argument(
        "--changed-since",
        metavar="REF",
        help="also write reprint-LANG-PAPER.pdf holding only the cards whose faces changed since "
        "REF (a git revision of the game, or the build.json of an earlier build), with their "
        "backs",
    )
    parser.add_argument(
        "--volume-sheets",
        type=int,
        default=VOLUME_SHEETS,
        metavar="N",
        help="write a card sheet file of more than N sheets as volumes of N sheets each "
        "(cards-en-a4-01.pdf, cards-en-a4-02.pdf ...): an edit rewrites only the volume "
        "holding the card, and memory stays that of one volume "
        f"(default: {VOLUME_SHEETS}; 0: one file however large)",
    )
    parser.add_argument(
        "--no-pnp",
        action="store_true",
        help="leave out the print-and-play files pnp-LANG-PAPER.pdf (the guide, the checklist and every file to "
        "print, in one PDF per language and paper)",
    )
    parser.add_argument(
        "--ink-saver",
        action="store_true",
        help="also write pnp-LANG-PAPER-ink-saver.pdf: the same with faces printed light (game.yaml's "
        "`ink_saver:` says how) from the component files in OUT/<game>/ink-saver/, and the ink both use "
        "in build.json",
    )
    add_out(parser)
    add_jobs(parser)
    add_no_cache(parser)
    add_quiet(parser)
    add_strict(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    progress = Progress(args.quiet)  # its clock starts before the games are read
    game_dirs = [resolve_game(name) for name in args.games] or every_game()
    with progress.task("loading", len(game_dirs), "game(s)") as task, long_lived():
        games = []
        for game_dir in game_dirs:  # every game is read before anything is written
            remember_in(None if args.no_cache else cache_dir(game_dir, args.out))
            games.append(load_game(game_dir))
            task.advance()
    return build(games, options_from(args), progress)


def options_from(args) -> BuildOptions:
    """The command line's choices as the build engine's options."""
    return BuildOptions(
        out=args.out,
        languages=args.lang,
        papers=chosen_papers(args.paper),
        duplex=args.duplex,
        layout=args.layout,
        board_paper=args.board_paper,
        margin=args.margin,
        sheets=args.sheets,
        cut_lines=args.cut_lines,
        marks=not args.no_marks,
        changed_since=args.changed_since,
        jobs=args.jobs,
        use_cache=not args.no_cache,
        quiet=args.quiet,
        strict=args.strict,
        volume_sheets=args.volume_sheets,
        pnp=not args.no_pnp,
        ink_saver=args.ink_saver,
    )


def parse_options(argv: list[str]) -> BuildOptions:
    """`pnpgen build`'s options (no game) as BuildOptions: what `pnpgen watch GAME -- OPTIONS` builds with."""
    parser = argparse.ArgumentParser(prog="pnpgen")
    register(parser.add_subparsers())
    args = parser.parse_args(["build", *argv])
    if args.games:
        parser.error(f"watch builds the one game it watches: {' '.join(args.games)}: give only options after --")
    return options_from(args)
