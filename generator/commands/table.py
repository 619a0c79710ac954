"""`pnpgen table`: a deck's cards as a spreadsheet (CSV, XLSX, ODS), and a spreadsheet back into the deck."""

from __future__ import annotations

import sys
from pathlib import Path

from generator.commands.options import add_game
from generator.errors import InputError, Problem, did_you_mean, display_path
from generator.fsutil import OutputSet, write_atomic
from generator.model import Game, load_game
from generator.model.table.cards import export_table
from generator.model.table.formats import FORMATS, format_of, read_sheet, write_sheet
from generator.model.table.sync import find_deck, plan_table_import
from generator.paths import resolve_game

SHOWN_IDS = 12


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "table",
        help="a deck's cards as a spreadsheet (CSV, XLSX, ODS) and back",
        description="Export a deck's cards to a spreadsheet, one row per card, and import an edited one: every "
        "cell is checked against the deck's fields first, then only changed values are written.",
    )
    actions = parser.add_subparsers(dest="table_command", metavar="ACTION", required=True)

    export = actions.add_parser(
        "export",
        help="write a deck's cards as CSV, XLSX or ODS",
        description="One row per card, one column per card key and field; a text has a column per language "
        "(name.ja, name.en). XLSX and ODS: numbers as numbers, the header row frozen, drop-down "
        "lists for enum and ref fields, each field's doc as its header's comment.",
    )
    add_game_deck(export)
    export.add_argument("--format", choices=FORMATS, help="the file's format (default: from the file name)")
    export.add_argument("-o", "--output", type=Path, required=True, metavar="FILE", help="the file to write")
    export.add_argument("--lang", help="only these languages' text columns (comma-separated, e.g. en or ja,en)")
    export.set_defaults(run=run_export)

    imports = actions.add_parser(
        "import",
        help="write a spreadsheet's cards into the deck's YAML",
        description="Check every cell first (an error names the file, sheet and cell; exit 2, nothing written), "
        "then write only the values that changed, keeping the YAML's order, comments and quoting. "
        "New rows become new cards; cards missing from the sheet are listed, and removed with "
        "--delete. A changed source-language text makes its translations stale.",
    )
    add_game_deck(imports)
    imports.add_argument("file", type=Path, metavar="FILE", help="a .csv, .xlsx or .ods file")
    imports.add_argument("--format", choices=FORMATS, help="the file's format (default: from the file name)")
    imports.add_argument(
        "--sheet",
        metavar="NAME",
        help="the sheet to read, even a hidden one (default: the visible sheet named after the deck, else the "
        "first visible sheet)",
    )
    imports.add_argument("--delete", action="store_true", help="remove the cards the sheet no longer has")
    imports.set_defaults(run=run_import)


def add_game_deck(parser) -> None:
    add_game(parser)
    parser.add_argument("deck", metavar="DECK", help="the deck's id (its file name in decks/, without .yaml)")


def load(args) -> Game:
    return load_game(resolve_game(args.game), require_templates=False)


def chosen_langs(game: Game, given: str | None) -> list[str]:
    if not given:
        return list(game.languages)
    langs = [lang.strip() for lang in given.split(",") if lang.strip()]
    unknown = [lang for lang in langs if lang not in game.languages]
    if unknown:
        raise InputError(
            Problem(
                game.files["game"],
                None,
                f"the game has no language '{unknown[0]}'",
                "languages",
                hint=did_you_mean(unknown[0], game.languages) or f"choose from {', '.join(game.languages)}",
            )
        )
    return langs


def run_export(args) -> int:
    game = load(args)
    deck = find_deck(game, args.deck)
    fmt = format_of(args.output, args.format)
    headers, rows = export_table(game, deck, chosen_langs(game, args.lang))
    write_atomic(args.output, write_sheet(fmt, deck.id, headers, rows))
    print(
        f"{game.id}: wrote {len(rows)} card(s) of deck '{deck.id}' to {display_path(args.output)} "
        f"({fmt}, {len(headers)} columns)"
    )
    return 0


def run_import(args) -> int:
    game = load(args)
    deck = find_deck(game, args.deck)
    sheet = read_sheet(args.file, preferred=deck.id, fmt=args.format, named=args.sheet)
    plan = plan_table_import(game, deck, sheet, delete=args.delete)
    for note in sheet.notes.final():
        print(f"warning: {note}", file=sys.stderr)
    if plan.text is not None:
        with OutputSet(game.dir):  # as every import: all or nothing, and what a killed one left is tidied
            write_atomic(deck.file, plan.text)
    values = sum(len(labels) for labels in plan.changed.values())
    out = [
        (
            f"{game.id}: deck '{deck.id}' from {display_path(args.file)}: {values} value(s) changed on "
            f"{len(plan.changed)} card(s), {len(plan.added)} card(s) added, {len(plan.deleted)} removed"
        )
    ]
    for card_id, labels in list(plan.changed.items())[:SHOWN_IDS]:
        out.append(f"  changed {card_id}: {', '.join(labels)}")
    if plan.added:
        out.append(f"  added: {shown(plan.added)}")
    if plan.deleted:
        out.append(f"  removed: {shown(plan.deleted)}")
    elif plan.missing:
        out.append(f"  not in the sheet, kept: {shown(plan.missing)} (--delete removes them)")
    if plan.source_texts:
        out.append(
            f"  {len(plan.source_texts)} source text(s) changed: their translations are stale until "
            f"translated again or confirmed (pnpgen i18n status {game.id})"
        )
    out.append(f"  wrote {display_path(deck.file)}" if plan.text is not None else "  nothing to change")
    print("\n".join(out))
    return 0


def shown(ids: list[str]) -> str:
    more = f" and {len(ids) - SHOWN_IDS} more" if len(ids) > SHOWN_IDS else ""
    return ", ".join(ids[:SHOWN_IDS]) + more
