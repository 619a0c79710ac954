"""Lines of text read back from a PDF by their character boxes (pypdfium2), as a reader sees them."""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium

INVISIBLE = {"\u2060", "\u200b", "\ufffe", "\r", "\n", "\x02"}


@dataclass
class Char:
    text: str
    left: float
    bottom: float
    right: float
    top: float

    @property
    def middle(self) -> float:
        return (self.bottom + self.top) / 2

    @property
    def height(self) -> float:
        return self.top - self.bottom


@dataclass
class Line:
    page: int
    chars: list[Char] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(c.text for c in self.chars)

    @property
    def left(self) -> float:
        return min(c.left for c in self.chars)

    @property
    def right(self) -> float:
        return max(c.right for c in self.chars)

    @property
    def middle(self) -> float:
        return sum(c.middle for c in self.chars) / len(self.chars)

    @property
    def size(self) -> float:
        return max(c.height for c in self.chars)


def page_chars(page) -> list[Char]:
    text = page.get_textpage()
    found = []
    for index in range(text.count_chars()):
        char = text.get_text_range(index, 1)
        if not char or char in INVISIBLE or char.isspace():
            continue
        left, bottom, right, top = text.get_charbox(index, loose=True)  # the em box, not the ink
        if right - left <= 0 and top - bottom <= 0:
            continue
        found.append(Char(char, left, bottom, right, top))
    return found


def lines_of(path: Path) -> list[Line]:
    """Every horizontal line of every page: characters sharing a middle height, split where a gap wider
    than two of them opens (columns, table cells)."""
    pdf = pdfium.PdfDocument(str(path))
    lines = []
    for number in range(len(pdf)):
        rows: list[list[Char]] = []
        for char in sorted(page_chars(pdf[number]), key=lambda c: (-round(c.middle), c.left)):
            for row in rows:
                if abs(row[0].middle - char.middle) < 0.35 * max(char.height, 1):
                    row.append(char)
                    break
            else:
                rows.append([char])
        for row in rows:
            row.sort(key=lambda c: c.left)
            line = Line(number, [row[0]])
            for char in row[1:]:
                if char.left - line.chars[-1].right > 2 * max(char.height, line.chars[-1].height):
                    lines.append(line)
                    line = Line(number)
                line.chars.append(char)
            lines.append(line)
    return lines


def content_length(text: str) -> int:
    return sum(1 for char in text if unicodedata.category(char)[0] not in "PZ")


def japanese(text: str) -> bool:
    return any("\u3040" <= char <= "\u9fff" for char in text)


def short_last_lines(path: Path, shortest: int = 2) -> list[str]:
    """Japanese lines of at most `shortest` characters (punctuation aside) ending a sentence, right
    under a longer line of the same paragraph (same left edge, one line spacing above)."""
    lines = lines_of(path)
    found = []
    for line in lines:
        if not japanese(line.text) or content_length(line.text) > shortest or line.text[-1] not in "。」）":
            continue
        for above in lines:
            if (above.page == line.page and above is not line and abs(above.left - line.left) < line.size
                    and 0 < above.middle - line.middle < 2.2 * line.size and len(above.text) > len(line.text)):
                found.append(f"{path.name} p{line.page + 1}: ...{above.text[-8:]} | {line.text}")
                break
    return found
