"""Last lines as a typesetter sets them: no paragraph ends on a line of one character, or one word.

Japanese (found after layout, as fit.py finds overflow): a paragraph whose last line holds one character
(punctuation aside: 「す。」) is set again the way Japanese layout programs do it:
1. 追い込み (squeezing): the half-em blank of punctuation and brackets on the line above is taken out, mark
   by mark from the line's end, until the last line's characters fit up there (the marks set half width with
   the font's `halt`, as typeset.py sets two marks in a row);
2. 追い出し (pushing out): when squeezing cannot make the room, the end of the line above comes down from
   the nearest place that cuts no word: a phrase boundary (BudouX) or a word boundary inside a phrase (the
   morphological analyser's short units: 「加え|ます。」), never inside a word or between a number and its
   counter, and where kinsoku allows a break. The paragraph's end from there is joined by WORD JOINERs
   (U+2060, nothing printed) so that the line breaks there; the line above, short by what came down, is
   filled by justify.py. Only an end that fits on the last line and leaves the line above within MOST_PUSH_EM
   of spacing between its characters.
When neither works the short line stays: a hole in the column or a word cut would be worse.

Words whole at a line's end: in a narrow justified paragraph (a player aid's panel), where a cut word shows
most, a line ending inside a word sends the word down whole when the line above, filled, keeps within the
same spacing; in any justified paragraph, a line ending inside one of the game's own words (its card and deck
names, its glossary's terms: typeset.py marks them) does, within a tighter spacing in a wide one. The rest of
the running text breaks between any two characters, as JLReq allows.

Latin (any other language): a paragraph of more than three words whose last line holds one word has its
last two words joined by a no-break space, when the two fit on a line.

Each change is written into the elements and the document laid out again (once per paragraph and step).
"""

from __future__ import annotations

from xml.etree import ElementTree

from generator.render.typeset import phrase_boundaries, word_boundaries
from generator.render.weasy.justify import line_slack
from generator.render.weasy.paragraphs import (
    CLOSING,
    NOT_AT_END,
    NOT_AT_START,
    OPENING,
    Paragraph,
    character_widths,
    content_length,
    inside,
    is_japanese,
    line_items,
    line_starts,
    line_text,
    paragraphs,
    printed,
    printed_text,
    slots,
    terms_in,
)

JOINER = "\u2060"
BREAK = "\u200b"
SHORT = 1  # a last line of this many characters (punctuation aside) or fewer is too short
MIN_WIDTH_EM = 8  # narrower boxes (a label, a cell) are left to their phrases
MOST_PUSH_EM = 0.25  # the spacing a push may leave between the characters of the line above
NARROW_EM = 20  # a justified paragraph narrower than this keeps any word whole at line ends where it can
# A word kept whole sends its start down and spreads the line above: only within this spacing, as tight as the
# lines around it. Looser, the line breaks inside the word (JLReq allows it; a loose line reads worse).
MOST_TERM_EM = 0.1
WORD_PASSES = 6
WORD_CLASS = "nb"  # typeset.css: white-space nowrap (a number with its counter uses it too)
HALT_CLASS = "halt"
SQUEEZED, PUSHED, DONE = "squeezed", "pushed", "done"


def set_last_lines(document, state: dict) -> bool:
    """Squeeze, push or join the ends of the paragraphs that end short, and keep the words of narrow ones
    whole (state: element id -> the step done, kept across layouts). True when something changed and the
    document must be laid out again."""
    changed = False
    found = paragraphs(document)
    for paragraph in (paragraph for paragraph in found if paragraph.japanese):
        if keep_words_whole(paragraph, state):
            state.pop(id(paragraph.element), None)  # a word sent down may leave a new short last line to set
            changed = True
            continue
        step = state.get(id(paragraph.element))
        if step == DONE or not _ends_short(paragraph):
            continue
        if step is None and squeeze(paragraph):
            state[id(paragraph.element)] = SQUEEZED
            changed = True
        elif push(paragraph):
            state[id(paragraph.element)] = DONE
            changed = True
        else:
            state[id(paragraph.element)] = DONE
    for paragraph in (paragraph for paragraph in found if paragraph.latin):
        if id(paragraph.element) not in state and _ends_on_one_word(paragraph):
            state[id(paragraph.element)] = DONE
            changed = join_last_words(paragraph) or changed
    return changed


def ends_short(paragraph: Paragraph) -> bool:
    """Whether the paragraph ends on a line too short: a character of Japanese, a word of another language."""
    return _ends_short(paragraph) if paragraph.japanese else paragraph.latin and _ends_on_one_word(paragraph)


def _ends_short(paragraph: Paragraph) -> bool:
    if len(paragraph.lines) < 2 or paragraph.width < MIN_WIDTH_EM * paragraph.font_size:
        return False
    return 0 < content_length(line_text(paragraph.lines[-1])) <= SHORT


# --- 追い込み: squeezing the punctuation of the line above ---------------------------------------------


def squeeze(paragraph: Paragraph) -> bool:
    """Set enough punctuation marks of the line above half width that the last line's characters fit there."""
    above, last = paragraph.lines[-2], paragraph.lines[-1]
    em = paragraph.font_size
    need = _natural_width(last)
    last_text = [char for char in line_text(last) if printed(char)]
    if last_text and last_text[-1] in CLOSING:
        need -= em / 2  # at the end of the line above, the last mark is set half width too
    room = line_slack(above, paragraph.right_edge(len(paragraph.lines) - 2))
    marks = _squeezable(above)
    if room + len(marks) * em / 2 < need + 0.05 * em:
        return False
    start = line_starts(paragraph)[-2]
    chosen = []
    for index in reversed(marks):
        if room >= need + 0.05 * em:
            break
        chosen.append(start + index)
        room += em / 2
    if last_text and last_text[-1] in CLOSING:
        chosen.append(line_starts(paragraph)[-1] + len(last_text) - 1)
    return bool(chosen) and _set_half_width(paragraph.element, set(chosen))


def _squeezable(line) -> list[int]:
    """Indexes (among the line's printed characters) of full-width marks whose blank may be taken out."""
    marks, index = [], 0
    for box in line_items(line):
        halved = HALT_CLASS in ((box.element.get("class") or "").split() if box.element is not None else [])
        for char in box.text:
            if not printed(char):
                continue
            if (char in CLOSING or char in OPENING) and not halved:
                marks.append(index)
            index += 1
    return marks


def _natural_width(line) -> float:
    items = [box for box in line_items(line) if any(printed(char) for char in box.text)]
    return items[-1].position_x + items[-1].width - items[0].position_x if items else 0.0


def _set_half_width(element, indexes: set[int]) -> bool:
    """Wrap the printed characters at these indexes of element's text in <span class="halt">."""
    return wrap_ranges(element, [(index, index + 1) for index in sorted(indexes)], HALT_CLASS)


def wrap_ranges(element, ranges: list[tuple[int, int]], css_class: str) -> bool:
    """Wrap each range [start, end) of element's printed characters in a <span class="css_class">; a range
    running over more than one text node is left as it is. False when nothing was wrapped."""
    parents = {id(child): parent for parent in element.iter() for child in parent}
    done = False
    position = 0
    for node, attribute in list(slots(element)):
        text = getattr(node, attribute) or ""
        first = position
        pieces: list[tuple[str, int | None]] = []
        for char in text:
            inside = next((number for number, (a, b) in enumerate(ranges) if a <= position < b), None)
            if printed(char):
                position += 1
            if pieces and pieces[-1][1] == inside:
                pieces[-1] = (pieces[-1][0] + char, inside)
            else:
                pieces.append((char, inside))
        whole = [
            number
            for number, (a, b) in enumerate(ranges)
            if first <= a and b <= position and any(n == number for _, n in pieces)
        ]
        if whole:
            _replace_text(node, attribute, [(part, number in whole) for part, number in pieces], parents, css_class)
            done = True
    return done


def _replace_text(node, attribute: str, pieces: list[tuple[str, bool]], parents: dict, css_class: str) -> None:
    """node's text (or tail) as plain runs and <span class="css_class"> runs, in order."""
    spans = []
    lead = ""
    for text, wrapped in pieces:
        if wrapped:
            span = ElementTree.Element(_tag(node, "span"), {"class": css_class})
            span.text = text
            spans.append(span)
        elif spans:
            spans[-1].tail = (spans[-1].tail or "") + text
        else:
            lead += text
    setattr(node, attribute, lead)
    if attribute == "text":
        for offset, span in enumerate(spans):
            node.insert(offset, span)
    else:
        parent = parents[id(node)]
        place = list(parent).index(node) + 1
        for offset, span in enumerate(spans):
            parent.insert(place + offset, span)


def _tag(node, name: str) -> str:
    """A tag in node's namespace (WeasyPrint's tree is XHTML)."""
    tag = str(node.tag)
    return tag[: tag.index("}") + 1] + name if tag.startswith("{") else name


# --- 追い出し: a phrase pushed down --------------------------------------------------------------------


def push(paragraph: Paragraph) -> bool:
    """Join the paragraph's end from the latest phrase boundary that brings enough characters down; from before
    one of the game's own words rather than inside it, where that keeps the line above as tight as a word kept
    whole may (within MOST_TERM_EM)."""
    cuts = _push_cuts(paragraph)
    if not cuts:
        return False
    in_terms = inside(terms_in(paragraph.element))
    limit = MOST_TERM_EM * paragraph.font_size
    latest = cuts[0][0]
    whole = next((cut for cut, spacing in cuts if cut not in in_terms and (spacing <= limit or cut == latest)), latest)
    return join_from(paragraph.element, whole)


def _push_cuts(paragraph: Paragraph) -> list[tuple[int, float]]:
    """(cut, spacing it leaves between the characters of the line above) for each place the paragraph's end may
    be pushed down from, latest first: a phrase or word boundary where kinsoku allows a break, bringing more
    than SHORT characters down, within MOST_PUSH_EM of spacing (a ragged paragraph: 0)."""
    text = printed_text(paragraph.element)
    starts = line_starts(paragraph)
    above_start, last_start = starts[-2], starts[-1]
    if len(text) < last_start:
        return []  # the element's text and its lines disagree (generated text): leave it
    widths = character_widths(paragraph.lines[-2])
    em = paragraph.font_size
    last_width = _natural_width(paragraph.lines[-1])
    line_width = paragraph.right_edge(len(paragraph.lines) - 2) - paragraph.lines[-2].position_x
    points = sum(1 for char in text[above_start:last_start] if is_japanese(char))
    slack = max(0.0, line_slack(paragraph.lines[-2], paragraph.right_edge(len(paragraph.lines) - 2)))
    boundaries = phrase_boundaries(text) | word_boundaries(text)
    found = []
    for cut in range(last_start - 1, above_start + 1, -1):
        moved = sum(widths[cut - above_start :])
        if moved + last_width > line_width:
            break
        if cut not in boundaries or text[cut] in NOT_AT_START or text[cut - 1] in NOT_AT_END:
            continue
        spacing = (slack + moved) / max(1, points - (last_start - cut)) if paragraph.justified else 0.0
        if spacing > MOST_PUSH_EM * em:
            break
        if content_length(text[cut:]) > SHORT:
            found.append((cut, spacing))
    return found


def _narrow(paragraph: Paragraph) -> bool:
    return paragraph.width < NARROW_EM * paragraph.font_size


def join_from(element, index: int) -> bool:
    """Put a WORD JOINER between each two printed characters of element's text from `index` on, so that
    no line breaks there; the breaks between phrases (typeset.py's ZERO WIDTH SPACEs, <wbr>) inside go."""
    position = 0
    started = False
    for node, attribute in list(slots(element)):
        if started and attribute == "text" and str(node.tag).endswith("wbr"):
            node.tag = str(node.tag)[:-3] + "span"  # a <wbr> inside the joined end would still allow the break
        text = getattr(node, attribute) or ""
        out = []
        for char in text:
            if printed(char):
                if position > index:
                    out.append(JOINER)
                started = started or position >= index
                position += 1
            elif started and char == BREAK:
                continue
            elif started and char.isspace() and position > index:
                out.append(JOINER)  # a space (the Japanese/Latin gap) keeps its width but no longer breaks
            out.append(char)
        if started:
            setattr(node, attribute, "".join(out))
    return started


# --- words kept whole at the line's end -------------------------------------------------------------


def keep_words_whole(paragraph: Paragraph, state: dict) -> bool:
    """A line of a justified paragraph ending inside one of the game's own words (typeset.py's terms: 企業|価値,
    which the analyser reads as two), or in a paragraph narrower than NARROW_EM (a player aid's panel) inside any
    word (「資|金」), sends the word's start down instead when the word fits a line and the line, filled, keeps
    within MOST_TERM_EM of spacing, as tight as the lines around it; else the line breaks inside the word
    (running text may break anywhere: a loose line would be worse). The word is set in a no-wrap span. One
    line a layout, WORD_PASSES at most per paragraph."""
    key = (id(paragraph.element), "words")
    if not paragraph.justified or state.get(key, 0) >= WORD_PASSES:
        return False
    terms = terms_in(paragraph.element)
    narrow = _narrow(paragraph)
    if not (terms or narrow):
        return False
    text = printed_text(paragraph.element)
    starts = line_starts(paragraph)
    if len(text) < starts[-1]:
        return False
    cuts = (phrase_boundaries(text) | word_boundaries(text)) - inside(terms) if narrow else set()
    em = paragraph.font_size
    for index, line in enumerate(paragraph.lines[:-1]):
        start, end = starts[index], starts[index + 1]
        if not 0 < end < len(text) or not (is_japanese(text[end - 1]) and is_japanese(text[end])):
            continue  # an empty next line (nothing printed past the break) holds no word to keep whole
        term = next((found for found in terms if found[0] < end < found[1]), None)
        if term is not None:
            word_start, word_end = term[0], term[1]
        elif narrow and end not in cuts:
            word_start = max((cut for cut in cuts if cut < end), default=0)
            word_end = min((cut for cut in cuts if cut > end), default=len(text))
        else:
            continue
        if word_start <= start + 1 or text[word_start] in NOT_AT_START or text[word_start - 1] in NOT_AT_END:
            continue
        widths = character_widths(line)
        moved = sum(widths[word_start - start :])
        rest = sum(character_widths(paragraph.lines[index + 1])[: word_end - end])
        if moved + rest > paragraph.right_edge(index + 1) - paragraph.lines[index + 1].position_x:
            continue  # longer than a line: it breaks somewhere wherever it starts
        slack = max(0.0, line_slack(line, paragraph.right_edge(index)))
        points = sum(1 for char in text[start:word_start] if is_japanese(char)) - 1
        if (slack + moved) / max(1, points) > MOST_TERM_EM * em:
            continue
        if _keep_whole(paragraph.element, word_start, word_end, term):
            state[key] = state.get(key, 0) + 1
            return True
    return False


def _keep_whole(element, start: int, end: int, term) -> bool:
    """Set the word at [start, end) of element's printed text in a no-wrap span: a term's own span, else a new one."""
    if term is not None:
        classes = (term[2].get("class") or "").split()
        term[2].set("class", " ".join([*classes, WORD_CLASS]))
        return True
    return wrap_ranges(element, [(start, end)], WORD_CLASS)


# --- Latin: no one-word last line -------------------------------------------------------------------


def _ends_on_one_word(paragraph: Paragraph) -> bool:
    if len(paragraph.lines) < 2 or paragraph.width < MIN_WIDTH_EM * paragraph.font_size:
        return False
    words = "".join(getattr(node, attribute) or "" for node, attribute in slots(paragraph.element)).split()
    return len(words) > 3 and len(line_text(paragraph.lines[-1]).split()) == 1


def join_last_words(paragraph: Paragraph) -> bool:
    """The space before the paragraph's last word made a no-break space, when the two words fit a line."""
    last_word = _natural_width(paragraph.lines[-1])
    items = [box for box in line_items(paragraph.lines[-2]) if box.text.strip()]
    if not items:
        return False
    previous = items[-1].text.split()[-1] if items[-1].text.split() else ""
    previous_width = items[-1].width * len(previous) / max(1, len(items[-1].text))
    if (
        last_word + previous_width + paragraph.font_size / 3
        > paragraph.right_edge(len(paragraph.lines) - 2) - paragraph.lines[-2].position_x
    ):
        return False
    seen_word = False
    for node, attribute in reversed(list(slots(paragraph.element))):
        text = getattr(node, attribute) or ""
        for index in range(len(text) - 1, -1, -1):
            if not text[index].isspace():
                seen_word = True
            elif seen_word:
                end = index + 1
                while index > 0 and text[index - 1].isspace():
                    index -= 1
                setattr(node, attribute, text[:index] + "\u00a0" + text[end:])
                return True
    return False
