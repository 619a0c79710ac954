"""Real card faces as images for the rule sheets (a `card` block): rendered from the data by the game's own
templates, so a figure of a card can never show other colours or numbers than the printed card."""

from __future__ import annotations

import base64
import io

from generator.model.game import Game
from generator.render.faces import Batch, GameRenderer, render_fitted

DPI = 300


def face_images(game: Game, lang: str, deck_id: str, card_ids: list[str]) -> list[str]:
    """PNG data URLs of the cards' fronts in lang, cut at the trim (no bleed)."""
    import pypdfium2 as pdfium

    renderer = GameRenderer(game, lang)
    deck = game.decks[deck_id]
    faces = renderer.deck_faces(deck)
    page_of = {card.id: faces.front_of[index] for index, card in enumerate(deck.cards)}
    html = renderer.document(deck, [faces.page(page_of[card_id]) for card_id in card_ids])
    pdf = pdfium.PdfDocument(render_fitted(Batch(html, renderer.base_url())).pdf)
    bleed = round(deck.bleed_mm / 25.4 * DPI)
    urls = []
    for index in range(len(pdf)):
        image = pdf[index].render(scale=DPI / 72).to_pil()
        image = image.crop((bleed, bleed, image.width - bleed, image.height - bleed)).convert("RGB")
        data = io.BytesIO()
        image.save(data, format="PNG", optimize=True)
        urls.append("data:image/png;base64," + base64.b64encode(data.getvalue()).decode("ascii"))
    return urls
