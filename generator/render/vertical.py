"""Vertical Japanese (縦組み) for labels and titles, which WeasyPrint cannot do (no `writing-mode`).

The text becomes a column of one-em cells, each character upright, read top to bottom, set with the
font's vertical alternates (OpenType `vert`, which Noto CJK carries): brackets open downwards (「 → ﹁),
the long vowel mark ー and the wave dash 〜 run along the column, the comma and full stop sit in the upper
right of their cell and small kana (ゃ, ッ...) towards the right, as JIS X 4051 sets them. The text keeps
its own characters, so a PDF reader still finds 「地図カード」. A number of one or two digits is set across
one cell (縦中横), a longer Latin run too, narrowed; a space is half a cell.
"""

from __future__ import annotations

import re

from markupsafe import escape

from generator.render.attributes import Attribute

VERTICAL_TEXT = Attribute(
    "data-vertical-text",
    "text",
    "On the column of cells that sets a `vertical` element: its text as written.",
    for_templates=False,
)
ATTRIBUTES = (VERTICAL_TEXT,)
ACROSS = re.compile(r"[0-9A-Za-z%]{1,2}(?![0-9A-Za-z%])|[0-9A-Za-z%]{3,}|\s+|.", re.S)


def cells(text: str) -> list[tuple[str, str]]:
    """(kind, text) for each cell of the column, top to bottom."""
    found = []
    for match in ACROSS.finditer(text.strip()):
        piece = match.group(0)
        if piece.isspace():
            found.append(("space", ""))
        elif (piece.isascii() and piece.isalnum()) or len(piece) > 1:
            found.append(("across" if len(piece) <= 2 else "across narrow", piece))
        else:
            found.append(("upright", piece))
    return found


def vertical_html(text: str) -> str:
    """The column of cells for text (styled by templates/base/typeset.css, class `tate`)."""
    spans = "".join(f'<span class="v-{kind.replace(" ", " v-")}">{escape(piece)}</span>' for kind, piece in cells(text))
    return f'<span class="tate" {VERTICAL_TEXT}="{escape(text.strip())}">{spans}</span>'
