"""From a game to an exchange file and back: export every string of one language; import a file after
checking all of it, writing nothing when anything is wrong."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from generator.errors import InputError, Problem, did_you_mean
from generator.i18n.checks import CHECKS, check_placeholders
from generator.i18n.exchange.entries import Entry, Exchange, control_character
from generator.i18n.lock import CONFIRMED, STALE, UNCONFIRMED, Lock
from generator.i18n.strings import Unit, unit_for_card_field
from generator.model.game import Game
from generator.model.schema import unprintable
from generator.render.fit_report import CardFit


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


def build_exchange(
    game: Game, all_units: dict[str, Unit], lock: Lock, lang: str, fits: list[CardFit] | None
) -> Exchange:
    source_lang = game.source_language
    sizes = box_sizes(all_units, fits, lang)
    exchange = Exchange(game.id, source_lang, lang)
    problems = texts_with_control_characters(game, all_units, [source_lang, lang])
    if problems:
        raise InputError(problems)
    for unit in all_units.values():
        source = unit.value(source_lang)
        if not source:
            continue  # nothing to translate from: `i18n status` reports it missing
        state = lock.state(unit, lang, source_lang) if unit.value(lang) else None
        width, height = sizes.get(unit.id, (None, None))
        exchange.entries.append(
            Entry(
                unit.id,
                source,
                unit.value(lang),
                stale=state == STALE,
                previous=lock.previous_source(unit, lang) if state == STALE else None,
                note=unit.describe(),
                width_mm=width,
                height_mm=height,
                location=unit.location(game.dir),
                confirmed=state == CONFIRMED,
                ignored=tuple(lock.ignored_checks(unit.id, lang)),
            )
        )
    return exchange


def texts_with_control_characters(game: Game, all_units: dict[str, Unit], langs: list[str]) -> list[Problem]:
    """A text holding a control character cannot go into a translation file (its readers refuse them)."""
    problems = []
    for unit in all_units.values():
        for lang in langs:
            found = control_character(unit.value(lang))
            if found:
                problems.append(
                    Problem(
                        unit.file,
                        unit.text.lines.get(lang, unit.line),
                        f"the {lang} text holds {found}, which a translation file cannot carry",
                        unit.id,
                        "remove it from the YAML (a line break is a line feed)",
                    )
                )
    return problems


# Regions a language tag may carry when the game lists only the script (zh_TW -> zh-Hant).
CHINESE_SCRIPTS = {"tw": "hant", "hk": "hant", "mo": "hant", "cn": "hans", "sg": "hans", "my": "hans"}


def match_language(tag: str, languages: list[str]) -> str | None:
    """The game's language a file's tag means: `ja_JP`, `ja-JP` and `ja` are `ja` in a game of `ja` and
    `en`; `pt_BR` is `pt-BR` when the game has it, else `pt`. None when no (or more than one) language fits."""
    normal = re.split(r"[.@]", tag.strip())[0].replace("_", "-").lower()
    by_lower = {lang.lower(): lang for lang in languages}
    if normal in by_lower:
        return by_lower[normal]
    parts = normal.split("-")
    if parts[0] == "zh" and len(parts) > 1 and parts[-1] in CHINESE_SCRIPTS:
        scripted = f"zh-{CHINESE_SCRIPTS[parts[-1]]}"
        if scripted in by_lower:
            return by_lower[scripted]
    same = [lang for lang in languages if lang.lower().split("-")[0] == parts[0]]
    return same[0] if len(same) == 1 else None


@dataclass
class ImportPlan:
    lang: str
    changes: list[tuple] = field(default_factory=list)  # (file, key path, lang, text) for writeback
    confirmations: list[tuple] = field(default_factory=list)  # (string id, source text the translation used)
    ignores: list[tuple] = field(default_factory=list)  # (string id, checks the file silences)
    unchanged: int = 0
    # Entries without a valid id, taken for a string by their location and source: (entry, string id).
    matched_by_location: list[tuple[Entry, str]] = field(default_factory=list)


def plan_import(
    game: Game, all_units: dict[str, Unit], lock: Lock, exchange: Exchange, lang: str | None = None
) -> ImportPlan:
    """What importing the file would change; InputError listing every problem when anything is wrong.
    lang: the language the user says the file holds (`--lang`), when the file does not say or says it
    differently (ja_JP); it may not contradict the file."""
    path, source_lang = exchange.path, game.source_language
    problems = file_problems(game, exchange, lang)
    declared = lang or exchange.target_lang
    plan = ImportPlan(match_language(declared, game.languages) or declared)
    finder = UnitFinder(game, all_units)
    seen: dict[str, int | None] = {}
    for entry in exchange.entries:
        unit = finder.find(entry)
        if unit is None:
            problems.append(finder.problem(entry, path, exchange.id_name))
            continue
        if unit.id != entry.id:
            plan.matched_by_location.append((entry, unit.id))
        if unit.id in seen:
            problems.append(
                Problem(
                    path,
                    entry.line,
                    f"a second entry for '{unit.id}' (the first is at line {seen[unit.id]})",
                    unit.id,
                    "keep one entry per string",
                )
            )
            continue
        seen[unit.id] = entry.line
        unknown = [check for check in entry.ignored if check not in CHECKS]
        if unknown:
            problems.append(
                Problem(
                    path,
                    entry.line,
                    f"unknown check in flag 'ignore-{unknown[0]}'",
                    unit.id,
                    f"checks: {', '.join(CHECKS)}",
                )
            )
            continue
        if entry.ignored:
            plan.ignores.append((unit.id, entry.ignored))
        target = entry.target.strip()
        problem = target_problem(entry.target, target)
        if problem:
            problems.append(Problem(path, entry.line, problem, entry.id or None, "remove it, or leave the text empty"))
            continue
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


def target_problem(given: str, target: str) -> str | None:
    """Why a translation cannot be written as it is: a control character, or only invisible characters (line
    or paragraph separators, no-break spaces), which would otherwise read as no translation at all."""
    if given.strip(" \t") and not target:
        shown = ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(given.strip(" \t")))
        return f"the translation holds only invisible characters ({shown})"
    problem = unprintable(target)
    return f"the translation holds {problem}" if problem else None


def file_problems(game: Game, exchange: Exchange, given_lang: str | None = None) -> list[Problem]:
    """The game and languages the file says it holds, against the game's (and `--lang`)."""
    path, said = exchange.path, exchange.target_lang
    lang = given_lang or said
    targets = [code for code in game.languages if code != game.source_language]
    lang_option = f"`pnpgen i18n import {game.id} FILE --lang {targets[0] if targets else 'LANG'}`"
    problems = []
    if exchange.game and exchange.game != game.id:
        problems.append(
            Problem(
                path,
                exchange.line_of("game"),
                f"the file names the game '{exchange.game}', not '{game.id}'",
                hint=f"import it into {exchange.game}; if it is a translation of {game.id}, correct this line",
            )
        )
    if exchange.source_lang and match_language(exchange.source_lang, [game.source_language]) is None:
        problems.append(
            Problem(
                path,
                exchange.line_of("source"),
                f"the file translates from '{exchange.source_lang}', but the game's "
                f"source language is '{game.source_language}'",
                hint="export the file again from this game",
            )
        )
    if given_lang and said and not same_language(given_lang, said, game.languages):
        problems.append(
            Problem(
                path,
                exchange.line_of("target"),
                f"the file says it holds '{said}', but --lang says '{given_lang}'",
                "language",
                "leave --lang out, or correct the file's language if it is wrong",
            )
        )
    elif not lang:
        problems.append(
            Problem(
                path,
                exchange.line_of("target"),
                "the file does not say which language it holds",
                "language",
                f"say it with {lang_option}, or in the file: {exchange.language_header}",
            )
        )
    elif match_language(lang, game.languages) in (None, game.source_language):
        problems.append(
            Problem(
                path,
                exchange.line_of("target"),
                f"wrong language '{lang}': the game translates into {', '.join(targets) or 'nothing'}",
                "language",
                f"{lang_option} says which one the file holds" if not given_lang else "give one of those",
            )
        )
    return problems


def same_language(given: str, said: str, languages: list[str]) -> bool:
    """`--lang ja` and a file saying ja_JP agree; `--lang en` and a file saying de, or `--lang pt-BR` and
    a file saying pt-PT in a game of both, do not."""

    def primary(tag: str) -> str:
        return re.split(r"[-_.@]", tag.strip().lower())[0]

    if primary(given) != primary(said):
        return False
    found = match_language(said, languages)
    return found is None or found == match_language(given, languages)


def split_location(location: str) -> tuple[str, str]:
    """`decks/a.yaml:12` -> (`decks/a.yaml`, `12`); a location without a line -> (it, "")."""
    file, _, line = location.rpartition(":")
    return (file, line) if file and line.isdigit() else (location, "")


class UnitFinder:
    """The string an entry is for: by its id, or, when a converter dropped the id (translate-toolkit's
    po2xliff and xliff2po do), by its source text in the file its location names."""

    def __init__(self, game: Game, all_units: dict[str, Unit]):
        self.game, self.all_units = game, all_units
        self.by_source: dict[str, list[Unit]] = {}
        for unit in all_units.values():
            self.by_source.setdefault(unit.value(game.source_language), []).append(unit)

    def candidates(self, entry: Entry) -> list[Unit]:
        if not entry.location:
            return []
        file, line = split_location(entry.location)
        same = [
            unit
            for unit in self.by_source.get(entry.source.strip(), [])
            if split_location(unit.location(self.game.dir))[0] == file
        ]
        if len(same) > 1 and line:
            same = [unit for unit in same if str(unit.line) == line] or same
        return same

    def find(self, entry: Entry) -> Unit | None:
        unit = self.all_units.get(entry.id)
        if unit is not None:
            return unit
        found = self.candidates(entry)
        return found[0] if len(found) == 1 else None

    def problem(self, entry: Entry, path, id_name: str) -> Problem:
        """Why an entry names no string; id_name is what the file calls the id (msgctxt ...)."""
        keep = f"keep the {id_name} that `pnpgen i18n export` wrote"
        what = f"{id_name} '{entry.id}' names no string" if entry.id else f"an entry without {id_name}"
        found = self.candidates(entry)
        if len(found) > 1:
            return Problem(
                path,
                entry.line,
                f"{what}, and {len(found)} strings at {entry.location} have its source text",
                entry.id or None,
                keep,
            )
        where = f"no string at {entry.location} has its source text" if entry.location else "no location to match it by"
        return Problem(
            path,
            entry.line,
            f"{what}, and {where}",
            entry.id or None,
            (did_you_mean(entry.id, self.all_units) if entry.id else None) or keep,
        )


def plan_entry(plan: ImportPlan, unit: Unit, entry: Entry, target: str, lock: Lock, source_lang: str) -> None:
    """A changed translation is written; it is recorded as made from the file's source unless the file
    still marks it stale. An unchanged one marked reviewed is recorded as well: a stale one the file no
    longer marks stale, an unconfirmed one the file approves (XLIFF approved="yes")."""
    lang = plan.lang
    changed = target != unit.value(lang)
    if changed:
        plan.changes.append((unit.file, unit.text.path, lang, target))
    state = lock.state(unit, lang, source_lang)
    reviewed = not entry.stale and (state == STALE or (entry.confirmed and state == UNCONFIRMED))
    if (changed and not entry.stale) or reviewed:
        plan.confirmations.append((unit.id, entry.source or unit.value(source_lang)))
    if not changed and not reviewed:
        plan.unchanged += 1
