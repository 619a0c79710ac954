"""A test page for pnpgen's Japanese typesetting: each feature set plainly and as pnpgen sets it.

`pnpgen rules --sample` writes it; tests build it and read it back.
"""
from __future__ import annotations

from pathlib import Path

from markupsafe import escape

from generator.fsutil import write_atomic
from generator.paths import TEMPLATES_DIR
from generator.render import fonts, typeset_html
from generator.render.typeset import RUBY

# (key, feature, how, source text, box width in mm, how pnpgen sets it: a data-typeset value)
FEATURES = [
    ("furigana", "ふりがな / Furigana", ("{漢字|かんじ} markup; a reading longer than its base overhangs kana "
                                       "neighbours (JLReq) instead of widening the base; WeasyPrint prints <ruby> inline"),
     "この{株券|かぶけん}を{購入|こうにゅう}し、{主|あるじ}の{発注主|はっちゅうぬし}となる。", 56, "no-phrases"),
    ("spacing", "和欧間の空き / Japanese-Latin spacing", "a quarter em between Japanese and Latin runs",
     "CEOは40%を受け取り、COOとCFOは20%ずつ受け取ります。", 56, "no-phrases"),
    ("phrases", "文節改行 / BudouX phrases", "display text breaks between phrases, not inside words",
     "金の競りは親から時計回りに始めます。", 34, "phrases"),
    ("counters", "数字と助数詞 / Numbers and counters", "a number stays with its counter",
     "山札からカードを12枚ずつ配ります。", 36, "no-phrases"),
    ("kinsoku", "禁則処理 / Kinsoku", ("。、」） never start a line and 「（ never end one (Pango); "
                                      "left: a break allowed after every character"),
     "山札を配ります。「親」は、緑のマーカー（ドル）を取ります。", 27.5, "no-phrases"),
    ("punctuation", "約物 / Full-width punctuation", ("ASCII ( ) ! ? : beside Japanese become full width; "
                                                     "of two marks in a row the first is set half width"),
     "資産(10番)を出す。「はい」、「いいえ」。本当に?", 56, "no-phrases"),
    ("lastline", "行末の追い込み / No short last line", ("a paragraph never ends on a line of one or two "
                                                       "characters: characters come down from the line before"),
     "手番のプレイヤーは山札から1枚引いて手札に加えます。", 47.5, "no-phrases"),
    ("vertical", "縦組み / Vertical text", ("characters upright top to bottom; 「」ー、。 in their vertical forms, "
                                          "small kana to the upper right, two digits across (縦中横); left: the "
                                          "label rotated"),
     "地図カード 北 12「ッキー」、。", 12, "vertical"),
]


def plain_html(text: str, key: str) -> str:
    """What a template would get without pnpgen: <ruby> elements, text as written; for kinsoku, what a
    tool breaking after any character does; for vertical text, the line turned a quarter."""
    if key == "kinsoku":
        return "\u200b".join(str(escape(text)))
    if key == "vertical":
        return f'<div class="turned">{escape(text)}</div>'
    return RUBY.sub(r"<ruby>\1<rt>\2</rt></ruby>", str(escape(text)))


def sample_html() -> str:
    rows = []
    for key, feature, how, text, width, rules in FEATURES:
        box = f'style="width:{width}mm" data-feature="{key}"'
        rows.append(
            f'<tr><th><div class="feature">{escape(feature)}</div><div class="how" lang="en">{escape(how)}</div>'
            + (f'<code lang="en">{escape(text)}</code>' if "(" in text else "") + '</th>'
            f'<td><div class="box plain" {box} data-typeset="off">{plain_html(text, key)}</div></td>'
            f'<td><div class="box set" {box} data-typeset="{rules}">{escape(text)}</div></td></tr>')
    css = (TEMPLATES_DIR / "base" / "rules.css").read_text(encoding="utf-8")
    page = (f'<!doctype html><html lang="ja" class="sample"><head><meta charset="utf-8"><style>\n'
            f"{fonts.font_face_css()}{typeset_html.stylesheet()}{css}\n"
            "@page { size: A4; margin: 10mm 12mm 12mm; }\n"
            "table.sample { border-collapse: collapse; width: 100%; table-layout: fixed; }\n"
            "table.sample col.feature { width: 30%; }\n"
            "table.sample th, table.sample td { border: 0.4pt solid #b9c4c0; padding: 1.2mm 2.5mm; vertical-align: top;"
            " text-align: left; }\n"
            "table.sample thead th { background: #e3ebe8; }\n"
            ".feature { font-family: 'Noto Sans CJK JP'; font-size: 10.5pt; } .how { font-weight: normal;"
            " font-size: 7.5pt; color: #555; } code { font-size: 7pt; font-weight: normal; }\n"
            "h2 { margin-top: 0; }\n"
            ".box { font-size: 11pt; line-height: 1.75; outline: 0.4pt dashed #d39b2a; }\n"
            ".box[data-feature=vertical] { font-family: 'Noto Sans CJK JP'; font-size: 10pt; line-height: 1;"
            " height: 55mm; text-align: center; }\n"
            ".turned { transform: rotate(-90deg) translate(-55mm, 0); transform-origin: 0 0; white-space: nowrap;"
            " width: 55mm; }\n"
            "</style></head><body><h2 class='heading level1'>和文組版テスト / Japanese typesetting test</h2>"
            "<table class='sample'><colgroup><col class='feature'><col><col></colgroup><thead>"
            "<tr><th>機能 / Feature</th><th>そのまま / As written</th>"
            "<th>pnpgen</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table></body></html>")
    return typeset_html.typeset_page(page, "ja")


def render_sample():
    """The laid-out sample (a WeasyPrint document), with short last lines pulled down as in every output."""
    from generator.render import engine
    from generator.render.fit import render_measured

    weasyprint = engine.load()
    document, _fits = render_measured(weasyprint.HTML(string=sample_html(), base_url=str(TEMPLATES_DIR)))
    return document


def write_sample(path: Path) -> None:
    write_atomic(path, render_sample().write_pdf())
