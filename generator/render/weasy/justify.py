"""Justified Japanese lines, flush with their column: the slack spread between characters (JLReq 3.8).

WeasyPrint justifies by stretching spaces only, and Japanese has none: a Japanese line broken early (a number
kept with its counter, a Latin word, kinsoku) ends short of the column, a hole in a flush edge. After the
last layout, each line of a justified Japanese paragraph (CSS `text-align: justify` on a `lang="ja"` box) but
its last gets its slack back as JLReq expands a line: first the space between Japanese and Latin text grows
from its quarter em up to half an em, then the rest is spread evenly after every Japanese character but the
line's last. Latin runs keep their word spacing, and a furigana base moves as one piece with its reading.

This changes the laid-out boxes, not the document: each text box of Japanese characters is given the letter
spacing that fills the line (WeasyPrint draws a text box from its style, letter spacing included, when the
PDF is written) and the boxes after it on the line move right. No layout again: the lines stay as they broke.
WeasyPrint's own stretching of the spaces of such a line is taken back first.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from generator.render.weasy.paragraphs import (
    INVISIBLE,
    ends_with_forced_break,
    is_japanese,
    is_reading,
    line_items,
    paragraphs,
    printed,
)
from generator.render.weasy.tree import kind

GAP_CLASS = "jl"  # the space between Japanese and Latin text (typeset.GAP)
GAP_GROWS_TO_EM = 0.5  # JLReq: the Japanese/Latin space grows from a quarter em to half an em before the letters
MOST_SPACING_EM = 1.0  # more than this between two characters would not read as one line: left as it broke
SLACK_PX = 0.01  # less is rounding


def justify_lines(document) -> int:
    """Fill every line but the last of each justified Japanese paragraph; the number of lines changed."""
    changed = 0
    for paragraph in paragraphs(document):
        if not (paragraph.japanese and paragraph.justified):
            continue
        for index, line in enumerate(paragraph.lines[:-1]):
            if not ends_with_forced_break(line) and fill_line(line, paragraph.right_edge(index), paragraph.font_size):
                changed += 1
    return changed


@dataclass
class Plan:
    """What each box of a line gets: letter spacing (px after each character) or room after it."""

    spacing: dict[int, float] = field(default_factory=dict)  # text box id -> letter spacing
    widen: dict[int, float] = field(default_factory=dict)  # text box id -> width it gains
    after: dict[int, float] = field(default_factory=dict)  # box id -> room after it (a rigid box)
    undo: dict[int, float] = field(default_factory=dict)  # text box id -> WeasyPrint's stretching taken back


def line_slack(line, right_edge: float) -> float:
    """How far short of right_edge the line's characters end, as they are set without justification (px)."""
    units = _units(line)
    return right_edge - _natural_right(units) if units else 0.0


def _natural_right(units) -> float:
    last_box = units[-1][0]
    return last_box.position_x + last_box.margin_width() - sum(_stretched(box) for box, _ in units)


def fill_line(line, right_edge: float, size: float) -> bool:
    """Spread the line's slack between its characters so that it ends at right_edge; False when it is full
    already or has nowhere to put it."""
    units = _units(line)
    if not units:
        return False
    undo = {id(box): _stretched(box) for box, _ in units if kind(box) == "TextBox" and _stretched(box)}
    slack = right_edge - _natural_right(units)
    if slack < SLACK_PX and not undo:
        return False
    plan = Plan(undo=undo)
    gaps = [box for box, role in units if role == "gap"]
    room = sum(max(0.0, GAP_GROWS_TO_EM * size - box.width) for box in gaps)
    grow = min(max(slack, 0.0), room)
    for box in gaps:
        share = max(0.0, GAP_GROWS_TO_EM * size - box.width) / room * grow if room else 0.0
        plan.spacing[id(box)] = plan.widen[id(box)] = share
    rest = max(slack, 0.0) - grow
    points = _points(units)
    count = sum(points.values())
    if rest > SLACK_PX and not count and not undo:
        return False
    if rest > SLACK_PX and count:
        spacing = rest / count
        if spacing > MOST_SPACING_EM * size:
            return False
        for box, role in units:
            if not points.get(id(box)):
                continue
            if role == "letters":
                plan.spacing[id(box)] = spacing
                plan.widen[id(box)] = spacing * points[id(box)]
            else:
                plan.after[id(box)] = spacing
    _shift(line, plan, 0.0)
    return True


def _units(line) -> list[tuple[Any, str]]:
    """The line's pieces in order, each with its role: 'letters' (Japanese characters only), 'gap' (the
    Japanese/Latin space), 'rigid' (Latin, or mixed: set as it is), 'space' (between two elements, as it is)
    or 'atomic' (an inline block: furigana)."""
    units: list[tuple[Any, str]] = []

    def walk(box):
        for child in getattr(box, "children", None) or []:
            if not _in_flow(child):
                continue
            box_kind = kind(child)
            if box_kind == "TextBox":
                if child.text and any(printed(char) for char in child.text):
                    units.append((child, _role(child)))
                elif _is_gap(child):
                    units.append((child, "gap"))
                elif child.text:
                    units.append((child, "space"))  # a space between elements: it keeps its width
            elif box_kind in ("InlineBox", "LineBox"):
                walk(child)
            else:
                units.append((child, "atomic"))

    walk(line)
    while units and units[-1][1] in ("gap", "space"):  # a space that ends the line is no gap
        units.pop()
    while units and units[0][1] in ("gap", "space"):
        units.pop(0)
    return units


def _in_flow(box) -> bool:
    tag = getattr(box, "element_tag", "") or ""
    return box.is_in_normal_flow() and not tag.endswith("::marker")


def _is_gap(box) -> bool:
    element = getattr(box, "element", None)
    return box.text == " " and element is not None and GAP_CLASS in (element.get("class") or "").split()


def _role(box) -> str:
    """'letters' for Japanese text (its marks and symbols too), 'rigid' for a box holding Latin letters or
    digits (a Latin run keeps its spacing) or invisible characters (letter spacing would land after each)."""
    if not any(_is_latin(char) or char in INVISIBLE for char in box.text):
        return "letters"
    return "rigid"


def _is_latin(char: str) -> bool:
    return unicodedata.category(char)[0] in "LN" and not is_japanese(char)


def _last_character(box) -> str:
    if kind(box) == "TextBox":
        text = box.text
    else:
        text = "".join(item.text for item in line_items(box) if not is_reading(getattr(item, "element", None)))
    characters = [char for char in text if printed(char)]
    return characters[-1] if characters else ""


def _points(units) -> dict[int, int]:
    """How many places after a Japanese character each unit holds (the line's last character holds none)."""
    points = {}
    for index, (box, role) in enumerate(units):
        last = index == len(units) - 1
        if role == "letters":
            points[id(box)] = len(box.text) - (1 if last else 0)
        elif role in ("rigid", "atomic") and not last and is_japanese(_last_character(box) or "a"):
            points[id(box)] = 1
    return points


def _stretched(box) -> float:
    """What WeasyPrint's own justification added to a text box (spaces widened)."""
    if kind(box) != "TextBox":
        return 0.0
    spacing = getattr(box, "justification_spacing", 0) or 0
    return spacing * (box.text.count(" ") + box.text.count("\u00a0"))


def _shift(box, plan: Plan, x: float) -> float:
    """Move the box right by x, widen it by its share, and everything after it; the shift after it."""
    if kind(box) == "TextBox":
        box.position_x += x
        if id(box) in plan.undo:
            box.justification_spacing = 0
            box.pango_layout.justification_spacing = 0
        if plan.spacing.get(id(box)):
            style = box.style.copy()
            style["letter_spacing"] = plan.spacing[id(box)]
            box.style = style
        own = plan.widen.get(id(box), 0.0) - plan.undo.get(id(box), 0.0)
        box.width += own
        return x + own + plan.after.get(id(box), 0.0)
    if kind(box) in ("InlineBox", "LineBox"):
        box.position_x += x
        before = x
        for child in box.children:
            if _in_flow(child):
                x = _shift(child, plan, x)
        box.width += x - before
        return x
    box.translate(x, 0)
    return x + plan.after.get(id(box), 0.0)
