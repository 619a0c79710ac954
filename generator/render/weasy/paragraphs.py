"""The paragraphs of a laid-out document: each element's lines over every page and column, and its text.

The layout passes that set lines as a typesetter would (justify.py, lastlines.py) read the same things: which
lines belong to one paragraph (a paragraph split over a column or a page is one), which is its last, the
characters on each line (furigana readings, list markers and generated text left out), and where in the
element's own text each line starts, so that a change can be written back into the element.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from generator.render.weasy.tree import descendants, kind, page_box

READING = "rt"  # the class of a furigana reading (typeset.py): set above its base, not a character of the line
TERM = "term"  # the class of one of the game's own words (typeset.py): kept whole at a line's end
INVISIBLE = {"\u2060", "\u200b", "\u00ad", "\ufeff"}
BLOCKS = {
    "div",
    "p",
    "ul",
    "ol",
    "li",
    "table",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "figure",
    "section",
    "nav",
    "header",
    "footer",
    "main",
    "blockquote",
}
LATIN_LETTERS = ("L", "N")  # Unicode categories of a Latin word's characters
# Characters that never start a line (JIS X 4051 行頭禁則) and never end one (行末禁則).
NOT_AT_START = set("、。，．・：；？！ー」』）】〕〉》ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々ゝゞヽヾ,.:;?!)]")
NOT_AT_END = set("「『（【〔〈《([")
CLOSING = set("、。，．」』）】〕〉》")
OPENING = set("「『（【〔〈《")


def is_japanese(char: str) -> bool:
    """A character set in the Japanese em grid: kana, kanji, full-width forms and punctuation."""
    code = ord(char)
    return 0x3000 <= code <= 0x30FF or 0x3400 <= code <= 0x4DBF or 0x4E00 <= code <= 0x9FFF or 0xFF00 <= code <= 0xFFEF


def is_punctuation(char: str) -> bool:
    return unicodedata.category(char)[0] in "PZ" or char in INVISIBLE or char.isspace()


def content_length(text: str) -> int:
    """Characters of a line that are not punctuation or space."""
    return sum(1 for char in text if not is_punctuation(char))


def printed(char: str) -> bool:
    """A character that takes a place on the line (what the line boxes and the element's text share)."""
    return not char.isspace() and char not in INVISIBLE


def _classes(element) -> list[str]:
    return (element.get("class") or "").split() if element is not None else []


def is_reading(element) -> bool:
    return READING in _classes(element)


def local(element) -> str:
    return str(element.tag).rsplit("}", 1)[-1]


def line_items(line):
    """The text boxes of a line in order, readings, list markers and generated text left out."""
    stack = [line]
    while stack:
        box = stack.pop()
        tag = getattr(box, "element_tag", "") or ""
        if box is not line and ("::" in tag or is_reading(getattr(box, "element", None))):
            continue
        if kind(box) == "TextBox":
            yield box
        stack.extend(reversed(getattr(box, "children", None) or []))


def line_text(line) -> str:
    """The characters of a line box, furigana readings left out."""
    return "".join(box.text for box in line_items(line))


def ends_with_forced_break(line) -> bool:
    """A line ended by <br>: the paragraph's author ended it, it is no line to fill."""
    return any(getattr(box, "element_tag", "") in ("br", "br::before") for box in descendants(line))


@dataclass
class Paragraph:
    """One element's lines over every page and column, with the box holding each."""

    element: object
    lines: list = field(default_factory=list)  # LineBoxes in reading order
    blocks: list = field(default_factory=list)  # the block box holding each line
    font_size: float = 0.0
    width: float = 0.0  # the widest of its boxes' content widths, px

    @property
    def style(self):
        return self.blocks[0].style

    @property
    def lang(self) -> str:
        return str(self.style["lang"] or "")

    @property
    def japanese(self) -> bool:
        return self.lang.startswith("ja")

    @property
    def latin(self) -> bool:
        return bool(self.lang) and not self.lang.startswith(("ja", "zh", "ko"))

    @property
    def justified(self) -> bool:
        return self.style["text_align_all"] == "justify"

    def right_edge(self, index: int) -> float:
        """Where line `index` may reach: the right edge of its block's content box, px."""
        block = self.blocks[index]
        return block.content_box_x() + block.width


def paragraphs(document) -> list[Paragraph]:
    """The paragraphs of the document in document order (each knows its language)."""
    found: dict[int, Paragraph] = {}
    for page in document.pages:
        for box in descendants(page_box(page)):
            children = getattr(box, "children", None) or []
            lines = [child for child in children if kind(child) == "LineBox"]
            element = getattr(box, "element", None)
            if not lines or element is None:
                continue
            if "off" in (element.get("data-typeset") or "").split():
                continue  # the author's: set as written
            # an element holding blocks and text around them has an anonymous box for each run of text:
            # each is a paragraph of its own; an element's own box split over columns or pages is one
            key = id(box) if any(is_block(child) for child in element) else id(element)
            paragraph = found.setdefault(key, Paragraph(element, font_size=box.style["font_size"]))
            paragraph.lines.extend(lines)
            paragraph.blocks.extend([box] * len(lines))
            paragraph.width = max(paragraph.width, box.width)  # a list item's first box is its marker
    return list(found.values())


# --- the element's own text ----------------------------------------------------------------------------


def is_block(element) -> bool:
    """Whether a child element has lines of its own: a block element, unless its own style sets it inline (an
    aid's `<h2 style="display: inline">` heading runs on in its paragraph's text)."""
    inline = "display:inline" in (element.get("style") or "").replace(" ", "")
    return local(element) in BLOCKS and not inline


def slots(element):
    """(node, 'text' or 'tail') for each piece of an element's text in document order, readings and nested
    blocks left out (a nested block has lines of its own)."""
    yield element, "text"
    for child in element:
        if not is_reading(child) and not is_block(child):
            yield from slots(child)
        yield child, "tail"


def printed_text(element) -> str:
    """The element's printed characters in order: what its line boxes hold, spaces left out."""
    return "".join(
        char for node, attribute in slots(element) for char in (getattr(node, attribute) or "") if printed(char)
    )


def terms_in(element) -> list[tuple[int, int, object]]:
    """(start, end, span) of each of the game's own words typeset.py marked in the element, as indexes in
    printed_text(element)."""
    found, position = [], 0
    for node, attribute in slots(element):
        if attribute == "text" and node is not element and TERM in _classes(node):
            found.append((position, position + len(printed_text(node)), node))
        position += sum(1 for char in getattr(node, attribute) or "" if printed(char))
    return found


def inside(ranges) -> set[int]:
    """The indexes a line break would cut one of these (start, end, ...) ranges at."""
    return {cut for start, end, *_ in ranges for cut in range(start + 1, end)}


def character_widths(box) -> list[float]:
    """The width of each printed character of a line (or of an inline box on one), a text box's width shared by
    its characters."""
    widths = []
    for item in line_items(box):
        characters = [char for char in item.text if printed(char)]
        widths += [item.width / len(characters)] * len(characters) if characters else []
    return widths


def line_starts(paragraph: Paragraph) -> list[int]:
    """For each line, the index in printed_text(element) of its first printed character."""
    starts, total = [], 0
    for line in paragraph.lines:
        starts.append(total)
        total += sum(1 for char in line_text(line) if printed(char))
    return starts
