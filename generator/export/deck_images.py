"""What every export target starts from: a deck's distinct faces, rendered once, and rasterized on demand.

The faces come from the build's pipeline (GameRenderer + batches + FaceCache), so an export after a
build renders nothing again. Rasterizing uses PDFium, which draws a face page's media box: the trim
plus the deck's bleed on every side.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

import pikepdf
import pypdfium2 as pdfium
from PIL import Image

from generator.build import RenderedDeck
from generator.render.faces import DeckFaces
from generator.errors import InputError, Problem
from generator.fsutil import write_atomic
from generator.model.game import Deck

MM_PER_INCH = 25.4


@dataclass
class Face:
    """One distinct face of a deck: its page index, the cards showing it, and a file-friendly name."""

    index: int
    side: str  # front | back
    name: str  # e.g. assets-coal-mine-front, assets-back
    cards: list[str]  # ids of the cards that show this face


@dataclass
class DeckExport:
    """A rendered deck, ready to rasterize: the faces in order (fronts, then backs) and the copy counts. A token
    sheet, a board or an aid is one too, as a pseudo-deck of its distinct faces (build.render_pieces)."""

    deck: Deck
    lang: str
    pages: list  # the pikepdf page of each distinct face, by its index (none when only counted)
    faces: list[Face] = field(default_factory=list)
    _documents: list = field(default_factory=list)

    @classmethod
    def of(cls, rendered: RenderedDeck) -> DeckExport:
        return cls.of_faces(rendered.faces, rendered.pages)

    @classmethod
    def of_faces(cls, faces: DeckFaces, pages: list) -> DeckExport:
        """The faces of a deck (or pseudo-deck) in one language, and their rendered pages."""
        deck = faces.deck
        export = cls(deck, faces.lang, pages)
        by_index: dict[int, Face] = {}
        for card, front in zip(deck.cards, faces.front_of):
            by_index.setdefault(front, Face(front, "front", f"{deck.id}-{card.id}-front", [])).cards.append(card.id)
        backs = [b for b in dict.fromkeys(faces.back_of) if b is not None]
        for card, back in zip(deck.cards, faces.back_of):
            if back is None:
                continue
            name = f"{deck.id}-back" if len(backs) == 1 else f"{deck.id}-{card.id}-back"
            by_index.setdefault(back, Face(back, "back", name, [])).cards.append(card.id)
        export.faces = [f for f in by_index.values() if f.side == "front"] + [
            f for f in by_index.values() if f.side == "back"
        ]
        return export

    def front_of(self, card_id: str) -> Face:
        return next(f for f in self.faces if f.side == "front" and card_id in f.cards)

    def back_of(self, card_id: str) -> Face | None:
        return next((f for f in self.faces if f.side == "back" and card_id in f.cards), None)

    @property
    def backs(self) -> list[Face]:
        return [f for f in self.faces if f.side == "back"]

    def pdfium_page(self, index: int):
        """The PDFium page of the deck's distinct face `index`. The deck's own face pages are copied into one
        document first: the build's sources hold every deck and language, so an index into them is not
        this deck's face."""
        if not self._documents:
            deck_pages = pikepdf.new()
            for page in self.pages:
                deck_pages.pages.append(page)
            buffer = io.BytesIO()
            deck_pages.save(buffer)
            self._documents.append(pdfium.PdfDocument(buffer.getvalue()))
        return self._documents[0][index]

    def raster(self, face: Face, px_per_mm: float, size: tuple[int, int] | None = None) -> Image.Image:
        """The face with its bleed, as RGB pixels at px_per_mm. With `size`, exactly that many pixels:
        PDFium rounds the page size its own way, so the render is made at least that large and its
        extra pixel row or column (a twelfth of a millimetre at 300 dpi) is cropped evenly."""
        page = self.pdfium_page(face.index)
        scale = px_per_mm * MM_PER_INCH / 72
        image = self._render(page, scale)
        if size and (image.width < size[0] or image.height < size[1]):
            scale *= max(size[0] / image.width, size[1] / image.height) * 1.0005
            image = self._render(page, scale)
        if size and image.size != size:
            left, top = (image.width - size[0]) // 2, (image.height - size[1]) // 2
            image = image.crop((left, top, left + size[0], top + size[1]))
        return image

    @staticmethod
    def _render(page, scale: float) -> Image.Image:
        return page.render(scale=scale, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB")

    @property
    def bleed_size_mm(self) -> tuple[float, float]:
        (w, h), b = self.deck.size_mm, self.deck.bleed_mm
        return w + 2 * b, h + 2 * b

    def close(self) -> None:
        for document in self._documents:
            document.close()
        self._documents.clear()


def save_png(path, image: Image.Image, dpi: float) -> None:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi), compress_level=3)  # 10 % larger than level 6, 1.5x faster
    write_atomic(path, buffer.getvalue())


def write_manifest(path, rows: list[dict]) -> None:
    """A CSV of what to order: one row per card with its copy count and the files of its faces."""
    buffer = io.StringIO()
    writer = csv.DictWriter(
        buffer, fieldnames=list(rows[0]) if rows else ["deck", "card", "copies"], lineterminator="\n"
    )
    writer.writeheader()
    writer.writerows(rows)
    write_atomic(path, buffer.getvalue())


def deck_problem(deck: Deck, key: str, message: str, hint: str | None = None) -> InputError:
    """An error about a deck-level key (size, bleed), pointing at its line when the deck file has it."""
    return InputError(Problem(deck.file, deck.lines.get(key), message, key, hint=hint))


def manifest_rows(deck: DeckExport, file_of) -> list[dict]:
    """One row per card: its copy count and the files of its front and back (`file_of(face)` names them)."""
    rows = []
    for card in deck.deck.cards:
        back = deck.back_of(card.id)
        rows.append(
            {
                "deck": deck.deck.id,
                "card": card.id,
                "copies": card.count,
                "front": file_of(deck.front_of(card.id)),
                "back": file_of(back) if back else "",
            }
        )
    return rows
