"""What the builders of boards, aids and token sheets share: rendering batches and pseudo-decks, saving."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf

from generator.build.context import BuildContext
from generator.fsutil import write_atomic
from generator.model.game import Deck
from generator.errors import Problem
from generator.render.batches import Batch
from generator.render.bleed_check import bleed_gaps
from generator.render.faces import GameRenderer, card_fits
from generator.render.pipeline import face_request, render_batches, render_faces
from generator.render.sheet_writer import SheetWriter, save_pdf_bytes


def save_pdf(context: BuildContext, writer: SheetWriter, path: Path, title: str, lang: str) -> None:
    """Write the file, its bleed checked first (check_bleed)."""
    data = save_pdf_bytes(writer.pdf, title, lang)
    check_bleed(context, path, data)
    write_atomic(path, data)


def check_bleed(context: BuildContext, path: Path, data: bytes) -> None:
    """A located warning for each page edge of the file whose BleedBox claims bleed the art does not reach."""
    for gap in bleed_gaps(data):
        hint = (
            "carry the background or picture on into the bleed (a `.bleed` box in a template, `bleed: 0` to claim none)"
        )
        context.problems.add(Problem(path, None, gap.describe(), hint=hint), "bleed")


def rendered_pages(context: BuildContext, documents: list[Batch]) -> tuple[list[pikepdf.Pdf], list[list[pikepdf.Page]]]:
    """Render the batches (from the cache where possible): the open PDFs (keep them while their pages
    are used) and each one's pages."""
    pdfs = [pikepdf.open(io.BytesIO(data)) for data in render_batches(documents, context.cache, context.jobs)]
    return pdfs, [list(pdf.pages) for pdf in pdfs]


def faces_copies(
    renderer: GameRenderer, deck: Deck, context: BuildContext
) -> tuple[list[pikepdf.Pdf], list[tuple[pikepdf.Page, pikepdf.Page | None]]]:
    """The open face PDFs (keep them while used) and (front page, back page or None) for every copy
    of every card of a pseudo-deck."""
    faces = renderer.deck_faces(deck)
    context.note_untranslated(faces)
    request = face_request(renderer, faces)
    rendered = render_faces([request], context.cache, context.jobs)
    sources, [pages] = rendered.sources, rendered.pages
    context.report(card_fits(faces, [context.cache.face_fits(key) for key in request.keys]))
    copies = []
    for card, front, back in zip(deck.cards, faces.front_of, faces.back_of):
        copies += [(pages[front], pages[back] if back is not None else None)] * card.count
    return sources, copies
