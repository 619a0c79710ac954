"""What the builders of boards, aids and token sheets share: rendering batches and pseudo-decks, saving; and
those pieces as a print shop gets them (`pnpgen export --to pdfx`, the component spec)."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pikepdf
from markupsafe import escape

from generator.build.context import BuildContext
from generator.fsutil import write_atomic
from generator.model.game import Deck, Game, Text
from generator.errors import Problem
from generator.render.batches import Batch
from generator.render.bleed_check import remembered_bleed_gaps
from generator.render.boards import board_batches
from generator.render.faces import DeckFaces, GameRenderer, card_fits
from generator.render.pipeline import FaceCache, face_request, render_batches, render_faces
from generator.render.printed import PRINT_SHOP_PAPER, aid_deck, aid_size, board_deck, token_deck
from generator.render.sheet_writer import SheetWriter, one_orientation, save_pdf_bytes
from generator.render.game_words import flagged
from generator.render.templating import Untranslated
from generator.render.typeset import plain


def save_pdf(context: BuildContext, writer: SheetWriter, path: Path, title: str, lang: str) -> None:
    """Write the file, its bleed checked first (check_bleed)."""
    one_orientation(writer.pdf)
    data = save_pdf_bytes(writer.pdf, title, lang)
    check_bleed(context, path, data)
    write_atomic(path, data)


def check_bleed(context: BuildContext, path: Path, data: bytes) -> None:
    """A located warning for each page edge of the file whose BleedBox claims bleed the art does not reach. The
    ink-saving version prints the same art light, found near white, so its files are not checked: the normal
    files' check is theirs."""
    if context.game.variant:
        return
    for gap in remembered_bleed_gaps(context.cache.directory, data):
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


# --- token sheets, boards and aids as a print shop gets them ---------------------------------------------------


def piece_faces(game: Game, lang: str, bleed: float) -> list[tuple[DeckFaces, list[Batch]]]:
    """The game's token sheets, boards and aids in one language, each a pseudo-deck of its distinct faces with
    `bleed` (a board: each of its faces, one or one per card of its `for_each`, with the bleed it always has, and
    the batches that render them; an aid: its size on PRINT_SHOP_PAPER). Nothing is rendered: the templates run,
    which is what counting the faces takes."""
    printables = game.printables
    if printables is None:
        return []
    renderer = GameRenderer(game, lang)
    found: list[tuple[DeckFaces, list[Batch]]] = []
    for sheet in printables.tokens.values():
        found.append((renderer.deck_faces(replace(token_deck(game, sheet), bleed_mm=bleed)), []))
    for board in printables.boards.values():
        batches = board_batches(game, board, lang)
        faces = DeckFaces(board_deck(board), lang)
        faces.front_of, faces.back_of = [faces.add(batch.key, None) for batch in batches], [None] * len(batches)
        found.append((faces, batches))
    for aid in printables.aids.values():
        found.append((renderer.deck_faces(aid_deck(game, aid, [lang], aid_size(aid, PRINT_SHOP_PAPER), bleed)), []))
    return found


def render_pieces(
    game: Game, lang: str, cache: FaceCache, jobs: int, bleed: float
) -> tuple[list[pikepdf.Pdf], list[tuple[DeckFaces, list[pikepdf.Page]]]]:
    """The pieces of piece_faces rendered (from the face cache where it has them): the open PDFs (keep them while
    the pages are used) and each piece's faces with its pages."""
    pieces = piece_faces(game, lang, bleed)
    renderer = GameRenderer(game, lang)
    decks = [faces for faces, batches in pieces if not batches]
    rendered = render_faces([face_request(renderer, faces) for faces in decks], cache, jobs)
    boards = [batch for _, batches in pieces for batch in batches]
    opened = [pikepdf.open(io.BytesIO(data)) for data in render_batches(boards, cache, jobs)]
    pages = iter(rendered.pages)
    board_pages = iter(opened)
    found = [
        (faces, [next(board_pages).pages[0] for _ in batches] if batches else next(pages)) for faces, batches in pieces
    ]
    return [*rendered.sources, *opened], found


def marked_name(context: BuildContext, text: Text, lang: str, fallbacks: dict[str, dict[str, Text]]) -> str:
    """A name the sheet labels print, as markup: marked untranslated (and noted) where it has no text in lang."""
    game = context.game
    name = plain(text.get(lang, game.source_language))
    if text.has(lang) or not text.values:
        return str(escape(name))
    fallbacks.setdefault(lang, {})[context.string_ids().get(id(text), "title")] = text
    return str(flagged(Untranslated(text, game.source_language, name)))
