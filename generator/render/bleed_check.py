"""Bleed that is real: on every page whose BleedBox is larger than its TrimBox, the art reaches the bleed edge
wherever it touches the trim.

A print shop trusts the BleedBox: a cut a little outside the trim must still fall on ink. The page is rendered
at a low resolution (its bleed box only) and, along each edge that claims bleed, a line of pixels just inside the
trim is compared with one just inside the bleed edge: where the first is ink and the second paper, the art stops
short of the bleed. Runs shorter than MIN_GAP_MM (anti-aliasing at a corner) are not counted. Round pieces pass:
their art touches the trim only where the circle meets it, and its bleed runs on outward there.

The builders check each file of single pieces (a board, an aid, its tiles) page by page. The pieces imposed many
to a sheet (cards, tokens) are checked where they are rendered, face by face (pictures_short_of_bleed): each
raster picture whose box touches the trim and stops short of the bleed edge has its face probed the same way,
and a gap along that picture is a finding of kind `bleed` naming the picture, the face and the edge.
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import asdict, dataclass, replace
from functools import cache
from pathlib import Path

from generator.fsutil import read_sealed_entry, write_sealed_entry

from generator.render.paper import MM
from generator.render.weasy.fit import FitBox

CHECK_DPI = 50.0  # one pixel is half a millimetre: enough for 3 mm of bleed, and cheap
INSIDE_MM = 0.5  # the art is looked for this far inside the trim
OUTSIDE_MM = 0.5  # its bleed is looked for this far inside the bleed edge
MIN_BLEED_MM = 1.0  # an edge claiming less bleed than this is not checked (too thin to probe at CHECK_DPI)
MIN_GAP_MM = 1.0
PAPER = 250  # a pixel whose every channel is at least this is paper
INK = 240  # a pixel with a channel below this is ink
EDGES = ("left", "right", "top", "bottom")


@dataclass(frozen=True)
class BleedGap:
    """Where the art stops at the trim on one edge of a page: `start` and `end` are mm along the edge (from the
    trim's left end, or from its top end), `white` the mm of it left white."""

    page: int  # 1-based
    edge: str  # left | right | top | bottom
    start: float
    end: float
    white: float
    bleed: float  # the bleed the page claims on that edge, mm

    def describe(self) -> str:
        return (
            f"page {self.page}, {self.edge} edge: the art stops at the trim for {self.white:.0f} mm between "
            f"{self.start:.0f} and {self.end:.0f} mm along the edge, where the BleedBox claims {self.bleed:g} mm "
            "of bleed (a cut a little outside the trim shows white paper there)"
        )


def remembered_bleed_gaps(directory: Path | None, data: bytes) -> list[BleedGap]:
    """bleed_gaps(data), kept in the cache folder (sealed) by the file's bytes and this check's code: a rebuild that
    makes a board, an aid or a tile file just as it was finds its gaps again without rendering its pages."""
    if directory is None:
        return bleed_gaps(data)
    path = directory / "bleed" / f"{hashlib.sha256(_check_code() + data).hexdigest()}.json"
    sealed = read_sealed_entry(path)
    if sealed is not None:
        try:
            return [BleedGap(**fields) for fields in json.loads(bytes(sealed))]
        except (ValueError, TypeError):
            pass  # not what this code writes: checked again
    gaps = bleed_gaps(data)
    write_sealed_entry(path, json.dumps([asdict(gap) for gap in gaps]).encode())
    return gaps


@cache
def _check_code() -> bytes:
    """This check's code and the renderer it reads pages with."""
    from importlib.metadata import version

    return hashlib.sha256(Path(__file__).read_bytes() + version("pypdfium2").encode()).digest()


def bleed_gaps(data: bytes, dpi: float = CHECK_DPI, pages: set[int] | None = None) -> list[BleedGap]:
    """Every edge of every page of the PDF (of those `pages`, 0-based, when given) whose claimed bleed is white
    where the art touches the trim. Only the pages claiming bleed are rendered, and a page drawn exactly like an
    earlier one (another copy of a placard) only once."""
    import pypdfium2 as pdfium  # imported by a render worker only for a face with a picture at the trim

    found: list[BleedGap] = []
    claiming = [(index, drawing) for index, drawing in _pages_claiming_bleed(data) if pages is None or index in pages]
    if not claiming:
        return found
    document = pdfium.PdfDocument(data)
    try:
        seen: dict[bytes, list[BleedGap]] = {}
        for index, drawing in claiming:
            if drawing not in seen:
                seen[drawing] = _page_gaps(document[index], index + 1, dpi)
            found += [replace(gap, page=index + 1) for gap in seen[drawing]]
    finally:
        document.close()
    return found


def _pages_claiming_bleed(data: bytes) -> list[tuple[int, bytes]]:
    """(index, what the page draws) of each page whose BleedBox is larger than its TrimBox, read without rendering
    (a card sheet file of a thousand pages holds a few such pages, or none)."""
    import pikepdf

    if b"/BleedBox" not in data and b"/ObjStm" not in data:  # no page says it (WeasyPrint's own PDFs pack them)
        return []
    found = []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for index, page in enumerate(pdf.pages):
            trim, bleed = page.obj.get("/TrimBox"), page.obj.get("/BleedBox")
            if trim is None or bleed is None or [float(v) for v in trim] == [float(v) for v in bleed]:
                continue
            forms = page.obj.get("/Resources", pikepdf.Dictionary()).get("/XObject", pikepdf.Dictionary())
            contents = page.obj.get("/Contents", pikepdf.Array())
            streams = list(contents) if isinstance(contents, pikepdf.Array) else [contents]
            drawn = [stream.read_bytes() for stream in streams]
            drawn += [repr((name, forms[name].objgen)).encode() for name in sorted(forms.keys())]
            drawn.append(repr([[float(v) for v in box] for box in (trim, bleed, page.mediabox)]).encode())
            found.append((index, hashlib.sha256(b"\n".join(drawn)).digest()))
    return found


def _page_gaps(page, number: int, dpi: float) -> list[BleedGap]:
    trim, bleed = page.get_trimbox(), page.get_bleedbox()
    claimed = {
        "left": (trim[0] - bleed[0]) / MM,
        "bottom": (trim[1] - bleed[1]) / MM,
        "right": (bleed[2] - trim[2]) / MM,
        "top": (bleed[3] - trim[3]) / MM,
    }
    edges = [edge for edge in EDGES if claimed[edge] >= MIN_BLEED_MM]
    if not edges:
        return []
    media = page.get_mediabox()
    scale = dpi / 72
    page.set_rotation(0)  # read as laid out: a page turned for the printer (/Rotate) keeps its boxes unturned
    crop = (bleed[0] - media[0], bleed[1] - media[1], media[2] - bleed[2], media[3] - bleed[3])
    image = page.render(scale=scale, crop=crop).to_pil().convert("RGB")
    px = scale * MM  # pixels per mm

    pixels = image.load()

    def column(x_mm: float) -> list:  # a column of pixels, top to bottom, x in mm from the bleed box's left
        x = min(image.width - 1, max(0, int(x_mm * px)))
        return [pixels[x, y] for y in range(image.height)]

    def row(y_mm: float) -> list:  # y in mm from the bleed box's top
        y = min(image.height - 1, max(0, int(y_mm * px)))
        return [pixels[x, y] for x in range(image.width)]

    width, height = (bleed[2] - bleed[0]) / MM, (bleed[3] - bleed[1]) / MM
    left, top = claimed["left"], claimed["top"]
    trim_w, trim_h = (trim[2] - trim[0]) / MM, (trim[3] - trim[1]) / MM
    probes = {  # edge: (pixels just inside the trim, pixels just inside the bleed edge, where the trim runs)
        "left": (column(left + INSIDE_MM), column(OUTSIDE_MM), (top, top + trim_h)),
        "right": (column(left + trim_w - INSIDE_MM), column(width - OUTSIDE_MM), (top, top + trim_h)),
        "top": (row(top + INSIDE_MM), row(OUTSIDE_MM), (left, left + trim_w)),
        "bottom": (row(top + trim_h - INSIDE_MM), row(height - OUTSIDE_MM), (left, left + trim_w)),
    }
    found = []
    for edge in edges:
        inner, outer, (start, end) = probes[edge]
        gap = _white_where_inked(inner, outer, start, end, px)
        if gap is not None:
            found.append(BleedGap(number, edge, gap[0], gap[1], gap[2], round(claimed[edge], 2)))
    return found


def _white_where_inked(inner: list, outer: list, start: float, end: float, px: float):
    """(first, last, total mm) of the runs along the trim where the inner pixel is ink and the outer one paper,
    in mm from the trim's start; None when no run is MIN_GAP_MM long."""
    first_px, last_px = int(start * px) + 1, min(len(inner), int(end * px))  # the trim's corners aside
    runs: list[tuple[int, int]] = []
    run_start = None
    for i in range(first_px, last_px + 1):
        bad = i < last_px and min(inner[i]) < INK and min(outer[i]) >= PAPER
        if bad and run_start is None:
            run_start = i
        elif not bad and run_start is not None:
            if (i - run_start) / px >= MIN_GAP_MM:
                runs.append((run_start, i))
            run_start = None
    if not runs:
        return None
    total = sum(b - a for a, b in runs) / px
    return (runs[0][0] / px - start, runs[-1][1] / px - start, total)


Trim = tuple[float, float, dict[str, float]]  # a page's trim width and height and the bleed of each edge, mm


def pictures_short_of_bleed(data: bytes, pictures: list[FitBox], trims: list[Trim]) -> list[FitBox]:
    """Findings of kind `bleed`: the raster pictures (kind `image`, measured on the rendered document's pages, whose
    `trims` are given as laid out) that touch the trim of their page and whose ink stops there, leaving the bleed
    white, each with the edge (`other`) and how many mm of it are white (`gap_mm`). Only the pages with such a
    picture are rendered to be probed."""
    drawn = [picture for picture in pictures if picture.kind == "image" and picture.area]
    touching = [
        (picture, edges)
        for picture in drawn
        if picture.page < len(trims) and (edges := _edges_at_trim(picture, trims[picture.page]))
    ]
    if not touching:
        return []
    stopped: dict[int, list[BleedGap]] = {}  # picture (its index in touching) -> the gaps along it
    for gap in bleed_gaps(data, pages={picture.page for picture, _ in touching}):
        for index, (picture, edges) in enumerate(touching):
            start, end = _along(picture, gap.edge)
            if picture.page == gap.page - 1 and gap.edge in edges and min(end, gap.end) - max(start, gap.start) > 0:
                stopped.setdefault(index, []).append(gap)
    return [_stopped(touching[index][0], gaps) for index, gaps in stopped.items()]


def _stopped(picture: FitBox, gaps: list[BleedGap]) -> FitBox:
    """One finding for a picture stopping at the trim, naming every edge where it does."""
    edges = [gap.edge for gap in gaps]
    return FitBox(
        picture.page,
        "",
        picture.width_mm,
        picture.height_mm,
        0.0,
        kind="bleed",
        source=picture.source,
        text=picture.text,
        area=picture.area,
        anchor=picture.anchor,
        other=", ".join(edges[:-1]) + " and " + edges[-1] if len(edges) > 1 else edges[0],
        pixels=picture.pixels,
        dpi=picture.dpi,
        gap_mm=round(sum(gap.white for gap in gaps), 1),
    )


def _edges_at_trim(picture: FitBox, trim: Trim) -> set[str]:
    """The edges of the page whose trim the picture's box reaches without running on to the bleed edge (a box
    reaching into the bleed is drawn there, object-fit cover or fill: it cannot stop at the trim)."""
    width, height, claimed = trim
    x, y, w, h = picture.area
    reach = {"left": -x, "top": -y, "right": x + w - width, "bottom": y + h - height}  # mm past the trim
    return {
        edge
        for edge, past in reach.items()
        if claimed[edge] >= MIN_BLEED_MM and past >= -INSIDE_MM and past < claimed[edge] - OUTSIDE_MM
    }


def _along(picture: FitBox, edge: str) -> tuple[float, float]:
    """Where the picture's box runs along an edge, mm from the trim's top (left and right edges) or left end."""
    x, y, w, h = picture.area
    return (y, y + h) if edge in ("left", "right") else (x, x + w)
