"""What Jinja's sandbox costs: the three kits' face HTML rendered with the sandbox and with a plain Environment.

`python bench/sandbox_cost.py` runs both in this one process, alternating, best of 5 each.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import jinja2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.build.decks import prepare_game  # noqa: E402
from generator.model import load_game  # noqa: E402
from generator.paths import CARDS_DIR  # noqa: E402
from generator.render import templating  # noqa: E402

SANDBOX = templating.TemplateSandbox


def best_of(games, environment, runs: int = 5) -> tuple[float, int]:
    templating.TemplateSandbox = environment
    templating.COMPILED.compiled.clear()
    for game in games:
        prepare_game(game, game.languages)  # compiled once, as in a build
    best, faces = float("inf"), 0
    for _ in range(runs):
        started = time.perf_counter()
        faces = sum(
            len(deck.faces.pages)
            for game in games
            for decks in prepare_game(game, game.languages).values()
            for deck in decks
        )
        best = min(best, time.perf_counter() - started)
    return best, faces


def main() -> None:
    games = [load_game(CARDS_DIR / name) for name in ("greed-inc", "ikkin", "mint-rails")]
    results = {"plain": [], "sandbox": []}
    for _ in range(3):
        results["plain"].append(best_of(games, jinja2.Environment)[0])
        seconds, faces = best_of(games, SANDBOX)
        results["sandbox"].append(seconds)
    plain, sandbox = (sorted(results[k])[1] for k in ("plain", "sandbox"))
    print(
        f"{faces} distinct faces' HTML: plain Jinja {plain * 1000:.0f} ms, sandbox {sandbox * 1000:.0f} ms "
        f"(+{(sandbox / plain - 1) * 100:.0f} %, {(sandbox - plain) / faces * 1000:.3f} ms a face)"
    )


if __name__ == "__main__":
    main()
