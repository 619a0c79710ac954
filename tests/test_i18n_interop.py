"""Translation files as translators' tools read and write them (translate-toolkit, polib, Weblate's and
Poedit's XLIFF states), strict readers, silenced checks and where caches go."""

import re
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from translate.storage import factory

from conftest import copy_game
from generator.errors import InputError
from generator.i18n.exchange import Entry, Exchange, read, write
from test_i18n import FORMATS, edit, snapshot, status


def convert(tool: str, source: Path, target: Path, *options) -> None:
    """Run one of translate-toolkit's converters as a translator would."""
    result = subprocess.run(
        [Path(sys.executable).parent / tool, *options, str(source), str(target)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


def export(cli, game, lang, path: Path) -> Path:
    result = cli("i18n", "export", game, "--lang", lang, "-o", path, "--no-layout")
    assert result.code == 0, result
    return path


def forget_confirmation(game: Path, string_id: str) -> None:
    """As if the translation had been written by hand: the lock knows nothing about it."""
    lock = game / "i18n.lock.yaml"
    lines = lock.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [line for line in lines if not line.startswith(f'  "{string_id}":')]
    assert len(kept) == len(lines) - 1
    lock.write_text("".join(kept), encoding="utf-8")


def xliff_units(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    return {m.group(1): m.group(0) for m in re.finditer(r'<trans-unit id="([^"]+)"[^>]*>.*?</trans-unit>', text, re.S)}


# --- XLIFF states --------------------------------------------------------------------------------------------


def test_greed_inc_xliff_marks_confirmed_units_approved_and_translate_toolkit_counts_them_translated(cli, tmp_path):
    path = export(cli, "greed-inc", "ja", tmp_path / "ja.xlf")
    units = xliff_units(path)
    assert units and all('approved="yes"' in unit and 'state="signed-off"' in unit for unit in units.values())
    store = factory.getobject(str(path))
    translated = [unit for unit in store.units if unit.istranslated() and not unit.isreview()]
    assert len(translated) == len(units) and not any(unit.isfuzzy() for unit in store.units)
    assert all(unit.get_state_n() >= unit.S_SIGNED_OFF for unit in store.units)  # pocount: reviewed


def test_stale_missing_and_unconfirmed_units_carry_states_weblate_flags_for_editing(cli, small_game, tmp_path):
    edit(small_game / "decks" / "cards.yaml", "name: {ja: 洋なし,", "name: {ja: 西洋なし,")  # stale
    edit(small_game / "decks" / "cards.yaml", "name: {ja: ぶどう, en: Grapes}", "name: {ja: ぶどう}")  # missing
    forget_confirmation(small_game, "cards[apple].text")  # unconfirmed
    path = export(cli, small_game, "en", tmp_path / "en.xlf")
    units = xliff_units(path)
    assert 'state="needs-translation"' in units["cards[pear].name"] and "approved" not in units["cards[pear].name"]
    assert '<note from="previous-source">洋なし</note>' in units["cards[pear].name"]
    assert 'state="new"' in units["cards[grapes].name"]
    assert 'approved="no"' in units["cards[apple].text"] and 'state="translated"' in units["cards[apple].text"]
    assert 'approved="yes"' in units["cards[apple].name"]
    store = {unit.getid().split("\x04")[-1]: unit for unit in factory.getobject(str(path)).units}
    assert store["cards[pear].name"].isfuzzy() and not store["cards[grapes].name"].istranslated()


def test_an_approved_unit_confirms_a_hand_written_translation(cli, small_game, tmp_path):
    forget_confirmation(small_game, "cards[apple].text")
    assert status(cli, small_game)["languages"]["en"]["unconfirmed"] == 1
    path = export(cli, small_game, "en", tmp_path / "en.xlf")
    edit(path, 'approved="no"', 'approved="yes"')  # a reviewer approves it in Weblate
    assert cli("i18n", "import", small_game, path).code == 0
    assert status(cli, small_game)["languages"]["en"]["unconfirmed"] == 0


# --- translate-toolkit and polib round trips -------------------------------------------------------------------


def test_csv_has_translate_toolkits_columns_and_csv2po_output_imports(cli, tmp_path):
    game = copy_game("greed-inc", tmp_path)
    path = export(cli, game, "ja", tmp_path / "ja.csv")
    header = path.read_text(encoding="utf-8-sig").splitlines()[0].split(",")
    assert header[:4] == ["location", "source", "target", "context"]
    edited = tmp_path / "edited.csv"
    edited.write_text(path.read_text(encoding="utf-8-sig").replace(",石炭,", ",石炭（改）,", 1), encoding="utf-8")
    po = tmp_path / "from-csv.po"
    convert("csv2po", edited, po)
    assert 'msgctxt "cards[coal].name"' in po.read_text(encoding="utf-8")
    result = cli("i18n", "import", game, po, "--lang", "ja")
    assert result.code == 0, result
    assert "name: {ja: 石炭（改）, en: Coal}" in (game / "decks" / "goods.yaml").read_text(encoding="utf-8")


def test_po_through_po2xliff_and_back_through_xliff2po_imports(cli, small_game, tmp_path):
    """po2xliff and xliff2po drop msgctxt; the location and the source still name the string."""
    po = export(cli, small_game, "en", tmp_path / "en.po")
    edit(po, 'msgstr "Pear"', 'msgstr "Pear (ripe)"')
    xliff = tmp_path / "en.xlf"
    convert("po2xliff", po, xliff)
    assert "cards[pear]" not in xliff.read_text(encoding="utf-8")  # the id is gone
    assert cli("i18n", "import", small_game, xliff, "--lang", "en").code == 0
    assert "name: {ja: 洋なし, en: Pear (ripe)}" in (small_game / "decks" / "cards.yaml").read_text(encoding="utf-8")

    ours = export(cli, small_game, "en", tmp_path / "ours.xlf")
    back = tmp_path / "back.po"
    convert("xliff2po", ours, back)
    edit(back, 'msgstr "Pear (ripe)"', 'msgstr "Pear"')
    before = snapshot(small_game)
    result = cli("i18n", "import", small_game, back, "--lang", "en")  # xliff2po does not keep the language
    assert result.code == 0, result
    assert "name: {ja: 洋なし, en: Pear}" in (small_game / "decks" / "cards.yaml").read_text(encoding="utf-8")
    assert status(cli, small_game)["languages"]["en"]["unconfirmed"] == 0
    assert snapshot(small_game) != before


def test_po2csv_output_without_string_ids_imports(cli, small_game, tmp_path):
    po = export(cli, small_game, "en", tmp_path / "en.po")
    edit(po, 'msgstr "Pear"', 'msgstr "Pear (ripe)"')
    csv_file = tmp_path / "en.csv"
    convert("po2csv", po, csv_file)
    assert csv_file.read_text(encoding="utf-8").startswith('"location","source","target"')
    assert cli("i18n", "import", small_game, csv_file, "--lang", "en").code == 0
    assert "name: {ja: 洋なし, en: Pear (ripe)}" in (small_game / "decks" / "cards.yaml").read_text(encoding="utf-8")


def test_a_new_language_filled_in_with_polib_imports(cli, small_game, tmp_path):
    edit(small_game / "game.yaml", "languages: [ja, en]", "languages: [ja, en, de]")
    path = export(cli, small_game, "de", tmp_path / "de.po")
    catalog = polib.pofile(str(path))
    assert len(catalog) == 10 and catalog.percent_translated() == 0
    german = {"cards[apple].name": "Apfel", "cards[apple].text": "Ziehe 1 Karte.", "cards[pear].name": "Birne"}
    for entry in catalog:
        entry.msgstr = german.get(entry.msgctxt, "")
    catalog.metadata["Language"] = "de_DE"
    catalog.save(str(path))
    result = cli("i18n", "import", small_game, path)
    assert result.code == 0 and "3 de translation(s) written, 3 confirmed" in result.out, result
    cards = (small_game / "decks" / "cards.yaml").read_text(encoding="utf-8")
    assert "name: {ja: りんご, en: Apple, de: Apfel}" in cards and "de: Ziehe 1 Karte." in cards
    counts = status(cli, small_game, "--lang", "de")["languages"]["de"]
    assert (counts["translated"], counts["missing"], counts["unconfirmed"]) == (3, 7, 0)


@pytest.mark.parametrize("tag", ["ja_JP", "ja-JP", "ja_JP.UTF-8"])
def test_a_po_saved_with_a_region_tag_imports(cli, tmp_path, tag):
    game = copy_game("greed-inc", tmp_path)
    path = export(cli, game, "ja", tmp_path / "ja.po")
    edit(path, '"Language: ja\\n"', f'"Language: {tag}\\n"')
    edit(path, 'msgstr "石炭"', 'msgstr "石炭（改）"')
    result = cli("i18n", "import", game, path)
    assert result.code == 0 and "1 ja translation(s) written" in result.out, result


def test_region_tags_are_matched_to_the_games_languages():
    from generator.i18n.transfer import match_language

    assert match_language("pt_BR", ["en", "pt-BR", "pt"]) == "pt-BR"
    assert match_language("pt_BR", ["en", "pt"]) == "pt"
    assert match_language("zh_TW", ["en", "zh-Hans", "zh-Hant"]) == "zh-Hant"
    assert match_language("zh", ["en", "zh-Hans", "zh-Hant"]) is None  # which one is not said
    assert match_language("fr_FR", ["en", "ja"]) is None


# --- strict readers (issue 16, finding 10) -----------------------------------------------------------------------

PO_HEAD = 'msgid ""\nmsgstr ""\n"Language: en\\n"\n\n'


@pytest.mark.parametrize(
    "body, line, message",
    [
        ('msgctxt "a"\nmsgid "x"\nmsgstr "\\x41"\n', 7, "'\\x' is not a gettext escape"),
        ('msgctxt "a"\nmsgid "x"\nmsgstr "ends in \\"\n', 7, "ends in a backslash"),
        ('msgctxt "a"\nmsgid "x"\nmsgstr "say "hi" now"\n', 7, "quote inside the string is not escaped"),
        (
            'msgctxt "a"\nmsgid "x"\nmsgstr "one"\n\nmsgctxt "a"\nmsgid "y"\nmsgstr "two"\n',
            9,
            "msgctxt 'a' appears twice (first at line 5)",
        ),
    ],
)
def test_malformed_po_files_are_located_errors(tmp_path, body, line, message):
    path = tmp_path / "bad.po"
    path.write_text(PO_HEAD + body, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read(path)
    [problem] = caught.value.problems
    assert problem.line == line and message in problem.message


def test_duplicate_trans_unit_ids_and_short_csv_rows_are_located_errors(tmp_path):
    unit = '<trans-unit id="a"><source>x</source><target>y</target></trans-unit>'
    xliff = tmp_path / "bad.xlf"
    xliff.write_text(
        f'<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="g" '
        f'source-language="ja" target-language="en" datatype="plaintext"><body>\n{unit}\n{unit}\n'
        "</body></file></xliff>",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as caught:
        read(xliff)
    message = "trans-unit id 'a' appears twice (first at line 2)"
    assert [(p.line, p.message) for p in caught.value.problems] == [(3, message)]
    two_files = tmp_path / "two.xlf"
    body = (
        f'<file original="g" source-language="ja" target-language="en" datatype="plaintext"><body>{unit}</body></file>'
    )
    two_files.write_text(
        f'<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">{body}{body}</xliff>', encoding="utf-8"
    )
    with pytest.raises(InputError, match="2 <file> elements"):
        read(two_files)
    rows = tmp_path / "short.csv"
    rows.write_text("location,source,target,context\nx:1,りんご,Apple,a\nx:2,なし\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read(rows)
    [problem] = caught.value.problems
    assert problem.line == 3 and "the translation is column 3" in problem.message


CONTROL = "line\rcarriage, next\x85line, sep\u2028arator, feed\x0cform, vertical\x0btab, bell\x07 end"


@pytest.mark.parametrize("fmt", FORMATS)
def test_control_characters_are_escaped_on_export_and_read_back(tmp_path, fmt):
    path = tmp_path / f"out.{FORMATS[fmt]}"
    entries = [
        Entry("cards[a].text", CONTROL, CONTROL.upper(), location="decks/a.yaml:3"),
        Entry("cards[b].text", "b", '=HYPERLINK("http://x")'),
    ]
    path.write_text(write(Exchange("g", "ja", "en", entries), fmt), encoding="utf-8")
    with path.open(encoding="utf-8", newline="") as file:
        raw = file.read()
    if fmt != "csv":  # a quoted CSV cell holds any character as it is
        assert not re.search("[\x0b\x0c\r]", raw)
    back = read(path)
    assert [(e.id, e.source, e.target) for e in back.entries] == [(e.id, e.source, e.target) for e in entries]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_translation_with_line_separators_goes_into_the_yaml_and_comes_back(cli, small_game, tmp_path, fmt):
    text = "Pe\x85ar\u2028x\u2029y"  # YAML reads NEL and U+2028/2029 as line breaks unless escaped
    path = tmp_path / f"en.{FORMATS[fmt]}"
    exchange = Exchange(
        "small", "ja", "en", [Entry("cards[pear].name", "洋なし", text, location="decks/cards.yaml:15")]
    )
    path.write_text(write(exchange, fmt), encoding="utf-8")
    result = cli("i18n", "import", small_game, path)
    assert result.code == 0 and "1 en translation(s) written" in result.out, result
    assert cli("validate", small_game).code == 0
    again = export(cli, small_game, "en", tmp_path / f"again.{FORMATS[fmt]}")
    assert {e.id: e.target for e in read(again).entries}["cards[pear].name"] == text


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    "text, shown",
    [
        ("Pe\x00ar", "U+0000 (NUL), at character 3"),
        ("Pe\x0car", "U+000C (FORM FEED), at character 3"),
        ("Pear\x1b[0m", "U+001B (ESCAPE), at character 5"),
        ("\u2028", "only invisible characters (U+2028)"),
    ],
)
def test_a_translation_with_control_characters_is_a_located_error(cli, small_game, tmp_path, fmt, text, shown):
    before = snapshot(small_game)
    path = tmp_path / f"en.{FORMATS[fmt]}"
    exchange = Exchange("small", "ja", "en", [Entry("cards[pear].name", "洋なし", text)])
    path.write_text(write(exchange, fmt), encoding="utf-8")
    if fmt == "po" and "\x00" in text:
        pytest.skip("a PO file holds NUL only as an escape, which its reader checks")
    result = cli("i18n", "import", small_game, path)
    assert result.code == 2, result
    assert f"en.{FORMATS[fmt]}:" in result.err and "cards[pear].name: " in result.err
    assert shown in result.err and "Traceback" not in result.err
    assert snapshot(small_game) == before


def test_csv_cells_that_look_like_formulas_are_neutralised_and_restored(cli, small_game, tmp_path):
    edit(small_game / "decks" / "cards.yaml", "en: Draw 1 card.", 'en: \'=HYPERLINK("http://x","1 card")\'')
    edit(small_game / "decks" / "cards.yaml", "en: Pear}", 'en: "\'@Pear"}')
    before = snapshot(small_game)
    path = export(cli, small_game, "en", tmp_path / "en.csv")
    text = path.read_text(encoding="utf-8-sig")
    assert "'=HYPERLINK" in text and "''@Pear" in text
    assert not re.search(r'(^|,)"?[=+\-@]', text, re.M)  # no cell starts like a formula
    assert cli("i18n", "import", small_game, path).code == 0
    assert snapshot(small_game) == before


# --- silenced checks, numbers and the glossary ---------------------------------------------------------------


def test_a_check_silenced_for_one_string_is_kept_in_the_lock_and_carried_through_po_and_xliff(
    cli, small_game, tmp_path
):
    edit(small_game / "decks" / "cards.yaml", "en: Draw 1 card.", "en: Draw cards.")
    cli("i18n", "confirm", small_game)
    report = status(cli, small_game)
    assert [(p["kind"], p["id"]) for p in report["problems"]] == [("numbers", "cards[apple].text")]
    result = cli("i18n", "status", small_game, "--no-layout")
    assert "--ignore CHECK" in result.out
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    subprocess.run(["cp", "-r", str(small_game), str(fresh)], check=True)

    result = cli("i18n", "confirm", small_game, "cards[apple].text", "--lang", "en", "--ignore", "numbers")
    assert result.code == 0 and "numbers silenced" in result.out
    assert status(cli, small_game)["problems"] == []
    assert "ignore:" in (small_game / "i18n.lock.yaml").read_text(encoding="utf-8")
    po = export(cli, small_game, "en", tmp_path / "en.po")
    assert '#, ignore-numbers\nmsgctxt "cards[apple].text"' in po.read_text(encoding="utf-8")
    xliff = export(cli, small_game, "en", tmp_path / "en.xlf")
    assert '<note from="pnpgen-flags">ignore-numbers</note>' in xliff_units(xliff)["cards[apple].text"]

    for path in (po, xliff):
        copy = tmp_path / f"copy{path.suffix}" / small_game.name
        copy.parent.mkdir()
        subprocess.run(["cp", "-r", str(fresh / small_game.name), str(copy.parent)], check=True)
        assert status(cli, copy)["problems"], "the copy still has the finding"
        assert cli("i18n", "import", copy, path).code == 0
        assert status(cli, copy)["problems"] == []


def test_an_unknown_check_in_a_flag_is_an_error(cli, small_game, tmp_path):
    po = export(cli, small_game, "en", tmp_path / "en.po")
    edit(po, 'msgctxt "cards[apple].text"', '#, ignore-spelling\nmsgctxt "cards[apple].text"')
    result = cli("i18n", "import", small_game, po)
    assert result.code == 2 and "ignore-spelling" in result.err


def test_ordinals_and_articles_are_numbers():
    from generator.i18n.checks import check_numbers

    assert check_numbers("3番目のプレイヤー", "the third player") is None
    assert check_numbers("第三の手番", "the third turn") is None
    assert check_numbers("船を1隻得る", "gain a ship") is None
    assert check_numbers("gain an action", "アクションを1回得る") is None
    assert check_numbers("船を2隻得る", "gain a ship")  # an article is a 1, not a 2
    assert check_numbers("Draw 1 card", "カードを引く")  # nothing stands for the 1
    assert check_numbers("Pay twice the bid", "入札額の2倍を払う") is None
    assert check_numbers("すぐに終わる", "it ends at once") is None  # "once" is not always a number
    assert check_numbers("先に得点した方", "whoever scores first") is None


def test_japanese_glossary_terms_match_words_not_parts_of_words():
    from generator.i18n.checks import check_glossary
    from generator.i18n.glossary import Glossary, Term

    glossary = Glossary(
        None,
        [
            Term({"ja": ["点"], "en": ["point"]}, None),
            Term({"ja": ["石油", "油"], "en": ["oil"]}, None),
            Term({"ja": ["カード"], "en": ["card"]}, None),
        ],
    )
    assert check_glossary("得点を得る", "gain score", glossary, "ja", "en") == []  # 点 inside 得点
    assert check_glossary("2点を得る", "gain 2 victory", glossary, "ja", "en")  # 点 as a word
    assert check_glossary("石油会社を買う", "buy the refinery", glossary, "ja", "en")
    assert check_glossary("カードルを踊る", "dance", glossary, "ja", "en") == []
    assert check_glossary("oil rises", "油井が増える", glossary, "en", "ja") == []  # a form may stand in a word


# --- caches ----------------------------------------------------------------------------------------------------


def test_caches_of_a_game_outside_the_checkout_stay_out_of_pnpgens_folder(tmp_path):
    from generator.paths import CARDS_DIR, OUTPUT_DIR, cache_dir

    outside = tmp_path / "game"
    assert cache_dir(CARDS_DIR / "ikkin") == OUTPUT_DIR / ".cache"
    assert cache_dir(outside, tmp_path / "out") == tmp_path / "out" / ".cache"
    assert not cache_dir(outside).is_relative_to(OUTPUT_DIR.parent)


@pytest.mark.slow
def test_status_of_an_outside_game_writes_its_faces_to_the_users_cache(small_game, tmp_path):
    from conftest import ROOT

    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "PNPGEN_DAEMON": "0",
    }
    before = set((ROOT / "output" / ".cache" / "faces").glob("*")) if (ROOT / "output").is_dir() else set()
    result = subprocess.run(
        [sys.executable, "-m", "generator", "i18n", "status", str(small_game), "-q"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode in (0, 1), result.stderr
    assert any((tmp_path / "cache" / "pnpgen" / "faces").rglob("*.*"))
    after = set((ROOT / "output" / ".cache" / "faces").glob("*")) if (ROOT / "output").is_dir() else set()
    assert after == before


def test_a_malformed_file_is_exit_2_with_file_and_line_at_the_command_line(cli, small_game, tmp_path):
    po = export(cli, small_game, "en", tmp_path / "en.po")
    edit(po, 'msgstr "Pear"', 'msgstr "Pe\\x41r"')
    before = snapshot(small_game)
    result = cli("i18n", "import", small_game, po)
    assert result.code == 2 and "Traceback" not in result.err
    assert re.search(r"en\.po:\d+: '\\x' is not a gettext escape", result.err), result.err
    assert snapshot(small_game) == before
