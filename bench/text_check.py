"""What the check of every text costs, measured in one run on every card deck of the three kits (both
languages): the time of the check itself against the layout and PDF writing of the same documents (robust
to a busy machine), and the decks rendered and written with the check on and off, alternately (medians of 4).

    .venv/bin/python bench/text_check.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.build.decks import prepare_game  # noqa: E402
from generator.model import load_game  # noqa: E402
from generator.paths import CARDS_DIR  # noqa: E402
from generator.render import weasy  # noqa: E402
from generator.render.weasy.fit import render_measured  # noqa: E402


def documents():
    for name in ("greed-inc", "ikkin", "mint-rails"):
        game = load_game(CARDS_DIR / name)
        for decks in prepare_game(game, list(game.languages)).values():
            for deck in decks:
                frame, base_url, pages = deck.request.frame, deck.request.base_url, deck.request.pages
                yield frame.replace("</body>", "\n".join(pages) + "\n</body>"), base_url


def run(weasyprint, batches, check: bool) -> float:
    os.environ["PNPGEN_TEXT_CHECK"] = "1" if check else "0"
    start = time.perf_counter()
    for html, base_url in batches:
        document, _ = render_measured(weasyprint.HTML(string=html, base_url=base_url))
        document.write_pdf()
    return time.perf_counter() - start


def check_share(weasyprint, batches) -> tuple[float, float]:
    """Seconds of layout and writing, and of the check alone, over the batches."""
    from generator.render.weasy import fit

    work = check = 0.0
    for html, base_url in batches:
        start = time.perf_counter()
        document = weasyprint.HTML(string=html, base_url=base_url).render()
        laid_out = time.perf_counter()
        document, _ = fit._one_page_per_face(document)
        fit.text_findings(document)
        checked = time.perf_counter()
        document.write_pdf()
        work += (laid_out - start) + (time.perf_counter() - checked)
        check += checked - laid_out
    return work, check


def main() -> None:
    weasyprint = weasy.load()
    batches = list(documents())
    run(weasyprint, batches[:2], True)  # warm the fonts
    work, check = check_share(weasyprint, batches)
    print(f"layout and writing {work:.2f} s, the check {check:.3f} s: +{check / work:.1%}")
    on, off = [], []
    for round_ in range(4):  # the order changes every round: neither side always runs warmer
        for check in (False, True) if round_ % 2 == 0 else (True, False):
            (on if check else off).append(run(weasyprint, batches, check))
    a, b = statistics.median(off), statistics.median(on)
    print(f"{len(batches)} documents (every card deck of the three kits, both languages)")
    print(f"check off {a:.2f} s, on {b:.2f} s: +{(b - a) / a:.1%}")


if __name__ == "__main__":
    main()
