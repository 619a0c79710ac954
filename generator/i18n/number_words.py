"""Numbers written as words, one table per language, for the numbers check (i18n/checks.py).

One language writes a digit where another writes a word ("Draw 2 cards", "Ziehe zwei Karten", 「カードを二枚引く」),
so each text's numbers are read in its own language: digits (full-width ones as ASCII), the language's number
words, and, in Chinese, Japanese and Korean, numerals before a counter (二人, 两张, 두 장).

A word is `certain` when it is a number wherever it stands, and a `maybe` when it is as often something else:
an article ("a card", "eine Karte", "un jeton", 一张牌, 카드 한 장 are one card or just a card) or a word of
another meaning (French "neuf" is also "new", Italian "sei" also "you are", German "Elf" also the creature).
A maybe counts only where the other text has its number: it never makes two texts differ, but it may make them
agree. Ordinals count from the third on in every language: "first" and "second" are as often 先に and
やり直し as numbers, and counting "zweite" but not "second" would set German against English.

Adding a language: a LanguageNumbers in LANGUAGES, and its test in tests/test_number_words.py.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def inflected(stems: dict[str, int], endings: str) -> dict[str, int]:
    """Every form of each stem with each ending (space-separated; "-" for the bare stem)."""
    suffixes = ["" if ending == "-" else ending for ending in endings.split()]
    return {stem + suffix: value for stem, value in stems.items() for suffix in suffixes}


def counting(words: str, start: int = 1) -> dict[str, int]:
    """Space-separated words numbered from `start`."""
    return {word: value for value, word in enumerate(words.split(), start)}


@dataclass(frozen=True)
class Counted:
    """Numerals that count only before a counter (二人, 两张, 세 장) or after an ordinal prefix (第三): `numeral`
    matches a numeral, `counters` what may follow it, `value` reads it."""

    numeral: str
    counters: str
    value: Callable[[str], int]
    prefix: str = ""  # makes an ordinal of the numeral after it (第三)
    ordinals: str = ""  # counters that make an ordinal of the numeral before it (番目, 번째)
    gap: str = ""  # what may stand between numeral and counter (Korean writes a space)
    not_after: str = ""  # characters a numeral may not follow (it would end a word)

    @cached_property
    def pattern(self) -> re.Pattern:
        before = f"(?<![{self.not_after}])" if self.not_after else ""
        counters = "|".join(part for part in (self.ordinals, self.counters) if part)
        found = f"{before}(?P<numeral>{self.numeral})(?={self.gap}(?P<counter>{counters}))"
        if self.prefix:
            found += f"|(?<={self.prefix})(?P<prefixed>{self.numeral})"
        return re.compile(found)

    def read(self, text: str) -> list[str]:
        """The numerals the text counts with, ordinals of the first and second left out (see the module's doc)."""
        found: list[str] = []
        for match in self.pattern.finditer(text):
            prefixed = match.groupdict().get("prefixed")
            counter = match["counter"] or ""
            ordinal = prefixed is not None or bool(self.ordinals and re.fullmatch(self.ordinals, counter))
            numeral = str(match["numeral"] or prefixed)
            if not (ordinal and self.value(numeral) < FIRST_COUNTED_ORDINAL):
                found.append(numeral)
        return found


FIRST_COUNTED_ORDINAL = 3


@dataclass(frozen=True)
class LanguageNumbers:
    """How one language writes numbers in words (see the module's doc)."""

    certain: dict[str, int] = field(default_factory=dict)
    maybe: dict[str, int] = field(default_factory=dict)
    counted: Counted | None = None
    maybe_counted: frozenset[str] = frozenset()  # counted numerals that are maybes (一张牌 is "a card")
    spaced: bool = True  # words stand between word boundaries (not so in Japanese: ふたりで)
    particles: str = ""  # what may follow a word and still leave it whole (Korean 둘을, 하나씩)

    @cached_property
    def words(self) -> re.Pattern | None:
        names = sorted({*self.certain, *self.maybe}, key=len, reverse=True)
        if not names:
            return None
        alternatives = "|".join(map(re.escape, names))
        if not self.spaced:
            return re.compile(f"({alternatives})")
        if self.particles:
            return re.compile(rf"(?<!\w)({alternatives})(?=[{self.particles}]?(?!\w))")
        return re.compile(rf"\b({alternatives})\b", re.IGNORECASE)

    def read(self, text: str) -> tuple[set[str], set[str]]:
        """The numbers the text certainly mentions, and those its maybes may stand for."""
        certain: set[str] = set()
        maybe: set[str] = set()
        normal = unicodedata.normalize("NFKC", text)
        if self.counted is not None:
            for numeral in self.counted.read(normal):
                (maybe if numeral in self.maybe_counted else certain).add(str(self.counted.value(numeral)))
            normal = self.counted.pattern.sub(" ", normal)
        if self.words is not None:
            for match in self.words.finditer(normal):
                word = match.group(1).lower()
                if word in self.certain:
                    certain.add(str(self.certain[word]))
                else:
                    maybe.add(str(self.maybe[word]))
        certain |= {found.replace(",", "") for found in NUMBER.findall(normal)}
        return certain, maybe - certain


KANJI_DIGITS = {**dict(zip("一二三四五六七八九", range(1, 10))), "两": 2, "兩": 2}
KANJI_UNITS = {"十": 10, "百": 100, "千": 1000}


def kanji_number(numeral: str) -> int:
    """二十三 -> 23, 百 -> 100, 两 -> 2."""
    total = digit = 0
    for char in numeral:
        if char in KANJI_DIGITS:
            digit = KANJI_DIGITS[char]
        else:
            total += (digit or 1) * KANJI_UNITS[char]
            digit = 0
    return total + digit


ENGLISH = LanguageNumbers(
    certain={
        **counting("zero one two three four five six seven eight nine ten eleven twelve", 0),
        **counting("third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth", 3),
        "twenty": 20,
        "thirty": 30,
        "forty": 40,
        "fifty": 50,
        "hundred": 100,
        "twice": 2,
    },
    # "a ship" is 1隻 and "an action" 1回. Not "once": "at once" is as often すぐに.
    maybe={"a": 1, "an": 1},
)

GERMAN = LanguageNumbers(
    certain={
        **counting("null eins zwei drei vier fünf sechs sieben acht neun zehn", 0),
        "zwölf": 12,
        "zwo": 2,
        "zwanzig": 20,
        "dreißig": 30,
        "vierzig": 40,
        "fünfzig": 50,
        "hundert": 100,
        **inflected(counting("dritt viert fünft sechst siebt acht neunt zehnt elft zwölft", 3), "e en er es em"),
        **counting("zweimal dreimal viermal fünfmal", 2),  # not "einmal": as often "once" as "at some time"
    },
    maybe={**inflected({"ein": 1}, "- e en em er es"), "elf": 11},  # the article; "Elf" the creature
)

FRENCH = LanguageNumbers(
    certain={
        **counting("zéro", 0),
        **counting("deux trois quatre cinq six sept huit", 2),
        **counting("dix onze douze", 10),
        "vingt": 20,
        "trente": 30,
        "quarante": 40,
        "cinquante": 50,
        "cent": 100,
        **inflected(
            counting("troisième quatrième cinquième sixième septième huitième neuvième dixième onzième douzième", 3),
            "- s",
        ),
    },
    maybe={"un": 1, "une": 1, "neuf": 9},  # the article; "neuf" is also "new"
)

SPANISH = LanguageNumbers(
    certain={
        **counting("cero", 0),
        **counting("dos tres cuatro cinco seis siete ocho nueve diez once doce", 2),
        "veinte": 20,
        "treinta": 30,
        "cuarenta": 40,
        "cincuenta": 50,
        "cien": 100,
        "ciento": 100,
        "tercer": 3,
        **inflected(counting("tercer cuart quint sext séptim octav noven décim", 3), "o a os as"),
    },
    maybe={"un": 1, "una": 1, "uno": 1},  # the article; "cada uno" is "each"
)

ITALIAN = LanguageNumbers(
    certain={
        **counting("zero", 0),
        **counting("due tre quattro cinque", 2),
        **counting("sette otto nove dieci undici dodici", 7),
        "venti": 20,
        "trenta": 30,
        "quaranta": 40,
        "cinquanta": 50,
        "cento": 100,
        **inflected(counting("terz quart quint sest settim ottav non decim", 3), "o a i e"),
    },
    maybe={"un": 1, "uno": 1, "una": 1, "sei": 6},  # the article; "sei" is also "you are"
)

PORTUGUESE = LanguageNumbers(
    certain={
        **counting("zero", 0),
        "dois": 2,
        "duas": 2,
        **counting("três quatro cinco seis sete oito nove dez onze doze", 3),
        "vinte": 20,
        "trinta": 30,
        "quarenta": 40,
        "cinquenta": 50,
        "cem": 100,
        "cento": 100,
        **inflected(counting("terceir quart quint sext sétim oitav non décim", 3), "o a os as"),
    },
    maybe={"um": 1, "uma": 1},  # the article
)

JAPANESE = LanguageNumbers(
    certain={"ひとり": 1, "ふたり": 2},
    # Kanji numerals count only before a counter (二人, 二十年) or after 第, not in words like 一次.
    counted=Counted("[一二三四五六七八九十百千]+", "[人つ個枚冊段回年色台本番位倍点]", kanji_number, "第", "番目"),
    spaced=False,
)

CHINESE = LanguageNumbers(
    counted=Counted(
        "[一二三四五六七八九十百千两兩]+",
        "[个個张張人名位次回轮輪点點枚块塊种種格步倍号號本份堆组組]",
        kanji_number,
        "第",
    ),
    maybe_counted=frozenset({"一"}),  # 抽一张牌: "draw a card"
)

KOREAN_UNITS = counting("한 두 세 네 다섯 여섯 일곱 여덟 아홉")  # native numerals in the form before a counter
KOREAN_TENS = {"열": 10, "스물": 20, "스무": 20}


def korean_number(numeral: str) -> int:
    """열두 -> 12, 스무 -> 20, 세 -> 3."""
    for word, tens in KOREAN_TENS.items():
        if numeral.startswith(word):
            rest = numeral[len(word) :]
            return tens + (KOREAN_UNITS[rest] if rest else 0)
    return KOREAN_UNITS[numeral]


KOREAN = LanguageNumbers(
    certain={**counting("하나 둘 셋 넷"), **counting("셋째 넷째 다섯째 여섯째 일곱째 여덟째 아홉째 열째", 3)},
    counted=Counted(
        f"(?:열|스물)?(?:{'|'.join(sorted(KOREAN_UNITS, key=len, reverse=True))})|열|스무",
        "장|명|개|번|칸|가지|턴|라운드|마리|배|쌍|묶음",
        korean_number,
        ordinals="번째",
        gap=" ?",
        not_after="가-힣",
    ),
    maybe_counted=frozenset({"한"}),  # 카드 한 장: "a card"
    particles="을를이가은는의에도만과와씩로",
)

LANGUAGES: dict[str, LanguageNumbers] = {
    "en": ENGLISH,
    "de": GERMAN,
    "fr": FRENCH,
    "es": SPANISH,
    "it": ITALIAN,
    "pt": PORTUGUESE,
    "ja": JAPANESE,
    "zh": CHINESE,
    "ko": KOREAN,
}
DIGITS_ONLY = LanguageNumbers()


def language_numbers(lang: str) -> LanguageNumbers:
    """The table of a language code (`pt-BR` and `zh-Hant` read as pt and zh); digits only for one not known."""
    return LANGUAGES.get(lang.lower().replace("_", "-").split("-")[0], DIGITS_ONLY)
