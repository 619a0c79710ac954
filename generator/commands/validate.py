"""`pnpgen validate`: deck counts, removals and deals at every player count, and every inconsistency."""

from __future__ import annotations

import json

from generator.yamlio.remembered import remember_in
from generator.checks.validate import Report, problem_json, validate
from generator.commands.options import add_game
from generator.errors import InputError, Problem
from generator.heap import long_lived
from generator.i18n.glossary import read_glossary
from generator.i18n.lock import read_lock
from generator.i18n.strings import units
from generator.i18n.terms import term_problems
from generator.model import load_game
from generator.paths import cache_dir, face_cache_dir, resolve_game
from generator.progress import Progress
from generator.render.components import display_width, pad
from generator.render.memo import FaceMemo


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="check a game's data for consistency",
        description="Check box contents against the decks, removals and setup at every player count, ids, "
        "references, translations, and that every string names one thing one way (the terms check of `pnpgen "
        "i18n status`). Exit 0: consistent; 1: problems found; 2: unreadable input.",
    )
    add_game(parser)
    parser.add_argument("--players", type=int, help="check only this player count")
    parser.add_argument("--json", action="store_true", help="print the tables and problems as JSON")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr while checking")
    parser.set_defaults(run=run)


def run(args) -> int:
    if args.json:  # JSON whatever happens: a tool reading it gets the error too
        try:
            return check(args)
        except InputError as error:
            try:
                game_dir = resolve_game(args.game)
            except InputError:
                game_dir = None
            print(
                json.dumps(
                    {
                        "game": str(args.game),
                        "error": True,
                        "problems": [problem_json(p, game_dir) for p in error.problems],
                    },
                    ensure_ascii=False,
                    indent=2,
                )
            )
            return 2
    return check(args)


def check(args) -> int:
    game_dir = resolve_game(args.game)
    progress = Progress(getattr(args, "quiet", False))
    remember_in(cache_dir(game_dir))  # a large deck file edited: only its changed cards are parsed again
    with progress.task("loading", 1, "game(s)") as task, long_lived():
        game = load_game(game_dir, require_templates=False)
        task.advance()
    if args.players is not None and not game.players[0] <= args.players <= game.players[1]:
        raise InputError(
            Problem(
                game.files["game"],
                None,
                f"{args.players} players is outside the game's range {game.players[0]}-{game.players[1]}",
                "players",
            )
        )
    with long_lived():
        report = validate(game, args.players, memo=FaceMemo(face_cache_dir(game_dir)), progress=progress)
    report.problems += term_problems(game, units(game), read_glossary(game), read_lock(game))
    if args.json:
        print(json.dumps(report.as_json(), ensure_ascii=False, indent=2))
    else:
        print(render_text(report))
    return 1 if report.problems else 0


def render_text(report: Report) -> str:
    game = report.game
    out = [f"{game.id}: {game.title.get('en', game.source_language)}"]
    reserve = any(r.reserved for row in report.counts.values() for r in row.decks.values())
    for players, row in report.counts.items():
        out.append(f"\n{players} players")
        titles = ["deck", "in box", "removed", "in play", "dealt"] + (["reserve"] if reserve else []) + ["left"]
        cells = [
            [deck, str(r.in_box), str(r.removed), str(r.in_play), str(r.dealt) if r.dealt else "-"]
            + ([str(r.reserved) if r.reserved else "-"] if reserve else [])
            + [str(r.left)]
            for deck, r in row.decks.items()
        ]
        widths = [max(display_width(x) for x in column) for column in zip(titles, *cells)]
        out.append("  " + "  ".join(pad(t, w) for t, w in zip(titles, widths)).rstrip())
        out += ["  " + "  ".join(pad(c, w) for c, w in zip(line, widths)).rstrip() for line in cells]
        out += [
            f"  ({deck}: removed counts the {r.returned} undealt card(s) setup returns to the box)"
            for deck, r in row.decks.items()
            if r.returned
        ]
    if report.notes:
        out.append("\nhow boards print:")
        out += [f"  {note}" for note in report.notes]
    if report.problems:
        out.append(f"\n{len(report.problems)} problem(s):")
        out += [f"  {problem}" for problem in report.problems]
    else:
        out.append("\nno problems")
    return "\n".join(out)
