"""A deck's cards to sheet rows, and sheet rows back to cards: every cell checked against the deck's schema,
every problem naming the file, the sheet and the cell."""

from __future__ import annotations

import copy
from decimal import Decimal, InvalidOperation
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.errors import InputError, Problem, ProblemList, did_you_mean
from generator.model.game import Card, Deck, Game, SheetSource, Text
from generator.model.cards import card_schema
from generator.model.schema import INVALID, Checker, Field, Where, walk_refs
from generator.model.table.columns import (
    EMPTY,
    NUMBER,
    CellError,
    CellValue,
    Column,
    blank,
    deck_columns,
    from_cell,
    to_cell,
)
from generator.model.table.formats import Header, Sheet, read_sheet

Present = list[tuple[int, Column]]  # the deck's columns a sheet has: (index in the row, column)


# --- export ---------------------------------------------------------------------------------------


def export_columns(game: Game, deck: Deck, langs: list[str]) -> list[Column]:
    ids_by_deck = {deck_id: [card.id for card in other.cards] for deck_id, other in game.decks.items()}
    columns = deck_columns(deck.fields, game.languages, ids_by_deck, with_back=any(card.back for card in deck.cards))
    return [column for column in columns if not is_language_column(column, game.languages) or column.path[-1] in langs]


def is_language_column(column: Column, languages: list[str]) -> bool:
    return len(column.path) > 1 and column.path[-1] in languages and column.label.endswith("." + column.path[-1])


def card_values(card: Card) -> dict[str, Any]:
    """A card as plain values, the way its YAML writes them (texts as {lang: text})."""
    values: dict[str, Any] = {"id": card.id, "count": card.count, "name": dict(card.name.values)}
    if card.remove_at:
        values["remove_at"] = list(card.remove_at)
    if card.placeholder:
        values["placeholder"] = card.placeholder
    if card.back:
        values["back"] = dict(card.back)
    values.update({name: plain_value(value) for name, value in card.fields.items()})
    return values


def plain_value(value: object) -> object:
    if isinstance(value, Text):
        return dict(value.values)
    if isinstance(value, dict):
        return {key: plain_value(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain_value(item) for item in value]
    return value


def value_at(values: object, path: tuple[str, ...]) -> object:
    for key in path:
        if not isinstance(values, dict) or key not in values:
            return None
        values = values[key]
    return values


def export_table(game: Game, deck: Deck, langs: list[str]) -> tuple[list[Header], list[list[CellValue]]]:
    columns = export_columns(game, deck, langs)
    headers = [
        Header(
            c.label,
            "\n".join(part for part in (c.doc, c.form) if part),
            c.choices,
            width=max(8, min(40, len(c.label) + 4)),
            text=c.text,
        )
        for c in columns
    ]
    rows = []
    for card in deck.cards:
        values = card_values(card)
        rows.append([to_cell(column, value_at(values, column.path)) for column in columns])
    for index in range(len(columns)):  # wide enough for the longest value, within reason
        longest = max((len(str(row[index])) for row in rows if row[index] is not None), default=0)
        headers[index].width = max(headers[index].width, min(40, longest + 2))
    return headers, rows


# --- import ---------------------------------------------------------------------------------------


@dataclass
class SheetCard:
    """One row of a sheet as a card: its plain values and the cell of each column."""

    row: int  # index in sheet.rows (the header is 0)
    card: dict[str, Any]  # plain nested values, like a card in the YAML
    cells: dict[str, str] = field(default_factory=dict)  # column label -> "sheet!C12"

    @property
    def line(self) -> int:
        return self.row + 1

    @property
    def id(self) -> str:
        card_id: str = self.card.get("id", "")  # the row's cells are checked: an id is a text
        return card_id


def read_columns(sheet: Sheet, columns: list[Column]) -> tuple[Present, list[Problem]]:
    """The sheet's header matched to the deck's columns: (index in the row, column) for each."""
    by_label = {column.label: column for column in columns}
    present: Present = []
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for index, label in enumerate(sheet.rows[0]):
        label = "" if label is None else str(label).strip()
        if not label:
            if any(row[index] is not None for row in sheet.rows[1:]):
                problems.append(sheet.problem(0, index, "a column without a name", hint="name it in row 1"))
            continue
        if label not in by_label:
            problems.append(
                sheet.problem(
                    0,
                    index,
                    f"unknown column '{label}'",
                    label,
                    did_you_mean(label, by_label) or "columns: " + ", ".join(by_label),
                )
            )
        elif label in seen:
            problems.append(
                sheet.problem(
                    0, index, f"the column '{label}' appears twice (also {sheet.cell(0, seen[label])})", label
                )
            )
        else:
            seen[label] = index
            present.append((index, by_label[label]))
    if "id" not in seen and not problems:
        problems.append(
            sheet.problem(
                0,
                0,
                "no `id` column: every card needs its id",
                hint="`pnpgen table export` writes the columns a deck has",
            )
        )
    return present, problems


def read_cards(
    sheet: Sheet,
    columns: list[Column],
    languages: list[str],
    fields: dict[str, Field],
    known_ids: dict[str, set[str]] | None = None,
    existing: dict[str, dict[str, Any]] | None = None,
) -> tuple[Present, list[SheetCard]]:
    """Every row checked; InputError listing every problem (each with its cell) when anything is wrong.
    With `known_ids` (deck id -> card ids), references to cards that do not exist are problems too. With
    `existing` (card id -> values), a row is checked as the card it updates: its values where the sheet
    has no column."""
    present, header_problems = read_columns(sheet, columns)
    if header_problems:
        raise InputError(header_problems)
    problems = ProblemList()
    cards: list[SheetCard] = []
    first_row_of: dict[str, int] = {}
    schema = card_schema(fields)
    for row_index in range(1, len(sheet.rows)):
        row = sheet.rows[row_index]
        if all(blank(value) for value in row):
            continue
        sheet_card = SheetCard(row_index, {})
        row_problems: list[Problem] = []
        for col_index, column in present:
            cell = sheet.cell(row_index, col_index)
            sheet_card.cells[column.label] = cell
            value = read_cell(sheet, row_index, col_index, column, languages, row_problems)
            if value is not EMPTY:
                put(sheet_card.card, column.path, value)
        if existing is not None and not row_problems:
            sheet_id = sheet_card.card.get("id")
            base = existing.get(sheet_id) if isinstance(sheet_id, str) else None
            keep_typed_digits(sheet, sheet_card, present, base)
            sheet_card.card = merged(base, sheet_card.card, present)
        if not row_problems:  # what no single cell shows: a required key missing, an object half filled
            checker = Checker(languages)
            schema.check(sheet_card.card, Where(sheet.file, None, ""), checker)
            row_problems += [locate(sheet, row_index, present, p) for p in checker.problems]
        card_id = sheet_card.card.get("id")
        if isinstance(card_id, str) and card_id in first_row_of and not row_problems:
            row_problems.append(
                Problem(
                    sheet.file,
                    None,
                    f"the id '{card_id}' is also on row {first_row_of[card_id] + 1}",
                    "id",
                    "ids are unique in a deck",
                    cell=sheet_card.cells.get("id"),
                )
            )
        if isinstance(card_id, str):
            first_row_of.setdefault(card_id, row_index)
        problems.add(row_problems)
        cards.append(sheet_card)
    if known_ids is not None and not problems:
        problems.add(reference_problems(cards, present, known_ids, sheet))
    if problems:
        raise InputError(problems.final())
    return present, cards


def keep_typed_digits(sheet: Sheet, card: SheetCard, present: Present, base: dict[str, Any] | None) -> None:
    """A number in a text column that is the card's text written another way (7 for 007, 1.5 for 1.50): a
    spreadsheet program read the text as a number. The card's text is kept, and the cell named in a note."""
    if base is None:
        return
    for col_index, column in present:
        new, old = value_at(card.card, column.path), value_at(base, column.path)
        raw = sheet.rows[card.row][col_index]
        typed_number = isinstance(raw, (int, float)) and not isinstance(raw, bool)
        if not column.text or not (typed_number or sheet.name is None) or not isinstance(old, str) or new == old:
            continue
        if isinstance(new, str) and same_number(old, new):
            put(card.card, column.path, old)
            sheet.notes.add(
                [
                    sheet.problem(
                        card.row,
                        col_index,
                        f"the cell holds the number {new} where the card has the text '{old}': kept '{old}'",
                        column.label,
                        "a spreadsheet program read the text as a number; format the column as text "
                        "(pnpgen's exports do) to type leading zeros",
                    )
                ]
            )


def same_number(old: str, new: str) -> bool:
    """Two texts of the same number with different digits (007 and 7, 1.50 and 1.5)."""
    if old.strip() == new.strip() or not NUMBER.match(old.strip()) or not NUMBER.match(new.strip()):
        return False
    try:
        return Decimal(old.strip()) == Decimal(new.strip())
    except InvalidOperation:
        return False


def read_cell(
    sheet: Sheet, row: int, col: int, column: Column, languages: list[str], problems: list[Problem]
) -> object:
    raw = sheet.rows[row][col]
    try:
        value = from_cell(column, raw)
    except CellError as error:
        problems.append(sheet.problem(row, col, str(error), column.label))
        return EMPTY
    if value is EMPTY:
        if column.required:
            problems.append(sheet.problem(row, col, f"empty cell: expected {column.spec.expected}", column.label))
        return EMPTY
    checker = Checker(languages)
    checked = column.spec.check(value, Where(sheet.file, None, column.label), checker)
    for problem in checker.problems:
        problem.cell = sheet.cell(row, col)
    problems += checker.problems
    return EMPTY if checked is INVALID or checker.problems else value  # plain: the card is checked whole later


def merged(base: dict[str, Any] | None, from_sheet: dict[str, Any], present: Present) -> dict[str, Any]:
    """A card's values after the sheet's cells replace those of the columns it has."""
    if base is None:
        return from_sheet
    card = copy.deepcopy(base)
    for _index, column in present:
        value = value_at(from_sheet, column.path)
        if value is None:
            remove(card, column.path)
        else:
            put(card, column.path, value)
    return card


def remove(card: dict[str, Any], path: tuple[str, ...]) -> None:
    parents = [card]
    for key in path[:-1]:
        if not isinstance(parents[-1].get(key), dict):
            return
        parents.append(parents[-1][key])
    parents[-1].pop(path[-1], None)
    for depth in range(len(path) - 1, 0, -1):  # a mapping left empty goes too
        if not parents[depth]:
            parents[depth - 1].pop(path[depth - 1], None)


def put(card: dict[str, Any], path: tuple[str, ...], value: object) -> None:
    node = card
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node[path[-1]] = value


def locate(sheet: Sheet, row: int, present: Present, problem: Problem) -> Problem:
    """A whole-card problem at the cell of the column it names (else the row's first cell)."""
    key = problem.key or ""
    col = next((i for i, c in present if c.label == key or key.startswith(c.label + ".")), None)
    if col is None:
        col = next((i for i, c in present if c.label.startswith(key + ".")), present[0][0] if present else 0)
    problem.cell, problem.line = sheet.cell(row, col), None
    return problem


def reference_problems(
    cards: list[SheetCard], present: Present, known_ids: dict[str, set[str]], sheet: Sheet
) -> list[Problem]:
    problems = []
    for card in cards:
        for col_index, column in present:
            value = value_at(card.card, column.path)
            for _path, deck_id, ref in walk_refs(column.spec, value) if value is not None else ():
                if deck_id in known_ids and ref not in known_ids[deck_id]:
                    problems.append(
                        sheet.problem(
                            card.row,
                            col_index,
                            f"no card '{ref}' in deck '{deck_id}'",
                            column.label,
                            did_you_mean(ref, known_ids[deck_id]),
                        )
                    )
    return problems


def read_deck_sheet(
    file: Path, deck_id: str, fields: dict[str, Field], languages: list[str]
) -> tuple[SheetSource, list[SheetCard]]:
    """The sheet a deck names in `cards_from:` and its cards (references are checked by validate)."""
    sheet = read_sheet(file, preferred=deck_id)
    _present, cards = read_cards(sheet, deck_columns(fields, languages), languages, fields)
    labels = tuple("" if label is None else str(label).strip() for label in sheet.rows[0])
    return SheetSource(file, sheet.name, labels), cards
