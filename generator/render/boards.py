"""Boards as HTML: each element of a board file becomes boxes, hexes and texts at fixed millimetres.

The geometry is computed here (testable without rendering); templates/base/board.html only draws it.
A board is one WeasyPrint page at its full size with 3 mm of bleed (its background colour), later imposed
or tiled onto paper by render/tiles.py.
"""

from __future__ import annotations

import dataclasses

import math
from dataclasses import dataclass

from generator.model.placeholders import data_names, resolve_all
from generator.model.game import Board, Game, Text
from generator.paths import find_template
from generator.render import fonts, typeset_html
from generator.render.batches import Batch
from generator.render.inksaver import variant_css
from generator.render.templating import TemplateKind, Templates, localize

TRACK_GAP_MM = 2.0  # between a track's label and its first space
AREA_LABEL_MM = 6.0  # room above slots for the area's label
BOARD_SAFE_MM = 3.0  # text stays this far inside the board's edge, as on a card
BOARD_BLEED_MM = 3.0  # the board's background continues past its trim, as a card's does


@dataclass
class Box:
    x: float
    y: float
    w: float
    h: float
    text: str = ""
    fill: str = "transparent"
    stroke: str = "#333333"
    ink: str = "#1d1d1f"
    size: float = 9.0  # text size, points
    kind: str = "space"  # space, start, label, slot, cell, text
    align: str = "center"


BOARD_TEMPLATE = TemplateKind(
    "Boards",
    "`board.html` and `board.css` in the game's template folder replace pnpgen's: a board of boards/ at its full "
    "size, its elements already laid out in mm",
    {
        "board": "the board as its file describes it: `board.id`, `board.background`, `board.copies`, "
        "`board.size_mm`, `board.elements`",
        "name": "its name in the language being built",
        "width": "its width in mm (without bleed)",
        "height": "its height in mm",
        "boxes": "every box to draw, in drawing order: the spaces of tracks, slots, grid cells, labels and texts",
        "hexes": "the cells of its hex grids, drawn below the boxes",
    },
    {
        "boxes[]": {
            "x": "left edge, mm from the board's top left",
            "y": "top edge, mm",
            "w": "width, mm",
            "h": "height, mm",
            "text": "the text in it, in the language being built",
            "fill": "background colour",
            "stroke": "border colour",
            "ink": "text colour (black or white, whichever reads on the fill)",
            "size": "text size, pt",
            "kind": "`space`, `start`, `label`, `slot`, `cell` or `text`",
            "align": "`center`, `left` or `right`",
        },
        "hexes[]": {
            "points": "the corners, as an SVG polygon's `points` in mm",
            "fill": "fill colour",
            "stroke": "border colour",
        },
    },
)


def text_of(value, lang: str, fallback: str) -> str:
    """A text in lang (an Untranslated one, noted when printed, where lang has none)."""
    return localize(value, lang, fallback) if isinstance(value, Text) else ("" if value is None else str(value))


def ink_for(colour: str) -> str:
    """Black or white text, whichever reads better on the colour."""
    try:
        r, g, b = (int(colour.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4))
    except (ValueError, AttributeError):
        return "#1d1d1f"
    return "#1d1d1f" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def tint(colour: str, amount: float = 0.8) -> str:
    """The colour mixed with white (amount 1 is white)."""
    try:
        rgb = [int(colour.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4)]
    except (ValueError, AttributeError):
        return "#ffffff"
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)


def track_boxes(element: dict, lang: str, fallback: str) -> list[Box]:
    x, y = element["at"]
    w, h = element["cell"]
    colour = element.get("colour") or "#555555"
    boxes = []
    if element.get("label_width"):
        boxes.append(
            Box(
                x,
                y,
                element["label_width"],
                h,
                text_of(element.get("label"), lang, fallback),
                fill=colour,
                stroke=colour,
                ink=ink_for(colour),
                kind="label",
                size=h * 0.75,
            )
        )
        x += element["label_width"] + TRACK_GAP_MM
    start = str(element.get("start")) if "start" in element else None
    for index, value in enumerate(element["values"]):
        shown = f"{value:+g}" if element.get("sign") and isinstance(value, (int, float)) else str(value)
        is_start = str(value) == start
        boxes.append(
            Box(
                x + index * w,
                y,
                w,
                h,
                shown,
                fill=colour if is_start else tint(colour, 0.82),
                stroke=colour,
                ink=ink_for(colour) if is_start else "#1d1d1f",
                kind="start" if is_start else "space",
                size=h * 0.9,
            )
        )
    return boxes


def slot_labels(element: dict, lang: str, fallback: str) -> list[str]:
    slots = element["slots"] if isinstance(element["slots"], (list, tuple)) else [element["slots"]]
    template = text_of(element.get("format"), lang, fallback) if element.get("format") else "{value}"
    return [template.format(value=text_of(v, lang, fallback), n=i + 1) for i, v in enumerate(slots)]


def slots_boxes(element: dict, lang: str, fallback: str) -> list[Box]:
    x, y = element["at"]
    w, h = element["slot"]
    gap = element["gap"]
    labels = slot_labels(element, lang, fallback)
    columns = element.get("columns") or len(labels)
    colour = element.get("colour") or "#44546a"
    boxes = []
    if element.get("label"):
        boxes.append(
            Box(
                x,
                y,
                columns * (w + gap) - gap,
                AREA_LABEL_MM - 1,
                text_of(element["label"], lang, fallback),
                stroke="transparent",
                kind="text",
                align="left",
                size=9,
            )
        )
        y += AREA_LABEL_MM
    for index, label in enumerate(labels):
        row, col = divmod(index, columns)
        boxes.append(
            Box(
                x + col * (w + gap),
                y + row * (h + gap),
                w,
                h,
                label,
                fill=tint(colour, 0.9),
                stroke=colour,
                kind="slot",
                align="left",
                size=min(9.0, h * 0.8),
            )
        )
    return boxes


def grid_boxes(element: dict, lang: str, fallback: str) -> list[Box]:
    x, y = element["at"]
    w, h = element["cell"]
    colour = element.get("colour") or "#555555"
    return [
        Box(x + c * w, y + r * h, w, h, fill=tint(colour, 0.9), stroke=colour, kind="cell")
        for r in range(element["rows"])
        for c in range(element["columns"])
    ]


def hex_centre(element: dict, col: int, row: int) -> tuple[float, float]:
    """Centre of a pointy-top hex; odd rows are shifted half a hex to the right."""
    w = element["size"]
    h = w * 2 / math.sqrt(3)
    x0, y0 = element["at"]
    return (x0 + w / 2 + col * w + (w / 2 if row % 2 else 0), y0 + h / 2 + row * h * 0.75)


def hex_points(cx: float, cy: float, width: float) -> str:
    radius = width / math.sqrt(3)
    corners = [
        (cx + radius * math.cos(math.radians(90 + 60 * i)), cy + radius * math.sin(math.radians(90 + 60 * i)))
        for i in range(6)
    ]
    return " ".join(f"{px:.3f},{py:.3f}" for px, py in corners)


def hexes(element: dict, lang: str, fallback: str) -> tuple[list[dict], list[Box]]:
    colour = element.get("colour") or "#555555"
    marked = {(int(c["at"][0]), int(c["at"][1])): c for c in element.get("cells", [])}
    shapes, labels = [], []
    w = element["size"]
    for row in range(element["rows"]):
        for col in range(element["columns"]):
            cx, cy = hex_centre(element, col, row)
            cell = marked.get((col, row), {})
            fill = cell.get("colour") or tint(colour, 0.88)
            shapes.append({"points": hex_points(cx, cy, w), "fill": fill, "stroke": colour})
            if cell.get("label") is not None:
                labels.append(
                    Box(
                        cx - w / 2,
                        cy - w / 4,
                        w,
                        w / 2,
                        text_of(cell["label"], lang, fallback),
                        stroke="transparent",
                        ink=ink_for(fill),
                        kind="text",
                        size=w * 0.6,
                    )
                )
    return shapes, labels


def text_box(element: dict, lang: str, fallback: str) -> Box:
    x, y = element["at"]
    size = element["size"]
    return Box(
        x,
        y,
        element["width"],
        size * 0.3528 * 1.5,
        text_of(element.get("label"), lang, fallback),
        stroke="transparent",
        ink=element.get("colour") or "#1d1d1f",
        kind="text",
        align=element["align"],
        size=size,
    )


def layout(board: Board, lang: str, fallback: str) -> tuple[list[Box], list[dict]]:
    """Every box and hex of the board, in drawing order."""
    boxes, shapes = [], []
    for element in board.elements:
        kind = element["kind"]
        if kind == "track":
            boxes += track_boxes(element, lang, fallback)
        elif kind == "slots":
            boxes += slots_boxes(element, lang, fallback)
        elif kind == "grid":
            boxes += grid_boxes(element, lang, fallback)
        elif kind == "hexgrid":
            more_shapes, labels = hexes(element, lang, fallback)
            shapes += more_shapes
            boxes += labels
        else:
            boxes.append(text_box(element, lang, fallback))
    return boxes, shapes


def own_or_base(game: Game, name: str) -> str:
    """The game's own template of this name if it has one, else the project's in templates/base/."""
    return name if find_template(game.dir, name) else f"base/{name}"


def board_batch(game: Game, board: Board, lang: str) -> Batch:
    """One WeasyPrint document: the board as a single page at its full size."""
    fallback = game.source_language
    data = data_names(game)
    templates = Templates(game.dir, lang, fallback, data, labels=game.labels)
    board = dataclasses.replace(
        board,
        name=resolve_all(board.name, data, [lang, fallback]),
        elements=resolve_all(board.elements, data, [lang, fallback]),
    )
    boxes, shapes = layout(board, lang, fallback)
    w, h = board.size_mm
    body = templates.render(
        own_or_base(game, "board.html"),
        BOARD_TEMPLATE.context(
            board=board, name=text_of(board.name, lang, fallback), width=w, height=h, boxes=boxes, hexes=shapes
        ),
        f"board '{board.id}' ({lang})",
    )
    css_file = find_template(game.dir, own_or_base(game, "board.css"))
    assert css_file is not None, "templates/base/board.css is part of pnpgen"
    css = fonts.for_language(css_file.read_text(encoding="utf-8") + variant_css(game), lang)
    html = (
        f'<!doctype html><html lang="{lang}" data-safe="{BOARD_SAFE_MM:g}"><head><meta charset="utf-8">'
        f"<style>\n{fonts.font_face_css()}{typeset_html.stylesheet()}"
        f"@page {{ size: {w}mm {h}mm; margin: 0; bleed: {BOARD_BLEED_MM}mm; }}\n"
        f"html {{ background: {board.background}; }}\n{css}</style></head><body>\n{body}\n</body></html>"
    )
    return Batch(html, game.dir.resolve().as_uri() + "/")  # what it may read: the game's folder (render/fetch.py)
