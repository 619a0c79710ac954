"""A game's localized strings as translation units: an id, the text in every language, where it is written.

The strings come from `model.texts.texts` (and so from every source registered in TEXT_SOURCES:
card data now, rule blocks when they exist); a string's id is its label there, like `cards[coal].name`.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from generator.model.texts import texts
from generator.errors import display_path
from generator.model.game import Game, Text

LABEL = re.compile(r"^(?P<collection>[A-Za-z_-]+)\[(?P<owner>[^\]]+)\]\.(?P<field>.+)$")
OWNER_KINDS = {
    "cards": "card",
    "components": "component",
    "decks": "deck",
    "setup": "setup deal",
    "rules": "rule block",
    "labels": "template label",
    "boards": "board",
    "aids": "player aid",
    "tokens": "token sheet",
}


@dataclass(frozen=True)
class Unit:
    """One translatable string."""

    id: str
    text: Text
    owner_kind: str  # card, component, deck, rule block, ... or game
    owner: str  # the card's (component's, rule block's) id; the game's id for game keys
    field: str  # name, text, projects[0].label, title ...

    @property
    def file(self) -> Path | None:
        return self.text.file

    @property
    def line(self) -> int | None:
        return self.text.line

    def value(self, lang: str) -> str:
        return (self.text.values.get(lang) or "").strip()

    def describe(self) -> str:
        if self.owner_kind == "game":
            return f"game {self.field}"
        return f"{self.owner_kind} '{self.owner}', {self.field}"

    def location(self, relative_to: Path | None = None) -> str:
        """file:line, relative to the game directory when given (for exchange files), else to the cwd."""
        if self.file is None:
            return ""
        if relative_to is not None and self.file.is_relative_to(relative_to):
            name = self.file.relative_to(relative_to).as_posix()
        else:
            name = display_path(self.file)
        return f"{name}:{self.line}" if self.line else name


def units(game: Game) -> dict[str, Unit]:
    """Every localized string of the game by id, in the order the game's files list them."""
    found: dict[str, Unit] = {}
    for label, text in texts(game):
        match = LABEL.match(label)
        if match:
            kind = OWNER_KINDS.get(match["collection"], match["collection"])
            unit = Unit(label, text, kind, match["owner"], match["field"])
        else:
            unit = Unit(label, text, "game", game.id, label)
        found.setdefault(label, unit)  # a repeated id is validate's to report
    return found


def source_hash(text: str) -> str:
    """What the lock file stores for a source text: short, stable and the same on every machine."""
    return hashlib.sha256(text.strip().encode("utf-8")).hexdigest()[:12]


def unit_for_card_field(all_units: dict[str, Unit], card_id: str, field: str) -> Unit | None:
    """The string a card's text box shows, when the box shows a card field (data-fit="name")."""
    return all_units.get(f"cards[{card_id}].{field}")
