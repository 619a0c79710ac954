"""From a game to an exchange file and back: export every string of one language; import a file after
checking all of it, writing nothing when anything is wrong."""
from __future__ import annotations

from dataclasses import dataclass, field

from generator.errors import InputError, Problem, did_you_mean
from generator.i18n.checks import check_placeholders
from generator.i18n.exchange import Entry, Exchange
from generator.i18n.lock import STALE, Lock
from generator.i18n.strings import Unit, unit_for_card_field
from generator.model.game import Game
from generator.render.faces import CardFit


def box_sizes(all_units: dict[str, Unit], fits: list[CardFit] | None, lang: str) -> dict[str, tuple]:
    """The smallest box (width, height in mm) each string is printed in, in one language."""
    sizes: dict[str, tuple] = {}
    for fit in fits or []:
        if fit.lang != lang or fit.side != "front" or fit.kind != "fit":  # only data-fit boxes have a set size
            continue
        unit = unit_for_card_field(all_units, fit.card, fit.field)
        if unit is not None:
            size = (fit.width_mm, fit.height_mm)
            sizes[unit.id] = min(sizes.get(unit.id, size), size)
    return sizes


def build_exchange(game: Game, all_units: dict[str, Unit], lock: Lock, lang: str,
                   fits: list[CardFit] | None) -> Exchange:
    source_lang = game.source_language
    sizes = box_sizes(all_units, fits, lang)
    exchange = Exchange(game.id, source_lang, lang)
    for unit in all_units.values():
        source = unit.value(source_lang)
        if not source:
            continue  # nothing to translate from: `i18n status` reports it missing
        stale = bool(unit.value(lang)) and lock.state(unit, lang, source_lang) == STALE
        width, height = sizes.get(unit.id, (None, None))
        exchange.entries.append(Entry(
            unit.id, source, unit.value(lang), stale=stale, previous=lock.previous_source(unit, lang) if stale else None,
            note=unit.describe(), width_mm=width, height_mm=height, location=unit.location(game.dir)))
    return exchange


@dataclass
class ImportPlan:
    lang: str
    changes: list[tuple] = field(default_factory=list)        # (file, key path, lang, text) for writeback
    confirmations: list[tuple] = field(default_factory=list)  # (string id, source text the translation used)
    unchanged: int = 0


def plan_import(game: Game, all_units: dict[str, Unit], lock: Lock, exchange: Exchange) -> ImportPlan:
    """What importing the file would change; InputError listing every problem when anything is wrong."""
    path, source_lang, lang = exchange.path, game.source_language, exchange.target_lang
    problems = file_problems(game, exchange)
    plan = ImportPlan(lang)
    for entry in exchange.entries:
        unit = all_units.get(entry.id)
        if unit is None:
            problems.append(Problem(path, entry.line, f"unknown string id '{entry.id}'", entry.id,
                                    did_you_mean(entry.id, all_units) or "ids are written by `pnpgen i18n export`"))
            continue
        target = entry.target.strip()
        if not target:
            continue
        message = check_placeholders(unit.value(source_lang), target)
        if message:
            problems.append(Problem(path, entry.line, message, entry.id, "keep every {placeholder} and %s"))
            continue
        plan_entry(plan, unit, entry, target, lock, source_lang)
    if problems:
        raise InputError(problems)
    return plan


def file_problems(game: Game, exchange: Exchange) -> list[Problem]:
    path, lang = exchange.path, exchange.target_lang
    problems = []
    if exchange.game and exchange.game != game.id:
        problems.append(Problem(path, 1, f"this file is for game '{exchange.game}', not '{game.id}'"))
    if exchange.source_lang and exchange.source_lang != game.source_language:
        problems.append(Problem(path, 1, f"the file translates from '{exchange.source_lang}', but the game's "
                                f"source language is '{game.source_language}'"))
    if not lang:
        problems.append(Problem(path, 1, "the file does not say which language it holds", "language",
                                "PO: the Language header; XLIFF: target-language; CSV: the third column's header"))
    elif lang not in game.languages or lang == game.source_language:
        targets = [code for code in game.languages if code != game.source_language]
        problems.append(Problem(path, 1, f"wrong language '{lang}': the game translates into "
                                f"{', '.join(targets) or 'nothing'}", "language"))
    return problems


def plan_entry(plan: ImportPlan, unit: Unit, entry: Entry, target: str, lock: Lock, source_lang: str) -> None:
    """A changed translation is written; it is recorded as made from the file's source unless the file
    still marks it stale. An unchanged one marked reviewed (no longer stale) is recorded as well."""
    lang = plan.lang
    changed = target != unit.value(lang)
    if changed:
        plan.changes.append((unit.file, unit.text.path, lang, target))
    reviewed = not entry.stale and lock.state(unit, lang, source_lang) == STALE
    if (changed and not entry.stale) or reviewed:
        plan.confirmations.append((unit.id, entry.source or unit.value(source_lang)))
    if not changed and not reviewed:
        plan.unchanged += 1
