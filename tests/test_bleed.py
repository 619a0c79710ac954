"""Bleed that is real and cut lines a cutter can follow: the build's bleed check (a planted white strip is found
and located; the kits pass), token backs without any cut line, and the marks of a sheet of two blocks."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pikepdf
import pytest

from conftest import ROOT, copy_game, placements
from generator.build import BuildOptions, build
from generator.model import load_game
from generator.model.game import DEFAULT_BLEED_MM
from generator.progress import Progress
from generator.render.bleed_check import bleed_gaps
from generator.render.paper import MM, Rect
from generator.render.sheet_marks import BETWEEN_CLEAR_MM
from generator.render.sheet_pages import sheet_pages
from generator.render.sheet_plan import CopyGroup, SheetOptions

DPI = 254  # 0.1 mm a pixel


def box(rect: Rect) -> pikepdf.Array:
    return pikepdf.Array([v * MM for v in (rect.x, rect.y, rect.right, rect.top)])


def filled(rects: list[Rect]) -> bytes:
    return "".join(f"{r.x * MM} {r.y * MM} {r.w * MM} {r.h * MM} re f\n" for r in rects).encode()


def page_pdf(pages: list[tuple[Rect, Rect, list[Rect]]]) -> bytes:
    """A PDF of A4 pages, each with its TrimBox and BleedBox and dark green rectangles drawn."""
    pdf = pikepdf.new()
    for trim, bleed, rects in pages:
        page = pikepdf.Dictionary(
            Type=pikepdf.Name.Page,
            MediaBox=pikepdf.Array([0, 0, 210 * MM, 297 * MM]),
            TrimBox=box(trim),
            BleedBox=box(bleed),
            Contents=pdf.make_stream(b"0.1 0.4 0.2 rg\n" + filled(rects)),
        )
        pdf.pages.append(pikepdf.Page(page))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


TRIM = Rect(40, 60, 100, 150)
BLEED = TRIM.inset(-3)


def test_a_planted_white_strip_is_found_on_its_page_and_edge():
    strip = Rect(TRIM.right, TRIM.y + 40, 3, 50)  # the right bleed left white from 40 to 90 mm up the edge
    rest_of_right = [Rect(TRIM.right, BLEED.y, 3, 43), Rect(TRIM.right, strip.top, 3, BLEED.top - strip.top)]
    planted = [Rect(BLEED.x, BLEED.y, TRIM.right - BLEED.x, BLEED.h), *rest_of_right]
    data = page_pdf([(TRIM, BLEED, [BLEED]), (TRIM, BLEED, planted), (TRIM, TRIM, [TRIM])])
    (gap,) = bleed_gaps(data)
    assert (gap.page, gap.edge, gap.bleed) == (2, "right", 3)
    # the right edge is measured from its top end: the strip runs from 150 - 90 to 150 - 40 mm
    assert (gap.start, gap.end, gap.white) == pytest.approx((60, 110, 50), abs=1.1)
    assert "page 2, right edge" in gap.describe()


def test_art_short_of_the_trim_or_a_white_page_claims_nothing():
    inside = TRIM.inset(5)  # art that never touches the trim needs no bleed
    assert bleed_gaps(page_pdf([(TRIM, BLEED, [inside]), (TRIM, BLEED, [])])) == []


def test_build_warns_of_board_art_that_stops_at_the_trim(tmp_path):
    """A grid laid against a white placard's top-left corner touches the trim; the page's bleed there is paper
    (a board's bleed is its background colour: a coloured background would fill it)."""
    game_dir = copy_game("greed-inc", tmp_path)
    placard = game_dir / "boards" / "company-placard.yaml"
    text = placard.read_text(encoding="utf-8").replace("background: =tint(card.colour, 0.78)", 'background: "#ffffff"')
    grid = "  - kind: grid\n    at: [0, 0]\n    columns: 2\n    rows: 2\n    cell: [10, 10]\n    colour: '#202020'\n"
    placard.write_text(text.replace("elements:\n", "elements:\n" + grid, 1), encoding="utf-8")
    options = BuildOptions(out=tmp_path / "out", languages="en", papers=("a4",), outputs=("boards",), jobs=1)
    for _ in range(2):  # the second build finds the file's gaps remembered by its bytes: the same warnings
        stream = io.StringIO()
        assert build(load_game(game_dir), options, Progress(stream=stream, terminal=False)) == 0
        said = stream.getvalue()
        warned = re.findall(r"warning: (\S+board-company-placard-en-a4\.pdf): page (\d+), (\w+) edge", said)
        assert {(Path(path).name, edge) for path, _, edge in warned} == {
            ("board-company-placard-en-a4.pdf", "left"),
            ("board-company-placard-en-a4.pdf", "top"),
        }
        assert sorted({int(page) for _, page, _ in warned}) == list(range(1, 11))  # every copy, one a page
        assert "page edge(s) whose bleed is white where the art meets the trim" in said
    assert list((tmp_path / "out" / ".cache" / "faces" / "bleed").glob("*.json"))


@pytest.mark.slow
def test_the_kits_have_ink_to_the_bleed_edge_wherever_a_page_claims_bleed(kits):
    claiming = 0
    for path in sorted(kits.glob("*/*.pdf")):
        pdf = pikepdf.open(path)
        for page in pdf.pages:
            trim = page.obj.get("/TrimBox")
            bleed = page.obj.get("/BleedBox")
            claiming += trim is not None and bleed is not None and list(trim) != list(bleed)
        assert bleed_gaps(path.read_bytes()) == [], path.name
    assert claiming >= 20  # the placards, the board tiles, the start player token, the aids


# --- tokens ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tokens(tmp_path_factory):
    out = tmp_path_factory.mktemp("tokens")
    options = BuildOptions(out=out, languages="en", papers=("a4",), outputs=("tokens",), jobs=1, quiet=True)
    assert build(load_game(ROOT / "cards" / "greed-inc"), options, Progress(quiet=True)) == 0
    return out / "greed-inc"


def rendered(path: Path, index: int):
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        page = document[index]
        page.set_rotation(0)  # as laid out: a page turned for the printer (/Rotate) is read in its own coordinates
        return page.render(scale=DPI / 72).to_pil().convert("RGB")
    finally:
        document.close()


def pixel(image, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    """The pixel at (x, y) mm from the page's bottom left."""
    return image.getpixel((int(x_mm * DPI / 25.4), image.height - 1 - int(y_mm * DPI / 25.4)))


def near(a, b, tolerance: int = 12) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a, b))


def test_token_backs_have_no_cut_line_and_three_mm_of_bleed(tokens):
    """Along each back's trim, just inside it, the back is its own colour: nothing is drawn there that duplex
    misregistration could show inside the token."""
    game = load_game(ROOT / "cards" / "greed-inc")
    sheets = game.printables.tokens.values()
    assert {sheet.bleed_mm for sheet in sheets} == {DEFAULT_BLEED_MM} == {3}
    sizes = {sheet.size_mm + 6 for sheet in sheets if sheet.sides == 2}  # 3 mm each side
    path = tokens / "tokens-en-a4.pdf"
    pdf = pikepdf.open(path)
    backs = list(range(1, len(pdf.pages), 2))  # each front is followed by its back
    checked = set()
    for index in backs:
        image = rendered(path, index)
        for _, x, y, w, h, _ in placements(pdf.pages[index]):
            assert round(w, 2) in sizes
            checked.add(round(w, 2))
            trim = Rect(x, y, w, h).inset(DEFAULT_BLEED_MM)
            colour = pixel(image, trim.x + 1.5, trim.y + trim.h / 2)
            for along in (0.3, 0.5, 0.7):
                for inside in (0.1, 0.3, 0.5):
                    probes = [
                        (trim.x + inside, trim.y + along * trim.h),
                        (trim.right - inside, trim.y + along * trim.h),
                        (trim.x + along * trim.w, trim.top - inside),
                        (trim.x + along * trim.w, trim.y + inside),
                    ]
                    for px, py in probes:
                        assert near(pixel(image, px, py), colour), (index, w, px, py)
    assert checked == sizes, "every two-sided token's back was looked at"


def test_round_token_fronts_have_a_cut_circle_in_the_bleed(tokens):
    path = tokens / "tokens-en-a4.pdf"
    pdf = pikepdf.open(path)
    image = rendered(path, 0)
    boots = load_game(ROOT / "cards" / "greed-inc").printables.tokens["boot-markers"]
    size = boots.size_mm + 2 * boots.bleed_mm
    round_ = [p for p in placements(pdf.pages[0]) if p[3] == pytest.approx(size, abs=0.01)]
    assert len(round_) == sum(t["count"] for t in boots.tokens)
    for _, x, y, w, h, _ in round_:
        trim = Rect(x, y, w, h).inset(DEFAULT_BLEED_MM)
        cx, cy, r = trim.x + trim.w / 2, trim.y + trim.h / 2, trim.w / 2
        colour = pixel(image, cx + r - 1, cy)
        assert near(pixel(image, cx + r + 1, cy), colour)  # the bleed: the token's colour
        line = pixel(image, cx + r + 0.12, cy)
        assert not near(line, colour, 30)  # the circle, just outside the trim


# --- a sheet of two blocks -----------------------------------------------------------------------


def segments(overlay: str) -> list[tuple[float, float, float, float]]:
    found = re.findall(r"([\d.]+) ([\d.]+) m ([\d.]+) ([\d.]+) l S", overlay)
    return [tuple(float(v) / MM for v in match) for match in found]


def test_two_blocks_have_a_marked_cut_between_them_and_marks_on_their_own_sides():
    poker = CopyGroup((63, 88), 3.0, [(object(), None, "a")] * 2)
    mini = CopyGroup((41, 63), 3.0, [(object(), None, "b")] * 4)
    (page,) = sheet_pages([poker, mini], SheetOptions("a4"))
    assert page.side == "front"
    lines = segments(page.overlay)
    across = [s for s in lines if s[1] == s[3] and s[2] - s[0] > 150]  # the cut between the blocks
    assert len(across) == 1
    middle = across[0][1]
    upright = [s for s in lines if s[0] == s[2]]
    above = [s for s in upright if min(s[1], s[3]) > middle]
    below = [s for s in upright if max(s[1], s[3]) < middle]
    assert len(above) + len(below) == len(upright)  # no mark crosses the cut
    assert min(min(s[1], s[3]) for s in above) >= middle + BETWEEN_CLEAR_MM - 1e-3
    assert max(max(s[1], s[3]) for s in below) <= middle - BETWEEN_CLEAR_MM + 1e-3
