"""Unit tests of sheet geometry: how many cards fit and where the backs go."""
import pytest

from generator.render.sheets import Rect, back_slot, duplex_grid, fold_slot, gutterfold_grid


def test_nine_poker_cards_with_bleed_fit_a4_portrait():
    grid = duplex_grid("a4", (63, 88), 3)
    assert (grid.cols, grid.rows, grid.paper) == (3, 3, (210.0, 297.0))


def test_letter_takes_eight_poker_cards_in_landscape():
    # 3 x 3 with bleed needs 207 x 282 mm; Letter is 215.9 x 279.4: landscape holds 4 x 2.
    grid = duplex_grid("letter", (63, 88), 3)
    assert (grid.cols, grid.rows, grid.paper) == (4, 2, (279.4, 215.9))


def test_slots_stay_on_the_paper_and_do_not_overlap():
    grid = duplex_grid("a4", (44, 63), 3)
    slots = [grid.slot(i) for i in range(grid.per_page)]
    for s in slots:
        assert s.x >= 0 and s.y >= 0 and s.x + s.w <= 210 and s.y + s.h <= 297
    for i, a in enumerate(slots):
        for b in slots[i + 1:]:
            assert a.x + a.w <= b.x + 1e-9 or b.x + b.w <= a.x + 1e-9 or a.y + a.h <= b.y + 1e-9 \
                or b.y + b.h <= a.y + 1e-9


@pytest.mark.parametrize("duplex,expected", [("long", Rect(200 - 10 - 30, 20, 30, 40)),
                                             ("short", Rect(10, 300 - 20 - 40, 30, 40))])
def test_back_is_mirrored_about_the_flip_axis_on_portrait_paper(duplex, expected):
    grid = duplex_grid("a4", (63, 88), 3)
    grid = grid.__class__((200, 300), grid.cols, grid.rows, grid.cell, grid.bleed, grid.top)
    assert back_slot(grid, Rect(10, 20, 30, 40), duplex) == expected


def test_long_edge_on_landscape_paper_reverses_the_rows():
    grid = duplex_grid("letter", (63, 88), 3)
    front = grid.slot(0)
    back = back_slot(grid, front, "long")
    assert back.x == pytest.approx(front.x)
    assert back.y == pytest.approx(grid.paper[1] - front.y - front.h)


def test_gutterfold_backs_mirror_across_the_fold():
    grid = gutterfold_grid("a4", (63, 88), 3)
    fold = grid.paper[1] / 2
    for i in range(grid.per_page):
        front = grid.slot(i)
        back = fold_slot(grid, front)
        assert front.y >= fold and back.y + back.h <= fold
        assert (front.y - fold) == pytest.approx(fold - (back.y + back.h))
        assert back.x == front.x


def test_a_short_deck_takes_the_way_round_that_leaves_room_for_the_marks():
    # one 88 x 63 card: landscape A4 holds 9 a page but leaves 1.5 mm; portrait holds 8 and leaves 10.5 mm
    assert duplex_grid("a4", (88, 63), 3, copies=1).paper == (210.0, 297.0)
    assert duplex_grid("a4", (88, 63), 3, copies=9).paper == (297.0, 210.0)   # one page instead of two
    assert duplex_grid("letter", (63, 88), 3, copies=6).paper == (215.9, 279.4)
    assert duplex_grid("letter", (63, 88), 3, copies=54).paper == (279.4, 215.9)  # 7 pages, not 9
