"""Vertical Japanese (縦組み) for labels and titles, which WeasyPrint cannot do (no `writing-mode`).

The text becomes a column of one-em cells, each character upright, read top to bottom:
- the comma and full stop sit in the upper right of their cell; brackets and colons take their vertical
  forms (「 → ﹁: brackets open downwards), as JIS X 4051 sets them;
- the long vowel mark ー, the wave dash 〜 and dashes are turned a quarter turn;
- small kana (ゃ, ッ...) sit towards the upper right of their cell;
- a number of one or two digits is set across in one cell (縦中横); longer Latin runs too, narrowed;
- a space is half a cell.
"""
from __future__ import annotations

import re

from markupsafe import escape

# The comma and full stop keep their glyph, moved from the lower left to the upper right of the cell.
STOPS = set("、。，．")
VERTICAL_FORMS = {
    "：": "\ufe13", "；": "\ufe14", "！": "\ufe15",
    "？": "\ufe16", "…": "\ufe19", "‥": "\ufe30", "（": "\ufe35", "）": "\ufe36", "｛": "\ufe37",
    "｝": "\ufe38", "〔": "\ufe39", "〕": "\ufe3a", "【": "\ufe3b", "】": "\ufe3c", "《": "\ufe3d",
    "》": "\ufe3e", "〈": "\ufe3f", "〉": "\ufe40", "「": "\ufe41", "」": "\ufe42", "『": "\ufe43",
    "』": "\ufe44", "(": "\ufe35", ")": "\ufe36", "!": "\ufe15", "?": "\ufe16", ":": "\ufe13",
}
TURNED = set("ー〜～—―-–‐→←")
SMALL_KANA = set("ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ")
ACROSS = re.compile(r"[0-9A-Za-z%]{1,2}(?![0-9A-Za-z%])|[0-9A-Za-z%]{3,}|\s+|.", re.S)


def cells(text: str) -> list[tuple[str, str]]:
    """(kind, text) for each cell of the column, top to bottom."""
    found = []
    for match in ACROSS.finditer(text.strip()):
        piece = match.group(0)
        if piece.isspace():
            found.append(("space", ""))
        elif len(piece) > 1 or piece.isascii() and piece.isalnum():
            found.append(("across" if len(piece) <= 2 else "across narrow", piece))
        elif piece in STOPS:
            found.append(("stop", piece))
        elif piece in VERTICAL_FORMS:
            found.append(("mark", VERTICAL_FORMS[piece]))
        elif piece in TURNED:
            found.append(("turned", piece))
        elif piece in SMALL_KANA:
            found.append(("small", piece))
        else:
            found.append(("upright", piece))
    return found


def vertical_html(text: str) -> str:
    """The column of cells for text (styled by templates/base/typeset.css, class `tate`)."""
    spans = "".join(f'<span class="v-{kind.replace(" ", " v-")}">{escape(piece)}</span>'
                    for kind, piece in cells(text))
    return f'<span class="tate" data-vertical-text="{escape(text.strip())}">{spans}</span>'
