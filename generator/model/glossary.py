"""A game's glossary (cards/<game>/glossary.yaml), read with the rest of the game: its terms, each as its forms
in every language.

    terms:
      - {ja: 内部留保, en: retained earnings}
      - {ja: [石油, 油], en: oil}   # a list: every form the translation may use (油井 for Oil Well)
      - {ja: MadF, en: MadF}        # the same in every language: kept as it is, never "untranslated"
      - {ja: 難易度, en: difficulty, avoid: {ja: [難度]}}   # a word that must not name the term in ja

Two stages use it: translation (i18n/glossary.py finds the terms in texts and checks their translations) and
the typesetting, which keeps the game's own words whole at line ends (render/vocabulary.py).
"""

from __future__ import annotations

from pathlib import Path

from generator.errors import InputError, Problem, did_you_mean
from generator.model.game import GlossaryTerm
from generator.model.schema import (
    INVALID,
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
        "a word under a term's `avoid:` must not name it, in any language. The typesetting keeps every form whole "
        "at a line's end, as it keeps card and deck names."
    ),
)


def glossary_path(game_dir: Path) -> Path | None:
    """The game's glossary file, None when it has none."""
    path = game_dir / GLOSSARY_NAME
    return path if path.is_file() else None


def load_glossary(
    game_dir: Path, languages: list[str], source_language: str, problems: list[Problem]
) -> list[GlossaryTerm]:
    """The game's glossary terms (none when it has no glossary.yaml); every mistake is appended, located."""
    path = glossary_path(game_dir)
    if path is None:
        return []
    try:
        document = load_yaml(path)
    except InputError as error:
        problems.extend(error.problems)
        return []
    checker = Checker()
    checked = GLOSSARY_SCHEMA.check(document, start(path, document), checker)
    if checker.problems or checked is INVALID:
        problems.extend(checker.problems)
        return []
    entries = document["terms"]
    terms = []
    for index, entry in enumerate(entries):
        term = _term(entry, languages, source_language, path, item_line(entries, index), f"terms[{index}]", problems)
        if term:
            terms.append(term)
    return terms


def _term(
    entry: object,
    languages: list[str],
    source_language: str,
    path: Path,
    line: int | None,
    key: str,
    problems: list[Problem],
) -> GlossaryTerm | None:
    if not isinstance(entry, dict):
        problems.append(Problem(path, line, "expected a mapping of languages to words", key))
        return None
    forms, avoid = {}, {}
    for lang, value in (entry.get("avoid") or {}).items():  # checked by the schema: a word or a list of them
        avoid[str(lang)] = [value] if isinstance(value, str) else [str(word) for word in value]
    unknown = [lang for lang in avoid if lang not in languages]
    if unknown:
        problems.append(
            Problem(path, key_line(entry, "avoid") or line, f"'{unknown[0]}' is not one of the game's languages", key)
        )
    for lang, value in entry.items():
        if lang == "avoid":
            continue
        at = key_line(entry, lang) or line
        if lang not in languages:
            problems.append(
                Problem(
                    path,
                    at,
                    f"'{lang}' is not one of the game's languages ({', '.join(languages)})",
                    f"{key}.{lang}",
                    did_you_mean(lang, languages),
                )
            )
            continue
        words = value if isinstance(value, list) else [value]
        if not words or not all(isinstance(w, str) and w.strip() for w in words):
            found = f", found {type_name(value)}" if not isinstance(value, (str, list)) else ""
            problems.append(Problem(path, at, f"expected a word or a list of words{found}", f"{key}.{lang}"))
            continue
        forms[str(lang)] = [w.strip() for w in words]
    if forms and source_language not in forms:
        problems.append(Problem(path, line, f"a term needs its {source_language} (source language) form", key))
        return None
    return GlossaryTerm(forms, line, avoid) if forms else None
