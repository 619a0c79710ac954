"""A game's template labels (cards/<game>/labels.yaml): the words templates print that are not card data.

    labels:
      trend_announce: {ja: 公開時の価格トレンド, en: Price trend when announced}

Templates print one with `label('trend_announce')`. Each label is a translation string like a card's text
(`labels[trend_announce].text`), so it is exported, imported, checked and edited with the rest.
"""
from __future__ import annotations

import re
from pathlib import Path

from generator.errors import InputError, Problem
from generator.model.game import Text
from generator.model.schema import INVALID, Checker, Field, Localized, Object, start
from generator.yamlio import load_yaml

LABELS_FILE = "labels.yaml"
KEY = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


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
    root = start(path, document)
    if not isinstance(document, dict) or not isinstance(document.get("labels"), dict):
        problems.append(Problem(path, 1, "expected `labels:`, a mapping of keys to texts like "
                                         "{ja: ..., en: ...}"))
        return {}
    raw = document["labels"]
    checker = Checker(languages)
    where = root.child(document, "labels")
    for key in raw:
        if not isinstance(key, str) or not KEY.match(key):
            checker.report(where.child(raw, key), f"'{key}' is not a label key",
                           "letters, digits, _ and -, starting with a letter")
    checked = Object({str(key): Field(Localized()) for key in raw}, what="labels").check(raw, where, checker)
    problems += checker.problems
    if checked is INVALID:
        return {}
    return {key: text for key, text in checked.items() if isinstance(text, Text)}
