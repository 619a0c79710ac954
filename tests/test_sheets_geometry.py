"""Unit tests of sheet geometry: how many cards fit inside the printable margin and where the backs go."""

import re

import pytest

from generator.render.paper import MARGIN_MM, Rect, printable
from generator.render.sheet_pages import back_slot, fold_slot, sheet_pages
from generator.render.sheet_plan import CopyGroup, SheetOptions, first_sheet, gutterfold_grid, plan_sheets


def test_nine_poker_cards_fit_a4_portrait_sharing_cut_lines():
    # with full bleed 3 x 69 = 207 mm does not fit the 200 mm inside a 5 mm margin: the gang layout does
    sheet = first_sheet("a4", (63, 88), 3)
    (block,) = sheet.blocks
    assert (block.cols, block.rows, block.gang, sheet.paper) == (3, 3, True, (210.0, 297.0))
    assert block.outline().w == pytest.approx(3 * 63 + 6)


def test_letter_takes_eight_poker_cards_in_landscape():
    sheet = first_sheet("letter", (63, 88), 3)
    (block,) = sheet.blocks
    assert (block.cols, block.rows, sheet.paper) == (4, 2, (279.4, 215.9))


def test_a_page_that_fits_as_many_with_full_bleed_keeps_it():
    (block,) = first_sheet("a4", (120, 70), 3).blocks
    assert (block.count, block.gang) == (4, False)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("card", [(63, 88), (44, 63), (58, 89), (70, 120), (120, 70), (88, 63)])
def test_every_bleed_box_and_mark_room_stays_inside_the_margin_and_nothing_overlaps(paper, card):
    sheet = first_sheet(paper, card, 3)
    area = printable(sheet.paper, MARGIN_MM)
    trims = [c.trim for c in sheet.copies]
    for copy in sheet.copies:
        shown = copy.clip or copy.slot
        assert shown.x >= area.x + 2 and shown.right <= area.right - 2
        assert shown.y >= area.y + 2 and shown.top <= area.top - 2
    for i, a in enumerate(trims):
        for b in trims[i + 1 :]:
            assert a.right <= b.x + 1e-9 or b.right <= a.x + 1e-9 or a.top <= b.y + 1e-9 or b.top <= a.y + 1e-9


def test_gang_copies_show_bleed_only_on_the_outside_of_the_block():
    (block,) = first_sheet("a4", (63, 88), 3).blocks
    middle = block.clip(4)
    assert middle == block.trim(4)
    corner = block.clip(0)
    trim = block.trim(0)
    assert (corner.x, corner.top) == pytest.approx((trim.x - 3, trim.top + 3))
    assert (corner.right, corner.y) == pytest.approx((trim.right, trim.y))


def test_small_decks_share_a_sheet_below_a_larger_block():
    big = CopyGroup((120, 70), 3, [(None, None, "map")] * 5)
    small = CopyGroup((88, 63), 3, [(None, None, "asset")])
    minis = CopyGroup((44, 63), 3, [(None, None, "shares")] * 4)
    shared = plan_sheets([big, small, minis], "a4")
    assert [sheet.decks for sheet in shared] == [["map"], ["map", "asset", "shares"]]
    assert len(plan_sheets([big, small, minis], "a4", shared=False)) == 4


@pytest.mark.parametrize(
    "duplex,expected", [("long", Rect(200 - 10 - 30, 20, 30, 40)), ("short", Rect(10, 300 - 20 - 40, 30, 40))]
)
def test_back_is_mirrored_about_the_flip_axis_on_portrait_paper(duplex, expected):
    assert back_slot((200, 300), Rect(10, 20, 30, 40), duplex) == expected


def test_long_edge_on_landscape_paper_reverses_the_rows():
    sheet = first_sheet("letter", (63, 88), 3)
    front = sheet.copies[0].slot
    back = back_slot(sheet.paper, front, "long")
    assert back.x == pytest.approx(front.x)
    assert back.y == pytest.approx(sheet.paper[1] - front.y - front.h)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_each_back_and_its_visible_bleed_mirror_the_front_on_shared_sheets(duplex):
    groups = [CopyGroup((120, 70), 3, [("f1", "b1", "map")] * 5), CopyGroup((44, 63), 3, [("f2", "b2", "x")] * 7)]
    pages = sheet_pages(groups, SheetOptions("a4", duplex, label_bands=True))
    assert [page.side for page in pages] == ["front", "back", "front", "back"]
    for front, back in zip(pages[::2], pages[1::2]):
        assert len(front.placements) == len(back.placements)
        for f, b in zip(front.placements, back.placements):
            assert b[0] == {"f1": "b1", "f2": "b2"}[f[0]]
            assert b[1] == back_slot(front.paper, f[1], duplex)
            if len(f) > 3:
                assert b[3] == back_slot(front.paper, f[3], duplex)


def test_gutterfold_backs_mirror_across_the_fold():
    grid, labelled = gutterfold_grid("a4", (63, 88), 3)
    assert (grid.per_page, labelled) == (4, False)  # a row of four on landscape A4, no room for the label
    assert gutterfold_grid("letter", (44, 63), 3)[1]  # a row of mini cards on Letter leaves room for it
    fold = grid.paper[1] / 2
    for i in range(grid.per_page):
        front = grid.slot(i)
        back = fold_slot(grid, front)
        assert front.y >= fold and back.y + back.h <= fold
        assert (front.y - fold) == pytest.approx(fold - (back.y + back.h))
        assert back.x == front.x
        assert back.y >= MARGIN_MM and front.top <= grid.paper[1] - MARGIN_MM


def test_a_short_deck_takes_the_way_round_that_holds_the_most():
    assert first_sheet("a4", (88, 63), 3, copies=1).paper == (210.0, 297.0)  # a tie: portrait
    assert first_sheet("letter", (63, 88), 3, copies=54).paper == (279.4, 215.9)


def test_a_card_too_large_for_the_margin_is_refused():
    with pytest.raises(ValueError, match="margin"):
        first_sheet("a4", (200, 280), 3)


@pytest.mark.parametrize(
    "paper,card,count", [("a4", (58, 89), 9), ("a4", (44, 63), 16), ("letter", (44, 63), 12), ("letter", (58, 89), 8)]
)
def test_what_each_paper_gets_as_the_readme_says(paper, card, count):
    assert first_sheet(paper, card, 3).blocks[0].count == count


def test_a_page_holding_one_card_declares_its_trim_and_bleed_boxes_and_its_back_the_mirrored_ones():
    pages = sheet_pages([CopyGroup((63, 88), 3, [("front", "back", "deck")])], SheetOptions("a4", "long"))
    front, back = pages
    trim, bleed = front.boxes
    assert (trim.w, trim.h, bleed.w, bleed.h) == pytest.approx((63, 88, 69, 94))
    assert back.boxes == tuple(back_slot(front.paper, rect, "long") for rect in front.boxes)
    two = sheet_pages([CopyGroup((63, 88), 3, [("f", "b", "d")] * 2)], SheetOptions("a4", "long"))
    assert two[0].boxes is None


def test_the_header_version_follows_the_features_used():
    import pikepdf
    from generator.render.sheet_writer import needed_version

    pdf = pikepdf.new()
    pdf.add_blank_page()
    assert needed_version(pdf) == "1.3"
    pdf.pages[0].obj.Group = pikepdf.Dictionary(S=pikepdf.Name.Transparency)
    assert needed_version(pdf) == "1.4"
    pdf.make_stream(b"", Subtype=pikepdf.Name.OpenType)
    assert needed_version(pdf) == "1.6"


@pytest.mark.parametrize(
    "layout, duplex, sheets",
    [("duplex", "long", "shared"), ("duplex", "none", "per-deck"), ("gutterfold", "long", "shared")],
)
def test_the_sheet_labels_page_heads_say_what_the_drawn_pages_say(layout, duplex, sheets):
    from generator.render.sheet_labels import label_batches
    from generator.render.sheet_pages import page_heads, pages_of
    from generator.render.sheet_plan import CopyGroup, SheetOptions, plan_pages

    poker = [(f"front-{i}", f"back-{i}" if i % 7 else None, "cards") for i in range(40)]
    backless = [(f"token-{i}", None, "tokens") for i in range(12)]
    mini = [(f"mini-{i}", "mini-back", "minis") for i in range(30)]
    groups = [CopyGroup((63, 88), 3, poker + backless), CopyGroup((44, 68), 3, mini)]
    options = SheetOptions(paper="letter", duplex=duplex, layout=layout, label_bands=True, sheets=sheets)
    planned = plan_pages(groups, options)
    drawn, heads = pages_of(planned, options, 3), page_heads(planned, options, 3)

    def said(pages):
        return [(page.paper, page.side, page.sheet, page.decks, page.labelled) for page in pages]

    assert said(heads) == said(drawn)
    backs = layout == "duplex" and duplex != "none"  # a sheet with backs has two pages, else one
    assert len(drawn) > len(planned) if backs else len(drawn) == len(planned)
    names = {"cards": "Cards", "tokens": "Tokens", "minis": "Minis"}
    assert [batch.html for batch in label_batches(heads, "Game", names, duplex, 5, "en")] == [
        batch.html for batch in label_batches(drawn, "Game", names, duplex, 5, "en")
    ]


def test_a_sheet_labels_document_is_keyed_by_what_it_is_made_from_and_made_only_to_be_rendered():
    from generator.render import sheet_labels
    from generator.render.sheet_pages import SheetPage

    pages = [SheetPage((210.0, 297.0), [], "", side, 1, ["cards"]) for side in ("front", "back")]
    made = []
    real_templates = sheet_labels.Templates

    class CountedTemplates(real_templates):
        def render(self, *args, **kwargs):
            made.append(args[0])
            return super().render(*args, **kwargs)

    sheet_labels.Templates = CountedTemplates
    try:
        (batch,) = sheet_labels.label_batches(pages, "Game", {"cards": "Cards"}, "long", 5, "en", sheets=4)
        (same,) = sheet_labels.label_batches(pages, "Game", {"cards": "Cards"}, "long", 5, "en", sheets=4)
        (other,) = sheet_labels.label_batches(pages, "Game", {"cards": "Cards"}, "long", 5, "en", sheets=5)
        (japanese,) = sheet_labels.label_batches(pages, "Game", {"cards": "Cards"}, "long", 5, "ja", sheets=4)
        keys = [batch.key, same.key, other.key, japanese.key]
        assert made == []  # keys known, nothing rendered: what a rebuild that finds them in the cache does
        assert keys[0] == keys[1] and len(set(keys)) == 3

        def text(html: str) -> str:
            return re.sub(r"<[^>]+>", "", html)

        assert "sheet 1 of 4" in text(batch.html) and "sheet 1 of 5" in text(other.html)
        assert "4枚中" in text(japanese.html).replace(" ", "")
        assert made == [sheet_labels.SHEET_LABELS_TEMPLATE] * 3
    finally:
        sheet_labels.Templates = real_templates


def test_a_sheet_labels_document_lays_out_each_label_once_and_the_note_once_per_paper_size():
    import pikepdf

    from generator.render import sheet_labels
    from generator.render.pipeline import FaceCache
    from generator.render.sheet_pages import SheetPage

    portrait, landscape = (210.0, 297.0), (297.0, 210.0)
    pages = [
        SheetPage(portrait, [], "", "front", 1, ["cards"]),
        SheetPage(portrait, [], "", "back", 1, ["cards"]),
        SheetPage(landscape, [], "", "gutterfold", 2, ["cards"], labelled=False),  # no room for a label
        SheetPage(landscape, [], "", "front", 3, ["cards"]),
    ]
    texts, furniture = sheet_labels.label_pages(
        pages, "Game", {"cards": "Cards"}, "long", 5, "en", FaceCache.scratch(), 1
    )
    (document,) = texts
    assert len(document.pages) == 3 + 2  # three labels, then the note on each paper size
    assert [len(over) for over in furniture] == [2, 2, 0, 2]
    assert furniture[0][1] is furniture[1][1] and furniture[3][1] is not furniture[0][1]

    def text(page) -> str:
        out = pikepdf.new()
        out.pages.append(page)
        return pdf_text(out)

    assert "sheet 1 of 3 · fronts" in text(furniture[0][0]) and "sheet 3 of 3" in text(furniture[3][0])
    assert "print on the back of sheet 1" in text(furniture[1][0])
    assert "Print at 100%" in text(furniture[0][1]) and "sheet" not in text(furniture[0][1])
    assert [float(v) for v in furniture[3][1].mediabox] == pytest.approx([0, 0, 297 * 72 / 25.4, 210 * 72 / 25.4])
    assert pages[0].overlay and pages[3].overlay and not pages[2].overlay  # the 50 mm bar beside each note


def pdf_text(pdf) -> str:
    import io

    import pypdfium2

    buffer = io.BytesIO()
    pdf.save(buffer)
    document = pypdfium2.PdfDocument(buffer.getvalue())
    return " ".join(page.get_textpage().get_text_range() for page in document)


def greed_groups():
    """Greed Inc.'s decks as shared sheets group them: one group per card size, in the order they come."""
    from conftest import ROOT

    from generator.model import load_game

    game = load_game(ROOT / "cards" / "greed-inc", require_templates=False)
    groups: dict = {}
    for deck in game.decks.values():
        group = groups.setdefault((deck.size_mm, deck.bleed_mm), CopyGroup(deck.size_mm, deck.bleed_mm, []))
        group.copies += [(None, None, deck.id)] * sum(card.count for card in deck.cards)
    return list(groups.values())


def test_a_decks_last_copies_go_where_the_next_deck_still_fits():
    """Greed Inc.'s Letter cards: the last four status symbols lie in one row (sharing cut lines), leaving room for a
    row of goods below them, so no sheet is left for the goods' last three cards (18 sheets before, 17 now)."""
    sheets = plan_sheets(greed_groups(), "letter")
    assert len(sheets) == 17
    shared = [sheet for sheet in sheets if sheet.decks == ["status-symbols", "goods"]]
    assert len(shared) == 1 and len(shared[0].blocks) == 2 and shared[0].blocks[0].rows == 1
    goods = sum(1 for sheet in sheets for copy in sheet.copies if copy.deck == "goods")
    assert goods == 99 and all(len(sheet.copies) >= 8 for sheet in sheets[:-1])


def test_a_groups_last_copies_go_below_an_earlier_sheets_blocks_with_room():
    """Three small pieces that would take a sheet of their own go below the poker cards of the second sheet, the
    one with room for them (the tarot cards' sheet has none)."""
    poker = CopyGroup((63, 88), 3, [(None, None, "poker")] * 15)
    tarot = CopyGroup((70, 120), 3, [(None, None, "tarot")] * 4)
    small = CopyGroup((30, 30), 3, [(None, None, "small")] * 3)
    sheets = plan_sheets([poker, tarot, small], "a4")
    assert [sheet.decks for sheet in sheets] == [["poker"], ["poker", "small"], ["tarot"]]
    area = printable(sheets[1].paper, MARGIN_MM)
    for copy in sheets[1].copies:
        assert copy.slot.y >= area.y and copy.slot.top <= area.top
    pokers, smalls = ([c.trim for c in sheets[1].copies if c.deck == deck] for deck in ("poker", "small"))
    assert max(t.top for t in smalls) < min(t.y for t in pokers), "below the poker cards"


def test_a_file_prints_one_way_round_its_other_pages_turned():
    import pikepdf

    from generator.render.sheet_writer import one_orientation

    pdf = pikepdf.new()
    for size in ((595, 842), (842, 595), (842, 595), (595, 842), (595, 842)):
        pdf.add_blank_page(page_size=size)
    one_orientation(pdf)
    assert [int(page.obj.get("/Rotate", 0)) for page in pdf.pages] == [0, 90, 90, 0, 0]


def test_a_sheet_of_one_sided_pieces_gets_a_blank_back_in_a_double_sided_file():
    two = CopyGroup((63, 88), 3, [("front", "back", "two")] * 9)
    one = CopyGroup((44, 63), 3, [("front", None, "one")] * 16)
    pages = sheet_pages([two, one], SheetOptions("a4", sheets="per-deck"))
    assert [page.side for page in pages] == ["front", "back", "front", "back"]
    assert pages[3].placements == [] and len(pages[1].placements) == 9
    alone = sheet_pages([one], SheetOptions("a4"))
    assert [page.side for page in alone] == ["front"], "a file of one-sided pieces has no backs"
