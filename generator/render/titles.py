"""The title of every file pnpgen writes: the game, the part, the languages and the paper, as a print queue,
a viewer's title bar and a screen reader show them ("Greed Incorporated: rules (English, A4)").

The words are pnpgen's own, in Japanese and English; a game's labels.yaml may give them in any language as
`title_<key>` (as the rule sheet's words are `rules_<key>`). A title is in the file's first language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from generator.model.game import Game, Text
from generator.render.inksaver import INK_SAVER
from generator.render.typeset import metadata_text

WORDS = {
    "en": {
        "file": "{game}: {part} ({languages}, {paper})",
        "rules": "rules",
        "aid": "{name} “{title}”",
        "board": "board – {name}",
        "tokens": "token sheets – {name}",
        "cards": "card sheets",
        "reprint": "card sheets to reprint",
        "pnp": "print-and-play file",
        "gutterfold": "{part}, gutter fold",
        "volume": "{part}, {number} of {count}",
        "ink_saver": "{part}, ink-saving version",
        "languages_joined": " + ",
        "lang_ja": "Japanese",
        "lang_en": "English",
        "lang_zh": "Chinese",
        "lang_ko": "Korean",
        "lang_fr": "French",
        "lang_de": "German",
        "lang_es": "Spanish",
        "lang_it": "Italian",
        "lang_pt": "Portuguese",
    },
    "ja": {
        "file": "{game}：{part}（{languages}、{paper}）",
        "rules": "ルール",
        "aid": "{name}「{title}」",
        "board": "ボード「{name}」",
        "tokens": "トークンシート「{name}」",
        "cards": "カードシート",
        "reprint": "差し替え用カードシート",
        "pnp": "プリント＆プレイ版",
        "gutterfold": "{part}・中折り",
        "volume": "{part} {number}/{count}",
        "ink_saver": "{part}・インク節約版",
        "languages_joined": "＋",
        "lang_ja": "日本語",
        "lang_en": "英語",
        "lang_zh": "中国語",
        "lang_ko": "韓国語",
        "lang_fr": "フランス語",
        "lang_de": "ドイツ語",
        "lang_es": "スペイン語",
        "lang_it": "イタリア語",
        "lang_pt": "ポルトガル語",
    },
}
GAME_LABEL = {key: f"title_{key}" for key in WORDS["en"]}  # labels.yaml keys (docs/schema.md lists them)
PART_NAMES = ("rules", "aid", "board", "tokens", "cards", "reprint", "pnp")


def file_title(
    game: Game,
    part: str,
    langs: Sequence[str],
    paper: str,
    names: Mapping[str, Text | str | None] | None = None,
    gutterfold: bool = False,
    volume: tuple[int, int] | None = None,
    ink_saver: bool = False,
) -> str:
    """The title of one file: `part` one of PART_NAMES, `names` what its wording fills in (an aid's `name` and
    `title`, a board's or token sheet's `name`), `volume` (number, count) for a file written in volumes. A file of
    the ink-saving version (`ink_saver`, or any file of the game's ink-saving variant) says so."""
    assert part in PART_NAMES, part
    lang = langs[0]
    filled = {key: metadata_text(_in(value, lang, game.source_language), lang) for key, value in (names or {}).items()}
    name = word(game, part, lang).format(**filled)
    if gutterfold:
        name = word(game, "gutterfold", lang).format(part=name)
    if volume is not None and volume[1] > 1:
        name = word(game, "volume", lang).format(part=name, number=volume[0], count=volume[1])
    if ink_saver or game.variant == INK_SAVER:
        name = word(game, "ink_saver", lang).format(part=name)
    languages = word(game, "languages_joined", lang).join(language_name(game, code, lang) for code in langs)
    return word(game, "file", lang).format(
        game=metadata_text(game.title.get(lang, game.source_language), lang),
        part=name,
        languages=languages,
        paper=paper_name(paper),
    )


def word(game: Game, key: str, lang: str) -> str:
    """One of the title words in lang: the game's label, else pnpgen's own, else the game's label in its source
    language, else English."""
    label = game.labels.get(GAME_LABEL[key]) if key in GAME_LABEL else None
    if label is not None and label.has(lang):
        return label.get(lang)
    if lang in WORDS and key in WORDS[lang]:
        return WORDS[lang][key]
    if label is not None:
        return label.get(game.source_language)
    return WORDS["en"].get(key, "")


def language_name(game: Game, code: str, lang: str) -> str:
    """A language's name in lang (`lang_fr` in labels.yaml for one pnpgen does not know), else its code."""
    key = f"lang_{code}"
    label = game.labels.get(f"title_{key}")
    if label is not None and label.has(lang):
        return label.get(lang)
    return WORDS.get(lang, WORDS["en"]).get(key) or WORDS["en"].get(key) or code


def paper_name(paper: str) -> str:
    """A4, A3, B4 as ISO writes them; Letter, Tabloid capitalised."""
    return paper.upper() if re.fullmatch(r"[abc]\d+", paper) else paper.capitalize()


def _in(value: Text | str | None, lang: str, fallback: str) -> str:
    if isinstance(value, Text):
        return value.get(lang, fallback)
    return "" if value is None else str(value)
