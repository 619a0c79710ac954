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
from pathlib import Path

from generator.fsutil import read_sealed_entry, write_sealed_entry
from generator.model.game import Game
from generator.render.batches import Batch, content_key, render_fitted
from generator.render.faces import GameRenderer

DPI = 300


def face_images(game: Game, lang: str, deck_id: str, card_ids: list[str], cache_dir: Path | None = None) -> list[str]:
    """PNG data URLs of the cards' fronts in lang, cut at the trim (no bleed); kept in `cache_dir` when given."""
    renderer = GameRenderer(game, lang)
    deck = game.decks[deck_id]
    shared = renderer.deck_context(deck)  # what deck_faces gives every card
    by_id = {card.id: card for card in deck.cards}
    fronts = [renderer.card_faces(deck, by_id[card_id], shared)["front"][0] for card_id in card_ids]
    html = renderer.document(deck, fronts)
    bleed = round(deck.bleed_mm / 25.4 * DPI)
    base_url = renderer.base_url()
    entry = _entry(cache_dir, content_key(base_url, html, f"png at {DPI} dpi less {bleed} px", *_drawing_versions()))
    images = _read(entry)
    if images is None or len(images) != len(card_ids):
        images = _rasterized(Batch(html, base_url), bleed)
        if entry is not None:
            write_sealed_entry(entry, marshal.dumps(images))
    return ["data:image/png;base64," + base64.b64encode(data).decode("ascii") for data in images]


def _rasterized(batch: Batch, bleed: int) -> list[bytes]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(render_fitted(batch).pdf)
    images = []
    for index in range(len(pdf)):
        image = pdf[index].render(scale=DPI / 72).to_pil()
        image = image.crop((bleed, bleed, image.width - bleed, image.height - bleed)).convert("RGB")
        data = io.BytesIO()
        image.save(data, format="PNG", optimize=True)
        images.append(data.getvalue())
    return images


@functools.cache
def _drawing_versions() -> tuple[str, ...]:
    import importlib.metadata

    return tuple(f"{name} {importlib.metadata.version(name)}" for name in ("pypdfium2", "pillow"))


def _entry(cache_dir: Path | None, key: str) -> Path | None:
    return None if cache_dir is None else cache_dir / "images" / key[:2] / f"{key}.marshal"


def _read(entry: Path | None) -> list[bytes] | None:
    sealed = read_sealed_entry(entry) if entry is not None else None
    if sealed is None:
        return None  # none yet, or not sealed by this user's pnpgen: drawn again, never trusted
    try:
        images = marshal.loads(sealed)
    except (ValueError, EOFError, TypeError):
        return None
    if not isinstance(images, list) or not all(isinstance(data, bytes) and data[:8] == PNG for data in images):
        return None
    return images


PNG = b"\x89PNG\r\n\x1a\n"
