"""Japanese typesetting: the filters, and the test page laid out by WeasyPrint (read back from its boxes)."""

import pytest

from generator.render.sample import FEATURES, render_sample, write_sample
from generator.render.typeset_html import typeset_page
from generator.render.vertical import cells
from generator.render.typeset import (
    WORD_BREAK,
    GAP,
    compress_punctuation,
    full_width,
    phrase_pieces,
    phrases,
    plain,
    tidy_spaces,
    typeset,
)

FORBIDDEN_AT_LINE_START = "。、」）"


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
    for gap in gaps:
        if gap.width:  # a gap that fell at a line end is dropped, as a space should be
            assert 0.2 * size <= gap.width <= 0.3 * size


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
    assert first_reading.position_y >= line.position_y - 0.5, "the reading is inside its line box"
    assert first_reading.style["font_size"] >= 5.5 * 96 / 72 - 0.01, "readable: at least 5.5 pt"


def test_sample_paragraph_ends_on_more_than_two_characters(sample_layout):
    plain_lines = lines(_box(sample_layout, "lastline", "plain"))
    set_lines = lines(_box(sample_layout, "lastline"))
    assert len(plain_lines[-1].strip("。")) <= 2, "the plain box shows the short last line"
    assert len(set_lines[-1].replace("\u2060", "").strip("。")) >= 3


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


def test_joining_a_short_last_line_takes_out_the_breaks_between_its_phrases():
    from xml.etree import ElementTree

    from generator.render.weasy.lastlines import JOINER, join_end

    paragraph = ElementTree.fromstring(f"<p>{typeset_page('<p>手札から捨てる。</p>', 'ja')[3:-4]}</p>")
    assert "\u200b" in "".join(paragraph.itertext())  # a break between the two phrases
    assert join_end(paragraph, 4)
    text = "".join(paragraph.itertext())
    assert "\u200b" not in text, "a break left inside the joined end would still let the line break there"
    assert text == f"手札から{JOINER}捨{JOINER}て{JOINER}る{JOINER}。"


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
