"""`pnpgen i18n`: translation status, confirming translations, and PO/XLIFF/CSV export and import."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from generator.commands.options import add_game, add_jobs, add_quiet
from generator.errors import InputError, Problem, ProblemList, did_you_mean, display_path, unknown_language
from generator.fsutil import OutputSet, write_atomic
from generator.i18n.exchange import formats
from generator.i18n.checks import CHECKS
from generator.i18n.glossary import read_glossary
from generator.i18n.lock import confirm_all, read_lock, write_lock
from generator.i18n.status import StatusReport, game_status
from generator.i18n.strings import units
from generator.i18n.transfer import build_exchange, match_language, plan_import
from generator.model import Game, load_game
from generator.paths import face_cache_dir, resolve_game
from generator.progress import Progress
from generator.render.fit_report import CardFit
from generator.render.weasy.fit import FIT_ATTRIBUTE
from generator.render.pipeline import FaceCache
from generator.model.table.cells import TextWrites, prepare_texts


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "i18n",
        help="translation status, confirm, export and import",
        description="Translations of a game's strings: what is missing, stale or overflowing; PO, XLIFF and "
        "CSV files for translators' tools.",
    )
    commands = parser.add_subparsers(dest="i18n_command", metavar="ACTION", required=True)

    status = commands.add_parser(
        "status",
        help="per language: translated, missing, stale, overflowing, glossary and term problems",
        description="Count and list every translation problem, each with file, line, card and field. "
        "Exit 0: none; 1: problems found; 2: unreadable input.",
    )
    add_game(status)
    status.add_argument("--lang", help="only this language")
    status.add_argument("--json", action="store_true", help="print the counts and problems as JSON")
    add_layout_options(status)
    status.set_defaults(run=run_status)

    confirm = commands.add_parser(
        "confirm",
        help="record that translations match their current source",
        description="Mark translations as made from the current source text (after checking them), so that "
        "they are no longer stale. Without IDS every translation of the game is confirmed.",
    )
    add_game(confirm)
    confirm.add_argument("ids", nargs="*", metavar="ID", help="string ids, as `i18n status` and exports show them")
    confirm.add_argument("--lang", help="only this language")
    confirm.add_argument(
        "--ignore",
        action="append",
        default=[],
        choices=CHECKS,
        metavar="CHECK",
        help="also silence this check for the strings (repeatable): " + ", ".join(CHECKS) + "; needs IDS and --lang",
    )
    confirm.set_defaults(run=run_confirm)

    export = commands.add_parser(
        "export",
        help="write one language's strings as PO, XLIFF or CSV",
        description="Every string with its context (card and field), its box size, and stale ones marked fuzzy "
        "(PO) or needs-review (XLIFF, CSV) with the previous source.",
    )
    add_game(export)
    export.add_argument("--lang", required=True, help="the language to translate into")
    export.add_argument(
        "--format", choices=list(formats.FORMATS), help="the file's format (default: from the file name)"
    )
    export.add_argument("-o", "--output", type=Path, required=True, metavar="FILE", help="the file to write")
    add_layout_options(export)
    export.set_defaults(run=run_export)

    imports = commands.add_parser(
        "import",
        help="write translations from a PO, XLIFF or CSV file into the game's YAML and spreadsheets",
        description="Check the whole file first (unknown ids, wrong game or language, changed placeholders, "
        "escapes and control characters: error, nothing written), then write the changed translations, keeping "
        "comments and layout: into the YAML, and a card text of a deck read from a spreadsheet (`cards_from:`) "
        "into its cell, adding a column (`name.de`) at the right of the sheet for a language it lacks, every "
        "other cell, style and part of the file kept. The files are replaced together, with the lock, or none. "
        "A spreadsheet that cannot be written (a signed workbook, ...) is left as it is and each of its texts "
        "named by its cell (exit 1). An entry without its string id (PO msgctxt, XLIFF trans-unit id, CSV "
        "context) is taken for a string only when its location and source text match one, and then listed.",
    )
    add_game(imports)
    imports.add_argument("file", type=Path, metavar="FILE", help="a .po, .xlf or .csv file")
    imports.add_argument(
        "--lang",
        help="the language the file holds, when it does not say (or says it differently: ja_JP, pt-BR); "
        "an error when the file names another one",
    )
    imports.set_defaults(run=run_import)


def add_layout_options(parser) -> None:
    parser.add_argument(
        "--no-layout", action="store_true", help="skip rendering the cards (no overflow check, no box sizes)"
    )
    add_jobs(parser)
    add_quiet(parser, "no progress lines")


def load(args) -> Game:
    return load_game(resolve_game(args.game), require_templates=False)


def chosen_langs(game: Game, lang: str | None) -> list[str]:
    if lang is None:
        return list(game.languages)
    lang = match_language(lang, game.languages) or lang
    if lang not in game.languages:
        raise unknown_language(game, lang)
    return [lang]


def layout_fits(game: Game, langs: list[str], args) -> tuple[list[CardFit] | None, str | None]:
    """The measured text boxes of every card face, or why they were not measured."""
    from generator.build import render_game

    if args.no_layout:
        return None, "not checked (--no-layout)"
    if game.template_problems:
        return None, (
            f"not checked: {len(game.template_problems)} template(s) missing, e.g. {game.template_problems[0].message}"
        )
    progress = Progress(args.quiet)
    rendered = render_game(game, langs, FaceCache(face_cache_dir(game.dir)), args.jobs, progress)
    fits = [fit for decks in rendered.values() for deck in decks for fit in deck.fits]
    if not fits:
        return None, f'not checked: no text box in the templates carries {FIT_ATTRIBUTE}="FIELD"'
    return fits, None


def run_status(args) -> int:
    game = load(args)
    langs = chosen_langs(game, args.lang)
    fits, note = layout_fits(game, langs, args)
    report = game_status(game, units(game), read_lock(game), read_glossary(game), fits, langs)
    report.layout_note = note
    print(json.dumps(report.as_json(), ensure_ascii=False, indent=2) if args.json else render_status(report))
    return 1 if report.findings else 0


def render_status(report: StatusReport) -> str:
    game = report.game
    out = [f"{game.id}: {game.title.get('en', game.source_language)} (source language {game.source_language})"]
    columns = ["total", "translated", "missing", "stale", "unconfirmed", "overflowing", "glossary", "terms", "checks"]
    columns.append("own_words")  # pnpgen's words the game prints with no text in the language
    width = max([4] + [len(lang) + 2 for lang in report.languages])  # zh-Hant *
    out.append(f"  {'lang':<{width}}  " + "  ".join(f"{c:>11}" for c in columns))
    for lang, status in report.languages.items():
        values = [status.as_json()[c] for c in columns]
        cells = "  ".join(f"{'-' if v is None else v:>11}" for v in values)
        out.append(f"  {lang + (' *' if status.source else ''):<{width}}  {cells}")
    out.append("  (* source language)" + (f"; overflow {report.layout_note}" if report.layout_note else ""))
    if report.findings:
        out.append(f"\n{len(report.findings)} problem(s):")
        for finding in report.findings:
            owner = finding.owner if finding.owner_kind == "game" else f"{finding.owner_kind} '{finding.owner}'"
            out.append(
                f"  {finding.where()}: {finding.lang} {finding.kind}: {owner}, {finding.field}: {finding.message}"
            )
        if any(finding.kind in CHECKS for finding in report.findings):
            out.append(
                f"\nA check wrong for one string is silenced with `pnpgen i18n confirm {game.id} ID --lang "
                "LANG --ignore CHECK` (or the flag `ignore-CHECK` in a PO or XLIFF file)."
            )
    else:
        out.append("\nno problems")
    return "\n".join(out)


def run_confirm(args) -> int:
    game = load(args)
    all_units = units(game)
    unknown = [string_id for string_id in args.ids if string_id not in all_units]
    if unknown:
        raise InputError(
            [
                Problem(None, None, f"unknown string id '{string_id}'", hint=did_you_mean(string_id, all_units))
                for string_id in unknown
            ]
        )
    if args.ignore and not (args.ids and args.lang):
        raise InputError(
            Problem(
                None,
                None,
                "--ignore silences a check for chosen strings in one language",
                hint=f"pnpgen i18n confirm {game.id} ID... --lang LANG --ignore CHECK",
            )
        )
    lock = read_lock(game)
    changed = confirm_all(
        game, lock, all_units, set(args.ids) or None, chosen_langs(game, args.lang) if args.lang else None
    )
    for string_id in args.ids if args.ignore else ():
        lock.ignore(string_id, chosen_langs(game, args.lang)[0], args.ignore)
    if not args.ids:
        lock.keep_only(all_units)
    written = write_lock(lock)
    print(
        f"{game.id}: confirmed {len(changed)} translation(s)"
        + (f", {', '.join(args.ignore)} silenced for {len(args.ids)} string(s)" if args.ignore else "")
        + (f"; wrote {display_path(lock.path)}" if written else "; nothing to change")
    )
    return 0


def run_export(args) -> int:
    game = load(args)
    lang = chosen_langs(game, args.lang)[0]
    if lang == game.source_language:
        raise InputError(
            Problem(
                game.files["game"],
                None,
                f"'{lang}' is the source language: export a language to translate into",
                "source_language",
            )
        )
    fmt = args.format or formats.format_of(args.output)
    all_units = units(game)
    fits, _ = layout_fits(game, [lang], args)
    exchange = build_exchange(game, all_units, read_lock(game), lang, fits)
    write_atomic(args.output, formats.write(exchange, fmt))
    stale = sum(entry.stale for entry in exchange.entries)
    missing = sum(not entry.target for entry in exchange.entries)
    print(
        f"{game.id}: wrote {len(exchange.entries)} {lang} strings to {display_path(args.output)} ({fmt}; "
        f"{stale} stale, {missing} missing)"
    )
    return 0


def run_import(args) -> int:
    game = load(args)
    all_units = units(game)
    lock = read_lock(game)
    exchange = formats.read(args.file)
    plan = plan_import(game, all_units, lock, exchange, args.lang)
    prepared = prepare_texts(game, plan.changes)  # every file is made and read back before any is written
    unwritten = {(change[0], change[1]) for change, _place, _why in prepared.unwritten}
    kept = {unit.id for unit in all_units.values() if (unit.file, unit.text.path) in unwritten}
    for string_id, source_text in plan.confirmations:
        if string_id not in kept:  # a translation not written is not recorded as made
            lock.confirm(string_id, plan.lang, source_text)
    for string_id, checks in plan.ignores:
        lock.ignore(string_id, plan.lang, checks)
    with OutputSet(game.dir):  # every file replaced together, or none
        prepared.write()
        lock_written = write_lock(lock)
    print(
        f"{game.id}: {len(plan.changes) - len(unwritten)} {plan.lang} translation(s) written, "
        f"{len(plan.confirmations) - len(kept)} confirmed, {plan.unchanged} unchanged"
        + (f"; files: {', '.join(display_path(f) for f in prepared.files)}" if prepared.files else "")
        + (f"; updated {display_path(lock.path)}" if lock_written else "")
    )
    for sheet in prepared.sheets:
        if sheet.data is not None:
            print(f"  wrote {sheet.describe()}")
    print_matched_by_location(plan, exchange)
    return report_unwritten(prepared)


def report_unwritten(prepared: TextWrites) -> int:
    """Name each text that could not be written into its spreadsheet, with the cell to fill: exit 1 if any."""
    unwritten = prepared.unwritten
    if not unwritten:
        return 0
    problems = ProblemList()
    problems.add(
        [
            Problem(place.source.file, None, f"not written: {why}", None, place.what_to_do(), cell=place.cell)
            for _change, place, why in unwritten
        ]
    )
    print(f"{len(unwritten)} translation(s) could not be written into their spreadsheet:", file=sys.stderr)
    for problem in problems.final():
        print(f"  {problem}", file=sys.stderr)
    return 1


MATCHES_SHOWN = 10


def print_matched_by_location(plan, exchange: formats.Exchange) -> None:
    """Entries without a valid string id, taken for a string by their location and source text."""
    if not plan.matched_by_location:
        return
    print(
        f"{len(plan.matched_by_location)} entr{'y' if len(plan.matched_by_location) == 1 else 'ies'} without "
        f"a valid {exchange.id_name} matched by location and source text:"
    )
    file = display_path(exchange.path) if exchange.path else "?"  # an imported file has its path
    for entry, string_id in plan.matched_by_location[:MATCHES_SHOWN]:
        named = f"{exchange.id_name} '{entry.id}'" if entry.id else f"no {exchange.id_name}"
        print(f"  {file}:{entry.line}: {named} -> {string_id} (at {entry.location})")
    if len(plan.matched_by_location) > MATCHES_SHOWN:
        print(f"  ... and {len(plan.matched_by_location) - MATCHES_SHOWN} more")
