"""Checks of one translation against its source, in the manner of translate-toolkit's pofilter.

Each check takes the source text, the translation and the context, and returns a message or None.
Placeholders are `{name}` (also icon tokens like `{icon:coal}`) and printf's `%s`/`%d`; furigana
markup `{漢字|かんじ}` is not a placeholder.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from generator.i18n.glossary import Glossary
from generator.i18n.number_words import language_numbers
from generator.render.typeset import CJK

# names for `ignore-CHECK`; `terms` compares strings with each other (i18n/terms.py)
CHECKS = ("numbers", "placeholders", "brackets", "untranslated", "glossary", "terms")
PLACEHOLDER = re.compile(r"\{[^{}|\s]+\}|%[sd]")
BRACKETS = {
    ")": "(",
    "]": "[",
    "}": "{",
    "）": "（",
    "］": "［",
    "」": "「",
    "』": "『",
    "】": "【",
    "〉": "〈",
    "》": "《",
}
LETTER = re.compile(r"[^\W\d_]")
# A copy of a source text is untranslated when it holds the source language's own script: a Japanese
# text copied into English is, a Latin name in Japanese data (a game called "sg2") is not.
OWN_SCRIPT = {"ja": re.compile(f"[{CJK}]")}


def placeholders(text: str) -> Counter:
    return Counter(PLACEHOLDER.findall(unicodedata.normalize("NFKC", text)))


def _shown(values) -> str:
    items = values.elements() if isinstance(values, Counter) else values
    return ", ".join(sorted(items)) or "none"


def check_numbers(source: str, target: str, source_lang: str, lang: str) -> str | None:
    """Whether both texts mention the same numbers; a word that may be a number (an article: "a card", "eine
    Karte") stands for the number the other text has."""
    wanted, wanted_maybe = language_numbers(source_lang).read(source)
    found, found_maybe = language_numbers(lang).read(target)
    found |= (wanted - found) & found_maybe
    wanted |= (found - wanted) & wanted_maybe
    if wanted != found:
        return f"numbers differ: the source has {_shown(wanted)}, the translation {_shown(found)}"
    return None


def check_placeholders(source: str, target: str) -> str | None:
    wanted, found = placeholders(source), placeholders(target)
    if wanted != found:
        return f"placeholders differ: the source has {_shown(wanted)}, the translation {_shown(found)}"
    return None


def unbalanced(text: str) -> str | None:
    """The first bracket without its partner, or None."""
    openers = set(BRACKETS.values())
    stack = []
    for char in text:
        if char in openers:
            stack.append(char)
        elif char in BRACKETS:
            if not stack or stack[-1] != BRACKETS[char]:
                return char
            stack.pop()
    return stack[-1] if stack else None


def check_brackets(source: str, target: str) -> str | None:
    char = unbalanced(target)
    return f"unbalanced bracket '{char}' in the translation" if char else None


def check_untranslated(source: str, target: str, glossary: Glossary, source_lang: str) -> str | None:
    script = OWN_SCRIPT.get(source_lang, LETTER)
    if target.strip() == source.strip() and script.search(source) and not glossary.keeps(source, source_lang):
        return "the translation is a copy of the source (add the word to the glossary if it is kept as is)"
    return None


def check_glossary(source: str, target: str, glossary: Glossary, source_lang: str, lang: str) -> list[str]:
    messages = []
    for term in glossary.terms_in(source, source_lang):
        if lang in term.forms and not term.found_in(target, lang):
            wanted = " or ".join(f"'{form}'" for form in term.forms[lang])
            messages.append(f"the source says '{term.forms[source_lang][0]}': the glossary translates it {wanted}")
    return messages


def without_placeholders(text: str) -> str:
    """The words a reader sees of the text itself: a placeholder's name (`{card:coal-mine}`) is not text."""
    return PLACEHOLDER.sub(" ", text)


def check_pair(source: str, target: str, glossary: Glossary, source_lang: str, lang: str) -> list[tuple[str, str]]:
    """(kind, message) for every check the translation fails."""
    words, target_words = without_placeholders(source), without_placeholders(target)
    found = [
        (kind, message)
        for kind, message in (
            ("numbers", check_numbers(words, target_words, source_lang, lang)),
            ("placeholders", check_placeholders(source, target)),
            ("brackets", check_brackets(source, target)),
            ("untranslated", check_untranslated(source, target, glossary, source_lang)),
        )
        if message
    ]
    found += [("glossary", message) for message in check_glossary(words, target_words, glossary, source_lang, lang)]
    return found
