"""Languages are data: a language added to game.yaml is translated afterwards (its strings are missing,
never an error), an incomplete edition prints the source text and says so, template labels are strings,
and each CJK language is printed in its own regional Noto face."""

import json
import re
from pathlib import Path

import pikepdf
import pytest

from conftest import copy_game, fonts_of, is_embedded, page_text
from test_input_errors import edit, errors, line_of
from generator.i18n.strings import units
from generator.yamlio.round_trip import faithful_yaml
from generator.model import load_game
from generator.model.game import Text
from generator.render.templating import Templates
from generator.render import fonts
from generator.render.own_words import missing_words

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]")
PO_ENTRY = re.compile(r'^msgctxt "(.*)"$', re.M)
FLAG_COLOUR = b"0.85098 0.27451 0.486275 rg"  # the fill of the untranslated flag, #d9467c


def with_languages(game: Path, languages: str) -> Path:
    edit(game / "game.yaml", "languages: [ja, en]", f"languages: {languages}")
    return game


def pdf_text(path: Path) -> str:
    return "".join(page_text(path, index) for index in range(len(pikepdf.open(path).pages)))


def po_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def fill_po(po: Path, translations: dict[str, str]) -> None:
    """Fill a PO file's empty msgstr as a translator's tool would, entry by entry."""
    blocks = po.read_text(encoding="utf-8").split("\n\n")
    for index, block in enumerate(blocks):
        found = PO_ENTRY.search(block)
        if found and found.group(1) in translations:
            msgstr = "msgstr " + po_string(translations[found.group(1)])
            blocks[index] = re.sub(r'^msgstr ""$', lambda _, msgstr=msgstr: msgstr, block, flags=re.M)
    po.write_text("\n\n".join(blocks), encoding="utf-8")


# --- language tags ------------------------------------------------------------------------------------


@pytest.mark.parametrize("tag", ["de", "zh-Hans", "zh-Hant", "ko", "pt-BR", "sr-Latn-RS"])
def test_any_bcp47_tag_is_a_language(small_game, cli, tag):
    edit(small_game / "game.yaml", "languages: [ja, en]", f"languages: [ja, en, {tag}]")
    result = cli("validate", small_game)
    assert result.code == 1, result.err  # its strings are missing: problems, not an error
    assert f"has no {tag} text" in result.out


def test_a_malformed_language_tag_is_a_located_error(small_game, cli):
    edit(small_game / "game.yaml", "languages: [ja, en]", "languages: [ja, en, pt_BR]")
    result = cli("validate", small_game)
    assert result.code == 2
    [message] = errors(result)
    assert f"game.yaml:{line_of(small_game / 'game.yaml', 'languages:')}:" in message
    assert "languages[2]:" in message and "'pt_BR'" in message and "pt-BR" in message


@pytest.mark.parametrize(
    "lang, region",
    [
        ("ja", "JP"),
        ("ja-JP", "JP"),
        ("zh-Hans", "SC"),
        ("zh-CN", "SC"),
        ("zh", "SC"),
        ("zh-Hant", "TC"),
        ("zh-TW", "TC"),
        ("zh-HK", "HK"),
        ("zh-Hant-HK", "TC"),
        ("ko", "KR"),
        ("ko-KR", "KR"),
        ("de", "JP"),
    ],
)
def test_each_cjk_language_has_its_regional_face(lang, region):
    assert fonts.region(lang) == region
    assert fonts.family_for("Noto Serif CJK JP", lang) == f"Noto Serif CJK {region}"


# --- labels -------------------------------------------------------------------------------------------


def test_template_labels_are_translation_strings(tmp_path):
    game = load_game(copy_game("greed-inc", tmp_path))
    found = units(game)
    label = found["labels[trend_announce].text"]
    assert (label.owner_kind, label.value("en"), label.value("ja")) == (
        "template label",
        "Price trend when announced",
        "公開時の価格トレンド",
    )
    assert label.location(game.dir) == f"labels.yaml:{line_of(game.dir / 'labels.yaml', 'trend_announce:')}"
    assert not (Path(__file__).parent.parent / "templates" / "greed-inc" / "labels.html").exists()


def test_a_label_without_the_language_prints_the_source_text_and_is_noted(tmp_path):
    labels = {
        "owner": Text({"ja": "{who}の資金", "en": "{who}'s funds"}),
        "start": Text({"ja": "スタート", "de": "Start"}),
    }
    templates = Templates(tmp_path, "de", "ja", labels=labels)
    page = templates.env.from_string("{{ label('start') }} / {{ label('owner', who='ミント') | tx }}")
    assert page.render() == 'Start / <span lang="ja">ミントの資金</span>'
    assert [str(text) for text in templates.untranslated.values()] == ["ミントの資金"]
    assert [text.lang for text in templates.untranslated.values()] == ["ja"]


def test_an_unknown_label_is_a_located_error(tmp_path, cli):
    game = copy_game("ikkin", tmp_path)
    template = Path(__file__).parent.parent / "templates" / "ikkin" / "employees-back.html"
    own = game / "templates"
    own.mkdir()
    (own / "employees-back.html").write_text(
        template.read_text(encoding="utf-8").replace("label('secret')", "label('secrte')"), encoding="utf-8"
    )
    result = cli("build", game, "--lang", "en", "--paper", "a4", "--out", tmp_path / "out")
    assert result.code == 2
    [message] = errors(result)
    assert f"employees-back.html:{line_of(own / 'employees-back.html', 'secrte')}:" in message
    assert "no label 'secrte' in labels.yaml" in message and "did you mean 'secret'" in message


@pytest.mark.parametrize("kit", ["greed-inc", "ikkin", "mint-rails"])
def test_every_file_holding_strings_can_take_an_import(kit):
    """Import writes translations into the YAML keeping its layout: every file with strings must allow it."""
    game = load_game(Path(__file__).parent.parent / "cards" / kit)
    for file in {unit.file for unit in units(game).values() if unit.file}:
        faithful_yaml(file.read_text(encoding="utf-8"), file)  # raises when it cannot


# --- adding languages to Mint Rails (the "done when") -----------------------------------------


@pytest.mark.slow
def test_a_new_language_is_missing_then_translated_then_printed_with_no_other_language(tmp_path, cli):
    game = with_languages(copy_game("mint-rails", tmp_path), "[ja, en, de, zh-Hans]")
    out = tmp_path / "out"

    # validate and status list the missing strings, exit 1, no error
    result = cli("validate", game)
    assert result.code == 1
    total = len(units(load_game(game)))
    game_strings = "\n".join(line for line in result.out.splitlines() if "pnpgen's word" not in line)
    for lang in ("de", "zh-Hans"):
        assert len(re.findall(rf"has no [^\n]*\b{re.escape(lang)}\b[^\n]* text", game_strings)) == total
    assert "labels[start].text has no de, zh-Hans text" in result.out
    assert re.search(r"rules\[[^\]]+\]\.\S+ has no de, zh-Hans text", result.out)
    # and pnpgen's own words the kit prints, each by name: its guide's and rule sheet's, not those it never prints
    own = {
        lang: re.findall(rf"pnpgen's word (\S+) has no {re.escape(lang)} text", result.out)
        for lang in ("de", "zh-Hans")
    }
    assert len(own["de"]) == len(set(own["de"])) and own["de"] == own["zh-Hans"]
    assert {"pnp_guide", "pnp_checklist", "pnp_duplex_tip", "rules_play_time", "rules_age"} <= set(own["de"])
    never = {"pnp_edition_ink_saver", "pnp_tiles_tip", "pnp_group_boards", "pnp_time_one", "rules_play_time_one"}
    assert not never & set(own["de"]) and not {word for word in own["de"] if word.startswith("rules_page")}
    status = cli("i18n", "status", game, "--lang", "de")
    assert status.code == 1 and f"{total}" in status.out
    assert all(f"pnpgen's word {word} has no de text" in status.out for word in own["de"])

    # an untranslated zh-Hans build: the source text, listed, flagged; --strict fails
    result = cli("build", game, "--lang", "zh-Hans", "--paper", "a4", "--out", out)
    assert result.code == 0, result.err
    printed = re.search(
        r"zh-Hans: (\d+) text\(s\) have no zh-Hans translation and are printed in ja; "
        r"(\d+) card\(s\) carry the corner flag",
        result.err,
    )
    untranslated = int(printed.group(1)) if printed else 0
    assert printed and 100 < untranslated <= total + len(own["zh-Hans"]) and int(printed.group(2)) > 20, result.err
    cards = out / "mint-rails" / "cards-zh-Hans-a4.pdf"
    assert "スタート" in pdf_text(cards)
    with pikepdf.open(cards) as pdf:
        page = pdf.pages[0]
        paper_width = float(page.mediabox[2])
        faces = [
            xobject.read_bytes()
            for xobject in page.Resources.XObject.values()
            if float(xobject.BBox[2]) - float(xobject.BBox[0]) < paper_width - 1
        ]  # not the sheet label
    assert faces and all(FLAG_COLOUR in face for face in faces)  # the corner flag (#d9467c) on every face
    strict = cli("build", game, "--lang", "zh-Hans", "--paper", "a4", "--out", out, "--strict")
    assert strict.code == 1 and "--strict" in strict.err and "printed in the source language" in strict.err

    # de: export a PO, fill it in (here with the English text and an umlaut), import, build: no Japanese
    po = tmp_path / "de.po"
    assert cli("i18n", "export", game, "--lang", "de", "-o", po).code == 0
    strings = units(load_game(game))
    assert set(PO_ENTRY.findall(po.read_text(encoding="utf-8"))) == set(strings)
    fill_po(po, {string_id: unit.value("en") + " ü" for string_id, unit in strings.items()})
    result = cli("i18n", "import", game, po)
    assert result.code == 0, result.err
    # the exchange file carries the game's strings: pnpgen's words still print in ja, flagged, and --strict fails
    result = cli("build", game, "--lang", "de", "--paper", "a4", "--out", out, "--strict")
    assert result.code == 1 and "printed in the source language" in result.err, result.err
    listed = json.loads((out / "mint-rails" / "build.json").read_text(encoding="utf-8"))["untranslated"]["de"]
    printed = {string["id"] for string in listed}  # every one a word validate listed before the build
    assert {"labels[pnp_guide].text", "labels[pnp_group_cards].text", "labels[rules_play_time].text"} <= printed
    assert {"labels[sheet_front].text", "labels[sheet_note].text", "labels[sheet_long].text"} <= printed
    assert printed <= {f"labels[{word}].text" for word in own["de"]}
    # written into labels.yaml as validate says, they print in German too
    with (game / "labels.yaml").open("a", encoding="utf-8") as labels:
        for word in missing_words(load_game(game), ["de"]):
            labels.write(f"  {word.label}: {{de: {json.dumps(word.text.get('en') + ' ü', ensure_ascii=False)}}}\n")
    result = cli("build", game, "--lang", "de", "--paper", "a4", "--out", out, "--strict")
    assert result.code == 0, result.err
    for name in ("cards-de-a4.pdf", "rules-de-a4.pdf", "aid-summary-de-a4.pdf", "pnp-de-a4.pdf"):
        text = pdf_text(out / "mint-rails" / name)
        assert not CJK.findall(text), (name, sorted(set(CJK.findall(text))))
        assert "START ü" in text or name != "cards-de-a4.pdf"
    assert "ü" in pdf_text(out / "mint-rails" / "cards-de-a4.pdf")
    sheet_label = " ".join(pdf_text(out / "mint-rails" / "cards-de-a4.pdf").split())
    assert "fronts ü" in sheet_label and "Print at 100% (actual size) ü" in sheet_label  # the sheet labels' words


@pytest.mark.slow
def test_cjk_languages_print_in_their_regional_face_and_latin_keeps_its_diacritics(small_game, cli, tmp_path):
    game = with_languages(small_game, "[ja, en, de, zh-Hans, ko]")
    translated = {"de": ("Äpfel für Björn", "Größe"), "zh-Hans": ("苹果", "葡萄"), "ko": ("사과", "포도")}
    edit(
        game / "decks" / "cards.yaml",
        "name: {ja: りんご, en: Apple}",
        "name: {ja: りんご, en: Apple, "
        + ", ".join(f"{lang}: {apple}" for lang, (apple, _) in translated.items())
        + "}",
    )
    edit(
        game / "decks" / "cards.yaml",
        "name: {ja: ぶどう, en: Grapes}",
        "name: {ja: ぶどう, en: Grapes, "
        + ", ".join(f"{lang}: {grapes}" for lang, (_, grapes) in translated.items())
        + "}",
    )
    out = tmp_path / "out"
    result = cli("build", game, "--lang", "de,zh-Hans,ko", "--paper", "a4", "--out", out)
    assert result.code == 0, result.err
    region = {"de": "JP", "zh-Hans": "SC", "ko": "KR"}
    for lang, words in translated.items():
        path = out / game.name / f"cards-{lang}-a4.pdf"
        text = pdf_text(path)
        assert all(word in text for word in words), (lang, text)  # the glyphs are there and read back
        with pikepdf.open(path) as pdf:
            used = fonts_of(pdf)
            names = {str(font.get("/BaseFont")) for font in used}
            assert used and all(is_embedded(font) for font in used)
        assert any(f"CJK-{region[lang]}" in name for name in names), (lang, names)
        # the one other face: Japanese, for the source text printed where a translation is missing (the pear)
        assert {re.search(r"CJK-(\w\w)", name).group(1) for name in names if "CJK-" in name} == {region[lang], "JP"}, (
            lang,
            names,
        )
        assert "洋なし" in text
    # side by side: the Chinese column in the Chinese face beside the Japanese one
    (game / "rules.yaml").write_text(
        "blocks:\n  - {type: heading, text: {ja: 準備, en: Setup, zh-Hans: 准备}}\n"
        "  - text: {ja: 直角に置きます。, en: Lay it square., zh-Hans: 直角放置。}\n",
        encoding="utf-8",
    )
    result = cli("rules", game, "--lang", "ja,zh-Hans", "--paper", "a4", "--out", out)
    assert result.code == 0, result.err
    with pikepdf.open(out / game.name / "rules-ja+zh-Hans-a4.pdf") as pdf:
        regions = {
            re.search(r"CJK-(\w\w)", str(font.get("/BaseFont"))).group(1)
            for font in fonts_of(pdf)
            if "CJK-" in str(font.get("/BaseFont"))
        }
    assert regions == {"JP", "SC"}
