"""Mint Rails' eight map cards make one hex map, as the rules lay them out: the four north cards side by side in
any order, the four south cards directly below them. Checked twice: from the hexagons the card template draws
(every one on a single grid across the joins, the halves at each join meeting their twins, nothing missing or
overlapping), and from the printed faces (the pixels on either side of every join agree)."""

import itertools
import math
import re

import pytest

from conftest import ROOT
from generator.model import load_game
from generator.render.faces import GameRenderer

POLYGON = re.compile(r'<polygon [^>]*class="hex( [a-z]+)?"[^>]*points="([^"]+)"')
TOLERANCE = 0.01  # mm: the template writes coordinates to 3 decimals


@pytest.fixture(scope="module")
def game():
    return load_game(ROOT / "cards" / "mint-rails")


def card_hexes(game, card_id, lang="en"):
    """(centre, radius, kind) of every hexagon a map card's front draws, in mm from its trim's top left."""
    renderer = GameRenderer(game, lang)
    deck = game.decks["map"]
    card = next(card for card in deck.cards if card.id == card_id)
    html = renderer.card_faces(deck, card, renderer.deck_context(deck))["front"][0]
    hexes = []
    for kind, points in POLYGON.findall(html):
        corners = [tuple(map(float, pair.split(","))) for pair in points.split()]
        assert len(corners) == 6
        cx, cy = sum(x for x, _ in corners) / 6, sum(y for _, y in corners) / 6
        radii = [math.dist((cx, cy), corner) for corner in corners]
        assert max(radii) - min(radii) < TOLERANCE, "a regular hexagon"
        top = min(corners, key=lambda corner: corner[1])
        assert abs(top[0] - cx) < TOLERANCE, "pointy top"
        hexes.append(((cx, cy), radii[0], kind.strip() or "beige"))
    return hexes


def laid_out(game, north, south):
    """The rules' layout: north cards left to right in a row, the south cards directly below. Each hexagon with
    the card it is drawn on and its centre on the whole map."""
    width, height = game.decks["map"].size_mm
    placed = []
    for row, ids in enumerate((north, south)):
        for column, card_id in enumerate(ids):
            for (x, y), radius, kind in card_hexes(game, card_id):
                placed.append(
                    {"card": (column, row), "centre": (x + column * width, y + row * height), "r": radius, "kind": kind}
                )
    return placed


def on_card(hexagon, size) -> bool:
    """Whether the hexagon's centre lies on its own card (inside or on an edge)."""
    (column, row), (x, y) = hexagon["card"], hexagon["centre"]
    width, height = size
    return (
        column * width - TOLERANCE <= x <= (column + 1) * width + TOLERANCE
        and row * height - TOLERANCE <= y <= (row + 1) * height + TOLERANCE
    )


def test_the_map_cards_make_one_hex_grid_across_every_join(game):
    deck = game.decks["map"]
    size = deck.size_mm
    north = [card.id for card in deck.cards if card.fields["row"] == "north"]
    south = [card.id for card in deck.cards if card.fields["row"] == "south"]
    assert len(north) == len(south) == 4
    # any order within a row: the first layout, and every card at each end of its row once
    layouts = [(north, south), (north[::-1], south[::-1]), (north[1:] + north[:1], south[2:] + south[:2])]
    for layout in layouts:
        placed = [hexagon for hexagon in laid_out(game, *layout) if on_card(hexagon, size)]
        radius = placed[0]["r"]
        assert all(abs(h["r"] - radius) < TOLERANCE for h in placed), "one size of hex on every card"
        width, step = radius * math.sqrt(3), 1.5 * radius
        # one grid: rows 1.5 r apart, each row's centres a hex's width apart, neighbouring rows half a width off
        x0, y0 = placed[0]["centre"]
        for hexagon in placed:
            x, y = hexagon["centre"]
            rows = (y - y0) / step
            assert abs(rows - round(rows)) < TOLERANCE, hexagon
            columns = (x - x0) / width - 0.5 * (round(rows) % 2)
            assert abs(columns - round(columns)) < TOLERANCE, hexagon
        # a hexagon whose centre lies on a join is half of a hex: its twin on the card across the join has the
        # same centre, and both halves are plain beige. Two hexagons never overlap otherwise.
        by_centre = {}
        for hexagon in placed:
            key = tuple(round(v, 1) for v in hexagon["centre"])
            by_centre.setdefault(key, []).append(hexagon)
        map_width = 4 * size[0]
        for (x, y), group in by_centre.items():
            cards = {h["card"] for h in group}
            at_join = any(abs(x - k * size[0]) < 0.1 for k in range(1, 4)) or abs(y - size[1]) < 0.1
            at_map_edge = abs(x) < 0.1 or abs(x - map_width) < 0.1
            if at_join:
                assert len(cards) == 2 and all(h["kind"] == "beige" for h in group), (x, y, group)
            else:
                assert len(group) == 1, (x, y, group)
            if at_map_edge:
                assert group[0]["kind"] == "beige", "the unused half hexes at the map's ends are plain"
        for a, b in itertools.combinations(by_centre, 2):
            assert math.dist(a, b) > width - 0.2, (a, b)
        # no gap: every point of the map between its outer rows is inside a hexagon drawn on its own card
        first = min(h["centre"][1] for h in placed)  # the centres of the outer rows: between them, hexes only
        last = max(h["centre"][1] for h in placed)
        for x, y in itertools.product(range(1, int(map_width), 3), range(math.ceil(first), int(last))):
            card = (int(x // size[0]), int(y // size[1]))
            assert any(inside_hexagon((x, y), h["centre"], radius) for h in placed if h["card"] == card), (
                f"a gap at {x}, {y} mm"
            )


def inside_hexagon(point, centre, radius) -> bool:
    """Whether a point is inside a pointy-top regular hexagon."""
    dx, dy = abs(point[0] - centre[0]), abs(point[1] - centre[1])
    half_width = radius * math.sqrt(3) / 2
    return dx <= half_width + 1e-6 and dy <= radius - dx / math.sqrt(3) + 1e-6


STROKE = 180  # grey level: the hexes' outlines are darker, their beige fill and the paper lighter
NEAR = 3  # pixels (0.25 mm at 300 dpi): how far a line may move across a join


def strokes(line: list[int]) -> list[int]:
    """Where a row or column of pixels crosses a hex's outline."""
    return [i for i, grey in enumerate(line) if grey < STROKE]


def meet(one: list[int], other: list[int]) -> bool:
    """Whether two lines of pixels along a join cross the same outlines: each crossing on one has one near it on
    the other."""
    a, b = strokes(one), strokes(other)
    return (
        bool(a)
        and all(min(abs(i - j) for j in b) <= NEAR for i in a)
        and all(min(abs(i - j) for j in a) <= NEAR for i in b)
    )


def shifted(line: list[int], by: int) -> list[int]:
    return line[-by:] + line[:-by]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_printed_faces_meet_at_every_join(game, lang):
    """The trimmed faces side by side: the pixel columns either side of each join between two cards of a row, and
    the pixel rows either side of the join between the rows, cross the same hex outlines (a half hex meets its
    other half, an edge runs on). A card moved along the join, which breaks the grid, does not pass."""
    import base64
    import io

    from PIL import Image

    from generator.render.cardimage import face_images

    deck = game.decks["map"]
    north = [card.id for card in deck.cards if card.fields["row"] == "north"]
    south = [card.id for card in deck.cards if card.fields["row"] == "south"]
    urls = [face.url for face in face_images(game, lang, "map", north + south)]
    faces = [Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("L") for url in urls]
    width, height = faces[0].size
    band = round(height * 0.25)  # the band takes the outer fifth of a card: compare the hexes only

    def column(face, x, top, bottom):
        return list(face.crop((x, top, x + 1, bottom)).tobytes())

    def row(face, y):
        return list(face.crop((0, y, width, y + 1)).tobytes())

    for cards, (top, bottom) in ((faces[:4], (band, height)), (faces[4:], (0, height - band))):
        for left, right in itertools.pairwise(cards):
            ends = column(left, width - 1, top, bottom), column(right, 0, top, bottom)
            assert meet(*ends), "a join between two cards of a row"
            assert not meet(ends[0], shifted(ends[1], 40)), "a card moved 3 mm along the join would be seen"
    for upper, lower in zip(faces[:4], faces[4:]):
        assert meet(row(upper, height - 1), row(lower, 0)), "the join between the rows"
        half_hex = width // 10  # a card is five hexes wide
        assert not meet(row(upper, height - 1), shifted(row(lower, 0), half_hex)), "a broken grid would be seen"
