"""`pnpgen i18n status`'s report: per language, what is translated, missing, stale, overflowing or
inconsistent with the glossary, and every problem with its file, line, card (or rule block) and field."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.errors import display_path
from generator.i18n.checks import check_pair
from generator.i18n.glossary import Glossary
from generator.i18n.lock import STALE, UNCONFIRMED, Lock
from generator.i18n.strings import OWNER_KINDS, Unit, unit_for_card_field
from generator.i18n.terms import KIND, term_findings
from generator.model.game import Game
from generator.model.table.places import text_place
from generator.render.fit_report import CardFit
from generator.render.own_words import missing_words


@dataclass
class Finding:
    """One problem with one string (or text box) in one language."""

    kind: str  # missing, stale, unconfirmed, overflow, glossary, terms, numbers, placeholders, brackets, untranslated
    lang: str
    message: str
    file: Path | None
    line: int | None
    owner_kind: str
    owner: str
    field: str
    string: str | None = None  # the string id, when the problem is about a string

    def where(self) -> str:
        location = display_path(self.file) if self.file else "?"
        return f"{location}:{self.line}" if self.line else location

    def as_json(self) -> dict:
        return {
            "kind": self.kind,
            "lang": self.lang,
            "id": self.string,
            "file": str(self.file) if self.file else None,
            "line": self.line,
            "owner_kind": self.owner_kind,
            "owner": self.owner,
            "field": self.field,
            "message": self.message,
        }


@dataclass
class LanguageStatus:
    lang: str
    source: bool
    total: int = 0
    translated: int = 0
    missing: int = 0
    stale: int = 0
    unconfirmed: int = 0
    overflowing: int | None = None  # None when the layout was not checked
    glossary: int = 0
    terms: int = 0  # strings that name one thing two ways (i18n/terms.py)
    checks: int = 0  # numbers, placeholders, brackets, untranslated
    own_words: int = 0  # pnpgen's words the game prints with no text in the language (render/own_words.py)

    def as_json(self) -> dict:
        return dict(self.__dict__)


@dataclass
class StatusReport:
    game: Game
    languages: dict[str, LanguageStatus]
    findings: list[Finding] = field(default_factory=list)
    layout_note: str | None = None  # why overflow was not checked

    def as_json(self) -> dict:
        return {
            "game": self.game.id,
            "source_language": self.game.source_language,
            "languages": {lang: status.as_json() for lang, status in self.languages.items()},
            "overflow_checked": self.layout_note is None,
            "overflow_note": self.layout_note,
            "problems": [finding.as_json() for finding in self.findings],
        }


def unit_finding(kind: str, lang: str, unit: Unit, message: str) -> Finding:
    return Finding(kind, lang, message, unit.file, unit.line, unit.owner_kind, unit.owner, unit.field, unit.id)


def game_status(
    game: Game,
    all_units: dict[str, Unit],
    lock: Lock,
    glossary: Glossary,
    fits: list[CardFit] | None,
    langs: list[str] | None = None,
) -> StatusReport:
    source_lang = game.source_language
    chosen = langs or game.languages
    report = StatusReport(
        game, {lang: LanguageStatus(lang, lang == source_lang, total=len(all_units)) for lang in chosen}
    )
    for unit in all_units.values():
        source = unit.value(source_lang)
        for lang in chosen:
            found = string_findings(report.languages[lang], unit, source, lock, glossary, source_lang)
            for finding in found:
                place = text_place(game, unit.text, lang) if finding.kind == "missing" else None
                if place is not None:
                    finding.message += f" ({place.what_to_do()})"  # a spreadsheet's row: which column
            report.findings += found
    for word in missing_words(game, chosen):  # pnpgen's words the game prints, no label translates: each listed
        report.languages[word.lang].own_words += 1  # apart from the game's strings, which exchange files carry
        unit = Unit(word.string_id, word.text, OWNER_KINDS["labels"], word.label, "text")
        report.findings.append(unit_finding("missing", word.lang, unit, f"{word.message()}: {word.hint()}"))
    for unit, lang, message in term_findings(game, all_units, glossary, lock):
        if lang in report.languages:
            report.languages[lang].terms += 1
            report.findings.append(unit_finding(KIND, lang, unit, message))
    if fits is not None:
        for status in report.languages.values():
            status.overflowing = 0
        for fit in fits:
            if fit.overflow_mm > 0 and fit.lang in report.languages:
                status = report.languages[fit.lang]
                status.overflowing = (status.overflowing or 0) + 1  # counted from 0 just above
                report.findings.append(overflow_finding(game, all_units, fit))
    return report


def string_findings(
    status: LanguageStatus, unit: Unit, source: str, lock: Lock, glossary: Glossary, source_lang: str
) -> list[Finding]:
    """Count one string in one language and say what is wrong with it."""
    lang, target = status.lang, unit.value(status.lang)
    if not target:
        status.missing += 1
        return [unit_finding("missing", lang, unit, f"no {lang} text")]
    status.translated += 1
    if status.source or not source:
        return []
    found = []
    state = lock.state(unit, lang, source_lang)
    if state == STALE:
        status.stale += 1
        before = lock.previous_source(unit, lang)
        was = f" (it was made from '{before}')" if before is not None else ""
        found.append(
            unit_finding(
                "stale",
                lang,
                unit,
                f"the {source_lang} source changed since this translation "
                f"was made{was}; re-translate, or confirm with `pnpgen i18n confirm`",
            )
        )
    elif state == UNCONFIRMED:
        status.unconfirmed += 1
        found.append(
            unit_finding(
                "unconfirmed",
                lang,
                unit,
                "no record of the source this translation was made from; `pnpgen i18n confirm` records the current one",
            )
        )
    silenced = lock.ignored_checks(unit.id, lang)
    for kind, message in check_pair(source, target, glossary, source_lang, lang):
        if kind in silenced:
            continue
        if kind == "glossary":
            status.glossary += 1
        else:
            status.checks += 1
        found.append(unit_finding(kind, lang, unit, message))
    return found


def overflow_finding(game: Game, all_units: dict[str, Unit], fit: CardFit) -> Finding:
    message = fit.overflow_text() + (f" (back of deck '{fit.deck}')" if fit.side == "back" else "")
    unit = unit_for_card_field(all_units, fit.card, fit.field) if fit.side == "front" else None
    if unit is not None:
        return unit_finding("overflow", fit.lang, unit, message)
    card = next((c for c in game.decks[fit.deck].cards if c.id == fit.card), None)
    return Finding(
        "overflow",
        fit.lang,
        message,
        card.file if card else game.decks[fit.deck].file,
        card.line if card else None,
        "card",
        fit.card,
        fit.field,
    )
