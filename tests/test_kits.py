"""End to end: the three seed kits built as a user builds them, checked by opening the PDFs."""

import itertools
import json
import re

import pikepdf
import pytest

from conftest import KITS as GAMES, fonts_of, is_embedded, page_size_mm, placements
from generator.model import load_game
from generator.paths import CARDS_DIR
from generator.render.paper import PAPERS
from generator.render.sheet_writer import needed_version
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
    assert {(f["lang"], f["paper"]) for f in cards} == {(lang, p) for lang in ("ja", "en") for p in PAPERS}
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
    bboxes = {
        tuple(round(float(v), 2) for v in form.BBox) for page in pdf.pages for form in page.Resources.XObject.values()
    }
    mm = 72 / 25.4
    poker = (round(-3 * mm, 2), round(-3 * mm, 2), round(66 * mm, 2), round(91 * mm, 2))
    assert poker in bboxes


def test_a_planted_long_english_name_fails_strict_on_a_seed_card(tmp_path, kits):
    """Only the card sheets are built: the rule sheets, which name the card, would be laid out again for nothing."""
    import io

    from conftest import copy_game, seeded_out
    from generator.build.engine import build
    from generator.build.options import BuildOptions
    from generator.model import load_game
    from generator.progress import Progress

    game = copy_game("ikkin", tmp_path)
    deck = game / "decks" / "employees.yaml"
    text = deck.read_text(encoding="utf-8")
    match = re.search(r"  - id: ([a-z-]+)\n(?:    .*\n)*?    name: \{ja: ([^,]+), en: [^}]+\}", text)
    long_name = "Bartholomew Maximilian Fitzgerald-Worthington III"
    deck.write_text(
        text.replace(match.group(0), match.group(0).rsplit("en: ", 1)[0] + f"en: {long_name}}}", 1), encoding="utf-8"
    )
    said = io.StringIO()
    out = seeded_out(kits, tmp_path / "out")
    options = BuildOptions(out=out, languages="en", papers=("a4",), strict=True, outputs=("cards",))
    assert build(load_game(game), options, Progress(quiet=True, stream=said, terminal=False)) == 1
    assert match.group(1) in said.getvalue() and "name" in said.getvalue()


@pytest.mark.parametrize("game_id", GAMES)
def test_the_kits_report_no_text_out_of_place(kits, game_id):
    """Every text of every card, token, aid, board and rule sheet was checked and found where it belongs."""
    report = json.loads((kits / game_id / "build.json").read_text())
    assert report["overflows"] == []


# --- what a home printer gets ----------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_no_page_puts_ink_within_4_mm_of_the_paper_edge(kits, game_id):
    """Every card, token, aid, board and rule page on A4 and Letter, rendered at 50 dpi: the outer 4 mm
    (which home printers cannot print) stays white."""
    from inkcheck import ink_near_edge

    report = json.loads((kits / game_id / "build.json").read_text())
    kinds = {entry["kind"] for entry in report["files"]}
    assert {"cards", "rules"} <= kinds
    inked = {
        entry["path"]: found for entry in report["files"] if (found := ink_near_edge(kits / game_id / entry["path"]))
    }
    assert not inked


def page_texts(path):
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        return [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()


def bars_of(page):
    """Lengths in mm of the horizontal lines drawn on the page itself (not inside the card faces)."""
    lengths, start = [], None
    for operands, operator in pikepdf.parse_content_stream(page):
        if str(operator) == "m":
            start = [float(v) for v in operands]
        elif str(operator) == "l" and start:
            x, y = (float(v) for v in operands)
            if abs(y - start[1]) < 0.01:
                lengths.append(round(abs(x - start[0]) * 25.4 / 72, 2))
    return lengths


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("lang,paper", [("ja", "a4"), ("en", "letter")])
def test_every_card_sheet_page_says_print_at_100_and_carries_its_label(kits, game_id, lang, paper):
    report = json.loads((kits / game_id / "build.json").read_text())
    entry = next(f for f in report["files"] if f["kind"] == "cards" and f["lang"] == lang and f["paper"] == paper)
    path = kits / game_id / entry["path"]
    game = load_game(CARDS_DIR / game_id)
    sheets = len(entry["sheets"])
    pdf = pikepdf.open(path)
    for index, text in enumerate(page_texts(path)):
        text = squeeze(text)
        number, back = index // 2 + 1, index % 2 == 1
        note = "実際のサイズ（100%）で印刷" if lang == "ja" else "Print at 100% (actual size)"
        assert squeeze(note) in text, index  # in the sheet's own language
        assert squeeze(plain(game.title.get(lang))) in text, index
        expected = f"{sheets}枚中{number}枚目" if lang == "ja" else f"sheet{number}of{sheets}"
        assert expected in text, (index, text[:200])
        side = ("裏面" if back else "表面") if lang == "ja" else ("backs" if back else "fronts")
        assert side in text, index
        for deck_id in entry["sheets"][number - 1]:
            assert squeeze(plain(game.decks[deck_id].name.get(lang))) in text, (index, deck_id)
        assert 50.0 in bars_of(pdf.pages[index]), index
    decks_in_sheets = {deck for sheet in entry["sheets"] for deck in sheet}
    assert decks_in_sheets == set(entry["decks"]) == set(entry["faces"])


def test_mint_rails_small_decks_share_sheets(kits):
    report = json.loads((kits / "mint-rails" / "build.json").read_text())
    entry = next(f for f in report["files"] if f["path"] == "cards-ja-a4.pdf")
    assert entry["pages"] < 14
    assert any(len(sheet) > 1 for sheet in entry["sheets"])


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("paper", list(PAPERS))
def test_each_back_prints_behind_its_front_after_packing(kits, game_id, paper):
    """Long-edge duplex: every back at the mirrored place of its front, and its back form is the one the
    same card's front pairs with (checked through the faces: same deck, same copy order)."""
    pdf = pikepdf.open(kits / game_id / f"cards-en-{paper}.pdf")
    for front_page, back_page in zip(pdf.pages[::2], pdf.pages[1::2]):
        width, height = page_size_mm(front_page)
        fronts, backs = placements(front_page), placements(back_page)
        assert len(fronts) == len(backs)
        for (_, fx, fy, w, h, _), (_, bx, by, bw, bh, _) in zip(fronts, backs):
            assert (bw, bh) == pytest.approx((w, h), abs=0.01)
            expected = (width - fx - w, fy) if height > width else (fx, height - fy - h)
            assert (bx, by) == pytest.approx(expected, abs=0.01)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_file_declares_its_language_a_title_and_the_version_it_needs(kits, game_id):
    report = json.loads((kits / game_id / "build.json").read_text())
    titles: dict[str, str] = {}
    game = load_game(CARDS_DIR / game_id)
    for entry in report["files"]:
        pdf = pikepdf.open(kits / game_id / entry["path"])
        assert str(pdf.Root.Lang) == entry["lang"].split("+")[0], entry["path"]
        title = str(pdf.docinfo.get("/Title", ""))
        named = title.startswith(game.title.get(entry["lang"].split("+")[0]))
        assert named and title not in titles, (entry["path"], title, titles.get(title))
        titles[title] = entry["path"]  # a print queue tells every file of the game apart
        if entry["kind"] in ("rules", "aid"):
            assert "/StructTreeRoot" in pdf.Root, entry["path"]  # tagged: see tests/test_tagged_pdfs.py
        assert pdf.pdf_version >= needed_version(pdf), entry["path"]
        font_files = [
            obj.FontFile3 for obj in pdf.objects if isinstance(obj, pikepdf.Dictionary) and "/FontFile3" in obj
        ]
        assert font_files and {str(f.Subtype) for f in font_files} == {"/CIDFontType0C"}, entry["path"]  # bare CJK CFF


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


def test_no_japanese_paragraph_ends_on_one_character(kits):
    from pdflines import short_last_lines

    found = [line for path in japanese_outputs(kits) for line in short_last_lines(path)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("kind", ["rules", "aid"])
def test_justified_japanese_lines_end_at_their_column(kits, kind):
    """Every line of Japanese running text but a paragraph's last ends within 0.5 pt of its column's right
    edge (JLReq: the slack spread between characters), read back from the PDFs' character boxes."""
    from pdflines import paragraph_lines, short_justified_lines

    paths = japanese_outputs(kits, kind)
    assert sum(len(paragraph_lines(path)) for path in paths) > (600 if kind == "rules" else 40)
    found = [f"{where} ({short:.1f} pt)" for path in paths for where, short in short_justified_lines(path)]
    assert not found, "\n".join(found)


def test_the_components_tables_cut_no_word(kits):
    """Table cells are display text: a line of a cell (the components table, its notes) ends between words,
    the morphological analyser's short units (ステータス|シンボル|カード), never inside one."""
    from generator.render.components import component_rows
    from generator.render.typeset import word_boundaries
    from pdflines import body_size, split_words

    found = []
    for game_id in GAMES:
        game = load_game(CARDS_DIR / game_id)
        cells = [plain(row[key]) for row in component_rows(game, "ja") for key in ("name", "note") if row[key]]
        words = set()
        for cell in cells:
            cuts = [0, *sorted(word_boundaries(cell))]
            words |= {cell[a:b] for a, b in itertools.pairwise(cuts) if b - a >= 2}
        for path in japanese_outputs(kits, "rules"):
            if path.parent.name == game_id:
                body = body_size(path)
                in_tables = lambda line, body=body: 0.8 * body < line.size < 0.97 * body  # noqa: E731
                found += split_words(path, words, keep=in_tables, gap=0.8)
    assert not found, "\n".join(sorted(set(found)))


@pytest.mark.parametrize("game_id", GAMES)
def test_each_rule_sheet_is_one_edition_on_either_paper(kits, game_id):
    """A cover and a contents page on both papers or on neither; the same text on each page's first line."""
    report = json.loads((kits / game_id / "build.json").read_text())
    editions = {(f["lang"], f["paper"]): kits / game_id / f["path"] for f in report["files"] if f["kind"] == "rules"}
    for lang in {lang for lang, _ in editions}:
        firsts = []
        for paper in PAPERS:
            text = squeeze(all_text(editions[lang, paper]))
            firsts.append(("目次" in text[:400] or "Contents" in text[:400], text[:12]))
        assert firsts[0] == firsts[1], (lang, firsts)


def test_english_flavour_texts_end_on_more_than_one_word(kits):
    from pdflines import following_lines, lines_of, word_gaps

    game = load_game(CARDS_DIR / "greed-inc")
    flavours = [
        card.fields["flavour"].get("en") for card in game.decks["companies"].cards if card.fields.get("flavour")
    ]
    assert len(flavours) >= 5
    lines = lines_of(kits / "greed-inc" / "cards-en-a4.pdf")
    found = []
    for above, below in following_lines(lines):
        for text in flavours:
            words = text.split()
            if len(words) > 3 and word_gaps(below) == [words[-1]] and squeeze(text).endswith(above.text + below.text):
                found.append(f"{above.text} | {below.text}")
    assert not found, found


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
    found = [cut for path in paths for cut in split_words(path, words) if own_page(kits / game_id, cut)]
    assert not found, "\n".join(sorted(set(found)))


def own_page(out_dir, cut: str) -> bool:
    """Whether a cut word (`pnp-ja-a4.pdf p3: ...`) is on a page the file prints itself: a print-and-play file's
    guide and checklist, not the pages it binds from the other files (checked in those files, or prose: rules)."""
    name, page = re.match(r"(\S+) p(\d+):", cut).groups()
    if not name.startswith("pnp-"):
        return True
    entry = next(e for e in json.loads((out_dir / "build.json").read_text())["files"] if e["path"] == name)
    return int(page) <= sum(entry["front_matter"].values())


def test_the_money_and_start_player_token_backs_print_the_title_whole(kits):
    from pdflines import lines_of

    lines = [line.text for line in lines_of(kits / "greed-inc" / "tokens-ja-a4.pdf")]
    parts = [text for text in lines if "インコー" in text or "テッド" in text]
    assert parts and all("インコーポレイテッド" in text for text in parts), parts


@pytest.mark.parametrize("kind", ["cards", "aid", "board", "rules"])
def test_japanese_and_latin_are_spaced_on_every_kind_of_output(kits, kind):
    from pdflines import japanese_latin_gaps

    gaps = [(path.name, pair, gap) for path in japanese_outputs(kits, kind) for pair, gap in japanese_latin_gaps(path)]
    assert len(gaps) >= 10, "the kits print Japanese next to numbers on every kind of output"
    tight = [g for g in gaps if g[2] < 0.1]  # a quarter em is about 0.18 of a character box's height
    assert not tight, tight[:10]
