"""What the check of every text costs: the three kits' card, token and aid faces rendered and written in
one process with the check on and off, alternately, in the same run (medians of 3).

    .venv/bin/python bench/text_check.py
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.commands.build import prepare_game  # noqa: E402
from generator.model import load_game  # noqa: E402
from generator.paths import CARDS_DIR  # noqa: E402
from generator.render import engine  # noqa: E402
from generator.render.fit import render_measured  # noqa: E402


def documents():
    for name in ("greed-inc", "ikkin", "mint-rails"):
        game = load_game(CARDS_DIR / name)
        for lang, decks in prepare_game(game, list(game.languages)).items():
            for deck in decks:
                frame, base_url, _, pages = deck.request
                yield frame.replace("</body>", "\n".join(pages) + "\n</body>"), base_url


def run(weasyprint, batches, check: bool) -> float:
    os.environ["PNPGEN_TEXT_CHECK"] = "1" if check else "0"
    start = time.perf_counter()
    for html, base_url in batches:
        document, _ = render_measured(weasyprint.HTML(string=html, base_url=base_url))
        document.write_pdf()
    return time.perf_counter() - start


def main() -> None:
    weasyprint = engine.load()
    batches = list(documents())
    run(weasyprint, batches[:2], True)  # warm the fonts
    on, off = [], []
    for _ in range(3):
        off.append(run(weasyprint, batches, False))
        on.append(run(weasyprint, batches, True))
    a, b = statistics.median(off), statistics.median(on)
    print(f"{len(batches)} documents (every card deck of the three kits, both languages)")
    print(f"check off {a:.2f} s, on {b:.2f} s: +{(b - a) / a:.1%}")


if __name__ == "__main__":
    main()
