"""A test page for pnpgen's Japanese typesetting: each feature set plainly and as pnpgen sets it.

`pnpgen rules --sample` writes it; tests build it and read it back.
"""

from __future__ import annotations

from pathlib import Path

from markupsafe import Markup

from generator.fsutil import write_atomic
from generator.paths import TEMPLATES_DIR
from generator.render import fonts, typeset_html
from generator.render.templating import Templates
from generator.render.typeset import RUBY

SAMPLE_TEMPLATE = "base/typesetting-sample.html"

# (key, feature, how, source text, box width in mm, how pnpgen sets it: a data-typeset value)
FEATURES = [
    (
        "furigana",
        "ふりがな / Furigana",
        (
            "{漢字|かんじ} markup; a reading longer than its base overhangs kana "
            "neighbours (JLReq) instead of widening the base; WeasyPrint prints <ruby> inline"
        ),
        "この{株券|かぶけん}を{購入|こうにゅう}し、{主|あるじ}の{発注主|はっちゅうぬし}となる。",
        56,
        "no-phrases",
    ),
    (
        "spacing",
        "和欧間の空き / Japanese-Latin spacing",
        "a quarter em between Japanese and Latin runs",
        "CEOは40%を受け取り、COOとCFOは20%ずつ受け取ります。",
        56,
        "no-phrases",
    ),
    (
        "phrases",
        "文節改行 / BudouX phrases",
        "display text breaks between phrases, not inside words",
        "金の競りは親から時計回りに始めます。",
        34,
        "phrases",
    ),
    (
        "counters",
        "数字と助数詞 / Numbers and counters",
        "a number stays with its counter",
        "山札からカードを12枚ずつ配ります。",
        36,
        "no-phrases",
    ),
    (
        "kinsoku",
        "禁則処理 / Kinsoku",
        ("。、」） never start a line and 「（ never end one (Pango); left: a break allowed after every character"),
        "山札を配ります。「親」は、緑のマーカー（ドル）を取ります。",
        27.5,
        "no-phrases",
    ),
    (
        "punctuation",
        "約物 / Full-width punctuation",
        ("ASCII ( ) ! ? : beside Japanese become full width; of two marks in a row the first is set half width"),
        "資産(10番)を出す。「はい」、「いいえ」。本当に?",
        56,
        "no-phrases",
    ),
    (
        "lastline",
        "行末の追い込み / No short last line",
        "no last line of one character: the marks above squeezed, or a word (加え|ます) comes down",
        "手番のプレイヤーは山札から1枚引いて手札に加えます。",
        47.5,
        "no-phrases",
    ),
    (
        "vertical",
        "縦組み / Vertical text",
        (
            "characters upright top to bottom; 「」ー、。 in their vertical forms, "
            "small kana to the upper right, two digits across (縦中横); left: the "
            "label rotated"
        ),
        "地図カード 北 12「ッキー」、。",
        12,
        "vertical",
    ),
]


def ruby_parts(text: str) -> list[tuple[str, str | None]]:
    """The text as (base, reading) pairs: furigana `{漢字|かんじ}` with its reading, the rest with None."""
    parts: list[tuple[str, str | None]] = []
    at = 0
    for match in RUBY.finditer(text):
        if match.start() > at:
            parts.append((text[at : match.start()], None))
        parts.append((match[1], match[2]))
        at = match.end()
    if at < len(text):
        parts.append((text[at:], None))
    return parts


def sample_html() -> str:
    """The page, drawn by templates/base/typesetting-sample.html and typeset."""
    features = [
        {
            "key": key,
            "feature": feature,
            "how": how,
            "text": text,
            "width": width,
            "rules": rules,
            "ruby": ruby_parts(text),
        }
        for key, feature, how, text, width, rules in FEATURES
    ]
    css = (TEMPLATES_DIR / "base" / "rules.css").read_text(encoding="utf-8")
    styles = Markup(f"{fonts.font_face_css()}{typeset_html.stylesheet()}{css}")
    return Templates(None, "ja").render(
        SAMPLE_TEMPLATE, {"features": features, "styles": styles, "title": SAMPLE_TITLE}, "the typesetting sample"
    )


def render_sample():
    """The laid-out sample (a WeasyPrint document), with short last lines pulled down as in every output."""
    from generator.render import weasy
    from generator.render.weasy.fit import render_measured

    html = sample_html()
    fonts.require_fonts_for(html)
    weasyprint = weasy.load()
    document, _fits = render_measured(weasyprint.HTML(string=html, base_url=str(TEMPLATES_DIR)))
    return document


SAMPLE_TITLE = "pnpgen: 組版見本 / Japanese typesetting sample"


def write_sample(path: Path) -> None:
    """The sample as a tagged PDF (its two columns, the plain setting and pnpgen's, as a table a reader can walk)."""
    write_atomic(path, render_sample().write_pdf(pdf_tags=True))
