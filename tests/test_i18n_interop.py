"""Translation files as translators' tools read and write them (translate-toolkit, polib, Weblate's and
Poedit's XLIFF states), strict readers, silenced checks and where caches go."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from translate.storage import factory

from conftest import copy_game
from generator.errors import InputError
from generator.i18n.exchange.entries import Entry, Exchange
from generator.i18n.exchange.formats import read, write
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
    report = status(cli, small_game, "--lang", "de")
    counts = report["languages"]["de"]
    assert (counts["translated"], counts["missing"], counts["unconfirmed"]) == (3, 7, 0)
    # pnpgen's words its print-and-play file prints are listed apart, by name: no exchange file carries them
    own = [p["id"] for p in report["problems"] if p["message"].startswith("pnpgen's word")]
    assert counts["own_words"] == len(own) and "labels[pnp_guide].text" in own
    assert not {"labels[pnp_edition_ink_saver].text", "labels[pnp_group_rules].text"} & set(own)  # never printed


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


# Line separators are text (YAML keeps them); control characters are not, in any format.
SEPARATORS = "next\x85line, sep\u2028arator, para\u2029graph, tab\there"


@pytest.mark.parametrize("fmt", FORMATS)
def test_line_separators_and_tabs_are_written_and_read_back(tmp_path, fmt):
    path = tmp_path / f"out.{FORMATS[fmt]}"
    entries = [
        Entry("cards[a].text", SEPARATORS, SEPARATORS.upper(), location="decks/a.yaml:3"),
        Entry("cards[b].text", "b", '=HYPERLINK("http://x")'),
    ]
    path.write_text(write(Exchange("g", "ja", "en", entries), fmt), encoding="utf-8")
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


# How each format would carry a control character, as a tool or a hand could write it.
CONTROL_IN = {
    "po": ('msgstr "Pear"', 'msgstr "Pe\\rar"', "'\\r' is a control character (carriage return)"),
    "xliff": (">Pear</target>", ">Pe&#13;ar</target>", "the translation holds U+000D (carriage return)"),
    "csv": (",Pear,", ',"Pe\x00ar",', "the translation holds U+0000 (NUL)"),
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_control_character_in_a_translation_is_a_located_error_and_nothing_is_written(cli, small_game, tmp_path, fmt):
    path = export(cli, small_game, "en", tmp_path / f"en.{FORMATS[fmt]}")
    old, new, message = CONTROL_IN[fmt]
    text = path.read_text(encoding="utf-8-sig").replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    line = text[: text.index(new)].count("\n") + 1
    before = snapshot(small_game)
    result = cli("i18n", "import", small_game, path)
    assert result.code == 2 and "Traceback" not in result.err, result
    assert f"{path.name}:" in result.err and message in result.err and "(remove it" in result.err, result.err
    reported = int(re.search(rf"{path.name}:(\d+):", result.err).group(1))
    assert reported <= line and line - reported < 12  # the entry's line (PO: the string's own)
    if fmt == "po":
        assert reported == line
    assert snapshot(small_game) == before


def test_a_control_character_in_the_yaml_stops_the_export_at_its_line(cli, small_game, tmp_path):
    cards = small_game / "decks" / "cards.yaml"
    edit(cards, "en: Draw 1 card.", 'en: "Draw 1\\acard."')
    line = next(n for n, text in enumerate(cards.read_text(encoding="utf-8").splitlines(), 1) if "\\acard" in text)
    for fmt in FORMATS:
        path = tmp_path / f"en.{FORMATS[fmt]}"
        result = cli("i18n", "export", small_game, "--lang", "en", "-o", path, "--no-layout")
        assert result.code == 2 and not path.exists(), result
        assert (
            f"cards.yaml:{line}: cards[apple].text: the en text holds U+0007 (bell), which a translation file "
            "cannot carry (remove it from the YAML" in result.err
        ), result.err


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    "text, shown",
    [
        ("\u2028", "only invisible characters (U+2028)"),
        ("\u00a0\u2029", "only invisible characters (U+00A0, U+2029)"),
    ],
)
def test_a_translation_of_only_invisible_characters_is_a_located_error_not_a_deletion(
    cli, small_game, tmp_path, fmt, text, shown
):
    # control characters are refused by the readers themselves (the test above)
    before = snapshot(small_game)
    path = tmp_path / f"en.{FORMATS[fmt]}"
    exchange = Exchange("small", "ja", "en", [Entry("cards[pear].name", "洋なし", text)])
    path.write_text(write(exchange, fmt), encoding="utf-8")
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

    assert check_numbers("3番目のプレイヤー", "the third player", "ja", "en") is None
    assert check_numbers("第三の手番", "the third turn", "ja", "en") is None
    assert check_numbers("船を1隻得る", "gain a ship", "ja", "en") is None
    assert check_numbers("gain an action", "アクションを1回得る", "en", "ja") is None
    assert check_numbers("船を2隻得る", "gain a ship", "ja", "en")  # an article is a 1, not a 2
    assert check_numbers("Draw 1 card", "カードを引く", "en", "ja")  # nothing stands for the 1
    assert check_numbers("Pay twice the bid", "入札額の2倍を払う", "en", "ja") is None
    assert check_numbers("すぐに終わる", "it ends at once", "ja", "en") is None  # "once" is not always a number
    assert check_numbers("先に得点した方", "whoever scores first", "ja", "en") is None


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
    result = subprocess.run(
        [sys.executable, "-m", "generator", "i18n", "status", str(small_game), "-q"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode in (0, 1), result.stderr
    written = {path.name for path in (tmp_path / "cache" / "pnpgen" / "faces").rglob("*") if path.is_file()}
    assert any("." in name for name in written)
    # none of it in the project's cache (compared by name: other tests, in parallel, may write there meanwhile)
    assert not written & {path.name for path in (ROOT / "output" / ".cache").rglob("*") if path.is_file()}


def test_a_malformed_file_is_exit_2_with_file_and_line_at_the_command_line(cli, small_game, tmp_path):
    po = export(cli, small_game, "en", tmp_path / "en.po")
    edit(po, 'msgstr "Pear"', 'msgstr "Pe\\x41r"')
    before = snapshot(small_game)
    result = cli("i18n", "import", small_game, po)
    assert result.code == 2 and "Traceback" not in result.err
    assert re.search(r"en\.po:\d+: '\\x41' is 'A' written as escaped bytes \(write 'A' itself", result.err), result.err
    assert snapshot(small_game) == before


# --- PO read as strictly as msgfmt (issue 30) ------------------------------------------------------------------

MSGFMT = shutil.which("msgfmt")
PO_CASES = {
    # case: (entry, how the line the error names starts, what pnpgen says, whether `msgfmt --check` refuses it)
    "octal escape": ('msgid "x"\nmsgstr "\\101"', 'msgstr "\\101"', "'\\101' is 'A' written as escaped bytes", False),
    "octal bytes of UTF-8": ('msgid "x"\nmsgstr "caf\\303\\251"', "msgstr", "'\\303\\251' is 'é' written as", False),
    "hex escape": ('msgid "x"\nmsgstr "\\x41"', "msgstr", "'\\x41' is 'A' written as escaped bytes", False),
    "NUL escape": ('msgid "x"\nmsgstr "a\\000b"', "msgstr", "'\\000' is a NUL character: msgfmt cuts", False),
    "raw NUL": ('msgid "x"\nmsgstr "a\x00b"', "msgstr", "the string holds U+0000 (NUL), which is not text", False),
    "carriage return": ('msgid "x"\nmsgstr "a\\rb"', "msgstr", "'\\r' is a control character (carriage return)", False),
    "bell": ('msgid "x"\nmsgstr "a\\ab"', "msgstr", "'\\a' is a control character (bell)", False),
    "line feed at one end": ('msgid "x"\nmsgstr "y\\n"', "msgid", "do not both end with a line break", True),
    "unknown escape": ('msgid "x"\nmsgstr "\\q"', "msgstr", "'\\q' is not a gettext escape", True),
    "unescaped quote": ('msgid "x"\nmsgstr "say "hi""', "msgstr", "quote inside the string is not escaped", True),
    "no msgstr": ('msgid "x"\n', "msgctxt", "an entry without msgstr", True),
    "plural": ('msgid "x"\nmsgid_plural "xs"\nmsgstr[0] "y"\nmsgstr[1] "ys"', "msgid_plural", "plural forms", False),
}


def po_with(entry: str) -> str:
    """pnpgen's own header, then one entry."""
    return write(Exchange("small", "ja", "en", []), "po") + f'msgctxt "cards[apple].name"\n{entry}\n'


def test_the_po_header_pnpgen_writes_passes_msgfmt_check_without_a_warning(tmp_path):
    if not MSGFMT:
        pytest.skip("gettext's msgfmt is not installed (apt package gettext)")
    path = tmp_path / "en.po"
    path.write_text(po_with('msgid "りんご"\nmsgstr "Apple"'), encoding="utf-8")
    result = subprocess.run([MSGFMT, "--check", "-o", "/dev/null", path], capture_output=True, text=True)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    text = path.read_text(encoding="utf-8")
    assert '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"' in text
    assert re.search(r'"PO-Revision-Date: 20\d\d-\d\d-\d\d \d\d:\d\d\+0000\\n"', text)


@pytest.mark.parametrize("case", PO_CASES)
def test_po_mistakes_are_located_errors_and_msgfmt_refuses_no_file_pnpgen_reads(tmp_path, case):
    entry, needle, message, msgfmt_refuses = PO_CASES[case]
    path = tmp_path / "en.po"
    text = po_with(entry)
    path.write_text(text, encoding="utf-8")
    lines = text.split("\n")
    first = lines.index('msgctxt "cards[apple].name"')
    line = next(number for number, each in enumerate(lines[first:], first + 1) if each.startswith(needle))
    with pytest.raises(InputError) as caught:
        read(path)
    [problem] = caught.value.problems
    assert (problem.file, problem.line) == (path, line) and message in problem.message, problem
    assert problem.hint or "plural" in case
    if MSGFMT:  # the comparison: pnpgen refuses all of these; msgfmt only some
        result = subprocess.run([MSGFMT, "--check", "-o", "/dev/null", path], capture_output=True, text=True)
        assert (result.returncode != 0) == msgfmt_refuses, result.stderr


def test_every_mistake_of_a_po_file_is_reported_at_once(tmp_path):
    path = tmp_path / "en.po"
    path.write_text(po_with('msgid "x"\nmsgstr "a\\rb\\101"\n\nmsgctxt "b"\nmsgid "y"\nmsgstr "\\a"'), "utf-8")
    with pytest.raises(InputError) as caught:
        read(path)
    assert [problem.message.split(" ")[0] for problem in caught.value.problems] == ["'\\r'", "'\\101'", "'\\a'"]


@pytest.mark.parametrize(
    "lang, rule",
    [
        ("ja", "nplurals=1; plural=0;"),
        ("zh-Hant", "nplurals=1; plural=0;"),
        ("en", "nplurals=2; plural=(n != 1);"),
        ("pt-BR", "nplurals=2; plural=(n > 1);"),
        ("pt_BR", "nplurals=2; plural=(n > 1);"),
        ("x-unknown", "nplurals=2; plural=(n != 1);"),
    ],
)
def test_plural_forms_follow_the_language(lang, rule):
    from generator.i18n.exchange.po import plural_forms

    assert plural_forms(lang) == rule


def test_every_plural_rule_written_is_translate_toolkits():
    from translate.lang import data

    from generator.i18n.exchange.po import PLURAL_FORMS

    differ = {}
    for code, written in PLURAL_FORMS.items():
        _name, count, expression = data.languages[{"zh": "zh_CN"}.get(code, code.replace("-", "_"))]
        written_count, written_expression = re.fullmatch(r"nplurals=(\d); plural=(.*);", written).groups()
        if (int(written_count), written_expression.strip("()")) != (count, expression.strip("()")):
            differ[code] = (written, count, expression)
    assert differ == {}


def header_line(path: Path, field: str) -> int:
    return path.read_text(encoding="utf-8").split("\n").index(f'"{field}\\n"') + 1


@pytest.mark.parametrize(
    "old, new, field",
    [
        ("X-Pnpgen-Game: small", "X-Pnpgen-Game: other-game", "X-Pnpgen-Game: other-game"),
        # Poedit and the like rewrite X-Generator; without pnpgen's own field, Project-Id-Version names the game
        (
            'X-Pnpgen-Game: small\\n"\n"X-Generator: pnpgen',
            "X-Generator: Poedit 3.4",
            "Project-Id-Version: other-game",
        ),
    ],
)
def test_a_po_header_naming_another_game_is_refused_at_its_line(cli, small_game, tmp_path, old, new, field):
    po = export(cli, small_game, "en", tmp_path / "en.po")
    edit(po, old, new)
    edit(po, "Project-Id-Version: small", "Project-Id-Version: other-game")
    edit(po, 'msgstr "Pear"', 'msgstr "Ripe pear"')
    before = snapshot(small_game)
    result = cli("i18n", "import", small_game, po)
    assert result.code == 2, result
    assert f"en.po:{header_line(po, field)}: the file names the game 'other-game', not 'small'" in result.err
    assert "(import it into other-game; if it is a translation of small, correct this line)" in result.err
    assert snapshot(small_game) == before


def test_gettexts_placeholder_project_names_no_game(cli, small_game, tmp_path):
    po = export(cli, small_game, "en", tmp_path / "en.po")
    edit(po, '"X-Pnpgen-Game: small\\n"\n', "")
    edit(po, "Project-Id-Version: small", "Project-Id-Version: PACKAGE VERSION")
    edit(po, 'msgstr "Pear"', 'msgstr "Ripe pear"')
    result = cli("i18n", "import", small_game, po)
    assert result.code == 0 and "1 en translation(s) written" in result.out, result


def test_a_language_header_and_lang_that_disagree_are_refused(cli, small_game, tmp_path):
    edit(small_game / "game.yaml", "languages: [ja, en]", "languages: [ja, en, de]")
    po = export(cli, small_game, "de", tmp_path / "de.po")
    before = snapshot(small_game)
    result = cli("i18n", "import", small_game, po, "--lang", "en")
    assert result.code == 2, result
    line = header_line(po, "Language: de")
    assert f"de.po:{line}: language: the file says it holds 'de', but --lang says 'en'" in result.err, result.err
    assert snapshot(small_game) == before
    edit(po, "Language: de", "Language: de_DE")
    assert cli("i18n", "import", small_game, po, "--lang", "de").code == 0  # the same language, spelled otherwise
    edit(small_game / "game.yaml", "languages: [ja, en, de]", "languages: [ja, en]")
    result = cli("i18n", "import", small_game, po, "--lang", "en")  # a language the game does not have
    assert result.code == 2 and "the file says it holds 'de_DE', but --lang says 'en'" in result.err, result


@pytest.mark.parametrize("fmt", ["po", "xliff"])
def test_a_file_without_its_language_says_to_give_lang(cli, small_game, tmp_path, fmt):
    """translate-toolkit's converters keep no language when the file they read had none."""
    po = export(cli, small_game, "en", tmp_path / "en.po")
    edit(po, '"Language: en\\n"\n', "")
    edit(po, 'msgstr "Pear"', 'msgstr "Ripe pear"')
    path = po
    if fmt == "xliff":
        path = tmp_path / "en.xlf"
        convert("po2xliff", po, path)
        assert "target-language" not in path.read_text(encoding="utf-8")
    before = snapshot(small_game)
    result = cli("i18n", "import", small_game, path)
    assert result.code == 2, result
    assert "the file does not say which language it holds (say it with `pnpgen i18n import small FILE --lang en`" in (
        result.err
    ), result.err
    assert ("target-language attribute" if fmt == "xliff" else '"Language: LANG" line in the header') in result.err
    assert snapshot(small_game) == before
    result = cli("i18n", "import", small_game, path, "--lang", "en")
    assert result.code == 0 and "1 en translation(s) written" in result.out, result


def test_an_entry_without_msgctxt_is_taken_only_by_its_location_and_source_and_then_listed(cli, small_game, tmp_path):
    po = export(cli, small_game, "en", tmp_path / "en.po")
    edit(po, 'msgctxt "cards[pear].name"\n', "")  # dropped by a tool
    edit(po, 'msgctxt "cards[apple].name"', 'msgctxt "cards[appel].name"')  # mistyped by a hand
    edit(po, 'msgstr "Pear"', 'msgstr "Ripe pear"')
    edit(po, 'msgstr "Apple"', 'msgstr "Green apple"')
    lines = po.read_text(encoding="utf-8").split("\n")
    pear = lines.index('msgid "洋なし"') + 1  # an entry's line is its first keyword's
    apple = lines.index('msgctxt "cards[appel].name"') + 1
    result = cli("i18n", "import", small_game, po)
    assert result.code == 0 and "2 en translation(s) written" in result.out, result
    assert "2 entries without a valid msgctxt matched by location and source text:" in result.out
    assert f"en.po:{apple}: msgctxt 'cards[appel].name' -> cards[apple].name (at decks/cards.yaml:" in result.out
    assert f"en.po:{pear}: no msgctxt -> cards[pear].name (at decks/cards.yaml:" in result.out
    cards = (small_game / "decks" / "cards.yaml").read_text(encoding="utf-8")
    assert "en: Ripe pear}" in cards and "en: Green apple}" in cards


@pytest.mark.parametrize(
    "change, message",
    [
        (('#: decks/cards.yaml:15\nmsgctxt "cards[pear].name"\n', ""), "an entry without msgctxt, and no location"),
        (('msgctxt "cards[pear].name"\nmsgid "洋なし"', 'msgid "西洋なし"'), "no string at decks/cards.yaml:15 has"),
        (('#: decks/cards.yaml:15\nmsgctxt "cards[pear].name"', "#: decks/other.yaml:15"), "no string at decks/other"),
        (('msgctxt "cards[pear].name"\nmsgid "洋なし"', 'msgctxt "pear"\nmsgid "西洋なし"'), "msgctxt 'pear' names no"),
    ],
)
def test_an_entry_without_a_valid_msgctxt_matching_no_string_is_a_located_error(
    cli, small_game, tmp_path, change, message
):
    po = export(cli, small_game, "en", tmp_path / "en.po")
    assert '#: decks/cards.yaml:15\nmsgctxt "cards[pear].name"' in po.read_text(encoding="utf-8")
    edit(po, *change)
    edit(po, 'msgstr "Pear"', 'msgstr "Ripe pear"')
    line = po.read_text(encoding="utf-8").split("\n").index('msgstr "Ripe pear"')  # the entry's msgid
    before = snapshot(small_game)
    result = cli("i18n", "import", small_game, po)
    assert result.code == 2, result
    found = re.search(r"en\.po:(\d+): (.*)", result.err)
    assert found and message in found.group(2) and "keep the msgctxt that `pnpgen i18n export` wrote" in result.err
    assert line - 1 <= int(found.group(1)) <= line, (line, result.err)
    assert snapshot(small_game) == before
