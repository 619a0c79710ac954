"""The look of a kit's output pages, recorded small enough to commit and compared in the tests.

Each page of each A4 and Letter PDF a kit build writes is rendered by PDFium and reduced to the mean grey of every
TILE_MM square (a 4 mm grid: about 52 x 74 numbers for an A4 page), stored zlib-compressed in base64.
Anti-aliasing noise averages out over a tile; a wrong card, a moved or changed word, a missing image
moves some tile's mean by more than TOLERANCE.

`make accept-look` (scripts/accept_look.py) builds the kits and writes these records again after a
deliberate change.
"""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

TILE_MM = 4.0
RENDER_DPI = 36  # rendered at this resolution, then averaged per tile
TOLERANCE = 6  # the largest change of a tile's mean grey (0-255) that is not a change of look: the
# same PDFs render identically; one word of a card name changed ("Railroad" to "Railway") moves tiles by 8-24
RECORDS = Path(__file__).resolve().parent
GAMES = ["greed-inc", "ikkin", "mint-rails"]


def page_tiles(page) -> tuple[int, int, bytes]:
    """(columns, rows, mean grey of each tile row by row) of one PDF page."""
    width_mm, height_mm = (v * 25.4 / 72 for v in page.get_size())
    image = page.render(scale=RENDER_DPI / 72, fill_color=(255, 255, 255, 255)).to_pil().convert("L")
    columns, rows = max(1, round(width_mm / TILE_MM)), max(1, round(height_mm / TILE_MM))
    return columns, rows, image.resize((columns, rows), Image.Resampling.BOX).tobytes()


def pdf_record(path: Path) -> list[dict]:
    document = pdfium.PdfDocument(str(path))
    try:
        pages = []
        for index in range(len(document)):
            columns, rows, tiles = page_tiles(document[index])
            pages.append({"grid": [columns, rows], "tiles": base64.b64encode(zlib.compress(tiles, 9)).decode()})
        return pages
    finally:
        document.close()


def game_record(out_dir: Path) -> dict:
    """{file name: [page records]} for every A4 and Letter PDF of a built game folder."""
    papers = [*out_dir.glob("*-a4*.pdf"), *out_dir.glob("*-letter*.pdf")]
    return {path.name: pdf_record(path) for path in sorted(papers)}


def record_path(game_id: str) -> Path:
    return RECORDS / f"{game_id}.json"


def write_record(game_id: str, out_dir: Path) -> None:
    record_path(game_id).write_text(json.dumps(game_record(out_dir), indent=1, sort_keys=True) + "\n", encoding="utf-8")


def tiles_of(page: dict) -> bytes:
    return zlib.decompress(base64.b64decode(page["tiles"]))


def differences(game_id: str, out_dir: Path) -> list[str]:
    """What looks different from the committed record: file, page and where on the page."""
    expected = json.loads(record_path(game_id).read_text(encoding="utf-8"))
    actual = game_record(out_dir)
    found = [f"{name}: new file, not in the record" for name in sorted(set(actual) - set(expected))]
    found += [f"{name}: in the record, not built" for name in sorted(set(expected) - set(actual))]
    for name in sorted(set(expected) & set(actual)):
        old, new = expected[name], actual[name]
        if len(old) != len(new):
            found.append(f"{name}: {len(new)} pages, the record has {len(old)}")
        for number, (before, after) in enumerate(zip(old, new), start=1):
            if before["grid"] != after["grid"]:
                found.append(f"{name} page {number}: the page size changed")
                continue
            columns = after["grid"][0]
            changed = [
                (i, abs(a - b))
                for i, (a, b) in enumerate(zip(tiles_of(before), tiles_of(after)))
                if abs(a - b) > TOLERANCE
            ]
            if changed:
                worst, by = max(changed, key=lambda item: item[1])
                row, column = divmod(worst, columns)
                found.append(
                    f"{name} page {number}: {len(changed)} area(s) of {TILE_MM:g} mm changed, the most "
                    f"at {column * TILE_MM:g} mm from the left, {row * TILE_MM:g} mm from the top "
                    f"(grey {by} levels apart)"
                )
    return found
