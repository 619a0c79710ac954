"""Peak memory and cost per face of the large game at several sizes, with the 300-card deck, in one run.

    python bench/large_memory.py [--cards 2000 5000 20000] [--edit]

For each size: a cold build (no server, empty cache, ja+en, A4 and Letter) of bench/large_game.py's game,
its wall and CPU seconds (user + system of the whole process tree: what a loaded machine does not inflate),
the peak PSS of the process tree, and the cost per distinct face against the benchmark deck's (bench/deck.py)
measured in the same run. With --edit, then the same build again after the first card's English changed:
its seconds and which card sheet files it wrote.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from deck import DISTINCT, write_pnpgen_game  # noqa: E402
from large_game import write_large_game  # noqa: E402
from run import PYTHON, timed  # noqa: E402

ENV = {"PNPGEN_DAEMON": "0"}


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measured(command: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds of the process tree, peak PSS of the tree (MB)."""
    before = children_cpu()
    wall, peak, _anon = timed(command, ENV)
    return wall, children_cpu() - before, peak


def build(game: Path, out: Path, *options: str) -> list[str]:
    return [PYTHON, "-m", "generator", "build", str(game), "--out", str(out), *options]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="+", default=[2000, 5000, 20000])
    parser.add_argument("--edit", action="store_true", help="also time a one-card edit at each size")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pnpgen-large-") as temp:
        folder = Path(temp)
        small = write_pnpgen_game(folder / "small")
        wall, cpu, peak = measured(build(small, folder / "small-out", "--paper", "a4"))
        small_wall, small_cpu = wall / DISTINCT, cpu / DISTINCT
        print(
            f"300-card deck: {DISTINCT} faces, cold {wall:.1f} s wall, {cpu:.1f} s CPU, peak {peak:.0f} MB; "
            f"a face {small_wall * 1000:.1f} ms wall, {small_cpu * 1000:.1f} ms CPU",
            flush=True,
        )
        for cards in args.cards:
            game = write_large_game(folder / f"large-{cards}", cards)
            out = folder / f"out-{cards}"
            faces = 2 * (cards + 1)  # ja and en fronts, one back each
            wall, cpu, peak = measured(build(game, out))
            print(
                f"{cards} cards: {faces} faces, cold {wall:.1f} s wall, {cpu:.1f} s CPU, peak {peak:.0f} MB; "
                f"a face {wall / faces * 1000:.1f} ms wall ({wall / faces / small_wall:.2f} x the deck's), "
                f"{cpu / faces * 1000:.1f} ms CPU ({cpu / faces / small_cpu:.2f} x)",
                flush=True,
            )
            if args.edit:
                stamps = {p.name: p.stat().st_mtime_ns for p in (out / "large-game").glob("cards-*.pdf")}
                write_large_game(folder / f"large-{cards}", cards, edit="A freshly edited first card.")
                wall, cpu, peak = measured(build(game, out))
                written = sorted(
                    p.name
                    for p in (out / "large-game").glob("cards-*.pdf")
                    if stamps.get(p.name) != p.stat().st_mtime_ns
                )
                print(
                    f"{cards} cards, one-card edit: {wall:.1f} s wall, {cpu:.1f} s CPU, peak {peak:.0f} MB; "
                    f"wrote {len(written)} of {len(stamps)} card sheet files: {', '.join(written)}",
                    flush=True,
                )


if __name__ == "__main__":
    os.chdir(HERE.parent)
    main()
