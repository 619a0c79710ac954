"""What a rebuild does before rendering, phase by phase, in CPU and wall seconds: reading the game, the data
checks, every card's face keys (face memo), the card sheet volumes planned with their inputs and the text
boxes of every face.

    python bench/large_game.py /tmp/lg --cards 20000
    python bench/warm_phases.py /tmp/lg/large-game /tmp/lg/out      # first run fills the caches
    python bench/warm_phases.py /tmp/lg/large-game /tmp/lg/out      # nothing changed
    python bench/large_game.py /tmp/lg --cards 20000 --edit "New text."
    python bench/warm_phases.py /tmp/lg/large-game /tmp/lg/out      # one card edited

It uses the caches a `pnpgen build GAME --out OUT` uses (OUT/.cache), renders nothing and writes no sheet.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

CPU, WALL = time.process_time, time.monotonic


def main() -> None:
    started = CPU(), WALL()
    from generator.yamlio.remembered import remember_in
    from types import SimpleNamespace

    from generator.build.cards import SheetOptions, card_file_stem, plan_volumes
    from generator.build.context import cache_index_name
    from generator.build.decks import prepare_game
    from generator.checks.validate import data_problems
    from generator.heap import long_lived
    from generator.model import load_game
    from generator.paths import cache_dir, face_cache_dir
    from generator.render.faces import card_fits
    from generator.render.memo import FaceMemo
    from generator.render.pipeline import FaceCache

    game_dir, out = Path(sys.argv[1]), Path(sys.argv[2])
    lap = [*started]

    def done(name: str) -> None:
        print(f"{name:16s} cpu {CPU() - lap[0]:5.2f}  wall {WALL() - lap[1]:5.2f}", flush=True)
        lap[:] = CPU(), WALL()

    done("imports")
    remember_in(cache_dir(game_dir, out))
    with long_lived():
        game = load_game(game_dir)
    done("reading the game")
    data_problems(game, list(game.languages))
    done("data checks")
    cache = FaceCache(face_cache_dir(game.dir, out), index=cache_index_name(game))
    prepared = prepare_game(game, list(game.languages), FaceMemo(cache.directory))
    done("card face keys")
    planning = SimpleNamespace(game=game, options=SimpleNamespace(volume_sheets=50))  # what plan_volumes reads
    for lang in game.languages:
        for paper in ("a4", "letter"):
            option = SheetOptions(paper, "long", "duplex", True, False, 5.0, "shared")
            plan_volumes(planning, prepared[lang], option, lang, card_file_stem("cards", lang, option))
    done("sheet inputs")
    for decks in prepared.values():
        for deck in decks:
            deck.fits = card_fits(deck.faces, [cache.face_fits(key) for key in deck.keys])
    done("face text boxes")
    print(f"{'total':16s} cpu {CPU() - started[0]:5.2f}  wall {WALL() - started[1]:5.2f}")


if __name__ == "__main__":
    main()
