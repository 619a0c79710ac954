"""A game's glossary (cards/<game>/glossary.yaml, read with the game: model/glossary.py) found in texts: terms
translated the same way everywhere.

A string whose source contains a term must use one of the term's forms in each translation. Latin
terms match whole words, in any case, with an ending (s, es, d, ed, ing; y as ies). A Japanese term is found in a
source text only where a word can start: at a BudouX phrase start or after a character of another script
(so 点 is found in 2点を得る but not in 得点を得る), and a katakana term not inside a longer katakana word.
Where a longer term of the glossary holds a shorter one, the longer is named there and the shorter not
(企業価値 names worth, not 企業, company).
In a translation a Japanese form may stand anywhere (油 in 油井 is the oil of Oil Well). A word under
`avoid:` names the term in a way the game does not use, in any language, the source too (i18n/terms.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from generator.model.game import Game, GlossaryTerm
from generator.model.glossary import glossary_path

LATIN_WORD = re.compile(r"[A-Za-z]")
SCRIPTS = (
    ("kanji", re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3005]")),
    ("hiragana", re.compile("[\u3040-\u309f]")),
    ("katakana", re.compile("[\u30a0-\u30ff\uff66-\uff9f]")),
)


class Term(GlossaryTerm):
    """A term of the game's glossary (model/glossary.py), found in texts."""

    def avoided_in(self, text: str, lang: str) -> list[str]:
        """The words to avoid that the text uses, as words of their own."""
        return [word for word in self.avoid.get(lang, []) if _names(text, word)]

    def found_in(self, text: str, lang: str) -> bool:
        """Whether a translation uses one of the forms."""
        return bool(self.forms_in(text, lang))

    def forms_in(self, text: str, lang: str) -> list[str]:
        """The forms a translation uses."""
        return [form for form in self.forms.get(lang, []) if _pattern(form).search(text)]

    def spans_in(self, text: str, lang: str) -> list[tuple[int, int]]:
        """Where a text names the term, as (start, end) of each word of its own."""
        return [span for form in self.forms.get(lang, []) for span in _word_spans(text, form)]


@dataclass
class Glossary:
    path: Path | None
    terms: list[Term]

    def terms_in(self, text: str, lang: str) -> list[Term]:
        """The terms a text names, a term inside a longer term's word left out (企業 in 企業価値)."""
        spans = [(term, term.spans_in(text, lang)) for term in self.terms]
        words = [(term, span) for term, found in spans for span in found]

        def inside(term: Term, start: int, end: int) -> bool:
            return any(other is not term and a <= start and end <= b and b - a > end - start for other, (a, b) in words)

        return [term for term, found in spans if any(not inside(term, *span) for span in found)]

    def keeps(self, text: str, source_lang: str) -> bool:
        """Whether text is a term the glossary keeps the same in every language."""
        return any(term.kept() and text.strip() in term.forms.get(source_lang, []) for term in self.terms)


def _names(text: str, form: str) -> bool:
    """Whether text holds form as a word of its own (a Latin word whole, a Japanese one where a word starts)."""
    return bool(_word_spans(text, form))


def _word_spans(text: str, form: str) -> list[tuple[int, int]]:
    if not LATIN_WORD.search(form) and form not in text:  # most texts name no given term: skip the search
        return []
    matches = _pattern(form).finditer(text)
    if LATIN_WORD.search(form):
        return [match.span() for match in matches]
    return [match.span() for match in matches if _word_at(text, match.start(), match.end())]


@lru_cache(maxsize=4096)  # a status check searches every text for every form of every term
def _pattern(form: str) -> re.Pattern:
    if LATIN_WORD.search(form):
        words = r"[\s\-]+".join(re.escape(word) for word in form.split())
        if re.search(r"[^aeiou]y$", form, re.IGNORECASE):  # company, companies
            words = words[:-1] + "(?:y|ies)"
        return re.compile(rf"(?<![A-Za-z]){words}(?:s|es|d|ed|ing)?(?![A-Za-z])", re.IGNORECASE)
    return re.compile(re.escape(form))


def _script(char: str) -> str:
    return next((name for name, pattern in SCRIPTS if pattern.match(char)), "other")


def _word_at(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is a word of its own in Japanese text (see the module's docstring)."""
    if _script(text[end - 1]) == "katakana" and end < len(text) and _script(text[end]) == "katakana":
        return False
    if start == 0 or _script(text[start - 1]) != _script(text[start]):
        return True
    return start in _phrase_starts(text)


def _phrase_starts(text: str) -> set[int]:
    from generator.render.typeset import phrases

    starts, position = set(), 0
    for phrase in phrases(text):
        starts.add(position)
        position += len(phrase)
    return starts


def read_glossary(game: Game) -> Glossary:
    """The game's glossary, as the game was loaded with it (model/glossary.py); an empty one when it has none."""
    return Glossary(glossary_path(game.dir), [Term(term.forms, term.line, term.avoid) for term in game.glossary])
