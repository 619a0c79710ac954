"""Where a card's text lives in its deck's spreadsheet (`cards_from:`): the sheet, the row and the column of one
language. Messages name the cell to fill (or the column to add), and translations are written into it."""

from __future__ import annotations

from typing import Any

from dataclasses import dataclass
from pathlib import Path

from generator.model.game import Deck, Game, SheetSource, Text
from generator.model.table.columns import column_letters, deck_columns


@dataclass(frozen=True)
class SheetPlace:
    """One language of one card text in a deck's spreadsheet."""

    source: SheetSource
    row: int  # the sheet's row, from 1 (the header is row 1)
    label: str  # the column's header (name.de); for a text inside a cell of YAML, that cell's column
    col: int | None  # from 0; None: the sheet has no such column yet
    lang: str
    inner: tuple[Any, ...] = ()  # for a text inside a cell of YAML (a list of objects): its keys in the cell's value

    @property
    def in_yaml(self) -> bool:
        return bool(self.inner)

    @property
    def cell(self) -> str:
        """The cell as spreadsheets name it (`market!F2`, `F2` in a CSV file), or its row when its column is still
        to be added (`sheet 'market', row 2`)."""
        if self.col is None:
            return f"sheet '{self.source.name}', row {self.row}" if self.source.name else f"row {self.row}"
        return f"{self.source.name}!" * bool(self.source.name) + f"{column_letters(self.col)}{self.row}"

    def what_to_do(self) -> str:
        """Where the user writes this text themselves."""
        if self.in_yaml:
            return f"add `{self.lang}: ...` to the YAML of cell {self.cell} (column {self.label})"
        if self.col is None:
            return f"add a column {self.label} and fill its row {self.row}"
        return f"fill cell {self.cell} (column {self.label})"


def sheet_card_path(source: SheetSource, index: int) -> tuple[Any, ...]:
    """The key path of a deck's card read from a spreadsheet, as its texts record it: the sheet, then the card's
    index among the deck's cards (two decks may read two sheets of one file)."""
    return (source.name or "", "cards", index)


def sheet_deck(game: Game, file: Path | None, path: tuple[Any, ...]) -> Deck | None:
    """The deck reading its cards from the sheet a text's file and key path name."""
    return next(
        (
            deck
            for deck in game.decks.values()
            if deck.sheet is not None and deck.sheet.file == file and path[:2] == sheet_card_path(deck.sheet, 0)[:2]
        ),
        None,
    )


def sheet_place(deck: Deck, path: tuple[Any, ...], row: int, lang: str, languages: list[str]) -> SheetPlace | None:
    """Where the text at `path` (see sheet_card_path, then the card's keys) of a card on `row` of the deck's
    spreadsheet is written in `lang` (None: the deck has no spreadsheet, or no column holds the text)."""
    if deck.sheet is None or len(path) < 4:
        return None
    keys = tuple[Any, ...](path[3:])
    for column in deck_columns(deck.fields, sorted({*languages, lang})):
        if column.path == (*keys, lang):
            return place(deck.sheet, row, column.label, lang)
        if column.path == keys[: len(column.path)] and len(column.path) < len(keys):
            return place(deck.sheet, row, column.label, lang, keys[len(column.path) :])
    return None


def place(source: SheetSource, row: int, label: str, lang: str, inner: tuple[Any, ...] = ()) -> SheetPlace:
    col = source.labels.index(label) if label in source.labels else None
    return SheetPlace(source, row, label, col, lang, inner)


def text_place(game: Game, text: Text, lang: str) -> SheetPlace | None:
    """Where a text of the game is written in a spreadsheet in `lang` (None: it is written in YAML)."""
    deck = sheet_deck(game, text.file, text.path)
    if deck is None or text.line is None:
        return None
    return sheet_place(deck, text.path, text.line, lang, game.languages)


def change_place(game: Game, file: Path, path: tuple[Any, ...], lang: str) -> SheetPlace | None:
    """Where the text a writer would set (its file and key path, as a Text records them) is in a spreadsheet."""
    deck = sheet_deck(game, file, path)
    if deck is None or len(path) < 4:
        return None
    card = next((card for card in deck.cards if card.index == path[2]), None)
    if card is None or card.line is None:
        return None
    return sheet_place(deck, path, card.line, lang, game.languages)
