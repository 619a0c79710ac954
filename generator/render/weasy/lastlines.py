"""No short last lines: a Japanese paragraph does not end on a line of one or two characters.

Found after layout (WeasyPrint's private layout tree, as fit.py measures overflow): a paragraph whose
last line holds one or two characters plus punctuation (「す。」) gets its last few characters joined by
WORD JOINERs (U+2060, no break between them, nothing printed), so the line breaks earlier and the
characters come down from the line before, as Japanese layout programs do (追い込み/追い出し). The
document is laid out again; a paragraph still short is joined over more characters, a few times at most.
"""

from __future__ import annotations

import unicodedata

from generator.render.weasy.tree import descendants, kind, page_box

JOINER = "\u2060"
BREAK = "\u200b"
INVISIBLE = {JOINER, BREAK, "\u00ad"}
SHORT = 2  # a last line of this many characters (punctuation aside) or fewer is too short
JOIN_FIRST = 4  # characters joined at the first attempt; two more at each later one
MIN_WIDTH_EM = 8  # narrower boxes (a label, a cell) are left to their phrases
READING = "rt"
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
}  # furigana readings are not characters of the line


def is_punctuation(char: str) -> bool:
    return unicodedata.category(char)[0] in "PZ" or char in INVISIBLE or char.isspace()


def _is_reading(element) -> bool:
    return element is not None and READING in (element.get("class") or "").split()


def line_text(line) -> str:
    """The characters of a line box, furigana readings left out."""
    text = []
    stack = [line]
    while stack:
        box = stack.pop()
        if _is_reading(getattr(box, "element", None)) and box is not line and box.element_tag == "span":
            continue
        if kind(box) == "TextBox":
            text.append(box.text)
        stack.extend(reversed(getattr(box, "children", None) or []))
    return "".join(text)


def paragraphs(document):
    """element -> (its line boxes in order over every page and column, font size, content width)."""
    found: dict[int, list] = {}
    for page in document.pages:
        for box in descendants(page_box(page)):
            children = getattr(box, "children", None) or []
            lines = [child for child in children if kind(child) == "LineBox"]
            element = getattr(box, "element", None)
            if not lines or element is None or not str(box.style["lang"] or "").startswith("ja"):
                continue
            if "off" in (element.get("data-typeset") or "").split():
                continue  # the author's: set as written
            entry = found.setdefault(id(element), [element, [], box.style["font_size"], 0])
            entry[1].extend(lines)
            entry[3] = max(entry[3], box.width)  # a list item's first box is its marker
    return found.values()


def content_length(text: str) -> int:
    return sum(1 for char in text if not is_punctuation(char))


def short_paragraphs(document):
    """(element, characters on its last line) for every Japanese paragraph ending on a short line."""
    for element, lines, size, width in paragraphs(document):
        if len(lines) < 2 or width < MIN_WIDTH_EM * size:
            continue
        last = content_length(line_text(lines[-1]))
        if 0 < last <= SHORT:
            yield element, last


def pull_down_short_lines(document, joined: dict[int, int]) -> bool:
    """Join the ends of the short paragraphs found (joined: element id -> characters joined so far,
    kept across layouts). True when something changed and the document must be laid out again."""
    changed = False
    for element, _ in short_paragraphs(document):
        count = joined.get(id(element), 0)
        wanted = JOIN_FIRST if not count else count + 2
        if count and wanted > JOIN_FIRST + 4:
            continue  # the paragraph cannot end longer (a nowrap phrase, a narrow box): leave it
        if join_end(element, wanted):
            joined[id(element)] = wanted
            changed = True
    return changed


def _slots(element):
    """(node, 'text' or 'tail') for each piece of an element's text in document order, readings left out."""
    yield element, "text"
    for child in element:
        if not _is_reading(child) and _local(child) not in BLOCKS:  # a nested block has lines of its own
            yield from _slots(child)
        yield child, "tail"


def _local(element) -> str:
    return str(element.tag).rsplit("}", 1)[-1]


def join_end(element, count: int) -> bool:
    """Put a word joiner between each of the last `count` characters of element's text."""
    remaining = count
    started = False
    for node, attribute in reversed(list(_slots(element))):
        if started and attribute == "text" and str(node.tag).endswith("wbr"):
            node.tag = node.tag[:-3] + "span"  # a <wbr> between phrases would still allow the break
        text = getattr(node, attribute) or ""
        if not text:
            continue
        chars = list(text)
        for index in range(len(chars) - 1, -1, -1):
            char = chars[index]
            if started and char == BREAK:
                chars[index] = ""  # the break between two phrases (typeset.py) inside the joined end
            if char in INVISIBLE:
                continue
            if not started and char.isspace():
                continue  # the source's trailing whitespace
            started = True
            if not is_punctuation(char):
                remaining -= 1
            if remaining <= 0:
                setattr(node, attribute, "".join(chars))
                return True
            if index == 0 or chars[index - 1] != JOINER:
                chars[index] = JOINER + char
        setattr(node, attribute, "".join(chars))
    return remaining < count
