"""Real card faces as images for the rule sheets (a `card` block): rendered from the data by the game's own
templates, so a figure of a card can never show other colours or numbers than the printed card.

The images are kept in the build's cache (sealed: see fsutil.write_sealed_entry), keyed by the faces' document
and the files it reads (by content), the resolution and the versions of what draws them: a rule sheet is
recognised by its HTML, which holds the images, so a build with nothing changed would otherwise render and
rasterize every pictured card again to find its rule sheets unchanged.
"""

from __future__ import annotations

import base64
import functools
import io
import marshal
from dataclasses import dataclass
from pathlib import Path

from generator.fsutil import read_sealed_entry, write_sealed_entry
from generator.model.game import Game
from generator.render.batches import Batch, content_key, render_fitted
from generator.render.faces import GameRenderer

DPI = 300
PT_MM = 25.4 / 72
TextBox = tuple[float, float, float, float]  # left, top, right, bottom in mm from the card's top-left corner


@dataclass(frozen=True)
class FaceImage:
    """A card's front as a rule sheet shows it: the picture, and where the card's text lies on it (what a callout
    must not cover)."""

    url: str  # a PNG data URL, cut at the trim
    texts: list[TextBox]


def face_images(
    game: Game, lang: str, deck_id: str, card_ids: list[str], cache_dir: Path | None = None
) -> list[FaceImage]:
    """The cards' fronts in lang, cut at the trim (no bleed), with their text boxes; kept in `cache_dir` when
    given."""
    renderer = GameRenderer(game, lang)
    deck = game.decks[deck_id]
    shared = renderer.deck_context(deck)  # what deck_faces gives every card
    by_id = {card.id: card for card in deck.cards}
    fronts = [renderer.card_faces(deck, by_id[card_id], shared)["front"][0] for card_id in card_ids]
    html = renderer.document(deck, fronts)
    bleed = round(deck.bleed_mm / 25.4 * DPI)
    base_url = renderer.base_url()
    key = content_key(
        base_url, html, f"png at {DPI} dpi less {bleed} px, text boxes from the trim", *_drawing_versions()
    )
    entry = _entry(cache_dir, key)
    faces = _read(entry)
    if faces is None or len(faces) != len(card_ids):
        faces = _rasterized(Batch(html, base_url), bleed, deck.bleed_mm)
        if entry is not None:
            write_sealed_entry(entry, marshal.dumps(faces))
    return [
        FaceImage("data:image/png;base64," + base64.b64encode(data).decode("ascii"), texts) for data, texts in faces
    ]


def _rasterized(batch: Batch, bleed: int, bleed_mm: float) -> list[tuple[bytes, list[TextBox]]]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(render_fitted(batch).pdf)
    faces = []
    for index in range(len(pdf)):
        page = pdf[index]
        image = page.render(scale=DPI / 72).to_pil()
        image = image.crop((bleed, bleed, image.width - bleed, image.height - bleed)).convert("RGB")
        data = io.BytesIO()
        image.save(data, format="PNG", optimize=True)
        faces.append((data.getvalue(), _text_boxes(page, bleed_mm)))
    return faces


def _text_boxes(page, bleed_mm: float) -> list[TextBox]:
    """Every character's box on a face page (its em box, which holds the ink), in mm from the trim's top-left
    (the page is the face with its bleed: its media box, in the PDF's own coordinates, from bleed to bleed)."""
    left_edge, _, _, top_edge = page.get_mediabox()
    text = page.get_textpage()
    boxes = []
    for index in range(text.count_chars()):
        if not text.get_text_range(index, 1).strip():
            continue
        left, bottom, right, top = text.get_charbox(index, loose=True)
        boxes.append(
            (
                (left - left_edge) * PT_MM - bleed_mm,
                (top_edge - top) * PT_MM - bleed_mm,
                (right - left_edge) * PT_MM - bleed_mm,
                (top_edge - bottom) * PT_MM - bleed_mm,
            )
        )
    return boxes


@functools.cache
def _drawing_versions() -> tuple[str, ...]:
    import importlib.metadata

    return tuple(f"{name} {importlib.metadata.version(name)}" for name in ("pypdfium2", "pillow"))


def _entry(cache_dir: Path | None, key: str) -> Path | None:
    return None if cache_dir is None else cache_dir / "images" / key[:2] / f"{key}.marshal"


def _read(entry: Path | None) -> list[tuple[bytes, list[TextBox]]] | None:
    sealed = read_sealed_entry(entry) if entry is not None else None
    if sealed is None:
        return None  # none yet, or not sealed by this user's pnpgen: drawn again, never trusted
    try:
        images = marshal.loads(sealed)
    except (ValueError, EOFError, TypeError):
        return None
    if not isinstance(images, list) or not all(_is_face(face) for face in images):
        return None
    return images


def _is_face(face: object) -> bool:
    """A cached face as _rasterized makes it: PNG bytes and a list of four-number boxes."""
    if not (isinstance(face, tuple) and len(face) == 2 and isinstance(face[0], bytes) and face[0][:8] == PNG):
        return False
    boxes = face[1]
    return isinstance(boxes, list) and all(
        isinstance(box, tuple) and len(box) == 4 and all(isinstance(v, float) for v in box) for box in boxes
    )


PNG = b"\x89PNG\r\n\x1a\n"
