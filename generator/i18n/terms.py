"""One word for one thing: the `terms` check, which compares strings with each other rather than one
translation with its source.

- The same source text translated two ways: the card's label ダイス補正 is "Dice bonus", the rules' table
  says "Dice modifier". Texts are compared as a reader would: case, spacing, a numbering mark in front (①,
  "2.", "(2)") and a full stop at the end aside, and English plurals as their singular (Player aid, Player
  aids).
- A glossary term whose listed forms compete: the strings naming the term use forms that are different
  words ("dice bonus" here, "dice modifier" there), not forms of one word (share / share certificate,
  石炭 / 炭, dice / die: one holds the other, or they differ by one letter).
- A word the glossary says to avoid for a term, in any language, the source too: the same thing named two
  ways in one language (`avoid: {ja: [難度]}` beside 難易度).

`pnpgen i18n status` and `pnpgen serve` list the findings with the other checks (silenced per string and
language with `--ignore terms`); `pnpgen validate` reports them as problems.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

from generator.errors import Problem
from generator.i18n.checks import without_placeholders
from generator.i18n.glossary import LATIN_WORD, Glossary, Term
from generator.i18n.lock import Lock
from generator.i18n.strings import Unit
from generator.model.game import Game

KIND = "terms"
NUMBERING = re.compile(r"^\s*(?:[\u2460-\u2473\u24f5-\u24fe]|\(\d+\)|\d+[.)](?!\d))\s*")  # ①, (1), 1., 1)
LATIN_PLURAL = re.compile(r"(?<=[a-z]{3})s\b")
EXAMPLES = 2  # other strings named in a message


def comparable(text: str) -> str:
    """A text as a reader compares it with another (see the module's docstring)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = NUMBERING.sub("", " ".join(text.split()))
    return LATIN_PLURAL.sub("", text).rstrip("。.:：")


def term_findings(
    game: Game, all_units: dict[str, Unit], glossary: Glossary, lock: Lock
) -> list[tuple[Unit, str, str]]:
    """(string, language, message) for every string the terms check flags, those silenced left out."""
    found = same_source_findings(game, all_units) + competing_form_findings(game, all_units, glossary)
    found += avoided_findings(game, all_units, glossary)
    return [(unit, lang, message) for unit, lang, message in found if KIND not in lock.ignored_checks(unit.id, lang)]


def same_source_findings(game: Game, all_units: dict[str, Unit]) -> list[tuple[Unit, str, str]]:
    source_lang = game.source_language
    groups: dict[str, list[Unit]] = {}
    for unit in all_units.values():
        if unit.value(source_lang):
            groups.setdefault(comparable(unit.value(source_lang)), []).append(unit)
    found = []
    for group in groups.values():
        for lang in game.languages:
            if lang == source_lang or len(group) < 2:
                continue
            ways = {unit.id: comparable(unit.value(lang)) for unit in group if unit.value(lang)}
            for unit, others in minorities(group, ways):
                message = (
                    f"'{unit.value(source_lang)}' is translated '{unit.value(lang)}' here but "
                    f"'{others[0].value(lang)}' in {named(others)}: say it one way"
                )
                found.append((unit, lang, message))
    return found


def competing_form_findings(game: Game, all_units: dict[str, Unit], glossary: Glossary) -> list:
    source_lang = game.source_language
    found = []
    several = [term for term in glossary.terms if any(len(forms) > 1 for forms in term.forms.values())]
    terms_named = (
        {
            unit.id: {
                id(term) for term in glossary.terms_in(without_placeholders(unit.value(source_lang)), source_lang)
            }
            for unit in all_units.values()
        }
        if several
        else {}
    )
    for term in several:
        naming = [unit for unit in all_units.values() if id(term) in terms_named[unit.id]]
        for lang, forms in term.forms.items():
            if lang == source_lang or len(forms) < 2:
                continue
            ways = {}
            for unit in naming:
                used = forms_used(term, without_placeholders(unit.value(lang)), lang)
                if used:
                    ways[unit.id] = "/".join(sorted(used))
            groups = variant_groups(set(ways.values()))
            grouped = {unit_id: groups[way] for unit_id, way in ways.items()}
            for unit, others in minorities(naming, grouped):
                message = (
                    f"the glossary's '{term.forms[source_lang][0]}' is '{ways[unit.id]}' here but "
                    f"'{ways[others[0].id]}' in {named(others)}: one term, one translation (the glossary lists "
                    f"{', '.join(forms)}; keep the forms of one word)"
                )
                found.append((unit, lang, message))
    return found


def avoided_findings(game: Game, all_units: dict[str, Unit], glossary: Glossary) -> list:
    found = []
    for term in glossary.terms:
        for lang in term.avoid:
            preferred = term.forms.get(lang, [""])[0]
            for unit in all_units.values():
                for word in term.avoided_in(without_placeholders(unit.value(lang)), lang):
                    say = f": say '{preferred}'" if preferred else ""
                    found.append((unit, lang, f"'{word}' names what the glossary calls '{preferred}'{say}"))
    return found


def forms_used(term: Term, text: str, lang: str) -> set[str]:
    """The term's forms a translation uses, a form inside another one it uses left out (炭 in 石炭)."""
    used = set(term.forms_in(text, lang))
    return {form for form in used if not any(form != other and form.casefold() in other.casefold() for other in used)}


def variant_groups(ways: set[str]) -> dict[str, str]:
    """Each way a term is translated, mapped to the first of the ways that are forms of the same word."""
    group: dict[str, str] = {}
    for way in sorted(ways, key=len):
        group[way] = next((first for first in dict.fromkeys(group.values()) if variants(first, way)), way)
    return group


def variants(one: str, other: str) -> bool:
    """Forms of one word: every form of one is held by, or one letter away from, a form of the other."""
    return all(any(_close(a, b) for b in other.split("/")) for a in one.split("/"))


def _close(a: str, b: str) -> bool:
    a, b = a.casefold(), b.casefold()
    if a in b or b in a:
        return True
    if not (LATIN_WORD.search(a) and " " not in a and " " not in b and min(len(a), len(b)) >= 3):
        return False
    return one_edit(a, b)


def one_edit(a: str, b: str) -> bool:
    """Whether b is a with at most one letter added, removed or changed (die, dice)."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i + (len(a) == len(b)) :] == b[i + 1 :]


def minorities(units: Iterable[Unit], ways: dict[str, str]) -> list[tuple[Unit, list[Unit]]]:
    """(unit, the units that say it the usual way) for each unit saying it another way. The usual way is the
    most common one, the first string's on a tie."""
    counts = Counter(ways.values())
    if len(counts) < 2:
        return []
    order = {way: index for index, way in enumerate(dict.fromkeys(ways.values()))}
    usual = max(counts, key=lambda way: (counts[way], -order[way]))
    by_id = {unit.id: unit for unit in units}
    others = [by_id[unit_id] for unit_id, way in ways.items() if way == usual]
    return [(by_id[unit_id], others) for unit_id, way in ways.items() if way != usual]


def named(units: list[Unit]) -> str:
    shown = ", ".join(f"{unit.id} ({unit.location()})" for unit in units[:EXAMPLES])
    more = len(units) - EXAMPLES
    return shown + (f" and {more} more" if more > 0 else "")


def term_problems(game: Game, all_units: dict[str, Unit], glossary: Glossary, lock: Lock) -> list[Problem]:
    """The terms check as validate's problems: each at its string's file and line."""
    return [
        Problem(unit.file, unit.line, f"{lang} terms: {message}", unit.id)
        for unit, lang, message in term_findings(game, all_units, glossary, lock)
    ]
