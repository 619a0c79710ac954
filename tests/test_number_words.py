"""Numbers written as words in each language pnpgen knows (i18n/number_words.py), and the numbers check that
compares a translation's numbers with its source's."""

from __future__ import annotations

import pytest

from generator.i18n.checks import check_numbers
from generator.i18n.number_words import LANGUAGES, language_numbers
from test_i18n import edit, status


def read(text: str, lang: str) -> tuple[set[str], set[str]]:
    return language_numbers(lang).read(text)


# (language, text, the numbers it certainly mentions, those it may mean): every table, each kind of word in it
READINGS = [
    ("en", "Draw two cards, then the third player scores twice.", {"2", "3"}, set()),
    ("en", "Take a coin and an action.", set(), {"1"}),
    ("en", "The second player goes first at once.", set(), set()),
    ("de", "Ziehe zwei Karten; der dritte Spieler erhält zwölf Münzen.", {"2", "3", "12"}, set()),
    ("de", "Nimm einen Marker und eine Karte.", set(), {"1"}),
    ("de", "Der zweite Spieler würfelt dreimal; eins bleibt.", {"3", "1"}, set()),
    ("de", "Der Elf greift an.", set(), {"11"}),
    ("fr", "Piochez deux cartes ; le troisième joueur gagne douze pièces.", {"2", "3", "12"}, set()),
    ("fr", "Prenez un jeton neuf et une carte.", set(), {"1", "9"}),
    ("es", "Roba dos cartas; el tercer jugador gana once monedas.", {"2", "3", "11"}, set()),
    ("es", "Cada uno toma una carta.", set(), {"1"}),
    ("it", "Pesca due carte; il terzo giocatore guadagna dodici monete.", {"2", "3", "12"}, set()),
    ("it", "Se sei il primo giocatore, prendi una carta.", set(), {"6", "1"}),
    ("pt", "Compre duas cartas; o terceiro jogador ganha dez moedas.", {"2", "3", "10"}, set()),
    ("pt", "Pegue um marcador e uma carta.", set(), {"1"}),
    ("ja", "手札を二枚引く。三番目のプレイヤーは第四の手番にふたりで行う。", {"2", "3", "4"}, set()),
    ("ja", "第二の手番。一次選考。", set(), set()),  # "second"; 一次 is no count
    ("zh", "抽两张牌，第三位玩家获得十二点。", {"2", "3", "12"}, set()),
    ("zh", "抽一张牌，一起行动。", set(), {"1"}),
    ("ko", "카드 두 장을 뽑고, 세 번째 플레이어는 열두 개가 아니라 열 개를 얻습니다.", {"2", "3", "12", "10"}, set()),
    ("ko", "카드 한 장을 뽑습니다. 두 번째 플레이어가 둘을 고릅니다.", {"2"}, {"1"}),
    ("ko", "셋째 라운드에 하나씩 냅니다.", {"3", "1"}, set()),
]


@pytest.mark.parametrize(("lang", "text", "certain", "maybe"), READINGS, ids=[r[0] + "-" + r[1][:12] for r in READINGS])
def test_each_language_reads_its_number_words(lang, text, certain, maybe):
    assert read(text, lang) == (certain, maybe)


def test_every_language_pnpgen_knows_has_a_table_and_a_test():
    assert set(LANGUAGES) >= {"en", "ja", "de", "fr", "es", "it", "pt", "zh", "ko"}
    assert {lang for lang, *_ in READINGS} == set(LANGUAGES)
    assert language_numbers("pt-BR") is LANGUAGES["pt"] and language_numbers("zh-Hant") is LANGUAGES["zh"]
    assert read("drei Karten, 4 Münzen", "sv") == ({"4"}, set())  # a language without a table: digits only


@pytest.mark.parametrize(
    ("source", "target", "langs"),
    [
        ("Draw two cards.", "Ziehe zwei Karten.", ("en", "de")),
        ("手札を1枚引く。", "Ziehe eine Karte.", ("ja", "de")),  # the article stands for the 1
        ("Draw a card.", "Ziehe 1 Karte.", ("en", "de")),
        ("Gain 3 coins.", "Gagnez trois pièces.", ("en", "fr")),
        ("The third player", "El tercer jugador", ("en", "es")),
        ("Score twice.", "Segna due volte.", ("en", "it")),
        ("Draw 2 cards.", "Compre duas cartas.", ("en", "pt")),
        ("カードを2枚引く。", "抽两张牌。", ("ja", "zh")),
        ("Draw a card.", "카드 한 장을 뽑습니다.", ("en", "ko")),
        ("The second round", "Die zweite Runde", ("en", "de")),  # neither counts the second
        ("An elf attacks.", "Ein Elf greift an.", ("en", "de")),  # "Elf" is a maybe: no 11 here
    ],
)
def test_translations_with_the_same_numbers_pass(source, target, langs):
    assert check_numbers(source, target, *langs) is None


@pytest.mark.parametrize(
    ("source", "target", "langs", "message"),
    [
        ("Draw two cards.", "Ziehe drei Karten.", ("en", "de"), "the source has 2, the translation 3"),
        ("手札を1枚引く。", "Ziehe zwei Karten.", ("ja", "de"), "the source has 1, the translation 2"),
        ("Draw a card.", "Piochez deux cartes.", ("en", "fr"), "the source has none, the translation 2"),
        ("Gain 3 coins.", "Gana cuatro monedas.", ("en", "es"), "the source has 3, the translation 4"),
        ("カードを2枚引く。", "抽三张牌。", ("ja", "zh"), "the source has 2, the translation 3"),
        ("Draw 2 cards.", "카드 세 장을 뽑습니다.", ("en", "ko"), "the source has 2, the translation 3"),
    ],
)
def test_a_translation_whose_number_word_differs_is_flagged(source, target, langs, message):
    assert message in check_numbers(source, target, *langs)


def test_i18n_status_flags_a_german_translation_whose_number_word_differs(cli, small_game):
    edit(small_game / "game.yaml", "languages: [ja, en]", "languages: [ja, en, de]")
    deck = small_game / "decks" / "cards.yaml"
    edit(deck, "en: Draw 1 card.}", "en: Draw 1 card., de: Ziehe zwei Karten.}")
    edit(deck, "en: Score 2 points.}", "en: Score 2 points., de: Erhalte zwei Punkte.}")
    discards = "en: Any one player discards 1 card."
    edit(deck, discards + "}", discards + ", de: Ein Spieler wirft eine Karte ab.}")
    report = status(cli, small_game, "--lang", "de")
    numbers = [problem for problem in report["problems"] if problem["kind"] == "numbers"]
    assert [problem["id"] for problem in numbers] == ["cards[apple].text"]
    assert "the source has 1, the translation 2" in numbers[0]["message"]
