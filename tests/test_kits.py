"""End to end: the three seed kits built as a user builds them, checked by opening the PDFs."""
import json
import re

import pikepdf
import pytest

from conftest import fonts_of, is_embedded, page_size_mm, placements
from generator.model import load_game
from generator.paths import CARDS_DIR
from generator.render.sheets import PAPERS
from generator.render.typeset import plain

pytestmark = pytest.mark.slow
GAMES = ["greed-inc", "ikkin", "mint-rails"]


@pytest.fixture(scope="session")
def kits(tmp_path_factory):
    from generator.cli import main
    out = tmp_path_factory.mktemp("kits")
    assert main(["build", *GAMES, "--out", str(out), "--quiet"]) == 0
    return out


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


# --- Japanese typesetting, read back from every Japanese output -----------------------------------

def japanese_outputs(kits, kind=None):
    """Every PDF of the three kits set in Japanese (alone, side by side, bilingual aids), optionally of one kind."""
    found = []
    for game_id in GAMES:
        for entry in json.loads((kits / game_id / "build.json").read_text())["files"]:
            if "ja" in entry["lang"] and (kind is None or entry["kind"] == kind):
                found.append(kits / game_id / entry["path"])
    assert found
    return found


def test_no_japanese_paragraph_ends_on_a_short_line(kits):
    from pdflines import short_last_lines

    found = [line for path in japanese_outputs(kits) for line in short_last_lines(path)]
    assert not found, "\n".join(found)


def display_words(game_id):
    """Words that must never be cut at a line end: every Japanese card name, deck name and the title's words."""
    game = load_game(CARDS_DIR / game_id)
    words = {plain(card.name.get("ja")) for card in game.cards()}
    words |= {plain(deck.name.get("ja")) for deck in game.decks.values()}
    words |= set(re.split("[ ・]", plain(game.title.get("ja"))))
    return {word for word in words if 2 <= len(word) <= 12 and " " not in word}


@pytest.mark.parametrize("game_id", GAMES)
def test_display_words_are_whole_on_cards_tokens_aids_and_boards(kits, game_id):
    from pdflines import split_words

    words = display_words(game_id) | {"インコーポレイテッド", "ポートフォリオカード", "その日まで"}
    paths = [p for p in japanese_outputs(kits) if p.parent.name == game_id and not p.name.startswith("rules-")]
    found = [cut for path in paths for cut in split_words(path, words)]
    assert not found, "\n".join(sorted(set(found)))


def test_the_money_and_start_player_token_backs_print_the_title_whole(kits):
    from pdflines import lines_of

    for name in ("tokens-money-ja-a4.pdf", "tokens-start-player-ja-a4.pdf"):
        lines = [line.text for line in lines_of(kits / "greed-inc" / name)]
        parts = [text for text in lines if "インコー" in text or "テッド" in text]
        assert parts and all("インコーポレイテッド" in text for text in parts), parts


@pytest.mark.parametrize("kind", ["cards", "aid", "board", "rules"])
def test_japanese_and_latin_are_spaced_on_every_kind_of_output(kits, kind):
    from pdflines import japanese_latin_gaps

    gaps = [(path.name, pair, gap) for path in japanese_outputs(kits, kind) for pair, gap in japanese_latin_gaps(path)]
    assert len(gaps) >= 10, "the kits print Japanese next to numbers on every kind of output"
    tight = [g for g in gaps if g[2] < 0.1]  # a quarter em is about 0.18 of a character box's height
    assert not tight, tight[:10]


def test_the_mint_rails_map_label_is_vertical_with_upright_characters(kits):
    from pdflines import chars_of

    chars = [(page, char) for page, char in chars_of(kits / "mint-rails" / "cards-ja-a4.pdf")
             if char.text in "地図カード北"]
    label = next(i for i in range(len(chars) - 4) if "".join(c.text for _, c in chars[i:i + 5]) == "地図カード")
    column = [char for _, char in chars[label:label + 6]]
    assert [c.text for c in column] == list("地図カード北")
    assert all(abs(c.angle) < 0.01 for c in column), "upright, not turned"
    mark = next(c for c in column if c.text == "ー")
    assert mark.ink_height > 2 * mark.ink_width, "the long vowel mark in its vertical form, along the column"
    centres = [(c.left + c.right) / 2 for c in column]
    assert max(centres) - min(centres) < 0.5 * column[0].height, "one column"
    tops = [c.top for c in column]
    assert all(a > b + 0.5 * column[0].height for a, b in zip(tops, tops[1:])), "read top to bottom"
