"""The options several commands share, declared once: which game(s), --out, --jobs, --no-cache, --quiet,
--strict, --paper and --lang. A command passes its own help text where the option means something narrower there."""

from __future__ import annotations

import argparse
from pathlib import Path

from generator.paths import OUTPUT_DIR
from generator.render.pipeline import default_jobs
from generator.render.paper import PAPERS

GAME_HELP = "a game name under cards/ or a path to a game directory"
ALL_LANGUAGES_HELP = "ja, en, ... or all (default: all the game's languages)"


def add_game(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME|PATH", help=GAME_HELP)


def add_games(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("games", nargs="*", metavar="GAME|PATH", help=f"{GAME_HELP} (default: every game)")


def add_lang(parser: argparse.ArgumentParser, help: str = ALL_LANGUAGES_HELP, default: str | None = "all") -> None:
    parser.add_argument("--lang", default=default, help=help)


def add_paper(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--paper", default="all", choices=[*PAPERS, "all"], help="paper size (default: all)")


def chosen_papers(paper: str) -> tuple[str, ...]:
    """--paper as the papers to build on."""
    return tuple(PAPERS) if paper == "all" else (paper,)


def add_out(
    parser: argparse.ArgumentParser, help: str = "output directory (default: ./output of the current folder)"
) -> None:
    parser.add_argument("--out", type=Path, default=OUTPUT_DIR, help=help)


def add_jobs(parser: argparse.ArgumentParser, help: str = "processes for rendering") -> None:
    parser.add_argument("--jobs", "-j", type=int, default=default_jobs(), help=f"{help} (default: one per core)")


def add_no_cache(parser: argparse.ArgumentParser, help: str = "render every face again") -> None:
    parser.add_argument("--no-cache", action="store_true", help=help)


STRICT_HELP = (
    "exit 1 when the build finds any problem: what `pnpgen validate` reports, text overflowing past its box, the "
    "safe area, the trim or the cut, or onto other text (every text of every card, token, aid, board and rule "
    "sheet), and text printed in the source language for want of a translation"
)


def add_strict(parser: argparse.ArgumentParser, help: str = STRICT_HELP) -> None:
    parser.add_argument("--strict", action="store_true", help=help)


def add_quiet(parser: argparse.ArgumentParser, help: str = "print nothing but errors") -> None:
    parser.add_argument("--quiet", "-q", action="store_true", help=help)
