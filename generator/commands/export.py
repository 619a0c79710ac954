"""`pnpgen export`: a game's cards as print services and virtual tabletops want them."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

from generator.build import render_game, select_languages
from generator.commands.options import add_game, add_jobs, add_lang, add_no_cache, add_out, add_quiet
from generator.export import pdfx, png, services, tts
from generator.errors import InputError, Problem
from generator.export.deck_images import DeckExport, ExportOptions
from generator.fsutil import OutputSet
from generator.model import load_game
from generator.paths import face_cache_dir, resolve_game
from generator.progress import Progress
from generator.render.pipeline import FaceCache

# target -> (what it makes, the function writing a language's files and returning their names)
TARGETS = {
    "png": ("one PNG per distinct face and back, with a CSV manifest of copy counts", png.export_game),
    "tgc": ("The Game Crafter's exact image sizes (poker 825x1125 px), RGB", partial(services.export_game, "tgc")),
    "mpc": ("MakePlayingCards' exact image sizes (poker 822x1122 px), RGB", partial(services.export_game, "mpc")),
    "tts": ("Tabletop Simulator deck sheets (at most 10x7, 4096 px) and the saved object JSON", tts.export_game),
    "pdfx": ("one CMYK PDF/X-4 per deck with 3 mm bleed and トンボ, for Japanese print shops", pdfx.export_game),
}


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "export",
        help="export cards for print services and Tabletop Simulator",
        description="Export a game's cards into OUT/<game>/<target>-<lang>/. Targets: "
        + "; ".join(f"{name}: {text}" for name, (text, _) in TARGETS.items())
        + ".",
    )
    add_game(parser)
    parser.add_argument("--to", required=True, choices=list(TARGETS), dest="target", help="what to export for")
    add_lang(parser)
    parser.add_argument("--dpi", type=int, default=300, choices=png.DPI_CHOICES, help="png resolution (default: 300)")
    parser.add_argument("--no-bleed", action="store_true", help="png: trimmed images without the bleed")
    parser.add_argument(
        "--icc",
        type=Path,
        metavar="PATH",
        help="pdfx: the print shop's CMYK output profile (default: SWOP from "
        "Ghostscript, installed by scripts/install-system-deps.sh)",
    )
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="tts: the address (https://...) of the folder the images will be uploaded to; without it tts.json "
        "names them by file:// URLs of this machine, which Tabletop Simulator finds here only",
    )
    add_out(parser)
    add_jobs(parser)
    add_no_cache(parser)
    add_quiet(parser, "print nothing but errors and warnings")
    parser.set_defaults(run=run)


def run(args) -> int:
    progress = Progress(args.quiet)
    game = load_game(resolve_game(args.game))
    langs = select_languages(game, args.lang)
    options = ExportOptions(dpi=args.dpi, bleed=not args.no_bleed, icc=args.icc, base_url=args.base_url)
    check_before_rendering(args.target, game, options)
    cache = FaceCache(None if args.no_cache else face_cache_dir(game.dir, args.out))
    rendered = render_game(game, langs, cache, args.jobs, progress)
    with OutputSet(args.out):  # every exported file replaced together, or none
        for lang in langs:
            decks = [DeckExport.of(deck) for deck in rendered[lang] if deck.faces.deck.cards]
            out_dir = args.out / game.id / f"{args.target}-{lang}"
            title = game.title.get(lang, game.source_language)
            try:
                files = TARGETS[args.target][1](decks, options, out_dir, progress, title)
            finally:
                for deck in decks:
                    deck.close()
            progress.say(f"{game.id}: {len(files)} files in {out_dir}")
    return 0


def check_before_rendering(target: str, game, options: ExportOptions) -> None:
    """Refuse what would fail after the rendering: a card size a service lacks, a wrong profile."""
    if target in services.SERVICES:
        for deck in game.decks.values():
            services.product_for(target, deck)
    if target == "tts" and options.base_url and not re.match(r"^(https?|file)://", options.base_url):
        raise InputError(
            Problem(
                None,
                None,
                f"--base-url '{options.base_url}' is not a URL: Tabletop Simulator reads no relative address",
                hint="give the address of the uploaded folder, like https://example.org/my-game/",
            )
        )
    if target == "pdfx":
        for deck in game.decks.values():
            pdfx.check_bleed(deck)
        options.icc = pdfx.check_profile(options.icc or pdfx.DEFAULT_PROFILE)
