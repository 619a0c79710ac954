"""`pnpgen table import`: a sheet's rows written into the deck's YAML, changing only what the sheet changed.

The whole sheet is checked first (generator.model.table.cards); then each cell is compared with the card's
value and only differing values are set, through the same round-trip writer as translation imports, so the file's
order, comments and quoting stay. New ids become new cards (placed after the card of the row above); cards
the sheet no longer has are listed, and removed only when asked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml.comments import CommentedMap

from generator.errors import InputError, Problem, did_you_mean
from generator.model.game import Deck, Game
from generator.model.table.cards import Present, SheetCard, card_values, is_language_column, read_cards, value_at
from generator.model.table.columns import Column, deck_columns, whole_number
from generator.model.table.formats import Sheet
from generator.yamlio.edit import MISSING, assign, delete_item, delete_key, fresh, get, same
from generator.yamlio.parse import fast_load
from generator.yamlio.writeback import rewrite


@dataclass
class TablePlan:
    deck: Deck
    text: str | None = None  # the deck file's new text; None: unchanged
    changed: dict[str, list[str]] = field(default_factory=dict)  # card id -> column labels that changed
    added: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # in the YAML, not in the sheet
    deleted: list[str] = field(default_factory=list)
    source_texts: list[str] = field(default_factory=list)  # string ids whose source-language text changed


def find_deck(game: Game, deck_id: str) -> Deck:
    if deck_id not in game.decks:
        raise InputError(
            Problem(
                game.dir / "decks",
                None,
                f"no deck '{deck_id}' in {game.id}",
                hint=did_you_mean(deck_id, game.decks) or "decks: " + ", ".join(game.decks),
            )
        )
    return game.decks[deck_id]


def plan_table_import(game: Game, deck: Deck, sheet: Sheet, delete: bool = False) -> TablePlan:
    """What importing the sheet changes; InputError (every problem, with its cell) when anything is wrong."""
    if any(card.file != deck.file for card in deck.cards):
        source = next(card.file for card in deck.cards if card.file != deck.file)
        raise InputError(
            Problem(
                deck.file,
                deck.lines.get("cards_from"),
                f"deck '{deck.id}' reads its cards from {source.name}",
                "cards_from",
                hint=f"edit {source.name} itself",
            )
        )
    columns = deck_columns(deck.fields, game.languages, with_back=True)
    existing = {card.id: card_values(card) for card in deck.cards}
    known = {deck_id: {card.id for card in other.cards} for deck_id, other in game.decks.items()}
    known[deck.id] = known[deck.id] | raw_ids(sheet)  # a new card may be referred to by another row
    present, rows = read_cards(sheet, columns, game.languages, deck.fields, known, existing)
    plan = TablePlan(deck)
    sheet_ids = {row.id for row in rows}
    plan.missing = [card.id for card in deck.cards if card.id not in sheet_ids]

    def apply(document: Any) -> None:  # the deck file as ruamel reads it
        raw_cards = document["cards"]
        index_of = {node.get("id"): i for i, node in enumerate(raw_cards) if isinstance(node, dict)}
        previous = None
        for row in rows:
            if row.id in index_of:
                changed = update_card(raw_cards[index_of[row.id]], row, present)
                if changed:
                    plan.changed[row.id] = changed
            else:
                position = index_of[previous] + 1 if previous in index_of else len(raw_cards)
                raw_cards.insert(position, new_card(row, present))
                index_of = {key: i + (i >= position) for key, i in index_of.items()}
                index_of[row.id] = position
                plan.added.append(row.id)
            previous = row.id
        if delete:
            for card_id in sorted(plan.missing, key=lambda c: -index_of[c]):
                try:
                    delete_item(raw_cards, index_of[card_id])
                except ValueError as error:
                    raise InputError(
                        Problem(
                            deck.file,
                            None,
                            f"cannot remove card '{card_id}': {error}",
                            hint="remove it in the YAML by hand",
                        )
                    ) from None
                plan.deleted.append(card_id)

    if not needs_writing(rows, present, existing, plan.missing if delete else []):
        return plan  # the round trip through ruamel is most of an import's time: skip it when nothing changed
    text = rewrite(deck.file, apply)
    if text != deck.file.read_text(encoding="utf-8"):
        check_read_back(deck, text, rows, present, plan)
        plan.text = text
    plan.source_texts = [
        f"cards[{card_id}].{'.'.join(label.split('.')[:-1])}"
        for card_id, labels in plan.changed.items()
        for label in labels
        if label.endswith("." + game.source_language)
        and is_language_column(next(c for _i, c in present if c.label == label), game.languages)
    ]
    return plan


def needs_writing(
    rows: list[SheetCard], present: Present, existing: dict[str, dict[str, Any]], to_delete: list[str]
) -> bool:
    """Whether any row adds a card or holds a value that differs from the card's (a default written or
    left out counts as the same)."""
    if to_delete:
        return True
    for row in rows:
        if row.id not in existing:
            return True
        for _index, column in present:
            new, old = value_at(row.card, column.path), value_at(existing[row.id], column.path)
            if new is None or old is None:
                if (new if old is None else old) not in (None, column.default):
                    return True
            elif not same(old, new):
                return True
    return False


def raw_ids(sheet: Sheet) -> set[str]:
    header = [str(label).strip() if label is not None else "" for label in sheet.rows[0]]
    if "id" not in header:
        return set()
    col = header.index("id")
    return {str(whole_number(row[col])).strip() for row in sheet.rows[1:] if row[col] is not None}


def update_card(node: CommentedMap, row: SheetCard, present: Present) -> list[str]:
    """Set the card's values that differ from the row's cells; the labels of the columns that changed."""
    changed = []
    order = [column.path[0] for _i, column in present]
    for _index, column in present:
        if set_path(node, column.path, value_at(row.card, column.path), column, order):
            changed.append(column.label)
    return changed


def set_path(node: CommentedMap, path: tuple[str, ...], new: object, column: Column, order: list[str]) -> bool:
    key = path[0]
    after = order[: order.index(key)] if key in order else []
    if len(path) == 1:
        old = get(node, key)
        if new is None:
            if (
                old is MISSING
                or old is None
                or (isinstance(old, (list, dict)) and not old)
                or (column.default is not None and same(old, column.default))
            ):
                return False  # `remove_at: []`, `count: 1`: what an empty cell means already
            delete_key(node, key)
            return True
        if old is MISSING and column.default is not None and new == column.default:
            return False
        return assign(node, key, new, after)
    child = get(node, key)
    if child is MISSING or not isinstance(child, CommentedMap):  # a round-trip document's mappings
        if new is None:
            return False
        nested: dict[str, Any] = {}
        for part in reversed(path[1:]):
            nested = {part: nested} if nested else {part: new}
        return assign(node, key, nested, after)
    changed = set_path(child, path[1:], new, column, list(child))
    if not child:
        delete_key(node, key)
    return changed


def new_card(row: SheetCard, present: Present) -> CommentedMap:
    """A card for a new row: id and name first, then the columns' values in their order."""
    node = CommentedMap()
    order = ["id", "name"] + [column.path[0] for _i, column in present]
    for key in dict.fromkeys(order):
        value = row.card.get(key)
        if value is None or (key == "count" and value == 1):
            continue
        node[key] = fresh(value)
    return node


def check_read_back(deck: Deck, text: str, rows: list[SheetCard], present: Present, plan: TablePlan) -> None:
    """The new YAML must read back as the sheet says, else nothing is written (a bug, not the user's)."""
    document = fast_load(text)
    by_id = {card.get("id"): card for card in document.get("cards") or [] if isinstance(card, dict)}
    for row in rows:
        written = by_id.get(row.id)
        for _index, column in present:
            want = value_at(row.card, column.path)
            got = value_at(written, column.path) if written is not None else None
            if written is None or (
                want != got and not (got is None and want == column.default) and str(want) != str(got)
            ):
                raise InputError(
                    Problem(
                        deck.file,
                        None,
                        f"writing card '{row.id}' would not read back as "
                        f"the sheet's {column.label} ({want!r}); nothing was written",
                        hint="please report this; edit the YAML by hand meanwhile",
                    )
                )
    for card_id in plan.deleted:
        if card_id in by_id:
            raise InputError(Problem(deck.file, None, f"card '{card_id}' was not removed; nothing was written"))
