"""`pnpgen watch`: rebuild a game's PDFs whenever one of its files changes."""
from __future__ import annotations

import sys
import time

from generator.build import BuildOptions, build
from generator.commands.build import parse_options
from generator.errors import InputError
from generator.model import load_game
from generator.paths import resolve_game
from generator.watcher import POLL_SECONDS, FileWatcher, game_roots


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "watch", help="rebuild a game's PDFs whenever its files change",
        description="Build the game, then watch its YAML, templates and images and build again after each "
                    "change, as `pnpgen build` does. A failed build prints the error and keeps watching.")
    parser.add_argument("game", metavar="GAME|PATH", help="a game name under cards/ or a path to a game directory")
    parser.add_argument("build_options", nargs="*", metavar="-- BUILD_OPTION",
                        help="options for `pnpgen build` after `--`, e.g. `-- --lang en --paper a4`")
    parser.set_defaults(run=run)


def run(args) -> int:
    game_dir = resolve_game(args.game)
    options = parse_options(args.build_options)
    watcher = FileWatcher(game_roots(game_dir))
    rebuild(game_dir, options, "first build")
    print(f"watching {game_dir.name} for changes (Ctrl+C stops)", flush=True)
    while True:
        time.sleep(POLL_SECONDS)
        changed = watcher.changed()
        if changed:
            time.sleep(POLL_SECONDS)  # an editor saving several files: take them in one build
            changed += watcher.changed()
            names = sorted({path.name for path in changed})
            rebuild(game_dir, options, f"changed: {', '.join(names)}")


def rebuild(game_dir, options: BuildOptions, reason: str) -> bool:
    """Build as `pnpgen build` does; on bad input print the located errors and return False."""
    print(f"{time.strftime('%H:%M:%S')} {reason}: building", flush=True)
    try:
        code = build(load_game(game_dir), options)
    except InputError as error:
        for problem in error.problems:
            print(f"error: {problem}", file=sys.stderr, flush=True)
        print(f"{time.strftime('%H:%M:%S')} build failed; still watching", flush=True)
        return False
    print(f"{time.strftime('%H:%M:%S')} rebuilt" + (" (with --strict problems)" if code else ""), flush=True)
    return code == 0
