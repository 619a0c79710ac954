"""The WeasyPrint floor: the benchmark deck's 100 distinct faces laid out by the smallest WeasyPrint program.

One process, one document, a face per page (poker size with 3 mm bleed), absolutely positioned boxes with
the fonts pnpgen prints with (Noto Sans CJK JP, regular and bold, through fontconfig), one write_pdf. No
templates, checks, cache, imposition or marks: what the HTML renderer alone costs, import included.

    python bench/weasyprint_floor.py OUT.pdf
"""

import html
import sys
from pathlib import Path

import weasyprint

sys.path.insert(0, str(Path(__file__).resolve().parent))
from deck import cards  # noqa: E402

W, H, BLEED, SAFE = 63, 88, 3, 3  # mm

STYLE = f"""
@page {{ size: {W}mm {H}mm; margin: 0; bleed: {BLEED}mm; }}
html {{ font-family: "Noto Sans CJK JP", sans-serif; font-size: 8pt; line-height: 1.35; color: #1d1d1f; }}
body {{ margin: 0; }}
.face {{ position: relative; width: {W}mm; height: {H}mm; break-after: page; }}
.bleed {{ position: absolute; left: -{BLEED}mm; top: -{BLEED}mm; width: {W + 2 * BLEED}mm;
          height: {H + 2 * BLEED}mm; background: #fffff0; }}
.safe {{ position: absolute; left: {SAFE}mm; top: {SAFE}mm; width: {W - 2 * SAFE}mm; height: {H - 2 * SAFE}mm; }}
.frame {{ border: 0.7mm solid #1b5e20; }}
h1 {{ position: absolute; left: 0; right: 0; top: 3mm; margin: 0; text-align: center; font-size: 12pt; }}
p {{ position: absolute; left: 3mm; right: 3mm; top: 14mm; margin: 0; font-size: 8pt; }}
"""


def face(card: dict) -> str:
    return (
        f'<div class="face"><div class="bleed"></div><div class="safe frame"></div><div class="safe">'
        f"<h1>{html.escape(card['title'])}</h1><p>{html.escape(card['body'])}</p></div></div>"
    )


def main(out: str) -> None:
    document = (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><style>{STYLE}</style></head>'
        f"<body>{''.join(face(card) for card in cards())}</body></html>"
    )
    weasyprint.HTML(string=document).write_pdf(out)


if __name__ == "__main__":
    main(sys.argv[1])
