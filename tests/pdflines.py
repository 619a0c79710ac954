"""Lines of text read back from a PDF by their character boxes (pypdfium2), as a reader sees them."""

from __future__ import annotations

import collections
import functools
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

INVISIBLE = {"\u2060", "\u200b", "\ufffe", "\r", "\n", "\x02"}


@dataclass
class Char:
    text: str
    left: float
    bottom: float
    right: float
    top: float
    angle: float = 0.0  # the glyph's rotation in radians (0: upright)
    ink_width: float = 0.0  # the glyph's drawn extent (a vertical form of ー is tall and narrow)
    ink_height: float = 0.0

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
        angle = pdfium_c.FPDFText_GetCharAngle(text.raw, index)
        ink_left, ink_bottom, ink_right, ink_top = text.get_charbox(index)
        found.append(Char(char, left, bottom, right, top, angle, ink_right - ink_left, ink_top - ink_bottom))
    return found


def chars_of(path: Path) -> list[tuple[int, Char]]:
    pdf = pdfium.PdfDocument(str(path))
    return [(number, char) for number in range(len(pdf)) for char in page_chars(pdf[number])]


def lines_of(path: Path, gap: float = 2.0) -> list[Line]:
    """Every horizontal line of every page: upright characters sharing a middle height, split where a gap
    wider than `gap` times their height opens (columns, table cells; 0.8, about an em: panels and the two
    languages side by side too)."""
    path = Path(path)
    return _lines_of(str(path), path.stat().st_mtime_ns, gap)


@functools.lru_cache(maxsize=256)
def _lines_of(path: str, _version: int, gap: float) -> list[Line]:
    pdf = pdfium.PdfDocument(path)
    lines = []
    for number in range(len(pdf)):
        upright = [c for c in page_chars(pdf[number]) if abs(c.angle) < 0.01]  # turned text is no line
        rows: list[list[Char]] = []
        for char in sorted(upright, key=lambda c: (c.middle, c.left)):
            if rows and abs(rows[-1][0].middle - char.middle) < 0.35 * max(char.height, 1):
                rows[-1].append(char)
            else:
                rows.append([char])
        for row in rows:
            row.sort(key=lambda c: c.left)
            line = Line(number, [row[0]])
            for char in row[1:]:
                if char.left - line.chars[-1].right > gap * max(char.height, line.chars[-1].height):
                    lines.append(line)
                    line = Line(number)
                line.chars.append(char)
            lines.append(line)
    return lines


def content_length(text: str) -> int:
    return sum(1 for char in text if unicodedata.category(char)[0] not in "PZ")


def japanese(text: str) -> bool:
    return any("\u3040" <= char <= "\u9fff" for char in text)


def following_lines(lines: list[Line]):
    """(line, the line right under it): same page, overlapping horizontally, one line spacing lower."""
    by_page: dict[int, list[Line]] = {}
    for line in lines:
        by_page.setdefault(line.page, []).append(line)
    for page in by_page.values():
        page.sort(key=lambda line: -line.middle)  # top first
        for index, line in enumerate(page):
            below = None
            for other in page[index + 1 :]:
                if line.middle - other.middle >= 2.2 * max(line.size, other.size):
                    break
                if other.left < line.right and line.left < other.right and line.middle - other.middle > 0:
                    below = other if below is None or other.middle > below.middle else below
            if below is not None:
                yield line, below


def short_last_lines(path: Path, shortest: int = 1) -> list[str]:
    """Japanese lines of at most `shortest` characters (punctuation aside) ending a sentence, right
    under a longer line of the same paragraph (same left edge)."""
    found = []
    for above, line in following_lines(lines_of(path, PANELS)):
        if (
            japanese(line.text)
            and content_length(line.text) <= shortest
            and line.text[-1] in "。」）"
            and abs(above.left - line.left) < line.size
            and len(above.text) > len(line.text)
        ):
            found.append(f"{path.name} p{line.page + 1}: ...{above.text[-8:]} | {line.text}")
    return found


PANELS = 0.8  # a gap of about an em splits a line: two columns, two languages side by side, two aid panels
MARKER = re.compile(r"[0-9]+\.|[•・]")  # a list item's number or bullet


def em(line: Line) -> float:
    """The line's em: the advance of its Japanese characters (their loose boxes are an em wide)."""
    widths = sorted(c.right - c.left for c in line.chars if japanese(c.text))
    return widths[len(widths) // 2] if widths else line.size


def paragraph_lines(path: Path) -> list[tuple[Line, Line]]:
    """(line, the next line of its paragraph) for the Japanese running text of a PDF: lines of the body size
    (the most common one), one line pitch apart (the most common one: a paragraph's end adds its margin),
    the lower one starting at the same left edge, or right of a list item's marker, and no new item."""
    lines = [line for line in lines_of(path, PANELS) if japanese(line.text)]
    if not lines:
        return []
    body = collections.Counter(round(line.size, 1) for line in lines for _ in line.chars).most_common(1)[0][0]
    body_lines = [line for line in lines if abs(line.size - body) < 0.05 * body and "..." not in line.text]
    pairs = list(following_lines(body_lines))
    pitches = collections.Counter(round(above.middle - below.middle, 1) for above, below in pairs)
    pitch = pitches.most_common(1)[0][0] if pitches else 0.0
    found = []
    for above, below in pairs:
        step, indent = above.middle - below.middle, below.left - above.left
        if abs(step - pitch) > 0.12 * pitch or MARKER.match(below.text):
            continue
        if abs(indent) < 0.3 * em(above) or (MARKER.match(above.text) and 0 < indent < 3.5 * em(above)):
            found.append((above, below))
    return found


def short_justified_lines(path: Path, tolerance: float = 0.5, keep=None) -> list[tuple[str, float]]:
    """(where, how short in pt) for each line of Japanese running text, a paragraph's last aside, that ends
    more than `tolerance` pt short of its column: the right edge most of the lines sharing its
    paragraph's left edge end at (a column, a note's box, a list's items). `keep(line)` picks the lines
    to look at (all by default)."""
    pairs = [pair for pair in paragraph_lines(path) if keep is None or keep(pair[0])]
    edges: dict[int, collections.Counter] = collections.defaultdict(collections.Counter)
    for above, below in pairs:
        edges[round(below.left)][round(above.right * 2) / 2] += 1
    found = []
    for above, below in pairs:
        counts = edges[round(below.left)]
        edge = max(right for right, count in counts.items() if count == max(counts.values()))
        short = edge - above.right
        if short > tolerance:
            found.append((f"{Path(path).name} p{above.page + 1}: ...{above.text[-12:]} | {below.text[:8]}", short))
    return found


def split_words(path: Path, words: set[str], keep=None, gap: float = 2.0) -> list[str]:
    """Places where one of the words is cut at a line end: the line ends with its start and the line
    under it begins with the rest. `keep(line)` picks the lines to look at (all by default)."""
    rests: dict[str, list[str]] = {}
    for word in words:
        for cut in range(1, len(word)):
            rests.setdefault(word[:cut], []).append(word[cut:])
    longest = max((len(word) for word in words), default=0)
    found = []
    for above, below in following_lines([line for line in lines_of(path, gap) if keep is None or keep(line)]):
        for cut in range(1, min(longest, len(above.text)) + 1):
            if any(below.text.startswith(rest) for rest in rests.get(above.text[-cut:], ())):
                found.append(f"{path.name} p{above.page + 1}: {above.text[-10:]} | {below.text[:10]}")
    return found


CJK_CHAR = re.compile("[\u3040-\u30fa\u30fc-\u30ff\u3400-\u9fff]")  # no middle dot: it has no gap
LATIN_CHAR = re.compile("[A-Za-z0-9]")


def japanese_latin_gaps(path: Path) -> list[tuple[str, float]]:
    """(the pair, the gap between them in em) for every Japanese character beside a Latin one in a line."""
    gaps = []
    for line in lines_of(path):
        for first, second in zip(line.chars, line.chars[1:]):
            pair = first.text + second.text
            if max(first.height, second.height) > 1.4 * min(first.height, second.height):
                continue  # not one run of text (a small label beside a big number)
            if (CJK_CHAR.match(first.text) and LATIN_CHAR.match(second.text)) or (
                LATIN_CHAR.match(first.text) and CJK_CHAR.match(second.text)
            ):
                size = max(first.height, second.height)
                gaps.append((pair, (second.left - first.right) / size))
    return gaps


def body_size(path: Path) -> float:
    """The most common height of a Japanese character's box: the running text's."""
    lines = [line for line in lines_of(path, PANELS) if japanese(line.text)]
    return collections.Counter(round(c.height, 1) for line in lines for c in line.chars).most_common(1)[0][0]


def word_gaps(line: Line) -> list[str]:
    """The line's words: its characters split where a space's gap opens (a fifth of their height)."""
    words = [line.chars[0].text]
    for before, after in zip(line.chars, line.chars[1:]):
        if after.left - before.right > 0.2 * max(before.height, after.height):
            words.append("")
        words[-1] += after.text
    return words
