"""`pnpgen rules`: rule sheets in each language and side by side, from cards/<game>/rules.yaml.

A build of the rule sheets only (generator/build/rules.py, through build()): no card templates needed, the
same checks and messages as `pnpgen build`, and build.json keeps what the last build said of the other
outputs. `--sample` writes a page showing each piece of Japanese typesetting.
"""

from __future__ import annotations

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
from generator.errors import InputError, Problem
from generator.model import load_game
from generator.model.rules import has_rules
from generator.paths import every_game, resolve_game
from generator.progress import Progress


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "rules",
        help="build rule sheets: each language and side by side",
        description="Build OUT/<game>/rules-<lang>-<paper>.pdf for each language, and rules-ja+en-<paper>.pdf "
        "with the languages side by side, from the game's rules.yaml; build.json lists them.",
    )
    add_games(parser)
    add_lang(
        parser, "ja, en, ... or all: the single-language editions (side by side is built when two or more are chosen)"
    )
    add_paper(parser)
    add_out(parser)
    add_jobs(parser)
    add_no_cache(parser, "render every rule sheet again")
    parser.add_argument(
        "--sample",
        action="store_true",
        help="write OUT/typesetting-sample.pdf: furigana, spacing, phrases, kinsoku, punctuation",
    )
    add_quiet(parser)
    add_strict(parser, "exit 1 when the build finds any problem (as `pnpgen build --strict`)")
    parser.set_defaults(run=run)


def run(args) -> int:
    progress = Progress(args.quiet)
    if args.sample:
        from generator.render.sample import write_sample

        path = args.out / "typesetting-sample.pdf"
        write_sample(path)
        progress.say(f"wrote {path}")
        return 0
    game_dirs = [resolve_game(name) for name in args.games] or every_game()
    games = [load_game(d, require_templates=False) for d in game_dirs]
    missing = [g for g in games if not has_rules(g)]
    if args.games and missing:
        raise InputError(
            [
                Problem(
                    g.dir / "rules.yaml", None, "the game has no rules", hint="write rules.yaml: a list of `blocks:`"
                )
                for g in missing
            ]
        )
    options = BuildOptions(
        out=args.out,
        languages=args.lang,
        papers=chosen_papers(args.paper),
        jobs=args.jobs,
        use_cache=not args.no_cache,
        quiet=args.quiet,
        strict=args.strict,
        outputs=("rules", "bundle"),  # the print-and-play files bind the rule sheets: bound again
    )
    return build([g for g in games if has_rules(g)], options, progress)
