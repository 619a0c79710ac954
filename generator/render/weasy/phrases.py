"""Display text keeps its words whole: a phrase too long for its line breaks between its words.

Display text (headings, captions, table cells, labels) breaks between phrases: typeset.py sets each BudouX
phrase in a `white-space: nowrap` span. A phrase longer than its line or cell (ステータスシンボルカード in a
narrow column) would run past it. Found after layout, such a phrase is opened at its word boundaries (the
morphological analyser's short units: ステータス|シンボル|カード): its span may wrap again, and each word is
held together by WORD JOINERs (U+2060, nothing printed). A word still longer than its line is then opened
too: only then may it break between any two characters (kinsoku still applies). The document is laid out
again after each step.
"""

from __future__ import annotations

from typing import Any

from generator.render.typeset import word_boundaries
from generator.render.weasy.paragraphs import printed, printed_text, slots
from generator.render.weasy.tree import descendants, kind, page_box

PHRASE_CLASS = "phrase"
OPEN_CLASS = "words"  # a phrase opened at its word boundaries (typeset.css: white-space normal)
JOINER = "\u2060"
TOLERANCE_PX = 0.5
WORDS, CHARACTERS = "words", "characters"


def open_long_phrases(document, state: dict[int, str]) -> bool:
    """Open every phrase found running past its line's box, and the phrases of a table grown wider than its
    place by them (state: element id -> how far it was opened, kept across layouts). True when the document
    must be laid out again."""
    changed = False
    for element in _past_their_line(document):
        step = state.get(id(element))
        if step is None:
            state[id(element)] = WORDS
            changed = open_at_words(element) or changed
        elif step == WORDS:
            state[id(element)] = CHARACTERS
            changed = open_everywhere(element) or changed
    for element in _in_wide_tables(document):
        if id(element) not in state:
            state[id(element)] = WORDS
            changed = open_at_words(element, anywhere=False) or changed
    return changed


def _phrases_on(line):
    """(box, element) of the phrases on a line."""
    for box in descendants(line):
        element = getattr(box, "element", None)
        if kind(box) == "InlineBox" and element is not None and PHRASE_CLASS in (element.get("class") or "").split():
            yield box, element


def _past_their_line(document):
    """Phrase elements reaching past the content box of the block holding their line."""
    found = {}
    for page in document.pages:
        for block in descendants(page_box(page)):
            lines = [child for child in getattr(block, "children", None) or [] if kind(child) == "LineBox"]
            right = block.content_box_x() + block.width + TOLERANCE_PX if lines else 0.0
            for line in lines:
                for box, element in _phrases_on(line):
                    if box.position_x + box.margin_width() > right:
                        found[id(element)] = element
    return found.values()


def _in_wide_tables(document):
    """The phrases of each table wider than the box holding it: a table's columns are as wide as their longest
    phrase at least (min-content), so long phrases widen it past its place rather than run past a cell."""
    found: dict[int, Any] = {}

    def walk(box, holder):
        for child in getattr(box, "children", None) or []:
            if kind(child) == "TableBox" and child.position_x + child.margin_width() > _right(holder) + TOLERANCE_PX:
                for inner in descendants(child):
                    if kind(inner) == "LineBox":
                        found.update((id(element), element) for _, element in _phrases_on(inner))
            elif hasattr(child, "content_box_x") and kind(child) not in ("LineBox", "InlineBox", "TextBox"):
                walk(child, holder if child.element_tag == "table" else child)  # a table's wrapper is as wide as it

    for page in document.pages:
        root = page_box(page)
        walk(root, root)
    return found.values()


def _right(box) -> float:
    return box.content_box_x() + box.width


def open_at_words(element, anywhere: bool = True) -> bool:
    """Let the phrase wrap, between its words only; a phrase of one word anywhere (or not, `anywhere` False)."""
    text = printed_text(element)
    cuts = word_boundaries(text) - {len(text)}
    if not cuts:
        return open_everywhere(element) if anywhere else False
    _open(element)
    _join(element, lambda index: index not in cuts)
    return True


def open_everywhere(element) -> bool:
    """Let the phrase wrap anywhere: its joiners taken out."""
    _open(element)
    for node, attribute in slots(element):
        text = getattr(node, attribute) or ""
        if JOINER in text:
            setattr(node, attribute, text.replace(JOINER, ""))
    return True


def _open(element) -> None:
    classes = (element.get("class") or "").split()
    if OPEN_CLASS not in classes:
        element.set("class", " ".join([*classes, OPEN_CLASS]))


def _join(element, joined_before) -> None:
    """A joiner before each printed character at index i (i > 0) for which joined_before(i) holds."""
    position = 0
    for node, attribute in list(slots(element)):
        text = getattr(node, attribute) or ""
        out = []
        for char in text:
            if printed(char):
                if position and joined_before(position):
                    out.append(JOINER)
                position += 1
            out.append(char)
        setattr(node, attribute, "".join(out))
