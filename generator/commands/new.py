"""`pnpgen new NAME`: a small game (one deck, one template) that builds and validates as it stands."""

from __future__ import annotations

import re
from pathlib import Path

from generator.errors import InputError, Problem
from generator.fsutil import write_atomic
from generator.i18n.lock import Lock, confirm_all, lock_path, write_lock
from generator.i18n.strings import units
from generator.model import load_game
from generator.model.cards import CARD_KEYS

GAME_YAML = """\
# {name}: made by `pnpgen new`. Change anything; `pnpgen build .` in this folder shows the result.
title: {{ja: {name}, en: {name}}}
players: {{min: 2, max: 4}}
languages: [ja, en]
source_language: ja   # the language translations are made from
"""
COMPONENTS_YAML = """\
# The box contents, in the order the rules list them. Printed cards name their deck.
components:
  - id: cards
    name: {ja: カード, en: Cards}
    count: 6
    deck: cards
  - id: rules
    name: {ja: ルールシート, en: Rule sheet}
    count: 1
"""
DECK_YAML = """\
name: {ja: カード, en: Cards}
size: poker          # poker, bridge, mini, tarot, square, or {width: 63, height: 88} in mm
template: card.html  # in this game's templates/ folder
back: {template: card-back.html}
fields:              # every card field besides {built_in}
  value: {type: int, min: 1, max: 9, required: true, doc: the number in the corner}
  text: {type: text, doc: what the card does}
cards:
  - id: apple
    name: {ja: りんご, en: Apple}
    count: 2
    value: 1
    text: {ja: 手札を1枚引く。, en: Draw 1 card.}
  - id: pear
    name: {ja: 洋なし, en: Pear}
    count: 2
    value: 2
    text: {ja: 好きなプレイヤー1人は手札を1枚捨てる。, en: Any one player discards 1 card.}
  - id: grapes
    name: {ja: ぶどう, en: Grapes}
    count: 2
    value: 3
    remove_at: [2]   # left in the box in a 2-player game
    text: {ja: 2点を得る。, en: Score 2 points.}
"""
CARD_HTML = """\
{# One card face. `card` has the card's fields in the language being built; see the deck file.
   `pnpgen build` reports any text past its box, the safe area or the trim, or over other text
   (`build --strict` fails). data-fit="FIELD" with data-shrink="80" on a fixed-size box lets its font
   shrink to 80% first; data-overflow="allow" lets an element's text run anywhere. #}
<div class="bleed frame"></div>
<div class="safe">
  <div class="value">{{ card.value }}</div>
  <h1 class="title" data-fit="name">{{ card.name | tx(phrases=True) }}</h1>
  <p class="text" data-fit="text">{{ card.text | tx }}</p>
</div>
"""
BACK_HTML = """\
<div class="bleed back"></div>
<div class="safe"><div class="back-title">{{ game.title | tx }}</div></div>
"""
GLOSSARY_YAML = """\
# Terms translated the same way everywhere; `pnpgen i18n status` reports a string that does not.
terms:
  - {ja: プレイヤー, en: player}
  - {ja: 点, en: point}
"""
STYLE_CSS = """\
.frame { box-sizing: border-box; background: #f3efe4; border: 5.5mm solid #2f5d62; }
.value { position: absolute; left: 0; top: 0; font-size: 16pt; font-weight: bold; color: #2f5d62; }
.title { position: absolute; left: 9mm; right: 0; top: 1mm; height: 11mm; margin: 0; font-size: 11pt; }
.text { position: absolute; left: 0; right: 0; top: 30mm; height: 40mm; margin: 0; font-size: 9pt; }
.back { background: #2f5d62; }
.back-title { position: absolute; left: 0; right: 0; top: 35mm; text-align: center; color: white;
              font-size: 13pt; font-weight: bold; }
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "new",
        help="make a small game to start from",
        description="Create a game directory NAME (a path) with one deck and one template that builds as it "
        "stands: then `pnpgen build NAME`.",
    )
    parser.add_argument("name", metavar="NAME", help="the new game's directory, e.g. my-game or ~/games/my-game")
    parser.set_defaults(run=run)


def run(args) -> int:
    target = Path(args.name).expanduser()
    name = target.name
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", name):
        raise InputError(
            Problem(target, None, "a game name uses letters, digits, '-' and '_' only", hint="for example my-game")
        )
    if target.exists() and any(target.iterdir()):
        raise InputError(
            Problem(target, None, "already exists and is not empty", hint="choose another name; nothing was written")
        )
    files = {
        "game.yaml": GAME_YAML.format(name=name),  # no path: the folder is moved, shared, committed
        "components.yaml": COMPONENTS_YAML,
        "decks/cards.yaml": DECK_YAML.replace("{built_in}", ", ".join(CARD_KEYS)),
        "templates/card.html": CARD_HTML,
        "templates/card-back.html": BACK_HTML,
        "templates/style.css": STYLE_CSS,
        "glossary.yaml": GLOSSARY_YAML,
    }
    for relative, text in files.items():
        write_atomic(target / relative, text)
    confirm_translations(target)
    print(f"created {target}/ with {len(files) + 1} files")
    print(f"next: pnpgen build {args.name}   (then open output/{name}/cards-en-a4.pdf)")
    return 0


def confirm_translations(game_dir: Path) -> None:
    """A new game starts with its translations confirmed: the lock records the source of each."""
    game = load_game(game_dir)
    all_units = units(game)
    lock = Lock(lock_path(game))
    confirm_all(game, lock, all_units)
    write_lock(lock)
