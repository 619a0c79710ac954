"""pnpgen i18n: status, stale detection, PO/XLIFF/CSV round trips, import validation, checks."""

import json
import shutil
import subprocess
import re
from pathlib import Path

import pytest

from conftest import copy_game
from generator.i18n.checks import check_brackets, check_numbers, check_placeholders, check_pair
from generator.i18n.exchange.formats import read
from generator.i18n.glossary import Glossary, Term

FORMATS = {"po": "po", "xliff": "xlf", "csv": "csv"}


def snapshot(game_dir: Path) -> dict:
    return {p.relative_to(game_dir): p.read_bytes() for p in sorted(game_dir.rglob("*")) if p.is_file()}


def status(cli, game, *extra):
    result = cli("i18n", "status", game, "--json", "--no-layout", *extra)
    assert result.code in (0, 1), result
    return json.loads(result.out)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("game", ["greed-inc", "ikkin", "mint-rails"])
def test_seed_games_are_fully_translated_and_confirmed(cli, game):
    report = status(cli, game)
    target = next(lang for lang in report["languages"] if lang != report["source_language"])
    counts = report["languages"][target]
    assert counts["total"] > 50
    assert counts["translated"] == counts["total"]
    assert (counts["missing"], counts["stale"], counts["unconfirmed"]) == (0, 0, 0)
    assert report["overflow_checked"] is False  # --no-layout


@pytest.mark.parametrize("fmt", FORMATS)
def test_export_then_import_leaves_every_file_byte_identical(cli, tmp_path, fmt):
    game = copy_game("ikkin", tmp_path)
    before = snapshot(game)
    exported = tmp_path / f"en.{FORMATS[fmt]}"
    assert cli("i18n", "export", game, "--lang", "en", "--format", fmt, "-o", exported, "--no-layout").code == 0
    result = cli("i18n", "import", game, exported)
    assert result.code == 0, result
    total = status(cli, game)["languages"]["en"]["total"]
    assert f"0 en translation(s) written, 0 confirmed, {total} unchanged" in result.out
    assert snapshot(game) == before


@pytest.mark.parametrize("fmt", FORMATS)
def test_edited_translations_are_written_in_place_and_restored_exactly(cli, tmp_path, fmt):
    game = copy_game("greed-inc", tmp_path)
    before = snapshot(game)
    exported = tmp_path / f"ja.{FORMATS[fmt]}"
    assert cli("i18n", "export", game, "--lang", "ja", "-o", exported, "--no-layout").code == 0
    text = exported.read_text(encoding="utf-8-sig")
    edited = tmp_path / f"edited.{FORMATS[fmt]}"
    edited.write_text(text.replace("石炭", "石炭（改）"), encoding="utf-8")
    assert cli("i18n", "import", game, edited).code == 0
    goods = (game / "decks" / "goods.yaml").read_text(encoding="utf-8")
    assert "name: {ja: 石炭（改）, en: Coal}" in goods
    changed = [
        line
        for line, old in zip(goods.splitlines(), before[Path("decks/goods.yaml")].decode().splitlines())
        if line != old
    ]
    assert len(changed) == 1  # one string, one line: comments and layout untouched
    assert cli("i18n", "import", game, exported).code == 0
    assert snapshot(game) == before


def test_po_export_has_context_location_and_notes(cli, tmp_path):
    exported = tmp_path / "en.po"
    assert cli("i18n", "export", "ikkin", "--lang", "en", "-o", exported, "--no-layout").code == 0
    text = exported.read_text(encoding="utf-8")
    assert '"Content-Type: text/plain; charset=UTF-8\\n"' in text
    assert '"Language: en\\n"' in text
    entry = re.search(
        r"#\. card \'hattori-takeshi\', name\n#: decks/employees\.yaml:\d+\n"
        r'msgctxt "cards\[hattori-takeshi\]\.name"\nmsgid "服部武志"\nmsgstr "(.+)"\n',
        text,
    )
    assert entry, text[:2000]


def test_changed_source_makes_exactly_that_string_stale(cli, small_game, tmp_path):
    assert status(cli, small_game)["languages"]["en"]["stale"] == 0
    edit(small_game / "decks" / "cards.yaml", "name: {ja: 洋なし,", "name: {ja: 西洋なし,")
    report = status(cli, small_game)
    assert report["languages"]["en"]["stale"] == 1
    stale = [p for p in report["problems"] if p["kind"] == "stale"]
    assert [(p["id"], p["owner"], p["field"], p["lang"]) for p in stale] == [("cards[pear].name", "pear", "name", "en")]
    assert stale[0]["file"].endswith("cards.yaml") and stale[0]["line"] == 15
    assert "洋なし" in stale[0]["message"]  # what the source said when the translation was made

    exported = tmp_path / "en.po"
    assert cli("i18n", "export", small_game, "--lang", "en", "-o", exported, "--no-layout").code == 0
    text = exported.read_text(encoding="utf-8")
    assert text.count("#, fuzzy") == 1
    assert '#, fuzzy\n#| msgid "洋なし"\nmsgctxt "cards[pear].name"\nmsgid "西洋なし"' in text
    xliff = tmp_path / "en.xlf"
    assert cli("i18n", "export", small_game, "--lang", "en", "-o", xliff, "--no-layout").code == 0
    assert [e.id for e in read(xliff).entries if e.stale] == ["cards[pear].name"]

    assert cli("i18n", "confirm", small_game, "cards[pear].name").code == 0
    assert status(cli, small_game)["languages"]["en"]["stale"] == 0


def test_reviewed_translation_in_po_is_confirmed_on_import(cli, small_game, tmp_path):
    edit(small_game / "decks" / "cards.yaml", "name: {ja: 洋なし,", "name: {ja: 西洋なし,")
    exported = tmp_path / "en.po"
    cli("i18n", "export", small_game, "--lang", "en", "-o", exported, "--no-layout")
    edit(exported, '#, fuzzy\n#| msgid "洋なし"\n', "")  # what Poedit does when the translator accepts it
    assert cli("i18n", "import", small_game, exported).code == 0
    assert status(cli, small_game)["languages"]["en"]["stale"] == 0


def test_import_with_an_unknown_id_writes_nothing(cli, small_game, tmp_path):
    exported = tmp_path / "en.po"
    cli("i18n", "export", small_game, "--lang", "en", "-o", exported, "--no-layout")
    edit(exported, 'msgstr "Apple"', 'msgstr "Green apple"')
    exported.write_text(
        exported.read_text(encoding="utf-8") + '\nmsgctxt "cards[banana].name"\nmsgid "バナナ"\nmsgstr "Banana"\n',
        encoding="utf-8",
    )
    before = snapshot(small_game)
    result = cli("i18n", "import", small_game, exported)
    assert result.code == 2
    line = exported.read_text(encoding="utf-8").splitlines().index('msgctxt "cards[banana].name"') + 1
    assert (
        f"en.po:{line}: cards[banana].name: msgctxt 'cards[banana].name' names no string, and no location to "
        "match it by" in result.err
    )
    assert snapshot(small_game) == before


def test_import_of_a_wrong_language_or_changed_placeholder_writes_nothing(cli, small_game, tmp_path):
    exported = tmp_path / "en.csv"
    cli("i18n", "export", small_game, "--lang", "en", "-o", exported, "--no-layout")
    before = snapshot(small_game)
    wrong = tmp_path / "ja.csv"
    wrong.write_text(exported.read_text(encoding="utf-8-sig").replace(",en\n", ",ja\n"), encoding="utf-8")
    result = cli("i18n", "import", small_game, wrong)
    assert result.code == 2 and "wrong language 'ja'" in result.err
    placeholder = tmp_path / "placeholder.csv"
    placeholder.write_text(
        exported.read_text(encoding="utf-8-sig").replace("Draw 1 card.", "Draw {n} card."), encoding="utf-8"
    )
    result = cli("i18n", "import", small_game, placeholder)
    assert result.code == 2 and "placeholders differ" in result.err and "cards[apple].text" in result.err
    assert snapshot(small_game) == before


def test_numbers_are_compared_with_full_width_digits_and_number_words():
    assert check_numbers("手札を１枚引く。", "Draw 1 card.", "ja", "en") is None
    assert check_numbers("6面体", "six-sided", "ja", "en") is None
    assert check_numbers("帳簿は二冊。", "Two sets of books.", "ja", "en") is None
    assert "the source has 2" in check_numbers("2点を得る。", "Score 3 points.", "ja", "en")


def test_placeholders_brackets_and_untranslated_copies():
    assert check_placeholders("{icon:coal}を1つ得る", "Gain 1 {icon:coal}") is None
    assert check_placeholders("{漢字|かんじ}", "kanji") is None  # furigana is not a placeholder
    assert "placeholders differ" in check_placeholders("{n}点", "points")
    assert check_brackets("", "price trend (one per good)") is None
    assert "unbalanced" in check_brackets("", "price trend (one per good")
    glossary = Glossary(None, [Term({"en": ["MadF"], "ja": ["MadF"]}, 1)])
    assert [kind for kind, _ in check_pair("石炭", "石炭", glossary, "ja", "en")] == ["untranslated"]
    assert check_pair("MadF", "MadF", glossary, "en", "ja") == []


def test_glossary_terms_must_be_used_in_the_translation():
    glossary = Glossary(None, [Term({"ja": ["内部留保"], "en": ["retained earnings"]}, 1)])
    assert check_pair("内部留保を1点得る", "Gain 1 retained-earnings point", glossary, "ja", "en") == []
    problems = check_pair("内部留保を1点得る", "Gain 1 savings point", glossary, "ja", "en")
    assert [kind for kind, _ in problems] == ["glossary"]
    assert "'retained earnings'" in problems[0][1]


def test_glossary_file_mistakes_are_located(cli, small_game):
    (small_game / "glossary.yaml").write_text("terms:\n  - {ja: 点, fr: point}\n", encoding="utf-8")
    result = cli("i18n", "status", small_game, "--no-layout")
    assert result.code == 2
    assert "glossary.yaml:2: terms[0].fr: 'fr' is not one of the game's languages" in result.err


def test_status_reports_a_glossary_problem_with_its_card_and_field(cli, small_game):
    edit(small_game / "decks" / "cards.yaml", "en: Score 2 points.", "en: Score 2 victory marks.")
    cli("i18n", "confirm", small_game)
    report = status(cli, small_game)
    assert report["languages"]["en"]["glossary"] == 1
    [problem] = [p for p in report["problems"] if p["kind"] == "glossary"]
    assert (problem["owner_kind"], problem["owner"], problem["field"]) == ("card", "grapes", "text")


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_reads_back_what_it_wrote(tmp_path, fmt):
    from generator.i18n.exchange.entries import Entry, Exchange
    from generator.i18n.exchange.formats import write

    tricky = 'a "quoted" word,\nsecond line with a \\ backslash\tand a tab & <tag>'
    entries = [
        Entry(
            "cards[a].text",
            tricky,
            tricky.upper(),
            stale=True,
            previous="old\nsource",
            note="card 'a'",
            width_mm=40.5,
            height_mm=12,
            location="decks/a.yaml:3",
        ),
        Entry("title", "題名", ""),
    ]
    path = tmp_path / f"out.{FORMATS[fmt]}"
    path.write_text(write(Exchange("g", "ja", "en", entries), fmt), encoding="utf-8")
    back = read(path)
    assert back.target_lang == "en" and back.source_lang == ("" if fmt == "csv" else "ja")
    assert [(e.id, e.source, e.target, e.stale) for e in back.entries] == [
        (e.id, e.source, e.target, e.stale) for e in entries
    ]


def test_every_format_notes_what_a_string_is_and_the_box_it_fits():
    import csv
    import io

    from generator.i18n.exchange.entries import Entry, Exchange
    from generator.i18n.exchange.formats import write

    entries = [
        Entry("cards[a].name", "名前", "Name", note="card 'a', name", width_mm=48, height_mm=11.5),
        Entry("title", "題名", "Title", note="game title"),
    ]
    exchange = Exchange("g", "ja", "en", entries)
    xliff = write(exchange, "xliff")
    assert "<note from=\"developer\">card 'a', name; fits a 48 x 11.5 mm box</note>" in xliff
    assert '<note from="developer">game title</note>' in xliff
    rows = list(csv.DictReader(io.StringIO(write(exchange, "csv").lstrip("\ufeff"))))
    assert [row["developer_comments"] for row in rows] == ["card 'a', name; fits a 48 x 11.5 mm box", "game title"]
    assert "#. card 'a', name\n#. fits a 48 x 11.5 mm box\n" in write(exchange, "po")


@pytest.mark.skipif(not shutil.which("msgfmt"), reason="gettext's msgfmt is not installed")
def test_gettext_accepts_the_po_file_with_a_fuzzy_entry(cli, small_game, tmp_path):
    edit(small_game / "decks" / "cards.yaml", "name: {ja: 洋なし,", "name: {ja: 西洋なし,")
    exported = tmp_path / "en.po"
    cli("i18n", "export", small_game, "--lang", "en", "-o", exported, "--no-layout")
    result = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "/dev/null", exported], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert "9 translated messages, 1 fuzzy translation" in result.stderr


@pytest.mark.parametrize("game", ["greed-inc", "ikkin", "mint-rails"])
def test_committed_lock_files_are_current_and_confirming_again_changes_nothing(cli, tmp_path, game):
    copy = copy_game(game, tmp_path)
    before = snapshot(copy)
    result = cli("i18n", "confirm", copy)
    assert result.code == 0 and "confirmed 0 translation(s); nothing to change" in result.out
    assert snapshot(copy) == before


def test_a_registered_text_source_such_as_rule_blocks_is_translated_like_cards(cli, small_game, tmp_path, monkeypatch):
    from generator.model import texts as inventory
    from generator.model.game import Text

    def rule_blocks(game):
        yield (
            "rules[setup].text",
            Text({"ja": "各プレイヤーは手札を3枚引く。", "en": ""}, game.files["game"], 2, ("title",)),
        )

    monkeypatch.setattr(inventory, "TEXT_SOURCES", [*inventory.TEXT_SOURCES, rule_blocks])
    report = status(cli, small_game)
    [missing] = [p for p in report["problems"] if p["kind"] == "missing"]
    assert (missing["id"], missing["owner_kind"], missing["owner"], missing["field"]) == (
        "rules[setup].text",
        "rule block",
        "setup",
        "text",
    )
    exported = tmp_path / "en.po"
    cli("i18n", "export", small_game, "--lang", "en", "-o", exported, "--no-layout")
    assert "#. rule block 'setup', text\n" in exported.read_text(encoding="utf-8")


def test_a_translation_made_from_an_older_source_stays_stale_after_import(cli, small_game, tmp_path):
    exported = tmp_path / "en.po"
    cli("i18n", "export", small_game, "--lang", "en", "-o", exported, "--no-layout")
    edit(small_game / "decks" / "cards.yaml", "name: {ja: 洋なし,", "name: {ja: 西洋なし,")  # changed meanwhile
    edit(exported, 'msgstr "Pear"', 'msgstr "Pear!"')
    assert cli("i18n", "import", small_game, exported).code == 0
    assert "name: {ja: 西洋なし, en: Pear!}" in (small_game / "decks" / "cards.yaml").read_text(encoding="utf-8")
    report = status(cli, small_game)
    assert [p["id"] for p in report["problems"] if p["kind"] == "stale"] == ["cards[pear].name"]


def test_a_placeholder_name_is_not_read_as_a_glossary_term():
    from generator.i18n.checks import check_pair
    from generator.i18n.glossary import Glossary, Term

    glossary = Glossary(None, [Term({"en": ["Coal"], "ja": ["石炭"]}, None)])
    assert (
        check_pair("{card:coal-mine} moves the trend", "{card:coal-mine}でトレンドが動く", glossary, "en", "ja") == []
    )
    assert check_pair("Coal rises", "価格が上がる", glossary, "en", "ja")


def plant_hand_terms(game_dir: Path, second: str) -> None:
    """Two cards naming 手札 (hand): the glossary lists a second form, and the pear's text uses it."""
    (game_dir / "glossary.yaml").write_text(
        f"terms:\n  - {{ja: 手札, en: [hand, {second}]}}\n  - {{ja: 点, en: point}}\n", encoding="utf-8"
    )
    cards = game_dir / "decks" / "cards.yaml"
    edit(cards, "en: Draw 1 card.}", "en: Draw 1 card into your hand.}")
    edit(cards, "en: Any one player discards 1 card.}", f"en: Any one player discards 1 card from their {second}.}}")


def test_a_second_translation_of_a_glossary_term_fails_the_terms_check(cli, small_game):
    plant_hand_terms(small_game, "hand")  # one translation everywhere: nothing to say
    cli("i18n", "confirm", small_game)
    assert status(cli, small_game)["problems"] == []
    assert cli("validate", small_game).code == 0
    # the glossary lets a second translation in, and one string uses it
    copy_of = small_game
    edit(small_game / "glossary.yaml", "en: [hand, hand]", "en: [hand, holding]")
    edit(small_game / "decks" / "cards.yaml", "from their hand.", "from their holding.")
    cli("i18n", "confirm", copy_of)
    report = status(cli, copy_of)
    [finding] = report["problems"]
    assert (finding["kind"], finding["lang"], finding["id"]) == ("terms", "en", "cards[pear].text")
    assert "'hand' in cards[apple].text" in finding["message"] and "'holding' here" in finding["message"]
    assert report["languages"]["en"]["terms"] == 1 and report["languages"]["en"]["glossary"] == 0
    assert cli("i18n", "status", copy_of, "--no-layout").code == 1
    result = cli("validate", copy_of, "--json")
    assert result.code == 1
    [problem] = [p for p in json.loads(result.out)["problems"] if "terms" in p["message"]]
    assert problem["file"] == "decks/cards.yaml" and problem["message"].startswith("cards[pear].text: en terms: ")
    # silenced for that string and language
    assert cli("i18n", "confirm", copy_of, "cards[pear].text", "--lang", "en", "--ignore", "terms").code == 0
    assert status(cli, copy_of)["problems"] == [] and cli("validate", copy_of).code == 0


def test_one_source_text_translated_two_ways(cli, small_game):
    edit(small_game / "components.yaml", "name: {ja: カード, en: Cards}", "name: {ja: カード, en: Card stock}")
    cli("i18n", "confirm", small_game)
    [finding] = [p for p in status(cli, small_game)["problems"] if p["kind"] == "terms"]
    assert finding["id"] == "decks[cards].name"  # one against one: the first string's way is the usual one
    assert "'カード' is translated 'Cards' here but 'Card stock' in components[cards].name" in finding["message"]


def test_a_word_the_glossary_avoids_is_found_in_the_source_language_too(cli, small_game):
    edit(small_game / "glossary.yaml", "  - {ja: 点, en: point}", "  - {ja: 点, en: point, avoid: {ja: [得点]}}")
    edit(small_game / "decks" / "cards.yaml", "text: {ja: 2点を得る。", "text: {ja: 2得点を得る。")
    cli("i18n", "confirm", small_game)
    [finding] = [p for p in status(cli, small_game)["problems"] if p["kind"] == "terms"]
    assert (finding["lang"], finding["id"]) == ("ja", "cards[grapes].text")
    assert "'得点' names what the glossary calls '点'" in finding["message"]


def test_forms_of_one_word_are_not_two_translations():
    from generator.i18n.terms import variant_groups

    groups = variant_groups({"dice", "die", "dice modifier", "dice bonus"})
    assert groups["die"] == groups["dice"]
    assert groups["dice modifier"] != groups["dice bonus"]
    assert len(set(variant_groups({"share", "share certificate", "石炭", "炭"}).values())) == 2


def test_serve_lists_the_terms_problem_on_its_string(small_game, face_cache_dir):
    from conftest import Served

    plant_hand_terms(small_game, "holding")
    served = Served(small_game, face_cache_dir)
    try:
        state = served.request("/api/state")[1]
        problems = state["strings"]["cards[pear].text"]["problems"]
        assert [(p["kind"], p["lang"]) for p in problems if p["kind"] == "terms"] == [("terms", "en")]
        assert "terms" in state["kinds"] and state["counts"]["en"]["terms"] == 1
    finally:
        served.stop()


def test_a_term_inside_a_longer_term_is_not_named_there_and_y_plurals_match():
    company = Term({"ja": ["企業"], "en": ["company"]}, None)
    worth = Term({"ja": ["企業価値"], "en": ["worth"]}, None)
    oil = Term({"ja": ["石油"], "en": ["oil"]}, None)
    glossary = Glossary(None, [company, worth, oil])
    assert glossary.terms_in("4つの企業があります", "ja") == [company]
    assert glossary.terms_in("企業価値カード", "ja") == [worth]  # 企業価値 is worth, a term of its own
    assert glossary.terms_in("企業の企業価値", "ja") == [company, worth]
    assert glossary.terms_in("企業が石油を買う", "ja") == [company, oil]  # two words of their own: both named
    assert company.found_in("four railway companies", "en") and company.found_in("a company", "en")
    assert not company.found_in("accompany", "en")


@pytest.mark.parametrize(
    ("game", "path", "old", "new", "avoided"),
    [
        ("greed-inc", "rules.yaml", "新設会社の権利を競ります", "新しい会社の権利を競ります", "新しい会社"),
        ("greed-inc", "rules.yaml", "Open the main board", "Open the game board", "game board"),
        ("greed-inc", "components.yaml", "note: {ja: 価格トラック用", "note: {ja: 価格マーカー", "価格マーカー"),
        ("ikkin", "rules.yaml", "発注主は、山札の", "手番のプレイヤーは、山札の", "手番のプレイヤー"),
        ("mint-rails", "rules.yaml", "どの企業の{株券|かぶけん}でも買え", "どの会社の{株券|かぶけん}でも買え", "会社"),
    ],
)
def test_the_kits_glossaries_catch_a_second_name_coming_back(cli, tmp_path, game, path, old, new, avoided):
    """One word for each thing in the kits: a name the glossary avoids, written back into a kit's text, fails
    `pnpgen i18n status` (exit 1) at that string."""
    copy = copy_game(game, tmp_path)
    assert cli("i18n", "status", copy, "--no-layout").code == 0
    edit(copy / path, old, new)
    cli("i18n", "confirm", copy)
    result = cli("i18n", "status", copy, "--json", "--no-layout")
    assert result.code == 1
    found = [p for p in json.loads(result.out)["problems"] if p["kind"] == "terms"]
    assert any(f"'{avoided}' names what the glossary calls" in p["message"] for p in found), found
