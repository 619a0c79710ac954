"""A game's glossary (cards/<game>/glossary.yaml): terms translated the same way everywhere.

    terms:
      - {ja: 内部留保, en: retained earnings}
      - {ja: 石油, en: oil}
      - {ja: [石油, 油], en: oil}   # a list: every form the translation may use (油井 for Oil Well)
      - {ja: MadF, en: MadF}        # the same in every language: kept as it is, never "untranslated"
      - {ja: 難易度, en: difficulty, avoid: {ja: [難度]}}   # a word that must not name the term in ja

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
from dataclasses import dataclass, field
from pathlib import Path

from generator.errors import InputError, Problem, did_you_mean
from generator.model.game import Game
from generator.model.schema import (
    Checker,
    Field,
    FileKind,
    LanguageCode,
    ListOf,
    MapOf,
    Object,
    OneOf,
    Str,
    start,
    type_name,
)
from generator.yamlio.positions import item_line, key_line
from generator.yamlio.read import load_yaml

GLOSSARY_NAME = "glossary.yaml"
WORDS = OneOf([Str(), ListOf(Str())], expected="a word or a list of words")
TERM = Object(
    {
        "avoid": Field(
            MapOf(LanguageCode(), WORDS, key="language"),
            doc="words that must not name the term, by language (its source language too): "
            "`avoid: {ja: [難度], en: [dice bonus]}`; the terms check finds them in every string",
        )
    },
    what="term",
    extra=True,
    doc="A term: its word (or list of forms) in each language, like `{ja: 内部留保, en: retained earnings}`.",
)
GLOSSARY_SCHEMA = Object(
    {
        "terms": Field(
            ListOf(TERM),
            required=True,
            doc=(
                "each term as its words by language, like `{ja: 内部留保, en: retained earnings}`; a list gives "
                "every form a translation may use (`{ja: [石油, 油], en: oil}`), and a term the same in every "
                "language (a name) is kept as it is"
            ),
        )
    },
    what="glossary.yaml",
)
GLOSSARY_FILE_KIND = FileKind(
    GLOSSARY_NAME,
    GLOSSARY_SCHEMA,
    doc=(
        "Terms translated the same way everywhere: a string whose source names a term must use one of the term's "
        "forms in each translation (`pnpgen i18n status` and validate check it). Latin terms match whole words in "
        "any case, with an ending (s, es, d, ed, ing; y as ies); a Japanese term is found where a word can start; "
        "a word under a term's `avoid:` must not name it, in any language."
    ),
)
LATIN_WORD = re.compile(r"[A-Za-z]")
SCRIPTS = (
    ("kanji", re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3005]")),
    ("hiragana", re.compile("[\u3040-\u309f]")),
    ("katakana", re.compile("[\u30a0-\u30ff\uff66-\uff9f]")),
)


@dataclass
class Term:
    forms: dict[str, list[str]]  # lang -> accepted forms, the first one preferred
    line: int | None
    avoid: dict[str, list[str]] = field(default_factory=dict)  # lang -> words that must not name it

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

    def kept(self) -> bool:
        """The same word in every language (a name): a copy of the source is not 'untranslated'."""
        firsts = {forms[0] for forms in self.forms.values() if forms}
        return len(firsts) == 1


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
    matches = _pattern(form).finditer(text)
    if LATIN_WORD.search(form):
        return [match.span() for match in matches]
    return [match.span() for match in matches if _word_at(text, match.start(), match.end())]


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
    """The game's glossary; an empty one when it has none. Every mistake in the file is reported."""
    path = game.dir / GLOSSARY_NAME
    if not path.is_file():
        return Glossary(None, [])
    document = load_yaml(path)
    checker = Checker()
    GLOSSARY_SCHEMA.check(document, start(path, document), checker)
    if checker.problems:
        raise InputError(checker.problems)
    entries = document["terms"]
    problems: list[Problem] = []
    terms: list[Term] = []
    for index, entry in enumerate(entries):
        line = item_line(entries, index)
        term = _term(entry, game, path, line, f"terms[{index}]", problems)
        if term:
            terms.append(term)
    if problems:
        raise InputError(problems)
    return Glossary(path, terms)


def _term(entry, game: Game, path: Path, line, key: str, problems: list) -> Term | None:
    if not isinstance(entry, dict):
        problems.append(Problem(path, line, "expected a mapping of languages to words", key))
        return None
    forms, avoid = {}, {}
    for lang, value in (entry.get("avoid") or {}).items():  # checked by the schema: a word or a list of them
        avoid[str(lang)] = [value] if isinstance(value, str) else [str(word) for word in value]
    unknown = [lang for lang in avoid if lang not in game.languages]
    if unknown:
        problems.append(
            Problem(path, key_line(entry, "avoid") or line, f"'{unknown[0]}' is not one of the game's languages", key)
        )
    for lang, value in entry.items():
        if lang == "avoid":
            continue
        at = key_line(entry, lang) or line
        if lang not in game.languages:
            problems.append(
                Problem(
                    path,
                    at,
                    f"'{lang}' is not one of the game's languages ({', '.join(game.languages)})",
                    f"{key}.{lang}",
                    did_you_mean(lang, game.languages),
                )
            )
            continue
        words = value if isinstance(value, list) else [value]
        if not words or not all(isinstance(w, str) and w.strip() for w in words):
            found = f", found {type_name(value)}" if not isinstance(value, (str, list)) else ""
            problems.append(Problem(path, at, f"expected a word or a list of words{found}", f"{key}.{lang}"))
            continue
        forms[str(lang)] = [w.strip() for w in words]
    if forms and game.source_language not in forms:
        problems.append(Problem(path, line, f"a term needs its {game.source_language} (source language) form", key))
        return None
    return Term(forms, line, avoid) if forms else None
