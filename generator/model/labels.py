"""A game's template labels (cards/<game>/labels.yaml): the words templates print that are not card data.

    labels:
      trend_announce: {ja: 公開時の価格トレンド, en: Price trend when announced}

Templates print one with `label('trend_announce')`. Each label is a translation string like a card's text
(`labels[trend_announce].text`), so it is exported, imported, checked and edited with the rest.
"""

from __future__ import annotations

from pathlib import Path

from generator.errors import InputError, Problem
from generator.model.game import Text
from generator.model.schema import INVALID, Checker, Field, FileKind, Localized, MapOf, Name, Object, start
from generator.yamlio.read import load_yaml

LABELS_FILE = "labels.yaml"
LABEL_KEY = Name(
    r"[A-Za-z][A-Za-z0-9_-]*", "a label key (letters, digits, _ and -, starting with a letter)", "like trend_announce"
)
LABELS_SCHEMA = Object(
    {
        "labels": Field(
            MapOf(LABEL_KEY, Localized(), key="label key"),
            required=True,
            doc="the words, by key: `trend_announce: {ja: ..., en: ...}`",
        )
    },
    what="labels.yaml",
)
LABELS_FILE_KIND = FileKind(
    LABELS_FILE,
    LABELS_SCHEMA,
    doc=(
        "The words templates print that are not card data, each with a text per language; a template prints one "
        "with `{{ label('trend_announce') | tx }}`, and `{name}` in a label is filled in by the template "
        "(`label('cubes', n=4)`). Each is a translation string (`labels[<key>].text`)."
    ),
)


def load_labels(game_dir: Path, languages: list[str], problems: list[Problem]) -> dict[str, Text]:
    """The game's labels by key (none when it has no labels.yaml); problems are appended, located."""
    path = game_dir / LABELS_FILE
    if not path.is_file():
        return {}
    try:
        document = load_yaml(path)
    except InputError as error:
        problems.extend(error.problems)
        return {}
    checker = Checker(languages)
    checked = LABELS_SCHEMA.check(document, start(path, document), checker)
    problems += checker.problems
    if checked is INVALID or "labels" not in checked:
        return {}
    return {key: text for key, text in checked["labels"].items() if isinstance(text, Text)}
