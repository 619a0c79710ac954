"""Where a card figure's numbered callouts go: at the point rules.yaml gives, unless the disc would cover the card's
text there, at the figure's width (a card drawn small, as in a side-by-side edition's narrow column, brings its
words closer together than the disc, whose size does not change).

A callout that would cover text moves to the nearest place, around its point, where it covers none of the card's
text nor another callout; failing that, straight out of the card past its nearest edge. Geometry in mm, from the
card's top-left corner as the figure draws it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

CALLOUT_MM = 4.6  # the disc's diameter (templates/base/rules.css: figure.cards .callout)
CLEARANCE_MM = 0.3  # between the disc and a character's box
SEARCH_STEP_MM = 0.4
SEARCH_REACH_MM = 6.0  # how far from its point a callout may move and still point at its part
SEARCH_ANGLES = 24

Box = tuple[float, float, float, float]  # left, top, right, bottom
Point = tuple[float, float]


def disc_covers(centre: Point, box: Box, radius: float) -> bool:
    """Whether a disc of that radius around centre reaches into the box."""
    x, y = centre
    nearest_x, nearest_y = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    return math.hypot(x - nearest_x, y - nearest_y) < radius


def is_clear(centre: Point, texts: Sequence[Box], placed: Sequence[Point]) -> bool:
    radius = CALLOUT_MM / 2 + CLEARANCE_MM
    if any(math.hypot(centre[0] - x, centre[1] - y) < CALLOUT_MM + CLEARANCE_MM for x, y in placed):
        return False
    return not any(disc_covers(centre, box, radius) for box in texts)


def around(point: Point) -> list[Point]:
    """The places a callout may move to, nearest first: rings around its point."""
    rings = round(SEARCH_REACH_MM / SEARCH_STEP_MM)
    return [
        (
            point[0] + ring * SEARCH_STEP_MM * math.cos(2 * math.pi * k / SEARCH_ANGLES),
            point[1] + ring * SEARCH_STEP_MM * math.sin(2 * math.pi * k / SEARCH_ANGLES),
        )
        for ring in range(1, rings + 1)
        for k in range(SEARCH_ANGLES)
    ]


def outside(point: Point, size: tuple[float, float]) -> Point:
    """The point moved straight out of the card past its nearest edge, the disc clear of the card."""
    x, y = point
    w, h = size
    away = CALLOUT_MM / 2 + CLEARANCE_MM
    distances = {"left": x, "right": w - x, "top": y, "bottom": h - y}
    edge = min(distances, key=lambda name: distances[name])
    return {"left": (-away, y), "right": (w + away, y), "top": (x, -away), "bottom": (x, h + away)}[edge]


def place_callouts(points: Sequence[Point], texts: Sequence[Box], size: tuple[float, float]) -> list[Point]:
    """Each callout's centre: its point where the disc covers no text (nor an earlier callout), else the nearest
    such place around it, else out of the card past its nearest edge. Points, texts and size in the same mm."""
    placed: list[Point] = []
    for point in points:
        found = point if is_clear(point, texts, placed) else None
        if found is None:
            found = next((p for p in around(point) if is_clear(p, texts, placed)), None)
        placed.append(found if found is not None else outside(point, size))
    return placed
