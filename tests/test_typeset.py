"""Japanese typesetting: the filters, and the test page laid out by WeasyPrint (read back from its boxes)."""

import itertools

import pytest

from generator.render.sample import FEATURES, render_sample, write_sample
from generator.render.typeset_html import typeset_page
from generator.render.vertical import cells
from generator.render.typeset import (
    WORD_BREAK,
    GAP,
    Words,
    compress_punctuation,
    full_width,
    phrase_pieces,
    phrases,
    plain,
    tidy_spaces,
    typeset,
)

FORBIDDEN_AT_LINE_START = "。、」）"
NOTO_ASCENT = 1.16  # Noto CJK's ascent in em: how far its glyph boxes (a PDF reader's loose boxes) reach


def test_spacing_between_japanese_and_latin():
    assert str(typeset("CEOは40%を")) == f"CEO{GAP}は{GAP}40%{GAP}を"
    assert tidy_spaces("両社の CEO の同意") == "両社のCEOの同意"  # the author's space becomes our gap
    assert tidy_spaces("グリード インコーポレイテッド") == "グリード インコーポレイテッド"
    assert str(typeset("CEO and CFO", "en")) == "CEO and CFO"


def test_full_width_punctuation():
    assert full_width("資産(10番)を出す!本当?") == "資産（10番）を出す！本当？"
    assert full_width("(see page 3)") == "(see page 3)"
    assert compress_punctuation("す。「は") == 'す<span class="halt">。</span>「は'
    assert compress_punctuation("「『は") == "「『は"  # two opening brackets keep their width


def test_furigana_markup_and_phrases_keep_ruby_whole():
    html = str(typeset("{株券|かぶけん}を{購入|こうにゅう}する"))
    assert '<span class="rt">かぶけん</span>株券' in html and "{" not in html
    pieces = phrase_pieces("{株券|かぶけん}を{購入|こうにゅう}する。")
    assert "".join(pieces) == "{株券|かぶけん}を{購入|こうにゅう}する。"
    assert [plain(p) for p in pieces] == phrases("株券を購入する。")
    assert typeset("{漢字|かんじ}", "en") == "漢字"
    assert "padding" not in str(typeset("{漢字|かんじ}"))


def test_a_long_reading_overhangs_kana_but_not_kanji():
    # 3 kana at half size over one kanji: 0.25 em too wide a side, which a kana neighbour takes (JLReq)
    assert "padding" not in str(typeset("この{主|あるじ}は"))
    assert "padding: 0 0.25em 0 0.25em" in str(typeset("{主|あるじ}"))  # nothing beside it: widened
    assert "padding: 0 0.25em 0 0em" in str(typeset("の{主|あるじ}人"))  # a kanji after it refuses


def test_phrase_spans_compress_punctuation_across_phrases():
    html = str(typeset("出す。「はい」", phrase_breaks=True))
    assert '<span class="halt">。</span>' in html


@pytest.fixture(scope="module")
def sample_layout():
    document = render_sample()
    assert len(document.pages) == 1, "the test page fits one page"
    boxes = {}
    for box in document.pages[0]._page_box.descendants(placeholders=True):
        element = getattr(box, "element", None)
        if element is not None and element.get("data-feature") and box.element_tag == "div":
            kind = "set" if "set" in element.get("class") else "plain"
            boxes.setdefault((element.get("data-feature"), kind), box)
    assert len(boxes) == 2 * len(FEATURES)
    return boxes


def descendants(box):
    return box.descendants(placeholders=True)


def lines(box):
    found = []
    for child in descendants(box):
        if type(child).__name__ == "LineBox":
            text = "".join(
                t.text for t in descendants(child) if type(t).__name__ == "TextBox" and not _in_reading(t, child)
            )
            found.append(text.replace("\u200b", ""))  # <wbr> between phrases, or the naive box's breaks
    return found


def _in_reading(text_box, line):
    """Is this text a furigana reading (absolutely placed, so not part of the line's own text)?"""
    return text_box.element is not None and text_box.element.get("class") == "rt"


def test_kinsoku_keeps_closing_marks_off_a_line_start(sample_layout):
    set_lines = lines(sample_layout["kinsoku", "set"])
    assert len(set_lines) >= 4
    assert not [line for line in set_lines if line.strip()[:1] in FORBIDDEN_AT_LINE_START]
    naive = lines(sample_layout["kinsoku", "plain"])
    assert [line for line in naive if line[:1] in FORBIDDEN_AT_LINE_START], (
        "the comparison box should show what breaking after any character does"
    )


def test_budoux_lines_end_at_phrase_boundaries(sample_layout):
    text = next(f[3] for f in FEATURES if f[0] == "phrases")
    boundaries, total = set(), 0
    for phrase in phrases(text):
        total += len(phrase)
        boundaries.add(total)
    set_lines = lines(sample_layout["phrases", "set"])
    ends = [sum(len(line) for line in set_lines[: i + 1]) for i in range(len(set_lines))]
    assert len(set_lines) >= 2 and set(ends) <= boundaries
    plain_lines = lines(sample_layout["phrases", "plain"])
    plain_ends = {sum(len(line) for line in plain_lines[: i + 1]) for i in range(len(plain_lines))}
    assert not plain_ends <= boundaries, "without phrases a word is cut"


def test_furigana_sits_above_its_base(sample_layout):
    box = sample_layout["furigana", "set"]
    readings = [b for b in descendants(box) if type(b).__name__ == "TextBox" and _in_reading(b, None)]
    bases = [b for b in descendants(box) if type(b).__name__ == "TextBox" and b.text.startswith("株券")]
    assert readings and bases
    assert readings[0].position_y < bases[0].position_y - 2  # above, not inline
    assert abs((readings[0].position_x + readings[0].width / 2) - (bases[0].position_x + bases[0].width / 2)) < 2
    plain_text = "".join(lines(sample_layout["furigana", "plain"]))
    assert "株券かぶけん" in plain_text, "WeasyPrint's own <ruby> prints the reading inline"


def test_latin_runs_get_a_quarter_em(sample_layout):
    box = sample_layout["spacing", "set"]
    gaps = [
        b
        for b in descendants(box)
        if getattr(b, "element", None) is not None
        and b.element.get("class") == "jl"
        and type(b).__name__ == "InlineBox"
    ]
    assert len(gaps) >= 4
    size = box.style["font_size"]
    widths = [gap.width for gap in gaps if gap.width]  # a gap that fell at a line end is dropped, as a space is
    assert all(0.2 * size <= width <= 0.5 * size + 0.01 for width in widths), "a quarter em, up to half justified"
    assert min(widths) <= 0.3 * size


def test_consecutive_punctuation_is_set_half_width(sample_layout):
    box = sample_layout["punctuation", "set"]
    halves = [
        b
        for b in descendants(box)
        if type(b).__name__ == "TextBox" and b.element is not None and b.element.get("class") == "halt"
    ]
    assert halves
    size = box.style["font_size"]
    assert all(abs(b.width - size / 2) < 0.05 * size for b in halves)
    text = "".join(lines(box))
    assert "（10" in text and "?" not in text and "？" in text


def test_pnpgen_rules_sample_writes_the_page(tmp_path, cli):
    result = cli("rules", "--sample", "--out", tmp_path, "-q")
    assert result.code == 0
    import pikepdf

    assert len(pikepdf.open(tmp_path / "typesetting-sample.pdf").pages) == 1


def test_write_sample_is_deterministic(tmp_path):
    write_sample(tmp_path / "a.pdf")
    write_sample(tmp_path / "b.pdf")
    assert (tmp_path / "a.pdf").stat().st_size == (tmp_path / "b.pdf").stat().st_size


# --- the pass over a whole page ---------------------------------------------------------------------


def test_every_text_of_a_page_is_set_without_a_filter():
    page = typeset_page('<div class="name">カードを1枚</div><p lang="en">Draw 1 card</p>', "ja")
    assert f'<span class="phrase">{GAP}1{GAP}枚</span>' in page  # display text: the phrase keeps 1 with 枚
    body = typeset_page('<p data-typeset="no-phrases">カードを1枚</p>', "ja")
    assert f'を{GAP}<span class="nb">1{GAP}枚</span>' in body  # running text: an unbreakable span
    assert "Draw 1 card" in page


def test_spacing_reaches_across_inline_elements_but_not_blocks():
    assert f"<b>4</b>{GAP}個" in typeset_page("<p data-typeset='no-phrases'><b>4</b>個</p>", "ja")
    assert GAP not in typeset_page("<p data-typeset='no-phrases'><div>4</div>個</p>", "ja")


def test_an_author_turns_typesetting_off_or_one_rule_off():
    assert typeset_page('<div data-typeset="off">CEOは40%</div>', "ja") == '<div data-typeset="off">CEOは40%</div>'
    page = typeset_page('<div data-typeset="no-spacing no-phrases">CEOは(1枚)</div>', "ja")
    assert GAP not in page and "（" in page
    assert 'class="phrase"' not in page


def test_styles_scripts_and_svg_are_left_alone():
    page = "<style>.a::after { content: '価値+1' }</style><svg><text>価値+1</text></svg>"
    assert typeset_page(page, "ja") == page


def test_display_text_keeps_words_and_a_demonstrative_with_its_noun():
    page = typeset_page("<div>止まるその日まで。</div>", "ja")
    assert '<span class="phrase">その日まで。</span>' in page
    assert (
        f'<span class="phrase">グリード・</span>{WORD_BREAK}<span class="phrase">インコーポレイテッド</span>'
        in typeset_page("<div>グリード・インコーポレイテッド</div>", "ja")
    )


def test_vertical_cells():
    assert cells("地図カード 北 12「ッ」、") == [
        ("upright", "地"),
        ("upright", "図"),
        ("upright", "カ"),
        ("upright", "ー"),
        ("upright", "ド"),
        ("space", ""),
        ("upright", "北"),
        ("space", ""),
        ("across", "12"),
        ("upright", "「"),
        ("upright", "ッ"),
        ("upright", "」"),
        ("upright", "、"),
    ]
    page = typeset_page('<div data-typeset="vertical">北 1</div>', "ja")
    assert 'class="tate"' in page and '<span class="v-across">1</span>' in page
    assert typeset_page('<div data-typeset="vertical" lang="en">North 1</div>', "ja").count("tate") == 0


def _box(sample_layout, key, kind="set"):
    return sample_layout[key, kind]


def test_sample_vertical_text_is_a_column_read_top_to_bottom(sample_layout):
    box = _box(sample_layout, "vertical")
    glyphs = [b for b in descendants(box) if type(b).__name__ == "TextBox"]
    assert len(glyphs) >= 12
    assert len({round(b.position_x + b.width / 2) for b in glyphs}) <= 2  # one column
    tops = [b.position_y for b in glyphs]
    assert tops == sorted(tops) and len(set(tops)) == len(tops)  # each below the one before


def test_sample_furigana_overhangs_kana_and_stays_in_its_line(sample_layout):
    box = _box(sample_layout, "furigana")
    rubies = [
        b
        for b in descendants(box)
        if getattr(b, "element", None) is not None
        and b.element.get("class") == "ruby"
        and type(b).__name__ == "InlineBlockBox"
    ]
    readings = {
        id(r): [t for t in descendants(r) if type(t).__name__ == "TextBox" and _in_reading(t, None)] for r in rubies
    }
    overhanging = [r for r in rubies if readings[id(r)] and readings[id(r)][0].width > r.width + 0.5]
    assert overhanging, "a reading wider than its base (あるじ over 主) hangs over its kana neighbours"
    for ruby in overhanging:
        assert ruby.padding_left == ruby.padding_right == 0
    line = next(b for b in descendants(box) if type(b).__name__ == "LineBox")
    first_reading = readings[id(rubies[0])][0]
    size = first_reading.style["font_size"]
    glyphs_top = first_reading.position_y + first_reading.baseline - NOTO_ASCENT * size
    assert glyphs_top >= line.position_y - 0.1, "the reading, its font's ascent included, is inside its line box"
    base = next(t for t in descendants(rubies[0]) if type(t).__name__ == "TextBox" and not _in_reading(t, None))
    reading_bottom = first_reading.position_y + first_reading.baseline + 0.12 * size
    base_top = base.position_y + base.baseline - 0.88 * base.style["font_size"]
    assert abs(reading_bottom - base_top) < 0.1 * size, "the reading sits on its base's em box"
    assert first_reading.style["font_size"] >= 5.5 * 96 / 72 - 0.01, "readable: at least 5.5 pt"


def test_sample_paragraph_ends_on_more_than_one_character(sample_layout):
    plain_lines = lines(_box(sample_layout, "lastline", "plain"))
    set_lines = lines(_box(sample_layout, "lastline"))
    assert len(plain_lines[-1].strip("。")) == 1, "the plain box shows the short last line"
    assert len(set_lines[-1].replace("\u2060", "").strip("。")) >= 2
    assert (
        "".join(set_lines).replace("\u2060", "").replace(" ", "")
        == "手番のプレイヤーは山札から1枚引いて手札に加えます。"
    )


def test_sample_running_text_is_flush_and_display_text_ragged(tmp_path):
    """Read back from the PDF: every line of pnpgen's running-text boxes but the last ends at the box's right
    edge (the slack spread between characters); the display-text box (phrases) keeps its ragged right."""
    from pdflines import lines_of, paragraph_lines, short_justified_lines

    path = tmp_path / "sample.pdf"
    write_sample(path)
    column = next(line for line in lines_of(path) if line.text == "pnpgen").left - 5  # pnpgen's boxes
    phrases_text = next(f[3] for f in FEATURES if f[0] == "phrases")

    def running(line):
        return line.left >= column and line.text not in phrases_text

    assert len([pair for pair in paragraph_lines(path) if running(pair[0])]) >= 7
    assert not short_justified_lines(path, keep=running)
    display = [
        line for line in lines_of(path) if line.left >= column and len(line.text) > 2 and line.text in phrases_text
    ]
    assert len(display) >= 2 and max(line.right for line in display) - min(line.right for line in display) > 10


def test_small_readings_are_enlarged_to_a_readable_size():
    import weasyprint

    from generator.render.weasy.fit import render_measured
    from generator.render.typeset_html import stylesheet

    html = f"<style>{stylesheet()}</style><p lang='ja' style='font-size: 8pt'>{typeset('{主|あるじ}')}</p>"
    document, _ = render_measured(weasyprint.HTML(string=html))
    boxes = [getattr(b, "_box", b) for b in document.pages[0]._page_box.descendants(placeholders=True)]
    readings = [t for b in boxes for t in [b, *b.descendants()] if type(t).__name__ == "TextBox" and t.text == "あるじ"]
    reading = readings[0]
    assert abs(reading.style["font_size"] - 5.5 * 96 / 72) < 0.01  # half of 8 pt would be 4 pt


def test_pushing_an_end_down_joins_it_and_takes_out_the_breaks_between_its_phrases():
    from xml.etree import ElementTree

    from generator.render.weasy.lastlines import JOINER, join_from

    paragraph = ElementTree.fromstring(f"<p>{typeset_page('<p>手札から捨てる。</p>', 'ja')[3:-4]}</p>")
    assert "\u200b" in "".join(paragraph.itertext())  # a break between the two phrases
    assert join_from(paragraph, 2)
    text = "".join(paragraph.itertext())
    assert "\u200b" not in text, "a break left inside the joined end would still let the line break there"
    assert text == f"手札か{JOINER}ら{JOINER}捨{JOINER}て{JOINER}る{JOINER}。"


def _laid_out_lines(body: str, width_em: int = 10):
    from generator.render import weasy
    from generator.render.typeset_html import stylesheet
    from generator.render.weasy.fit import render_measured
    from generator.render.weasy.paragraphs import line_text, paragraphs

    html = (
        f'<html lang="ja"><style>{stylesheet()} p {{ font-family: "Noto Serif CJK JP"; font-size: 20px; '
        f"width: {width_em}em; text-align: justify; margin: 0 }}</style><body><p>{body}</p></body></html>"
    )
    document, _ = render_measured(weasy.load().HTML(string=html))
    return [line_text(line) for paragraph in paragraphs(document) for line in paragraph.lines], document


def test_a_one_character_last_line_is_squeezed_up_by_the_punctuation_above_it():
    text = "あいうえおかきくけこさ、し、す、せそたちつ"  # 10 a line: つ alone on a third line
    lines, _ = _laid_out_lines(typeset_page(text, "ja", phrases=False))
    assert len(lines) == 2 and "".join(lines) == text, lines


def test_a_one_character_last_line_takes_a_word_down_when_nothing_can_be_squeezed():
    """「作りま|す。」 set 13 characters wide: ます comes down whole (a word, not 「ま」 cut from it) and the
    line above is filled by spacing its characters."""
    text = "山札がなくなったら捨て札を混ぜて新しい山札を作ります。"
    lines, document = _laid_out_lines(typeset_page(text, "ja", phrases=False), 13)
    assert [line.replace("\u2060", "") for line in lines] == [
        "山札がなくなったら捨て札を",
        "混ぜて新しい山札を作り",
        "ます。",
    ]
    with_spacing = [box for box in _text_boxes(document) if box.style["letter_spacing"] not in ("normal", 0)]
    assert with_spacing and all(0 < box.style["letter_spacing"] <= 0.25 * 20 for box in with_spacing)


def _text_boxes(document):
    from generator.render.weasy.tree import descendants, kind, page_box

    return [box for page in document.pages for box in descendants(page_box(page)) if kind(box) == "TextBox"]


def test_letter_spacing_is_the_same_with_phrase_breaks_as_without():
    from generator.render import weasy
    from generator.render.typeset_html import stylesheet
    from generator.render.weasy.tree import descendants, kind, page_box

    text = "天野ムードの企画案件を受ける"  # three phrases: two breaks between them
    widths = []
    for body in (text, str(typeset(text, phrase_breaks=True))):
        html = (
            f'<html lang="ja"><style>{stylesheet()} div {{ font-family: "Noto Sans CJK JP"; font-size: 20px; '
            f"letter-spacing: 0.5em }}</style><body><div>{body}</div></body></html>"
        )
        page = weasy.load().HTML(string=html).render().pages[0]
        widths.append([round(box.width, 1) for box in descendants(page_box(page)) if kind(box) == "LineBox"])
    assert widths[0] == widths[1] == [14 * 30.0]  # 14 characters of 20 px, each followed by 10 px


def test_no_gap_beside_a_middle_dot_or_in_metadata():
    from generator.render.typeset import metadata_text

    html = str(typeset("・会社カード・14枚中1枚目・"))
    assert f"・{GAP}" not in html and f"{GAP}・" not in html and f"14{GAP}枚" in html
    assert str(typeset("CEO・CFO")) == "CEO・CFO"
    assert metadata_text("その案件、弊社なら 1 金で受けれますが?", "ja") == "その案件、弊社なら1金で受けれますが？"
    assert metadata_text("{株券|かぶけん}を1枚", "ja") == "株券を1枚"
    assert metadata_text("Draw 1 card", "en") == "Draw 1 card"


def _layout(body: str, css: str):
    from generator.render import weasy
    from generator.render.typeset_html import stylesheet
    from generator.render.weasy.fit import render_measured

    html = f'<html lang="ja"><style>{stylesheet()} {css}</style><body>{body}</body></html>'
    document, _ = render_measured(weasy.load().HTML(string=html))
    return document


@pytest.mark.parametrize("layout", ["fixed", "auto"])
def test_a_phrase_longer_than_its_cell_breaks_between_its_words(layout):
    """In a fixed table the phrase runs past its cell; in an auto one it widens the table past its place."""
    from generator.render.weasy.paragraphs import line_text, paragraphs

    cells = '<td style="width: 7em">ステータスシンボルカード</td><td>金銀ステータスシンボル</td>'
    body = typeset_page(f'<div style="width: 15em"><table><tr>{cells}</tr></table></div>', "ja")
    css = (
        'td { font: 20px "Noto Sans CJK JP"; padding: 0; vertical-align: top } '
        f"table {{ border-spacing: 0; table-layout: {layout}; width: 100% }}"
    )
    document = _layout(body, css)
    found = [
        [line_text(line).replace("\u2060", "").replace("\u200b", "") for line in p.lines] for p in paragraphs(document)
    ]
    assert found[0] in (["ステータス", "シンボルカード"], ["ステータス", "シンボル", "カード"]), found
    assert found[1] in (["金銀ステータス", "シンボル"], ["金銀", "ステータス", "シンボル"]), found


def test_a_word_longer_than_its_line_breaks_anywhere_at_last():
    from generator.render.weasy.paragraphs import line_text, paragraphs

    body = typeset_page('<div style="width: 4em">インコーポレイテッド</div>', "ja")
    document = _layout(body, 'div { font: 20px "Noto Sans CJK JP" }')
    (block,) = paragraphs(document)
    lines = [line_text(line).replace("\u2060", "") for line in block.lines]
    assert "".join(lines) == "インコーポレイテッド" and max(len(line) for line in lines) <= 4, lines


def test_a_reading_at_the_start_or_end_of_a_line_stays_inside_the_column():
    from generator.render.weasy.tree import descendants, kind, page_box

    text = "{発注主|はっちゅうぬし}となってほかの会社に仕事を頼む{発注主|はっちゅうぬし}"
    body = f'<p data-typeset="no-phrases" style="width: 14em; margin: 0 0 0 30px">{text}</p>'
    document = _layout(typeset_page(body, "ja"), 'p { font: 20px "Noto Serif CJK JP"; line-height: 1.75 }')
    readings = [
        box
        for box in descendants(page_box(document.pages[0]))
        if kind(box) == "TextBox" and box.element.get("class") == "rt"
    ]
    assert len(readings) == 2
    assert min(box.position_x for box in readings) >= 30 - 0.5, "the first line's reading starts at the column"
    assert max(box.position_x + box.width for box in readings) <= 30 + 14 * 20 + 0.5


def test_an_english_paragraph_does_not_end_on_one_word():
    from generator.render import weasy
    from generator.render.weasy.fit import render_measured
    from generator.render.weasy.paragraphs import line_text, paragraphs

    text = "The island was quiet until the traders came and bought every last bit of it."
    for align in ("center", "justify", "left"):
        html = (
            f'<html lang="en"><body><p style="width: 16em; text-align: {align}; font: 12px \'DejaVu Serif\'">'
            f"{text}</p></body></html>"
        )
        document, _ = render_measured(weasy.load().HTML(string=html))
        (paragraph,) = paragraphs(document)
        lines = [line_text(line) for line in paragraph.lines]
        assert len(lines) >= 2 and len(lines[-1].split()) >= 2, (align, lines)


def test_a_narrow_justified_paragraph_keeps_its_words_whole_only_where_its_lines_stay_tight():
    """A player aid's panel, 12 to 16 characters a line: a line ends at a word's end (隣|から, not 隣か|ら) where
    sending the word down keeps the line above within MOST_TERM_EM of spacing, as tight as its neighbours;
    where it would not, the line breaks inside the word (資|金: JLReq allows it, a loose line reads worse).
    Every line but the last ends flush."""
    text = (
        "本拠地か既存の線路の隣からベージュを通って都市まで最短で敷く。"
        "通ったベージュの数だけ価値が上がり、都市のアイコンの資金を得る。"
    )
    for width in (12, 14, 16):
        lines, document = _laid_out_lines(typeset_page(text, "ja", phrases=False), width)
        lines = [line.replace("\u2060", "") for line in lines]
        assert "".join(lines) == text
        _assert_flush_and_tight(document, lines)
        if width == 12:
            assert lines[0] == "本拠地か既存の線路の隣", "から sent down whole: the line above stays tight"
            assert lines[-2].endswith("資") and lines[-1].startswith("金"), "資金 whole would loosen its line"
        if width == 16:
            assert lines[0] == "本拠地か既存の線路の隣からベー", "ベージュ whole would spread the line by 0.25 em"


def _assert_flush_and_tight(document, lines: list[str]) -> None:
    """Every line of the one paragraph but its last ends at the right edge, its characters at most MOST_TERM_EM
    apart (the letter spacing justification gave it; "normal" where it gave none)."""
    from generator.render.weasy.lastlines import MOST_TERM_EM
    from generator.render.weasy.paragraphs import paragraphs

    (paragraph,) = paragraphs(document)
    for index, line in enumerate(paragraph.lines[:-1]):
        boxes = _text_boxes_of(line)
        last = boxes[-1]
        assert abs(last.position_x + last.width - paragraph.right_edge(index)) < 0.6, lines
        spacings = [box.style["letter_spacing"] for box in boxes]
        spacing = max((value for value in spacings if isinstance(value, (int, float))), default=0)
        assert spacing <= MOST_TERM_EM * paragraph.font_size + 0.1, (lines[index], spacing)


def _text_boxes_of(line):
    from generator.render.weasy.paragraphs import line_items

    return [box for box in line_items(line) if box.text.strip()]


# --- the game's own words, kept whole (render/vocabulary.py) ---------------------------------------------------

WORTH = Words(frozenset({"企業価値", "企業", "キューブ", "スタート", "今年の収入"}))


def test_the_games_own_words_are_marked_where_they_stand_as_words():
    html = str(typeset("通るたびに企業価値が1上がり、3企業のキューブとスタートプレイヤー", words=WORTH))
    assert '<span class="term">企業価値</span>が' in html, "the longest word, not 企業 inside it"
    assert '<span class="term">キューブ</span>' in html
    assert f'<span class="nb">3{GAP}企</span>業' in html, "a number keeps its counter: no word starts after it"
    assert "スタート</span>" not in html, "スタート inside the longer katakana word スタートプレイヤー is none"
    assert str(typeset("{企業|きぎょう}価値を上げる", words=WORTH)).startswith(
        '<span class="term"><span class="ruby"><span class="rt">きぎょう</span>企業</span>価値</span>'
    )
    assert str(typeset("企業価値が上がる", words=WORTH)) == str(typeset("企業価値が上がる")).replace(
        "企業価値", '<span class="term">企業価値</span>'
    ), "nothing else of the text changes"


def test_display_text_never_breaks_a_phrase_inside_one_of_the_games_words():
    text = "受け取ったお金は今年の収入へ。"
    assert phrase_pieces(text) == ["受け取った", "お金は", "今年の", "収入へ。"]
    assert phrase_pieces(text, WORTH) == ["受け取った", "お金は", "今年の収入へ。"]


def test_the_vocabulary_of_a_game_is_its_names_title_words_and_glossary_terms():
    from generator.model import load_game
    from generator.paths import CARDS_DIR
    from generator.render.vocabulary import game_words

    mint = game_words(load_game(CARDS_DIR / "mint-rails"))["ja"].words
    cards_and_decks = {"企業価値", "企業価値カード", "ポートフォリオ", "ポートフォリオカード", "地図カード"}
    assert cards_and_decks <= mint
    assert {"ミントレールズ", "キューブ", "ホワイト", "本拠地"} <= mint  # the title, the glossary
    assert not {"北", "鶏", "ポートフォリオ 1"} & mint, "one character is no word; a name with a space is two"
    greed = game_words(load_game(CARDS_DIR / "greed-inc"))["ja"].words
    assert {"グリード", "インコーポレイテッド", "ステータスシンボル", "一次生産者"} <= greed
    ikkin = game_words(load_game(CARDS_DIR / "ikkin"))["ja"].words
    assert not any("受けれますが" in word for word in ikkin), "a title that is a sentence is no word"


def _lines_ending_inside(lines: list[str], words: Words) -> list[str]:
    text = "".join(lines)
    ends = list(itertools.accumulate(len(line) for line in lines))[:-1]
    inside = words.inside(text)
    return [lines[index] for index, end in enumerate(ends) if end in inside]


def test_a_narrow_justified_paragraph_keeps_the_games_words_whole_where_its_lines_stay_tight():
    """A player aid's panel, 12 to 16 characters wide: the analyser reads 企業価値 as 企業|価値. Where the line
    ends before it at no cost (12, 16 wide) the word is whole; at 14 wide, sending 企業 down would spread
    「ヘックスを1つ通るたびに」 by about 0.17 em against lines set solid, so the line breaks inside the word
    (JLReq allows it; a loose line reads worse). Every line stays within MOST_TERM_EM and ends flush."""
    text = "ヘックスを1つ通るたびに企業価値が1上がり、都市のアイコンの企業ごとに資金が1上がる。"
    plain_lines, _ = _laid_out_lines(typeset_page(text, "ja", phrases=False), 14)
    assert _lines_ending_inside([line.replace("\u2060", "").replace(" ", "") for line in plain_lines], WORTH)
    for width in (12, 14, 16):
        lines, document = _laid_out_lines(typeset_page(text, "ja", phrases=False, words={"ja": WORTH}), width)
        lines = [line.replace("\u2060", "").replace(" ", "") for line in lines]
        assert "".join(lines) == text
        assert bool(_lines_ending_inside(lines, WORTH)) == (width == 14), (width, lines)
        _assert_flush_and_tight(document, lines)


def test_a_wide_paragraph_keeps_a_games_word_whole_only_where_its_line_stays_tight():
    """Running text may break anywhere (JLReq): a wider column sends one of the game's words down whole only when
    the line above stays within MOST_TERM_EM of spacing; where it would not, the line breaks inside the word."""
    from generator.render.weasy.lastlines import MOST_TERM_EM

    text = (
        "各プレイヤーは手番に線路を敷くか株券を買う。線路を敷くと、ヘックスを1つ通るたびにその企業の企業価値が"
        "1上がり、都市のアイコンの企業ごとに資金が1上がる。企業価値の高い企業の株券ほど、終了時に多くのキューブを得る。"
    )
    html = typeset_page(text, "ja", phrases=False, words={"ja": WORTH})

    def laid_out(width, body):
        lines, document = _laid_out_lines(body, width)
        spacings = [box.style["letter_spacing"] for box in _text_boxes(document) if box.text.strip()]
        spacing = max((value for value in spacings if isinstance(value, (int, float))), default=0.0)
        return [line.replace("\u2060", "").replace(" ", "") for line in lines], spacing

    before, _ = laid_out(22, typeset_page(text, "ja", phrases=False))
    assert _lines_ending_inside(before, WORTH), before  # その企|業
    lines, spacing = laid_out(22, html)
    assert not _lines_ending_inside(lines, WORTH), lines
    assert spacing <= MOST_TERM_EM * 20 + 0.5, spacing
    loose, _ = laid_out(24, typeset_page(text, "ja", phrases=False))
    kept, _ = laid_out(24, html)
    assert _lines_ending_inside(kept, WORTH) == ["を敷くと、ヘックスを1つ通るたびにその企業の企業"], kept
    assert kept == loose, "keeping 企業価値 whole would leave its line loose: the line breaks inside it"


def test_a_wide_table_opens_its_widest_phrase_and_keeps_the_games_words_whole():
    """A table too wide for its place by one long phrase opens that one at its words, one of the game's words in
    it whole (金銀|ステータスシンボルの, not 金銀ステータス|シンボルの); its other phrases stay whole."""
    from generator.render.weasy.paragraphs import line_text, paragraphs

    cells = "<tr><td>ボード</td><td>金銀ステータスシンボルの価格トラック。印刷しません（各自で用意）</td></tr>"
    css = (
        'td { font: 20px "Noto Sans CJK JP"; padding: 0 10px 0 0; vertical-align: top } '
        "table { border-spacing: 0; width: 100% }"
    )

    def cell_lines(words):
        body = typeset_page(f'<div style="width: 300px"><table>{cells}</table></div>', "ja", words=words)
        cell = paragraphs(_layout(body, css))[1]
        opened = [
            "".join(span.itertext()).replace("\u2060", "")
            for span in cell.element.iter()
            if "words" in (span.get("class") or "").split()
        ]
        return [line_text(line).replace("\u2060", "").replace("\u200b", "") for line in cell.lines], opened

    assert cell_lines(None)[0][:2] == ["金銀ステータス", "シンボルの"]
    words = Words(frozenset({"ステータスシンボル", "価格トラック"}))
    lines, opened = cell_lines({"ja": words})
    assert lines == ["金銀", "ステータスシンボルの", "価格トラック。", "印刷しません（各自で", "用意）"]
    assert opened == ["金銀ステータスシンボルの"], "the one phrase that widened the table, not its neighbours"
