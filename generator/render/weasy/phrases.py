"""Display text keeps its words whole: a phrase too long for its line breaks between its words.

Display text (headings, captions, table cells, labels) breaks between phrases: typeset.py sets each BudouX
phrase in a `white-space: nowrap` span. A phrase longer than its line or cell (ステータスシンボルカード in a
narrow column) would run past it. Found after layout, such a phrase is opened at its word boundaries (the
morphological analyser's short units: ステータス|シンボル|カード), each of the game's own words (typeset.py's
terms: 企業価値, which the analyser reads as 企業|価値) kept whole unless it is longer than the line: its span
may wrap again, and each word is held together by WORD JOINERs (U+2060, nothing printed). A word still longer
than its line is then opened too: only then may it break between any two characters (kinsoku still applies).
A table grown wider than its place by its phrases has the widest of them opened at their words (then, if
that is not enough, the game's words in them at theirs), the widest column first, until it fits: the other
cells keep their phrases whole. The document is laid out again after each step.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from generator.render.typeset import word_boundaries
from generator.render.weasy.paragraphs import character_widths, inside, printed, printed_text, slots, terms_in
from generator.render.weasy.tree import descendants, kind, page_box

PHRASE_CLASS = "phrase"
OPEN_CLASS = "words"  # a phrase opened at its word boundaries (typeset.css: white-space normal)
JOINER = "\u2060"
TOLERANCE_PX = 0.5
WORDS, TERMS, CHARACTERS = "words", "terms", "characters"  # how far a phrase is opened


def open_long_phrases(document, state: dict[int, str]) -> bool:
    """Open every phrase found running past its line's box, and the fewest phrases of a table grown wider than its
    place by them that make it fit (state: element id -> how far it was opened, kept across layouts). True when
    the document must be laid out again."""
    changed = False
    for element, fits in _past_their_line(document):
        step = state.get(id(element))
        if step is None:
            state[id(element)] = WORDS
            changed = open_at_words(element, fits) or changed
        elif step != CHARACTERS:
            state[id(element)] = CHARACTERS
            changed = open_everywhere(element) or changed
    for table in _wide_tables(document):
        for element, step in table.to_open(state):
            state[id(element)] = step
            changed = open_at_words(element, None if step == WORDS else _no_term_whole, anywhere=False) or changed
    return changed


def _phrases_on(line):
    """(box, element) of the phrases on a line."""
    for box in descendants(line):
        element = getattr(box, "element", None)
        if kind(box) == "InlineBox" and element is not None and PHRASE_CLASS in (element.get("class") or "").split():
            yield box, element


def _past_their_line(document):
    """(element, fits) for each phrase reaching past the content box of the block holding its line: fits(start,
    end) says whether that much of its printed text is narrower than the line."""
    found = {}
    for page in document.pages:
        for block in descendants(page_box(page)):
            lines = [child for child in getattr(block, "children", None) or [] if kind(child) == "LineBox"]
            right = block.content_box_x() + block.width + TOLERANCE_PX if lines else 0.0
            for line in lines:
                for box, element in _phrases_on(line):
                    if box.position_x + box.margin_width() > right:
                        found[id(element)] = (element, _fits(character_widths(box), block.width + TOLERANCE_PX))
    return found.values()


def _fits(widths: list[float], room: float) -> Callable[[int, int], bool]:
    return lambda start, end: sum(widths[start:end]) <= room


@dataclass
class _Phrase:
    element: Any
    column: int
    widths: list[float] = field(default_factory=list)  # of its printed characters, over every line it is on
    units: dict[str | None, float] = field(default_factory=dict)

    def unit(self, step: str | None) -> float:
        """Its widest piece no line may break, opened this far."""
        if step not in self.units:
            self.units[step] = self._unit(step)
        return self.units[step]

    def _unit(self, step: str | None) -> float:
        if step is None:
            return sum(self.widths)
        if step == CHARACTERS:
            return max(self.widths, default=0.0)
        cuts = word_cuts(self.element, terms_in(self.element) if step == WORDS else [])
        edges = [0, *sorted(cut for cut in cuts if 0 < cut < len(self.widths)), len(self.widths)]
        return max((sum(self.widths[a:b]) for a, b in itertools.pairwise(edges)), default=0.0)

    def opened(self, step: str | None) -> str | None:
        """How far to open it next, from `step`, for its widest piece to narrow: its words with the game's words
        whole, else the game's words too; None when neither would."""
        for further in OPENING[OPENING.index(step) + 1 :] if step in OPENING else ():
            if self.unit(further) < self.unit(step) - TOLERANCE_PX:
                return further
        return None


OPENING = (None, WORDS, TERMS)  # in a wide table: the game's words whole first, then opened too


def _no_term_whole(start: int, end: int) -> bool:
    return False


@dataclass
class _WideTable:
    """A table wider than its place by `excess` px, and its phrases with the column each stands in."""

    excess: float
    phrases: dict[int, _Phrase] = field(default_factory=dict)

    def to_open(self, state: dict[int, str]) -> list[tuple[Any, str]]:
        """The phrases to open (each with how far) for the table to fit: the widest piece first (of two as wide, the
        one that keeps the game's own words whole), so that the other cells keep their phrases whole. A table's
        columns are as wide as their widest piece no line may break at least (min-content): each opening narrows
        its column by what its piece loses."""
        steps: dict[int, str | None] = {key: state.get(key) for key in self.phrases}
        chosen: dict[int, str] = {}
        gained = 0.0
        while gained <= self.excess + TOLERANCE_PX:
            reducible = [
                (phrase.unit(steps[key]), key, further)
                for key, phrase in self.phrases.items()
                if (further := phrase.opened(steps[key])) is not None
            ]
            if not reducible:
                break
            _, key, further = max(reducible, key=lambda found: (round(found[0]), found[2] == WORDS))
            before = self._width(steps)
            steps[key] = chosen[key] = further
            gained += before - self._width(steps)
        return [(self.phrases[key].element, step) for key, step in chosen.items()]

    def _width(self, steps: dict[int, str | None]) -> float:
        """The sum of the columns' widest pieces, the phrases opened as far as steps says."""
        widest: dict[int, float] = {}
        for key, phrase in self.phrases.items():
            widest[phrase.column] = max(widest.get(phrase.column, 0.0), phrase.unit(steps[key]))
        return sum(widest.values())


def _wide_tables(document) -> list[_WideTable]:
    """Each table wider than the box holding it, with its phrases: a table's columns are as wide as their longest
    phrase at least (min-content), so long phrases widen it past its place rather than run past a cell."""
    found: list[_WideTable] = []

    def walk(box, holder):
        for child in getattr(box, "children", None) or []:
            excess = child.position_x + child.margin_width() - _right(holder) if kind(child) == "TableBox" else 0.0
            if excess > TOLERANCE_PX:
                found.append(_table_phrases(child, excess))
            elif hasattr(child, "content_box_x") and kind(child) not in ("LineBox", "InlineBox", "TextBox"):
                walk(child, holder if child.element_tag == "table" else child)  # a table's wrapper is as wide as it

    for page in document.pages:
        root = page_box(page)
        walk(root, root)
    return found


def _table_phrases(table, excess: float) -> _WideTable:
    wide = _WideTable(excess)
    for row in (box for box in descendants(table) if kind(box) == "TableRowBox"):
        column = 0
        for cell in row.children:
            for line in (box for box in descendants(cell) if kind(box) == "LineBox"):
                for box, element in _phrases_on(line):
                    phrase = wide.phrases.setdefault(id(element), _Phrase(element, column))
                    phrase.widths += character_widths(box)
            column += _span(cell.element)
    return wide


def _span(cell) -> int:
    """How many columns a cell element spans."""
    span = str(cell.get("colspan") or "1") if cell is not None else "1"
    return int(span) if span.isdigit() and int(span) > 0 else 1


def _right(box) -> float:
    return box.content_box_x() + box.width


def open_at_words(element, whole: Callable[[int, int], bool] | None = None, anywhere: bool = True) -> bool:
    """Let the phrase wrap, between its words only, each of the game's own words kept whole (those for which
    whole(start, end) holds, if given: one that fits its line); a phrase of one word anywhere (or not, `anywhere`
    False)."""
    cuts = word_cuts(element, [term for term in terms_in(element) if whole is None or whole(term[0], term[1])])
    if not cuts:
        return open_everywhere(element) if anywhere else False
    if OPEN_CLASS in (element.get("class") or "").split():
        _unjoin(element)  # opened before with the game's words whole: joined again at the new cuts
    _open(element)
    _join(element, lambda index: index not in cuts)
    return True


HIRAGANA = ("\u3041", "\u309f")


def word_cuts(element, kept) -> set[int]:
    """Where the phrase's text may break once opened: between its words, not inside one of the kept (start, end)
    ranges (the game's own words), and never before a word of one hiragana (a particle or an ending: 「ごと|に」,
    「しませ|ん」 would start a line with it)."""
    text = printed_text(element)
    cuts = sorted(word_boundaries(text) - inside(kept) - {0, len(text)})
    ends = [*cuts[1:], len(text)]
    return {cut for cut, end in zip(cuts, ends) if not (end - cut == 1 and HIRAGANA[0] <= text[cut] <= HIRAGANA[1])}


def open_everywhere(element) -> bool:
    """Let the phrase wrap anywhere: its joiners taken out."""
    _open(element)
    _unjoin(element)
    return True


def _unjoin(element) -> None:
    for node, attribute in slots(element):
        text = getattr(node, attribute) or ""
        if JOINER in text:
            setattr(node, attribute, text.replace(JOINER, ""))


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
