"""Faces printed light, for the ink-saving version: a rendered face page rewritten so that what it paints takes a
fraction of its ink while its text keeps its own.

Every colour a face page fills a shape with (a background, a frame, an icon, a gradient's stops) is mixed with
white, keeping PAINT_INK of its ink, a stroked line's LINE_INK; raster pictures are drawn at PAINT_INK opacity.
Text keeps its colour when it is dark enough to read on white; a light one (white on a dark band, pale gold on
navy), whose ground is now light too, is turned dark in the same hue. The colours are rewritten where they are
used, not where they are set: a PDF sets a colour once and may fill a box and then write text with it, so each
shape and each run of text gets the colour it needs, emitted before the path or the text that paints with it.

This works on any face, whatever its templates do (inline styles, SVG icons, pictures), which no stylesheet can:
CSS cannot tell a light text colour from a dark one. A game with its own ink-saving stylesheet does not need it.
"""

from __future__ import annotations

import colorsys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

import pikepdf

PAINT_INK = 0.25  # the share of its ink a filled shape or a picture keeps
LINE_INK = 0.5  # and a stroked line's: thin, it costs little ink and draws the face's structure
LIGHT_TEXT = 0.55  # a text colour of this lightness (HLS) or more is made dark: lightness 1 - l
DARKEST_TEXT = 0.12  # white text becomes this dark, not solid black
PATH_START = {"m", "re"}
FILLS = {"f", "F", "f*", "B", "B*", "b", "b*"}
STROKES = {"S", "s", "B", "B*", "b", "b*"}
PATH_END = FILLS | STROKES | {"n"}
TEXT_SHOWS = {"Tj", "TJ", "'", '"'}
FILL_COLOURS = {"rg", "g", "k", "sc", "scn"}
STROKE_COLOURS = {"RG", "G", "K", "SC", "SCN"}
ALPHA = pikepdf.Name("/PnpLight")


# the colour families a component list is read in; a colour of any other space (a pattern, a spot colour) is left
OPERATOR_FAMILY = {"rg": "rgb", "RG": "rgb", "g": "gray", "G": "gray", "k": "cmyk", "K": "cmyk"}
SPACE_FAMILY = {
    "/DeviceRGB": "rgb",
    "/CalRGB": "rgb",
    "/DeviceGray": "gray",
    "/CalGray": "gray",
    "/DeviceCMYK": "cmyk",
    "/Lab": "lab",
}
ICC_FAMILY = {1: "gray", 3: "rgb", 4: "cmyk"}


@dataclass(frozen=True)
class Colour:
    """A colour as the content stream set it: its operator, its operands and the family of its colour space."""

    operator: str
    operands: tuple
    family: str | None  # rgb, gray, cmyk, lab; None: a colour this module leaves as it is

    def mapped(self, mapping) -> Colour:
        numeric = all(isinstance(value, (int, float, Decimal)) for value in self.operands)
        if self.family is None or not numeric or len(self.operands) != FAMILY_SIZE[self.family]:
            return self
        values = [float(value) for value in self.operands]
        return replace(self, operands=tuple(round(v, 4) for v in mapping(values, self.family)))


FAMILY_SIZE = {"rgb": 3, "gray": 1, "cmyk": 4, "lab": 3}


def paint_colour(values: Sequence[float], family: str, ink: float = PAINT_INK) -> list[float]:
    """A shape's colour with `ink` of its ink: gray and RGB mixed with white, CMYK scaled down, Lab lightened."""
    if family == "cmyk":
        return [v * ink for v in values]
    if family == "lab":
        lightness, a, b = values
        return [100 - (100 - lightness) * ink, a * ink, b * ink]
    return [1 - (1 - v) * ink for v in values]


def line_colour(values: Sequence[float], family: str) -> list[float]:
    return paint_colour(values, family, LINE_INK)


def text_colour(values: Sequence[float], family: str) -> list[float]:
    """A text colour readable on a light ground: kept when dark, turned dark in its own hue when light."""
    if family == "lab":
        lightness = values[0] / 100
        return list(values) if lightness < LIGHT_TEXT else [max(DARKEST_TEXT, 1 - lightness) * 100, *values[1:]]
    rgb = cmyk_to_rgb(values) if family == "cmyk" else ([values[0]] * 3 if family == "gray" else list(values))
    hue, lightness, saturation = colorsys.rgb_to_hls(*rgb)
    if lightness < LIGHT_TEXT:
        return list(values)
    dark = list(colorsys.hls_to_rgb(hue, max(DARKEST_TEXT, 1 - lightness), saturation))
    if family == "gray":
        return [dark[0]]
    return rgb_to_cmyk(dark) if family == "cmyk" else dark


def cmyk_to_rgb(values: Sequence[float]) -> list[float]:
    c, m, y, k = values
    return [(1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)]


def rgb_to_cmyk(rgb: Sequence[float]) -> list[float]:
    k = 1 - max(rgb)
    if k >= 1:
        return [0.0, 0.0, 0.0, 1.0]
    return [(1 - v - k) / (1 - k) for v in rgb] + [k]


def space_family(name: object, resources: pikepdf.Dictionary) -> str | None:
    """The family of a colour space set by `cs`: a device space by name, or one of the resources' spaces."""
    family = SPACE_FAMILY.get(str(name))
    if family is not None:
        return family
    spaces = resources.get("/ColorSpace")
    return family_of_space(spaces.get(str(name))) if isinstance(spaces, pikepdf.Dictionary) else None


def family_of_space(space: object) -> str | None:
    """The family of a colour space object: a name, or an array such as [/ICCBased stream] or [/Lab dict]."""
    if isinstance(space, pikepdf.Array) and len(space) >= 2:
        if space[0] == "/ICCBased":
            return ICC_FAMILY.get(int(space[1].get("/N", 0)))
        return SPACE_FAMILY.get(str(space[0]))
    return SPACE_FAMILY.get(str(space)) if space is not None else None


@dataclass
class State:
    """The colours the stream set (fill, stroke), which version of each the rewritten stream last emitted, and
    the colour spaces `sc` and `scn` read their components in."""

    fill: Colour | None = None
    stroke: Colour | None = None
    fill_as: str = ""  # "", "paint" or "text": what the rewritten stream's current fill colour is
    stroke_as: str = ""
    fill_space: str | None = "gray"  # the family of the fill's colour space (DeviceGray at the start)
    stroke_space: str | None = "gray"


class Lightener:
    """Rewrites the form XObjects of face pages in one PDF, each object once however often it is placed."""

    def __init__(self):
        self.done: set[tuple[int, int]] = set()

    def form(self, form: pikepdf.Object) -> None:
        """A face page turned form XObject (pikepdf's Page.as_form_xobject, copied into the sheet's PDF)."""
        if self.first_visit(form):
            self.rewrite(form)

    def first_visit(self, obj: pikepdf.Object) -> bool:
        key = obj.objgen
        if key != (0, 0) and key in self.done:
            return False
        self.done.add(key)
        return True

    def rewrite(self, stream: pikepdf.Object) -> None:
        resources = stream.get("/Resources")
        resources = resources if isinstance(resources, pikepdf.Dictionary) else pikepdf.Dictionary()
        images = self.visit_resources(resources)
        instructions = pikepdf.parse_content_stream(stream)
        rewritten = light_instructions(instructions, images, lambda name: space_family(name, resources))
        if images:
            states = resources.get("/ExtGState")
            if not isinstance(states, pikepdf.Dictionary):
                states = resources.ExtGState = pikepdf.Dictionary()
            states[ALPHA] = pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, ca=PAINT_INK, CA=PAINT_INK)
            stream.Resources = resources
        stream.write(pikepdf.unparse_content_stream(rewritten))

    def visit_resources(self, resources: pikepdf.Dictionary) -> set[str]:
        """Rewrite the forms, patterns and shadings the stream uses; the names of its raster images."""
        images = set()
        xobjects = resources.get("/XObject")
        for name, xobject in xobjects.items() if isinstance(xobjects, pikepdf.Dictionary) else ():
            subtype = xobject.get("/Subtype")
            if subtype == "/Image":
                images.add(str(name))
            elif subtype == "/Form" and self.first_visit(xobject):
                self.rewrite(xobject)
        patterns = resources.get("/Pattern")
        for pattern in patterns.values() if isinstance(patterns, pikepdf.Dictionary) else ():
            if not self.first_visit(pattern):
                continue
            if pattern.get("/PatternType") == 1:  # a tiling pattern: a content stream of its own
                self.rewrite(pattern)
            elif "/Shading" in pattern:
                self.shading(pattern.Shading)
        shadings = resources.get("/Shading")
        for shading in shadings.values() if isinstance(shadings, pikepdf.Dictionary) else ():
            if self.first_visit(shading):
                self.shading(shading)
        return images

    def shading(self, shading: pikepdf.Object) -> None:
        """A gradient's colours, each stop lightened (functions of type 2 and 3; a sampled one is left)."""
        family = family_of_space(shading.get("/ColorSpace"))
        function = shading.get("/Function")
        for each in function if isinstance(function, pikepdf.Array) else [function]:
            if family is not None and isinstance(each, (pikepdf.Dictionary, pikepdf.Stream)):
                self.function(each, family)

    def function(self, function: pikepdf.Object, family: str) -> None:
        if not self.first_visit(function):
            return
        if function.get("/FunctionType") == 2:
            for key in ("/C0", "/C1"):
                stop = function.get(key, pikepdf.Array([0.0] if key == "/C0" else [1.0]))
                if len(stop) == FAMILY_SIZE[family]:
                    lighter = paint_colour([float(v) for v in stop], family)
                    function[key] = pikepdf.Array([round(v, 4) for v in lighter])
        elif function.get("/FunctionType") == 3:
            for inner in function.get("/Functions", []):
                self.function(inner, family)


def light_instructions(
    instructions: list, images: set[str], family_of=lambda name: SPACE_FAMILY.get(str(name))
) -> list:
    """The instructions with each shape's colour lightened and each text's made readable, emitted where used.
    `images`: the names of raster images (drawn at PAINT_INK opacity); `family_of`: a colour space's family."""
    ends = path_ends(instructions)
    out: list = []
    state, saved = State(), []
    index = 0
    while index < len(instructions):
        instruction = instructions[index]
        if isinstance(instruction, pikepdf.ContentStreamInlineImage):
            out.append(instruction)
            index += 1
            continue
        operands, operator = list(instruction.operands), str(instruction.operator)
        if operator in FILL_COLOURS:
            family = OPERATOR_FAMILY.get(operator, state.fill_space)
            state.fill, state.fill_as = Colour(operator, tuple(operands), family), ""
        elif operator in STROKE_COLOURS:
            family = OPERATOR_FAMILY.get(operator, state.stroke_space)
            state.stroke, state.stroke_as = Colour(operator, tuple(operands), family), ""
        elif operator in ("cs", "CS"):  # a colour space sets its initial colour: emitted as it is
            out.append(instruction)
            family = family_of(operands[0]) if operands else None
            if operator == "cs":
                state.fill, state.fill_as, state.fill_space = None, "", family
            else:
                state.stroke, state.stroke_as, state.stroke_space = None, "", family
        elif operator == "q":
            saved.append(replace(state))
            out.append(instruction)
        elif operator == "Q":
            state = saved.pop() if saved else State()
            out.append(instruction)
        elif operator in PATH_START and index in ends:
            end = ends[index]
            painted = str(instructions[end].operator)
            out += emit(state, painted in FILLS, painted in STROKES, "paint")
            out += instructions[index : end + 1]
            index = end + 1
            continue
        elif operator in TEXT_SHOWS:
            out += emit(state, True, False, "text")
            out.append(instruction)
        elif operator == "Do" and operands and str(operands[0]) in images:
            out += [([], pikepdf.Operator("q")), ([ALPHA], pikepdf.Operator("gs")), instruction]
            out.append(([], pikepdf.Operator("Q")))
        else:
            out.append(instruction)
        index += 1
    return out


def path_ends(instructions: list) -> dict[int, int]:
    """The index of each path's first construction operator -> the index of the operator that paints it."""
    ends: dict[int, int] = {}
    start = None
    for index, instruction in enumerate(instructions):
        if isinstance(instruction, pikepdf.ContentStreamInlineImage):
            continue
        operator = str(instruction.operator)
        if operator in PATH_START and start is None:
            start = index
        elif operator in PATH_END and start is not None:
            ends[start] = index
            start = None
    return ends


def emit(state: State, fill: bool, stroke: bool, role: str) -> list:
    """The colour instructions that give the current fill and stroke their `role`'s version."""
    out = []
    if fill and state.fill is not None and state.fill_as != role:
        colour = state.fill.mapped(paint_colour if role == "paint" else text_colour)
        out.append((list(colour.operands), pikepdf.Operator(colour.operator)))
        state.fill_as = role
    if stroke and state.stroke is not None and state.stroke_as != role:
        colour = state.stroke.mapped(line_colour if role == "paint" else text_colour)
        out.append((list(colour.operands), pikepdf.Operator(colour.operator)))
        state.stroke_as = role
    return out
