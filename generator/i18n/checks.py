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
from generator.render.typeset import CJK

# names for `ignore-CHECK`; `terms` compares strings with each other (i18n/terms.py)
CHECKS = ("numbers", "placeholders", "brackets", "untranslated", "glossary", "terms")
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
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


NUMBER_WORDS = {
    word: str(value)
    for value, word in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())
}
NUMBER_WORDS.update(twenty="20", thirty="30", forty="40", fifty="50", hundred="100", twice="2")
# Ordinals are numbers too: "the third player" is 3番目のプレイヤー. Not "first" and "second" (nor "once"):
# "scores first", "the second try" and "at once" are as often 先に, やり直し and すぐに as numbers.
NUMBER_WORDS.update(
    {
        word: str(value)
        for value, word in enumerate("third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split(), 3)
    }
)
# "a ship" is 1隻 and "an action" 1回: an article stands for a 1 the other text writes as a digit.
ARTICLE = re.compile(r"\b(a|an)\b", re.IGNORECASE)
ENGLISH_NUMBER = re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r")\b", re.IGNORECASE)
KANJI_DIGITS = dict(zip("一二三四五六七八九", range(1, 10)))
KANJI_UNITS = {"十": 10, "百": 100, "千": 1000}
# Kanji numerals count as a number only before a counter (二人, 二十年), not in words like 一次.
KANJI_COUNT = re.compile(
    "([一二三四五六七八九十百千]+)(?=[人つ個枚冊段回年色台本番位倍点])|(?<=第)([一二三四五六七八九十百千]+)"
)
JAPANESE_PEOPLE = {"ひとり": "1人", "ふたり": "2人"}


def kanji_number(numeral: str) -> str:
    total = digit = 0
    for char in numeral:
        if char in KANJI_DIGITS:
            digit = KANJI_DIGITS[char]
        else:
            total += (digit or 1) * KANJI_UNITS[char]
            digit = 0
    return str(total + digit)


def numbers(text: str) -> set[str]:
    """The numbers a text mentions: full-width digits read as ASCII ones, 1,000 as 1000, and numbers
    written as words (six, 二冊, ふたり) as digits, since one language writes digits where the other
    writes words. A set: 'gold and silver, 9 each' mentions the 9 of '9 gold and 9 silver'."""
    normal = unicodedata.normalize("NFKC", text)
    normal = ENGLISH_NUMBER.sub(lambda m: NUMBER_WORDS[m.group(1).lower()], normal)
    normal = KANJI_COUNT.sub(lambda m: kanji_number(m.group(1) or m.group(2)), normal)
    for word, digits in JAPANESE_PEOPLE.items():
        normal = normal.replace(word, digits)
    return {match.replace(",", "") for match in NUMBER.findall(normal)}


def placeholders(text: str) -> Counter:
    return Counter(PLACEHOLDER.findall(unicodedata.normalize("NFKC", text)))


def _shown(values) -> str:
    items = values.elements() if isinstance(values, Counter) else values
    return ", ".join(sorted(items)) or "none"


def check_numbers(source: str, target: str) -> str | None:
    wanted, found = numbers(source), numbers(target)
    if wanted - found == {"1"} and ARTICLE.search(target):
        found = found | {"1"}
    if found - wanted == {"1"} and ARTICLE.search(source):
        wanted = wanted | {"1"}
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
            ("numbers", check_numbers(words, target_words)),
            ("placeholders", check_placeholders(source, target)),
            ("brackets", check_brackets(source, target)),
            ("untranslated", check_untranslated(source, target, glossary, source_lang)),
        )
        if message
    ]
    found += [("glossary", message) for message in check_glossary(words, target_words, glossary, source_lang, lang)]
    return found
