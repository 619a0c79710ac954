"""`pnpgen new PATH`: a small game (a deck with a picture field, a board, a glossary) that validates and builds as it
stands, in the languages asked for."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

import yaml as pyyaml

from generator.errors import InputError, Problem
from generator.fsutil import write_atomic
from generator.i18n.lock import Lock, confirm_all, lock_path, write_lock
from generator.i18n.strings import units
from generator.model import load_game
from generator.model.loader import is_language_tag
from generator.model.cards import CARD_KEYS

STARTER_LANGUAGES = ("ja", "en")  # the languages the starter's texts are written in
DEFAULT_LANGUAGES = "ja,en"
GAME_YAML = """\
# {name}: made by `pnpgen new`. Change anything; `pnpgen build .` in this folder shows the result.
title: {title}
players: {{min: 2, max: 4}}
languages: [{languages}]
source_language: {source}   # the language translations are made from
"""
COMPONENTS_YAML = """\
# The box contents, in the order the rules list them. Printed cards name their deck.
components:
  - id: cards
    name: <<cards>>
    count: 6
    deck: cards
  - id: board
    name: <<board>>
    count: 1
    board: board
  - id: rules
    name: <<rule_sheet>>
    count: 1
"""
DECK_YAML = """\
name: <<cards>>
size: poker          # poker, bridge, mini, tarot, square, or {width: 63, height: 88} in mm
template: card.html  # in this game's templates/ folder
back: {template: card-back.html}
fields:              # every card field besides {built_in}
  value: {type: int, min: 1, max: 9, required: true, doc: the number in the corner}
  picture: {type: image, doc: "the card's picture: a file in art/ (PNG, JPEG, SVG), or placeholder"}
  text: {type: text, doc: what the card does}
cards:
  - id: apple
    name: <<apple>>
    count: 2
    value: 1
    picture: art/fruit.svg
    text: <<draw>>
  - id: pear
    name: <<pear>>
    count: 2
    value: 2
    picture: placeholder   # a marked box prints until the art exists; the build lists such cards
    text: <<discard>>
  - id: grapes
    name: <<grapes>>
    count: 2
    value: 3
    remove_at: [2]   # left in the box in a 2-player game
    picture: art/fruit.svg
    text: <<score>>
"""
BOARD_YAML = """\
# A board: its elements are placed in mm from its top-left corner. 240 x 170 mm prints whole on A4 and Letter
# (a larger board prints in tiles to tape together); `pnpgen validate` says what fits.
name: <<board>>
size: [240, 170]
background: "#f3efe4"
elements:
  - kind: text
    at: [10, 8]
    width: 220
    size: 16
    label: <<board>>
  - kind: track
    at: [10, 30]
    label: <<score_track>>
    line: "#2f5d62"
    from: 0
    to: 20
    step: 1
    start: 0
    cell: [9, 9]
    label_width: 30
  - kind: slots
    at: [10, 52]
    label: <<piles>>
    slots: [<<draw_pile>>, <<discard_pile>>]
    slot: [66, 91]   # a poker card with room around it
"""
CARD_HTML = """\
{# One card face. `card` has the card's fields in the language being built; see the deck file.
   `pnpgen build` reports any text past its box, the safe area or the trim, or over other text
   (`build --strict` fails). data-fit="FIELD" with data-shrink="80" on a fixed-size box lets its font shrink
   to 80% first; data-overflow="allow" lets its text run anywhere. image(card.picture, 40, 30): a 40 x 30 mm box #}
<div class="bleed frame"></div>
<div class="safe">
  <div class="value">{{ card.value }}</div>
  <h1 class="title" data-fit="name">{{ card.name | tx(phrases=True) }}</h1>
  <div class="picture">{{ image(card.picture, 40, 30) }}</div>
  <p class="text" data-fit="text">{{ card.text | tx }}</p>
</div>
"""
BACK_HTML = """\
<div class="bleed back"></div>
<div class="safe"><div class="back-title">{{ game.title | tx }}</div></div>
"""
PICTURE_SVG = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 30" width="40mm" height="30mm">
  <!-- A stand-in picture: put yours in art/ and name it in a card's `picture:`. -->
  <rect x="0.5" y="0.5" width="39" height="29" rx="2" fill="#e4ddcb" stroke="#2f5d62" stroke-width="0.6"/>
  <path d="M4 25 L15 12 L22 20 L27 15 L36 25 Z" fill="#2f5d62" opacity="0.6"/>
  <circle cx="30" cy="8" r="3.5" fill="#2f5d62" opacity="0.6"/>
</svg>
"""
GLOSSARY_YAML = """\
# Terms translated the same way everywhere; `pnpgen i18n status` reports a string that does not.
terms:
{terms}"""
STYLE_CSS = """\
.frame { box-sizing: border-box; background: #f3efe4; border: 5.5mm solid #2f5d62; }
.value { position: absolute; left: 0; top: 0; font-size: 16pt; font-weight: bold; color: #2f5d62; }
.title { position: absolute; left: 9mm; right: 0; top: 1mm; height: 11mm; margin: 0; font-size: 11pt; }
.picture { position: absolute; left: 6.5mm; top: 14mm; }
.text { position: absolute; left: 0; right: 0; top: 47mm; height: 28mm; margin: 0; font-size: 9pt; }
.back { background: #2f5d62; }
.back-title { position: absolute; left: 0; right: 0; top: 35mm; text-align: center; color: white;
              font-size: 13pt; font-weight: bold; }
"""
TEXTS = {  # every text of the starter, in the languages it is written in
    "cards": {"ja": "カード", "en": "Cards"},
    "board": {"ja": "ボード", "en": "Board"},
    "rule_sheet": {"ja": "ルールシート", "en": "Rule sheet"},
    "score_track": {"ja": "得点", "en": "Score"},
    "piles": {"ja": "山札と捨て札", "en": "Piles"},
    "draw_pile": {"ja": "山札", "en": "Draw pile"},
    "discard_pile": {"ja": "捨て札", "en": "Discard pile"},
    "apple": {"ja": "りんご", "en": "Apple"},
    "pear": {"ja": "洋なし", "en": "Pear"},
    "grapes": {"ja": "ぶどう", "en": "Grapes"},
    "draw": {"ja": "手札を1枚引く。", "en": "Draw 1 card."},
    "discard": {"ja": "好きなプレイヤー1人は手札を1枚捨てる。", "en": "Any one player discards 1 card."},
    "score": {"ja": "2点を得る。", "en": "Score 2 points."},
}
TERMS = [{"ja": "プレイヤー", "en": "player"}, {"ja": "点", "en": "point"}]  # each used in the texts above


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "new",
        help="make a small game to start from",
        description="Create a game directory PATH with a deck of cards (a picture field: a picture in art/, "
        "one card still waiting for its art), a board, a glossary and their templates, which validates and builds "
        "as it stands: then `pnpgen build PATH`, which writes ./output/NAME/ in the folder you run it in.",
    )
    parser.add_argument("name", metavar="PATH", help="the new game's directory, e.g. my-game or ~/games/my-game")
    parser.add_argument(
        "--title", help="the game's title (default: the folder's name); the same in every language until translated"
    )
    parser.add_argument(
        "--languages",
        default=DEFAULT_LANGUAGES,
        help=f"the game's languages, comma-separated (default: {DEFAULT_LANGUAGES}); the starter's texts are "
        "written in ja and en, any other language is left to translate",
    )
    parser.add_argument(
        "--source",
        help="the language translations are made from: ja or en, one of --languages (default: the first of them)",
    )
    parser.set_defaults(run=run)


def run(args) -> int:
    target = Path(args.name).expanduser()
    name = target.name
    languages, source = chosen_languages(args)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", name):
        raise InputError(
            Problem(target, None, "a game name uses letters, digits, '-' and '_' only", hint="for example my-game")
        )
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise InputError(
            Problem(target, None, "already exists and is not empty", hint="choose another name; nothing was written")
        )
    title = (args.title or name).strip()
    if not title:
        raise InputError(Problem(None, None, "--title is empty", hint="give the game's title, or leave --title out"))
    files = starter_files(name, title, languages, source)
    write_game(target, files)
    print(
        f"created {target}/ with {len(files) + 1} files: {title!r} in {', '.join(languages)}, translated from {source}"
    )
    out = Path("output").resolve() / name
    print(f"next: pnpgen build {args.name}")
    print(
        f"  writes ./output/{name}/ of the folder you run it in (from here: {out}/, such as "
        f"cards-{source}-a4.pdf); --out DIR writes elsewhere"
    )
    return 0


def chosen_languages(args) -> tuple[list[str], str]:
    """--languages and --source, checked before anything is written."""
    languages = list(dict.fromkeys(lang.strip() for lang in args.languages.split(",") if lang.strip()))
    bad = [lang for lang in languages if not is_language_tag(lang)]
    if not languages or bad:
        raise InputError(
            Problem(
                None,
                None,
                f"--languages {args.languages!r}: {', '.join(bad) or 'no language'} is no language code",
                hint="language codes, comma-separated: --languages en,ja",
            )
        )
    source = args.source or languages[0]
    if source not in languages:
        raise InputError(
            Problem(
                None,
                None,
                f"--source {source} is not one of --languages {','.join(languages)}",
                hint=f"add it to --languages, or choose one of {', '.join(languages)}",
            )
        )
    if source not in STARTER_LANGUAGES:
        raise InputError(
            Problem(
                None,
                None,
                f"--source {source}: the starter's texts are written in ja and en only",
                hint="start from --source ja or en; other languages are translated from it (pnpgen i18n export)",
            )
        )
    return languages, source


def starter_files(name: str, title: str, languages: list[str], source: str) -> dict[str, str]:
    """Every file of the starter game, its texts in those of `languages` the starter is written in."""

    def text(by_lang: dict[str, str]) -> str:
        return "{" + ", ".join(f"{lang}: {plain(by_lang[lang])}" for lang in languages if lang in by_lang) + "}"

    def fill(yaml: str) -> str:
        return re.sub(r"<<(\w+)>>", lambda match: text(TEXTS[match[1]]), yaml)

    kept = dict.fromkeys(languages, title)  # the title, printed as is until translated: a term kept as is
    terms = [term for term in [*TERMS, kept] if sum(lang in term for lang in languages) >= 2]
    return {
        "game.yaml": GAME_YAML.format(  # no path: the folder is moved, shared, committed
            name=name, title=text(kept), languages=", ".join(languages), source=source
        ),
        "components.yaml": fill(COMPONENTS_YAML),
        "decks/cards.yaml": fill(DECK_YAML).replace("{built_in}", ", ".join(CARD_KEYS)),
        "boards/board.yaml": fill(BOARD_YAML),
        "templates/card.html": CARD_HTML,
        "templates/card-back.html": BACK_HTML,
        "templates/style.css": STYLE_CSS,
        "art/fruit.svg": PICTURE_SVG,
        "glossary.yaml": GLOSSARY_YAML.format(terms="".join(f"  - {text(term)}\n" for term in terms) or "  []\n")
        if terms
        else "# Terms translated the same way everywhere; `pnpgen i18n status` reports a string that does "
        "not.\nterms: []\n",
    }


def plain(value: str) -> str:
    """A text as a value of a YAML flow mapping: as it is where YAML reads it so, else quoted."""
    safe = re.fullmatch(r"[^\s,:{}\[\]#\"'&*!|>%@`?-][^,:{}\[\]#\"']*", value) and value == value.strip()
    if safe and pyyaml.safe_load(value) == value:  # not a number, true, no, null ...
        return value
    return json.dumps(value, ensure_ascii=False)


def write_game(target: Path, files: dict[str, str]) -> None:
    """The game written whole or not at all: made in a folder beside the target, its translations confirmed,
    then moved into place."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".pnpgen-new-", dir=target.parent))
    try:
        made = staging / target.name
        for relative, text in files.items():
            write_atomic(made / relative, text)
        confirm_translations(made)
        if target.is_dir():
            target.rmdir()  # empty: checked above
        made.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def confirm_translations(game_dir: Path) -> None:
    """A new game starts with its translations confirmed: the lock records the source of each."""
    game = load_game(game_dir)
    all_units = units(game)
    lock = Lock(lock_path(game))
    confirm_all(game, lock, all_units)
    write_lock(lock)
