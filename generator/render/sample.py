"""A test page for the Japanese typesetting of rule sheets: each feature set plainly and as we set it.

`pnpgen rules --sample` writes it; tests build it and read it back.
"""
from __future__ import annotations

from pathlib import Path

from markupsafe import escape

from generator.fsutil import write_atomic
from generator.paths import TEMPLATES_DIR
from generator.render import fonts
from generator.render.typeset import RUBY, typeset

# (key, feature, how, source text, box width in mm, set with phrase breaks)
FEATURES = [
    ("furigana", "ふりがな / Furigana", "{漢字|かんじ} markup; WeasyPrint prints <ruby> inline",
     "{株券|かぶけん}を{購入|こうにゅう}し、{線路|せんろ}を{敷設|ふせつ}する。", 60, False),
    ("spacing", "和欧間の空き / Japanese-Latin spacing", "a quarter em between Japanese and Latin runs",
     "CEOは40%を受け取り、COOとCFOは20%ずつ受け取ります。", 60, False),
    ("phrases", "文節改行 / BudouX phrases", "a narrow column breaks between phrases, not inside words",
     "金の競りは親から時計回りに始めます。", 34, True),
    ("kinsoku", "禁則処理 / Kinsoku", "。、」） never start a line and 「（ never end one (Pango); "
     "left: a break allowed after every character",
     "山札を配ります。「親」は、緑のマーカー（ドル）を取ります。", 27.5, False),
    ("punctuation", "約物 / Full-width punctuation", "ASCII ( ) ! ? : beside Japanese become full width; "
     "of two marks in a row the first is set half width",
     "資産(10番)を出す。「はい」、「いいえ」。本当に?", 60, False),
]


def plain_html(text: str, key: str) -> str:
    """What a template would get without our filters: <ruby> elements, text as written; for kinsoku,
    what a tool breaking after any character does."""
    if key == "kinsoku":
        return "\u200b".join(str(escape(text)))
    return RUBY.sub(r"<ruby>\1<rt>\2</rt></ruby>", str(escape(text)))


def sample_html() -> str:
    rows = []
    for key, feature, how, text, width, phrase in FEATURES:
        box = f'style="width:{width}mm" data-feature="{key}"'
        rows.append(
            f'<tr><th><div class="feature">{escape(feature)}</div><div class="how">{escape(how)}</div>'
            f'<code>{escape(text)}</code></th>'
            f'<td><div class="box plain" {box}>{plain_html(text, key)}</div></td>'
            f'<td><div class="box set" {box}>{typeset(text, "ja", phrase_breaks=phrase)}</div></td></tr>')
    css = (TEMPLATES_DIR / "base" / "rules.css").read_text(encoding="utf-8")
    return (f'<!doctype html><html lang="ja" class="sample"><head><meta charset="utf-8"><style>\n'
            f"{fonts.font_face_css()}{css}\n"
            "@page { size: A4 landscape; margin: 14mm; }\n"
            "table.sample { border-collapse: collapse; width: 100%; }\n"
            "table.sample th, table.sample td { border: 0.4pt solid #b9c4c0; padding: 2mm 3mm; vertical-align: top;"
            " text-align: left; }\n"
            "table.sample thead th { background: #e3ebe8; }\n"
            ".feature { font-family: 'Noto Sans CJK JP'; font-size: 11pt; } .how { font-weight: normal;"
            " font-size: 8pt; color: #555; } code { font-size: 7.5pt; font-weight: normal; }\n"
            ".box { font-size: 11pt; line-height: 1.9; outline: 0.4pt dashed #d39b2a; }\n"
            "</style></head><body><h2 class='heading level1'>和文組版テスト / Japanese typesetting test</h2>"
            "<table class='sample'><thead><tr><th>機能 / Feature</th><th>そのまま / As written</th>"
            "<th>pnpgen</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table></body></html>")


def write_sample(path: Path) -> None:
    from generator.render import engine

    weasyprint = engine.load()

    write_atomic(path, weasyprint.HTML(string=sample_html(), base_url=str(TEMPLATES_DIR)).write_pdf())
