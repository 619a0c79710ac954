"""`pnpgen watch`: rebuild a game's PDFs whenever one of its files changes."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from generator import interrupts
from generator.build import BuildOptions, build
from generator.commands.build import parse_options
from generator.commands.options import add_game
from generator.errors import InputError
from generator.model import load_game
from generator.paths import resolve_game
from generator.watcher import POLL_SECONDS, FileWatcher, game_roots


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "watch",
        help="rebuild a game's PDFs whenever its files change",
        description="Build the game, then watch its YAML, templates and images and build again after each "
        "change, as `pnpgen build` does. A failed build prints the error and keeps watching. Ctrl+C or "
        "SIGTERM stops it: between builds with exit status 0, during a build with 130 (the build's "
        "files are then left as they were).",
    )
    add_game(parser)
    parser.add_argument(
        "build_options",
        nargs="*",
        metavar="-- BUILD_OPTION",
        help="options for `pnpgen build` after `--`, e.g. `-- --lang en --paper a4`",
    )
    parser.set_defaults(run=run)


def run(args) -> int:
    game_dir = resolve_game(args.game)
    builds = Rebuilds(game_dir, parse_options(args.build_options))
    watcher = FileWatcher(game_roots(game_dir))
    with interrupts.terminate_as_interrupt():  # `kill PID` stops it as Ctrl+C does
        try:
            builds.run("first build")
            print(f"watching {game_dir.name} for changes (Ctrl+C stops)", flush=True)
            while True:
                names = sorted({path.name for path in wait_for_changes(watcher)})
                builds.run(f"changed: {', '.join(names)}")
        except KeyboardInterrupt:
            if builds.building:
                raise  # a build cut short: "interrupted", exit 130, its files left as they were
            interrupts.clear()  # between builds: the usual way to stop
            print("stopped watching", flush=True)
            return 0


def wait_for_changes(watcher: FileWatcher) -> list[Path]:
    while True:
        time.sleep(POLL_SECONDS)
        changed = watcher.changed()
        if changed:
            time.sleep(POLL_SECONDS)  # an editor saving several files: take them in one build
            return changed + watcher.changed()


class Rebuilds:
    """Builds as `pnpgen build` does; `building` is true from the "building" line to the one that ends it."""

    def __init__(self, game_dir: Path, options: BuildOptions):
        self.game_dir, self.options = game_dir, options
        self.building = False

    def run(self, reason: str) -> bool:
        """One build; on bad input print the located errors and return False."""
        self.building = True
        print(f"{time.strftime('%H:%M:%S')} {reason}: building", flush=True)
        try:
            code = build(load_game(self.game_dir), self.options)
        except InputError as error:
            self.building = False
            for problem in error.problems:
                print(f"error: {problem}", file=sys.stderr, flush=True)
            print(f"{time.strftime('%H:%M:%S')} build failed; still watching", flush=True)
            return False
        self.building = False
        print(f"{time.strftime('%H:%M:%S')} rebuilt" + (" (with --strict problems)" if code else ""), flush=True)
        return code == 0
