"""The large benchmark game: thousands of distinct cards in Japanese and English, generated (never stored).

    python bench/large_game.py DIR [--cards 20000] [--edit TEXT]

writes DIR/large-game/ (a 20,000-card deck file of about 5 MB) and prints its path. With --edit, only the
first card's English text changes: the one-card edit of the benchmark.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

EN_WORDS = (
    "market trade cube token player draw discard score coin build road city north south gain lose "
    "swap move harbour ship grain stone wool brick card hand turn round"
).split()
JA_PHRASES = (
    "市場で",
    "資源を",
    "一枚引く",
    "手札から",
    "捨てる",
    "得点を得る",
    "金貨を",
    "払う",
    "港に",
    "船を",
    "進める",
    "北の街へ",
    "南の街へ",
    "交換する",
    "建てる",
    "道を",
    "このターン",
    "次の手番",
    "全員が",
)
CARDS = 20_000


def card_lines(index: int, rng: random.Random, edit: str | None) -> list[str]:
    english = " ".join(rng.choice(EN_WORDS) for _ in range(14)).capitalize() + "."
    japanese = "".join(rng.choice(JA_PHRASES) for _ in range(8)) + "。"
    if edit and index == 0:
        english = edit
    return [
        f"  - id: card-{index + 1:05d}",
        f'    name: {{ja: "カード{index + 1}", en: "Card {index + 1}"}}',
        f"    cost: {rng.randint(0, 9)}",
        f'    body: {{ja: "{japanese}", en: "{english}"}}',
    ]


def write_large_game(folder: Path, cards: int = CARDS, edit: str | None = None) -> Path:
    """A pnpgen game directory with one deck of `cards` distinct cards, ja and en (edit: new English text
    for the first card). The same seed gives the same game."""
    game = folder / "large-game"
    (game / "decks").mkdir(parents=True, exist_ok=True)
    (game / "templates").mkdir(exist_ok=True)
    (game / "game.yaml").write_text(
        "title: {ja: 大きなゲーム, en: Large game}\nplayers: {min: 1, max: 4}\n"
        "languages: [ja, en]\nsource_language: ja\n"
    )
    (game / "components.yaml").write_text(
        f"components:\n  - id: cards\n    name: {{ja: カード, en: Cards}}\n    count: {cards}\n    deck: cards\n"
    )
    rng = random.Random(20)
    lines = [
        "name: {ja: カード, en: Cards}",
        "size: poker",
        "template: card.html",
        "back: {template: back.html}",
        "fields:",
        "  cost: {type: int, min: 0, max: 9}",
        "  body: {type: text}",
        "cards:",
    ]
    for index in range(cards):
        lines += card_lines(index, rng, edit)
    (game / "decks" / "cards.yaml").write_text("\n".join(lines) + "\n")
    (game / "templates" / "card.html").write_text(
        '<div class="bleed" style="background:#f4f8ff"></div>'
        '<div class="safe" style="border:0.7mm solid #1a3a6b"></div>'
        '<div class="safe"><h1 style="position:absolute;left:0;right:0;top:3mm;margin:0;text-align:center;'
        'font-size:12pt">{{ card.name | tx }}</h1>'
        '<div style="position:absolute;right:3mm;top:3mm;font-size:14pt">{{ card.cost }}</div>'
        '<p style="position:absolute;left:3mm;right:3mm;top:16mm;margin:0;font-size:8pt">'
        "{{ card.body | tx }}</p></div>\n"
    )
    (game / "templates" / "back.html").write_text(
        '<div class="bleed" style="background:#1a3a6b"></div>'
        '<div class="safe" style="color:white;text-align:center;padding-top:30mm;font-size:16pt">'
        "{{ game.title | tx }}</div>\n"
    )
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--cards", type=int, default=CARDS)
    parser.add_argument("--edit", help="new English text for the first card")
    args = parser.parse_args()
    print(write_large_game(args.folder, args.cards, args.edit))


if __name__ == "__main__":
    main()
