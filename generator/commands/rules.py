"""`pnpgen rules`: rule sheets in each language and side by side, from cards/<game>/rules.yaml.

`pnpgen build` builds them too (generator/build/rules.py); this command builds only the rule sheets (no card
templates needed), and `--sample` writes a page showing each piece of Japanese typesetting.
"""

from __future__ import annotations

import json
from pathlib import Path

from generator.build import select_languages
from generator.build.rules import write_rulebooks
from generator.commands.options import (
    add_games,
    add_jobs,
    add_lang,
    add_no_cache,
    add_out,
    add_paper,
    add_quiet,
    chosen_papers,
)
from generator.errors import InputError, Problem, display_path
from generator.fsutil import OutputSet, write_atomic
from generator.model import Game, load_game
from generator.model.rules import has_rules
from generator.paths import every_game, face_cache_dir, resolve_game
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
    papers = list(chosen_papers(args.paper))
    with OutputSet(args.out):  # replaced together, build.json last, or not at all
        for game in games:
            langs = select_languages(game, args.lang)
            faces = None if args.no_cache else face_cache_dir(game.dir, args.out)
            files = write_rulebooks(
                game,
                langs,
                papers,
                args.out / game.id,
                progress,
                faces,
                args.jobs,
                untranslated=lambda found, game=game: warn_untranslated(game, found, progress),
            )
            if files:
                merge_report(args.out / game.id / "build.json", game, files)
    return 0


def warn_untranslated(game: Game, found: dict, progress: Progress) -> None:
    """Name the rule texts printed in the source language for want of a translation."""
    for lang, texts in found.items():
        for string_id, text in texts.items():
            progress.warn(
                f"{display_path(text.file)}:{text.line}: {string_id} has no {lang} text; "
                f"the {lang} rules print the {game.source_language} text"
            )


def merge_report(path: Path, game: Game, files: list[dict]) -> None:
    """Replace the rules entries of an existing build.json (the card entries stay)."""
    report = {"game": game.id, "files": []}
    if path.is_file():
        try:
            report = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            pass
    kept = [f for f in report.get("files", []) if f.get("kind") != "rules"]
    report["files"] = kept + files
    write_atomic(path, json.dumps(report, ensure_ascii=False, indent=2) + "\n")
