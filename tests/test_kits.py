"""End to end: the three seed kits built as a user builds them, checked by opening the PDFs."""
import json
import re

import pikepdf
import pytest

from conftest import KITS as GAMES, fonts_of, is_embedded, page_size_mm, placements
from generator.model import load_game
from generator.paths import CARDS_DIR
from generator.render.sheets import PAPERS
from generator.render.typeset import plain

pytestmark = pytest.mark.slow


def all_text(path):
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(str(path))
    try:
        return "".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    finally:
        document.close()


def squeeze(text):
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("game_id", GAMES)
def test_build_json_lists_ja_and_en_on_a4_and_letter_with_every_card(kits, game_id):
    game = load_game(CARDS_DIR / game_id)
    report = json.loads((kits / game_id / "build.json").read_text())
    cards = [f for f in report["files"] if f["kind"] == "cards"]
    assert {(f["lang"], f["paper"]) for f in cards} == {(l, p) for l in ("ja", "en") for p in PAPERS}
    expected = {deck.id: sum(card.count for card in deck.cards) for deck in game.decks.values()}
    for entry in cards:
        assert entry["faces"] == expected


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("paper", list(PAPERS))
def test_fronts_and_backs_are_all_placed_on_paper_of_the_right_size(kits, game_id, paper):
    game = load_game(CARDS_DIR / game_id)
    pdf = pikepdf.open(kits / game_id / f"cards-en-{paper}.pdf")
    fronts = backs = 0
    for index, page in enumerate(pdf.pages):
        assert sorted(page_size_mm(page)) == pytest.approx(sorted(PAPERS[paper]), abs=0.01)
        count = len(placements(page))
        if index % 2 == 0:
            fronts += count
        else:
            backs += count
    total = sum(deck.copies for deck in game.decks.values())
    assert fronts == total and backs == total


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_card_name_is_in_the_pdf_text_and_fonts_are_embedded(kits, game_id, lang):
    game = load_game(CARDS_DIR / game_id)
    path = kits / game_id / f"cards-{lang}-a4.pdf"
    text = squeeze(all_text(path))
    missing = [card.id for card in game.cards() if squeeze(plain(card.name.get(lang))) not in text]
    assert not missing
    pdf = pikepdf.open(path)
    fonts = fonts_of(pdf)
    assert fonts and all(is_embedded(font) for font in fonts)


def test_card_faces_keep_their_bleed_and_trim_boxes(kits):
    pdf = pikepdf.open(kits / "greed-inc" / "cards-ja-a4.pdf")
    bboxes = {tuple(round(float(v), 2) for v in form.BBox)
              for page in pdf.pages for form in page.Resources.XObject.values()}
    mm = 72 / 25.4
    poker = (round(-3 * mm, 2), round(-3 * mm, 2), round(66 * mm, 2), round(91 * mm, 2))
    assert poker in bboxes


def test_a_planted_long_english_name_fails_strict_on_a_seed_card(tmp_path, cli):
    from conftest import copy_game
    game = copy_game("ikkin", tmp_path)
    deck = game / "decks" / "employees.yaml"
    text = deck.read_text(encoding="utf-8")
    match = re.search(r"  - id: ([a-z-]+)\n(?:    .*\n)*?    name: \{ja: ([^,]+), en: [^}]+\}", text)
    long_name = "Bartholomew Maximilian Fitzgerald-Worthington III"
    deck.write_text(text.replace(match.group(0), match.group(0).rsplit("en: ", 1)[0] + f"en: {long_name}}}", 1),
                    encoding="utf-8")
    result = cli("build", game, "--strict", "--lang", "en", "--paper", "a4", "--out", tmp_path / "out", "-q")
    assert result.code == 1
    assert match.group(1) in result.err and "name" in result.err


@pytest.mark.parametrize("game_id", GAMES)
def test_the_kits_report_no_text_out_of_place(kits, game_id):
    """Every text of every card, token, aid, board and rule sheet was checked and found where it belongs."""
    report = json.loads((kits / game_id / "build.json").read_text())
    assert report["overflows"] == []
