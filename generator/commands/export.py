"""`pnpgen export`: a game's cards as print services and virtual tabletops want them.

The targets are generator/export/registry.TARGETS; each adds its own options, in a group of its own, and
checks what it cannot export before anything is rendered.
"""

from __future__ import annotations

from typing import Any

from generator.build import render_game, render_pieces, select_languages
from generator.commands.options import add_game, add_jobs, add_lang, add_no_cache, add_out, add_quiet
from generator.errors import InputError, Problem
from generator.export.deck_images import DeckExport
from generator.export.registry import TARGETS
from generator.export.target import OptionAdder
from generator.fsutil import OutputSet
from generator.model import load_game
from generator.paths import face_cache_dir, resolve_game
from generator.progress import Progress
from generator.render.pipeline import FaceCache


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "export",
        help="export cards for print services and Tabletop Simulator",
        description="Export a game's cards into OUT/<game>/<target>-<lang>/. Each target, what it makes and its "
        "own options are listed below.",
    )
    add_game(parser)
    parser.add_argument("--to", required=True, choices=list(TARGETS), dest="target", help="what to export for")
    add_lang(parser)
    add_out(parser)
    add_jobs(parser)
    add_no_cache(parser)
    add_quiet(parser, "print nothing but errors and warnings")
    own = {}
    for name, target in TARGETS.items():
        group = TargetOptions(parser.add_argument_group(f"--to {name}", target.summary))
        target.add_options(group)
        own[name] = group.added
    parser.set_defaults(run=run, target_options=own)


class TargetOptions:
    """A target's group of options on the parser, noting each option the target adds."""

    def __init__(self, group: OptionAdder):
        self.group = group
        self.added: list[tuple[str, str, Any]] = []  # (option, dest, default)

    def add_argument(self, *flags: str, **how: Any) -> Any:
        action = self.group.add_argument(*flags, **how)
        self.added.append((action.option_strings[0], action.dest, action.default))
        return action


def run(args) -> int:
    target = TARGETS[args.target]
    refuse_other_targets_options(args)
    options = target.read_options(vars(args))
    progress = Progress(args.quiet)
    game = load_game(resolve_game(args.game))
    langs = select_languages(game, args.lang)
    target.check(game, options)  # what would fail after the rendering is refused before it
    cache = FaceCache(None if args.no_cache else face_cache_dir(game.dir, args.out))
    rendered = render_game(game, langs, cache, args.jobs, progress)
    with OutputSet(args.out):  # every exported file replaced together, or none
        for lang in langs:
            decks = [DeckExport.of(deck) for deck in rendered[lang] if deck.faces.deck.cards]
            opened, pieces = (  # the token sheets, boards and aids too
                render_pieces(game, lang, cache, args.jobs, target.piece_bleed_mm)
                if target.piece_bleed_mm is not None
                else ([], [])
            )
            decks += [DeckExport.of_faces(faces, pages) for faces, pages in pieces]
            out_dir = args.out / game.id / f"{target.name}-{lang}"
            title = game.title.get(lang, game.source_language)
            try:
                files = target.export(decks, options, out_dir, progress, title)
            finally:
                for deck in decks:
                    deck.close()
                for pdf in opened:
                    pdf.close()
            progress.say(f"{game.id}: {len(files)} files in {out_dir}")
    return 0


def refuse_other_targets_options(args) -> None:
    """An option of another target than --to's would be ignored: say so rather than export without it."""
    for name, added in args.target_options.items():
        for option, dest, default in added:
            if name != args.target and getattr(args, dest) != default:
                raise InputError(
                    Problem(
                        None,
                        None,
                        f"{option} is an option of --to {name}, not of --to {args.target}",
                        hint=f"leave it out, or export with --to {name}",
                    )
                )
