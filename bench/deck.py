"""The benchmark deck: 100 distinct cards x 3 copies, each with a frame, a title and ~25 words of text.

The same words go to every tool (pnpgen, protograf, the ReportLab floor), from a fixed random seed.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

WORDS = (
    "market trade cube token player draw discard score coin build road city north south gain lose "
    "swap move harbour ship grain stone wool brick card hand turn round"
).split()
DISTINCT = 100
COPIES = 3


def cards(seed: int = 1) -> list[dict]:
    rng = random.Random(seed)
    return [
        {
            "id": f"card-{i + 1:03d}",
            "title": f"Card {i + 1}",
            "body": " ".join(rng.choice(WORDS) for _ in range(25)).capitalize() + ".",
        }
        for i in range(DISTINCT)
    ]


def write_pnpgen_game(folder: Path, edit: str | None = None) -> Path:
    """A pnpgen game directory holding the benchmark deck (edit: new body for the first card)."""
    game = folder / "bench-deck"
    (game / "decks").mkdir(parents=True, exist_ok=True)
    (game / "templates").mkdir(exist_ok=True)
    (game / "game.yaml").write_text(
        "title: {en: Benchmark deck}\nplayers: {min: 1, max: 4}\nlanguages: [en]\nsource_language: en\n"
    )
    (game / "components.yaml").write_text(
        f"components:\n  - id: cards\n    name: {{en: Cards}}\n    count: {DISTINCT * COPIES}\n    deck: cards\n"
    )
    lines = ["name: {en: Cards}", "size: poker", "template: card.html", "fields:", "  body: {type: text}", "cards:"]
    for index, card in enumerate(cards()):
        body = edit if edit and index == 0 else card["body"]
        lines += [
            f"  - id: {card['id']}",
            f"    count: {COPIES}",
            f'    name: {{en: "{card["title"]}"}}',
            f'    body: {{en: "{body}"}}',
        ]
    (game / "decks" / "cards.yaml").write_text("\n".join(lines) + "\n")
    (game / "templates" / "card.html").write_text(
        '<div class="bleed" style="background:#fffff0"></div>'
        '<div class="safe" style="border:0.7mm solid #1b5e20"></div>'
        '<div class="safe"><h1 style="position:absolute;left:0;right:0;top:3mm;margin:0;text-align:center;'
        'font-size:12pt">{{ card.name | tx }}</h1>'
        '<p style="position:absolute;left:3mm;right:3mm;top:14mm;margin:0;font-size:8pt">'
        "{{ card.body | tx }}</p></div>\n"
    )
    return game


def write_csv(path: Path) -> Path:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["title", "body", "copies"])
        for card in cards():
            writer.writerow([card["title"], card["body"], COPIES])
    return path
