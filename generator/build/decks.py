"""Every deck's distinct faces, rendered once per language: what card sheets, exports and previews start from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from generator.heap import long_lived, thaw
from generator.model import Game
from generator.progress import Progress
from generator.render.faces import DeckFaces, GameRenderer, card_fits
from generator.render.fit_report import CardFit
from generator.render.memo import FaceMemo
from generator.render.pipeline import FaceCache, FaceRequest, face_request, render_faces

if TYPE_CHECKING:
    import pikepdf

    from generator.render.volumes import FaceRef


@dataclass
class RenderedDeck:
    faces: DeckFaces
    request: FaceRequest  # what render_faces needs to render the faces
    pages: list[pikepdf.Page] = field(default_factory=list)  # one per distinct face
    sources: list[pikepdf.Pdf] = field(default_factory=list)  # the open PDFs those pages belong to
    fits: list[CardFit] = field(default_factory=list)  # its measured text boxes
    keys: list[str] = field(default_factory=list)  # the face cache key of each distinct face
    copies: list[tuple[FaceRef, FaceRef | None]] | None = None  # every printed copy's faces (cards.printed_copies)


def prepare_game(
    game: Game, langs: list[str], memo: FaceMemo | None = None, progress: Progress | None = None
) -> dict[str, list[RenderedDeck]]:
    """Every deck's distinct faces (HTML and cache keys) per language, nothing rendered yet; with a memo,
    the templates run only for the cards that changed since it was written."""
    decks_by_lang: dict[str, list[RenderedDeck]] = {}
    cards = len(langs) * sum(len(deck.cards) for deck in game.decks.values())
    with (
        (progress or Progress(quiet=True)).task(f"{game.id}: preparing card faces", cards, "cards") as task,
        long_lived(),
    ):
        for lang in langs:
            renderer = GameRenderer(game, lang, memo)
            decks_by_lang[lang] = []
            for deck in game.decks_in_box_order():
                faces = renderer.deck_faces(deck, task.advance)
                request = face_request(renderer, faces)
                decks_by_lang[lang].append(RenderedDeck(faces, request, keys=request.keys))
    return decks_by_lang


def render_game(
    game: Game, langs: list[str], cache: FaceCache, jobs: int, progress: Progress
) -> dict[str, list[RenderedDeck]]:
    """Every distinct face of every deck, for each language; the uncached ones rendered in one pool."""
    try:
        decks_by_lang = prepare_game(game, langs)
        render_prepared(game, decks_by_lang, cache, jobs, progress)
    finally:
        thaw()
    return decks_by_lang


def render_prepared(
    game: Game, decks_by_lang: dict[str, list[RenderedDeck]], cache: FaceCache, jobs: int, progress: Progress
) -> None:
    """Give prepared decks their pages (from the cache, or rendered in one pool) and measured text boxes."""
    decks = [deck for lang_decks in decks_by_lang.values() for deck in lang_decks]
    requests = [deck.request for deck in decks]
    progress.say(f"{game.id}: {sum(len(deck.keys) for deck in decks)} distinct faces ({', '.join(decks_by_lang)})")
    result = render_faces(requests, cache, jobs, progress)
    for deck, deck_pages in zip(decks, result.pages):
        deck.pages, deck.sources = deck_pages, result.sources
        deck.fits = card_fits(deck.faces, [cache.face_fits(key) for key in deck.keys])
