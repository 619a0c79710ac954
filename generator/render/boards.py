"""Boards as HTML: each element of a board file becomes boxes, hexes and texts at fixed millimetres.

The geometry is computed here (testable without rendering); templates/base/board.html only draws it.
A board is one WeasyPrint page at its full size with its bleed (`bleed:`, 3 mm by default: its background
colour, the page's, continues past the trim), later imposed or tiled onto paper by render/tiles.py.
"""

from __future__ import annotations

import dataclasses

import math
from dataclasses import dataclass

from markupsafe import Markup

from generator.model.colours import rgb, tint
from generator.model.placeholders import data_names, resolve_all
from generator.model.game import Board, BoardFace, Game, Text
from generator.paths import BASE_PREFIX, GAME_MAY_REPLACE, TEMPLATES_DIR, find_template
from generator.render import fonts, typeset_html
from generator.render.batches import Batch
from generator.render.face_views import game_view
from generator.render.inksaver import variant_css
from generator.render.templating import TemplateKind, Templates, localize

TRACK_GAP_MM = 2.0  # between a track's label and its first space
AREA_LABEL_MM = 6.0  # room above slots for the area's label
BOARD_SAFE_MM = 3.0  # text stays this far inside the board's edge, as on a card


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
    field: str = ""  # where its text is written (`elements[2].label`): what a finding on it names
    border: float = 0.3  # mm, drawn inside the box: a line of text is centred in what is left


BOARD_TEMPLATE = TemplateKind(
    "Boards",
    "`board.html` in the game's template folder replaces pnpgen's, and its `board.css` adds to pnpgen's (pnpgen's "
    "classes: `pnp-board`, `pnp-hexes`, each box `pnp-box` and `pnp-<kind>`): a board of boards/ at its full "
    "size, its elements already laid out in mm",
    {
        "board": "the board as its file describes it: `board.id`, `board.background`, `board.background_image`, "
        "`board.data`, `board.copies`, `board.size_mm`, `board.elements`",
        "game": "the game (as a card template sees it: `game.title`, `game.numbers`...)",
        "name": "its name in the language being built",
        "width": "its width in mm (without bleed)",
        "height": "its height in mm",
        "bleed": "its bleed in mm (a box reaching `bleed` mm past an edge prints into the bleed)",
        "drawn": "what the board's own `template:` drew (HTML), or nothing",
        "pictures": "its picture elements (drawn under the boxes): `x`, `y`, `w`, `h` in mm, `src`, `fit`, `focus`",
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
            "ink": "text colour: the element's `text_colour`, else dark or light, whichever has the higher contrast "
            "(WCAG) on what is behind it",
            "size": "text size, pt",
            "kind": "`space`, `start`, `label`, `slot`, `cell` or `text`",
            "align": "`center`, `left` or `right`",
            "field": "where its text is written in the board's file (`elements[2].label`), for `data-fit`",
            "border": "border width, mm, inside the box (`h - 2 * border` is the line height that centres a line)",
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


DARK_INK, LIGHT_INK = "#1d1d1f", "#ffffff"
LINE_COLOUR = "#555555"  # an element's lines when it names no colour (slots: SLOTS_LINE)
SLOTS_LINE = "#44546a"


def luminance(colour: tuple[float, float, float]) -> float:
    """The relative luminance of WCAG 2."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in colour]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: float, b: float) -> float:
    """The WCAG contrast ratio of two luminances (1 to 21)."""
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def ink_for(colour: str) -> str:
    """Dark or light text, whichever has the higher WCAG contrast on the colour."""
    behind = rgb(colour)
    if behind is None:
        return DARK_INK
    ground = luminance(behind)
    dark, light = (luminance(rgb(ink) or (0, 0, 0)) for ink in (DARK_INK, LIGHT_INK))
    return DARK_INK if contrast(ground, dark) >= contrast(ground, light) else LIGHT_INK


@dataclass(frozen=True)
class Colours:
    """An element's colours: its lines, the inside of its spaces, its texts (None: chosen for each box)."""

    line: str
    fill: str
    text: str | None

    def ink(self, behind: str) -> str:
        return self.text or ink_for(behind)


def colours_of(element: dict, line: str = LINE_COLOUR, tinted: float = 0.9) -> Colours:
    """The element's `line`, `fill` (a tint of the line when left out) and `text_colour`."""
    line = element.get("line") or line
    return Colours(line, element.get("fill") or tint(line, tinted), element.get("text_colour"))


def field_of(element: dict, key: str) -> str:
    """Where a text of the element is written, as a finding names it: `elements[2].label` (of a card)."""
    written = element.get("written_at", ("elements", None))[0]
    return f"{written}.{key}" + (f" (card '{element['card']}')" if "card" in element else "")


def area_label(element: dict, lang: str, fallback: str, width: float, background: str) -> list[Box]:
    """The label of an area (slots, a grid, a hex grid) above it, in AREA_LABEL_MM; none without a label."""
    if not element.get("label"):
        return []
    x, y = element["at"]
    return [
        Box(
            x,
            y,
            width,
            AREA_LABEL_MM - 1,
            text_of(element["label"], lang, fallback),
            stroke="transparent",
            ink=element.get("text_colour") or ink_for(background),
            kind="text",
            border=0,
            align="left",
            size=9,
            field=field_of(element, "label"),
        )
    ]


def below_label(element: dict) -> tuple[float, float]:
    """Where an area starts: below its label, if it has one."""
    x, y = element["at"]
    return (x, y + AREA_LABEL_MM) if element.get("label") else (x, y)


def track_boxes(element: dict, lang: str, fallback: str, background: str = "#ffffff") -> list[Box]:
    x, y = element["at"]
    w, h = element["cell"]
    colours = colours_of(element, tinted=0.82)
    boxes = []
    if element.get("label_width"):
        boxes.append(
            Box(
                x,
                y,
                element["label_width"],
                h,
                text_of(element.get("label"), lang, fallback),
                fill=colours.line,
                stroke=colours.line,
                ink=colours.ink(colours.line),
                kind="label",
                size=h * 0.75,
                field=field_of(element, "label"),
            )
        )
        x += element["label_width"] + TRACK_GAP_MM
    start = str(element.get("start")) if "start" in element else None
    for index, value in enumerate(element["values"]):
        shown = f"{value:+g}" if element.get("sign") and isinstance(value, (int, float)) else str(value)
        is_start = str(value) == start
        fill = colours.line if is_start else colours.fill
        boxes.append(
            Box(
                x + index * w,
                y,
                w,
                h,
                shown,
                fill=fill,
                stroke=colours.line,
                ink=colours.ink(fill),
                kind="start" if is_start else "space",
                size=h * 0.9,
                border=0.6 if is_start else 0.3,
                field=field_of(element, f"values[{index}]"),
            )
        )
    return boxes


def slot_labels(element: dict, lang: str, fallback: str) -> list[str]:
    slots = element["slots"] if isinstance(element["slots"], (list, tuple)) else [element["slots"]]
    template = text_of(element.get("format"), lang, fallback) if element.get("format") else "{value}"
    return [template.format(value=text_of(v, lang, fallback), n=i + 1) for i, v in enumerate(slots)]


def slots_boxes(element: dict, lang: str, fallback: str, background: str = "#ffffff") -> list[Box]:
    w, h = element["slot"]
    gap = element["gap"]
    labels = slot_labels(element, lang, fallback)
    columns = element.get("columns") or len(labels)
    colours = colours_of(element, SLOTS_LINE)
    boxes = area_label(element, lang, fallback, columns * (w + gap) - gap, background)
    x, y = below_label(element)
    for index, label in enumerate(labels):
        row, col = divmod(index, columns)
        boxes.append(
            Box(
                x + col * (w + gap),
                y + row * (h + gap),
                w,
                h,
                label,
                fill=colours.fill,
                stroke=colours.line,
                ink=colours.ink(colours.fill),
                kind="slot",
                align="left",
                size=min(9.0, h * 0.8),
                field=field_of(element, f"slots[{index}]"),
            )
        )
    return boxes


def grid_boxes(element: dict, lang: str, fallback: str, background: str = "#ffffff") -> list[Box]:
    w, h = element["cell"]
    colours = colours_of(element)
    x, y = below_label(element)
    cells = [
        Box(x + c * w, y + r * h, w, h, fill=colours.fill, stroke=colours.line, kind="cell")
        for r in range(element["rows"])
        for c in range(element["columns"])
    ]
    return area_label(element, lang, fallback, element["columns"] * w, background) + cells


def hex_centre(element: dict, col: int, row: int) -> tuple[float, float]:
    """Centre of a pointy-top hex; odd rows are shifted half a hex to the right (below the grid's label)."""
    w = element["size"]
    h = w * 2 / math.sqrt(3)
    x0, y0 = below_label(element)
    return (x0 + w / 2 + col * w + (w / 2 if row % 2 else 0), y0 + h / 2 + row * h * 0.75)


def hex_points(cx: float, cy: float, width: float) -> str:
    radius = width / math.sqrt(3)
    corners = [
        (cx + radius * math.cos(math.radians(90 + 60 * i)), cy + radius * math.sin(math.radians(90 + 60 * i)))
        for i in range(6)
    ]
    return " ".join(f"{px:.3f},{py:.3f}" for px, py in corners)


def hexes(element: dict, lang: str, fallback: str, background: str = "#ffffff") -> tuple[list[dict], list[Box]]:
    colours = colours_of(element, tinted=0.88)
    marked = {(int(c["at"][0]), int(c["at"][1])): (i, c) for i, c in enumerate(element.get("cells", []))}
    w = element["size"]
    width = (element["columns"] + (0.5 if element["rows"] > 1 else 0)) * w
    shapes, labels = [], area_label(element, lang, fallback, width, background)
    for row in range(element["rows"]):
        for col in range(element["columns"]):
            cx, cy = hex_centre(element, col, row)
            index, cell = marked.get((col, row), (0, {}))
            fill = cell.get("fill") or colours.fill
            shapes.append({"points": hex_points(cx, cy, w), "fill": fill, "stroke": colours.line})
            if cell.get("label") is not None:
                labels.append(
                    Box(
                        cx - w / 2,
                        cy - w / 4,
                        w,
                        w / 2,
                        text_of(cell["label"], lang, fallback),
                        stroke="transparent",
                        ink=colours.ink(fill),
                        kind="text",
                        border=0,
                        size=w * 0.6,
                        field=field_of(element, f"cells[{index}].label"),
                    )
                )
    return shapes, labels


def text_box(element: dict, lang: str, fallback: str, background: str = "#ffffff") -> Box:
    x, y = element["at"]
    size = element["size"]
    return Box(
        x,
        y,
        element["width"],
        size * 0.3528 * 1.5,
        text_of(element.get("label"), lang, fallback),
        stroke="transparent",
        ink=element.get("text_colour") or ink_for(background),
        kind="text",
        border=0,
        align=element["align"],
        size=size,
        field=field_of(element, "label"),
    )


@dataclass
class Picture:
    """A picture element of a board: its box in mm and how the picture fills it (the template's image() helper)."""

    x: float
    y: float
    w: float
    h: float
    src: str
    fit: str = "cover"
    focus: str = "center"
    field: str = ""  # where it is written (`elements[2].src`)


def pictures(board: Board) -> list[Picture]:
    """The picture elements of the board, in the order written (drawn under the other elements)."""
    found = []
    for element in board.elements:
        if element["kind"] == "image":
            (x, y), (w, h) = element["at"], element["size"]
            field = field_of(element, "src")
            found.append(Picture(x, y, w, h, element["src"], element["fit"], element["focus"], field))
    return found


def layout(board: Board, lang: str, fallback: str) -> tuple[list[Box], list[dict]]:
    """Every box and hex of the board, in drawing order (its pictures are apart: see pictures())."""
    boxes, shapes = [], []
    for element in board.elements:
        kind, background = element["kind"], board.background
        if kind == "image":
            continue
        if kind == "track":
            boxes += track_boxes(element, lang, fallback, background)
        elif kind == "slots":
            boxes += slots_boxes(element, lang, fallback, background)
        elif kind == "grid":
            boxes += grid_boxes(element, lang, fallback, background)
        elif kind == "hexgrid":
            more_shapes, labels = hexes(element, lang, fallback, background)
            shapes += more_shapes
            boxes += labels
        else:
            boxes.append(text_box(element, lang, fallback, background))
    return boxes, shapes


def own_or_base(game: Game, name: str) -> str:
    """The game's own template of this name if it has one, else the project's in templates/base/."""
    assert name in GAME_MAY_REPLACE, f"{name} is not one of pnpgen's templates a game may replace"
    return name if find_template(game.dir, name) else f"{BASE_PREFIX}{name}"


def stylesheet(game: Game, name: str) -> str:
    """pnpgen's stylesheet `name` (board.css, tile-captions.css), then the game's of that name, which adds to it."""
    css = (TEMPLATES_DIR / BASE_PREFIX / name).read_text(encoding="utf-8")
    own = find_template(game.dir, name) if name in GAME_MAY_REPLACE else None
    return css if own is None else f"{css}\n{own.read_text(encoding='utf-8')}"


def board_batches(game: Game, board: Board, lang: str) -> list[Batch]:
    """One WeasyPrint document per face of the board (one, or one per card of its `for_each`)."""
    return [board_batch(game, board, lang, face) for face in board.printed_faces]


def board_batch(game: Game, board: Board, lang: str, face: BoardFace | None = None) -> Batch:
    """One WeasyPrint document: a face of the board (its first when not given) as a single page at its full
    size."""
    fallback = game.source_language
    data = data_names(game)
    templates = Templates.of_game(game, lang, data)
    if face is None:
        if len(board.printed_faces) > 1:  # a board printed per card: one face alone would print silently short
            raise ValueError(f"board '{board.id}' has {len(board.printed_faces)} faces: render each (board_batches)")
        face = board.printed_faces[0]
    board = dataclasses.replace(
        board,
        name=resolve_all(board.name, data, [lang, fallback]),
        background=face.background,
        elements=resolve_all(face.elements, data, [lang, fallback]),
    )
    boxes, shapes = layout(board, lang, fallback)
    w, h = board.size_mm
    name = text_of(board.name, lang, fallback)
    seen = {"board": board, "game": game_view(game, lang), "name": name, "width": w, "height": h}
    seen["bleed"] = board.bleed_mm
    drawn = ""
    if board.template:
        drawn = templates.render(board.template, seen, f"board '{board.id}' ({lang}), its template")
    body = templates.render(
        own_or_base(game, "board.html"),
        BOARD_TEMPLATE.context(**seen, drawn=Markup(drawn), boxes=boxes, hexes=shapes, pictures=pictures(board)),
        f"board '{board.id}' ({lang})",
    )
    css = fonts.for_language(stylesheet(game, "board.css") + variant_css(game), lang)
    html = (
        f'<!doctype html><html lang="{lang}" data-safe="{BOARD_SAFE_MM:g}"><head><meta charset="utf-8">'
        f"<style>\n{fonts.font_face_css()}{typeset_html.stylesheet()}"
        f"@page {{ size: {w}mm {h}mm; margin: 0; bleed: {board.bleed_mm:g}mm; background: {board.background}; }}\n"
        f"html {{ background: {board.background}; }}\n{css}</style></head><body>\n{body}\n</body></html>"
    )
    return Batch(
        html, game.dir.resolve().as_uri() + "/", image_dpi=game.image_dpi
    )  # what it may read: the game's folder (render/fetch.py)
