"""Card faces: every card's front and back as HTML, each distinct face rendered once by WeasyPrint.

A deck's distinct faces are rendered in batches, each batch one WeasyPrint document of card-size
pages (absolutely positioned content, no grid or flex). A batch is identified by the hash of its
whole document text plus the renderer and font versions, which is what the face cache keys on.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.metadata
from dataclasses import dataclass, field


from generator.model.game import Deck, Game
from generator.render import fonts
from generator.render.fit import FitBox, render_measured
from generator.render.templating import Templates, Untranslated, localize
from generator.paths import TEMPLATES_DIR, find_template
from generator.errors import InputError, Problem

SAFE_INSET_MM = 3.0  # text stays this far inside the trim (Japanese print shops ask for 3 mm)


@dataclass
class DeckFaces:
    """The distinct faces of one deck in one language, and which face each card uses."""

    deck: Deck
    lang: str
    pages: list[str] = field(default_factory=list)        # distinct face HTML, in first-use order
    front_of: list[int] = field(default_factory=list)     # card index -> page index
    back_of: list[int | None] = field(default_factory=list)
    untranslated: dict[str, list[Untranslated]] = field(default_factory=dict)  # card id -> printed in fallback

    def add(self, html: str) -> int:
        try:
            return self.pages.index(html)
        except ValueError:
            self.pages.append(html)
            return len(self.pages) - 1


def card_view(card, deck: Deck, lang: str, fallback: str) -> dict:
    """What a template sees as `card`: every field localized, declared fields present (None if unset)."""
    view = {name: None for name in deck.fields}
    view.update(localize(card.fields, lang, fallback))
    view.update(id=card.id, name=localize(card.name, lang, fallback), count=card.count,
                remove_at=card.remove_at, placeholder=card.placeholder)
    return view


class GameRenderer:
    """Turns a game's decks into distinct face pages for one language."""

    def __init__(self, game: Game, lang: str):
        self.game = game
        self.lang = lang
        self.templates = Templates(game.dir, lang, game.source_language, game.labels)
        self.stylesheet = self._stylesheet()

    def _stylesheet(self) -> str:
        css = [(TEMPLATES_DIR / "base" / "card.css").read_text(encoding="utf-8")]
        style_name = self.game.style or "style.css"
        style = find_template(self.game.dir, style_name)
        if style is None and self.game.style:
            raise InputError(Problem(self.game.files["game"], None, f"stylesheet '{style_name}' not found",
                                     "style"))
        if style is not None:
            css.append(style.read_text(encoding="utf-8"))
        return "\n".join(css)

    def context(self) -> dict:
        game, lang = self.game, self.lang
        fallback = game.source_language
        decks = {d.id: {c.id: card_view(c, d, lang, fallback) for c in d.cards} for d in game.decks.values()}
        return {"game": {"id": game.id, "title": localize(game.title, lang, fallback),
                         "titles": dict(game.title.values)},
                "decks": decks}

    def deck_faces(self, deck: Deck) -> DeckFaces:
        shared = self.context()
        result = DeckFaces(deck, self.lang)
        fallback = self.game.source_language
        deck_view = {"id": deck.id, "name": localize(deck.name, self.lang, fallback), "size": deck.size_name,
                     "width": deck.size_mm[0], "height": deck.size_mm[1], "placeholder": deck.placeholder}
        for card in deck.cards:
            ctx = {**shared, "deck": deck_view, "card": card_view(card, deck, self.lang, fallback)}
            subject = f"card '{card.id}' of deck '{deck.id}' ({self.lang})"
            front = self.templates.render(deck.template, ctx, subject)
            missing = list(self.templates.untranslated.values())
            result.front_of.append(result.add(_wrap(front, "front", card.id, missing)))
            back_name = (card.back or {}).get("template") or deck.back_template
            if back_name:
                back = self.templates.render(back_name, ctx, f"the back of {subject}")
                on_back = list(self.templates.untranslated.values())
                result.back_of.append(result.add(_wrap(back, "back", "", on_back)))
                missing += [text for text in on_back if all(text.text is not m.text for m in missing)]
            else:
                result.back_of.append(None)
            if missing:
                result.untranslated[card.id] = missing
        return result

    def document(self, deck: Deck, pages: list[str]) -> str:
        """A WeasyPrint document whose pages are the given faces, at the deck's size with bleed."""
        w, h = deck.size_mm
        b = deck.bleed_mm
        s = SAFE_INSET_MM
        geometry = (f"@page {{ size: {w}mm {h}mm; margin: 0; bleed: {b}mm; }}\n"
                    f".face {{ width: {w}mm; height: {h}mm; }}\n"
                    f".bleed {{ left: -{b}mm; top: -{b}mm; width: {w + 2 * b}mm; height: {h + 2 * b}mm; }}\n"
                    f".safe {{ left: {s}mm; top: {s}mm; width: {w - 2 * s}mm; height: {h - 2 * s}mm; }}\n")
        css = fonts.for_languages(self.stylesheet, self.lang, self.game.languages)
        return (f'<!doctype html><html lang="{self.lang}"><head><meta charset="utf-8"><style>\n'
                f"{fonts.font_face_css()}{css}\n{geometry}</style></head><body>\n"
                + "\n".join(pages) + "\n</body></html>")

    def base_url(self) -> str:
        for folder in (self.game.dir / "templates", TEMPLATES_DIR / self.game.id, TEMPLATES_DIR):
            if folder.is_dir():
                return folder.resolve().as_uri() + "/"
        return TEMPLATES_DIR.resolve().as_uri() + "/"


def _wrap(html: str, kind: str, card_id: str, untranslated: list[Untranslated] = ()) -> str:
    data = f' data-card="{card_id}"' if card_id else ""
    return f'<div class="face {kind}"{data}>{html}{untranslated_flag(untranslated)}</div>'


def untranslated_flag(untranslated: list[Untranslated]) -> str:
    """A small triangle in the face's top right corner: some text on it is printed in the fallback
    language, so an incomplete edition is seen as one."""
    if not untranslated:
        return ""
    lang = untranslated[0].lang
    return (f'<div class="untranslated-flag" data-lang="{lang}">'
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="4mm" height="4mm">'
            '<path d="M0 0 H10 V10 Z" fill="#d9467c"/></svg></div>')


@dataclass
class Batch:
    """One WeasyPrint document to render: its text, base URL and cache key."""

    html: str
    base_url: str

    @property
    def key(self) -> str:
        return content_key(self.base_url, self.html)


def content_key(*parts: str) -> str:
    """Hash of everything that determines a rendering: the texts given, WeasyPrint's version, the fonts."""
    digest = hashlib.sha256()
    for part in (weasyprint_version(), fonts.fingerprint(), *parts):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def weasyprint_version() -> str:
    return importlib.metadata.version("weasyprint")  # without importing WeasyPrint (slow) on a cached build


def face_keys(renderer: "GameRenderer", faces: DeckFaces) -> list[str]:
    """One key per distinct face: its HTML plus the document around it (stylesheets, page geometry)."""
    frame = renderer.document(faces.deck, [])
    base_url = renderer.base_url()
    return [content_key(base_url, frame, html) for html in faces.pages]


@dataclass
class RenderedBatch:
    """A batch's PDF and the measured text boxes (data-fit) of its pages."""

    pdf: bytes
    fits: list[FitBox] = field(default_factory=list)


def render_fitted(batch: Batch) -> RenderedBatch:
    """Render one batch (a pure function of the batch: safe to cache and parallelize). The layout is
    measured between render() and write_pdf(), so the check costs no second rendering."""
    from generator.render import engine

    weasyprint = engine.load()

    document, fits = render_measured(weasyprint.HTML(string=batch.html, base_url=batch.base_url))
    return RenderedBatch(document.write_pdf(), fits)


def render_batch(batch: Batch) -> bytes:
    return render_fitted(batch).pdf


@dataclass
class CardFit:
    """A marked text box (data-fit) on a card face in one language, with the cards that print it."""

    lang: str
    deck: str
    side: str            # front or back
    cards: list[str]     # ids of the cards printing this face
    field: str
    width_mm: float
    height_mm: float
    overflow_mm: float
    scale: float

    @property
    def card(self) -> str:
        return self.cards[0] if self.cards else ""

    def describe(self) -> str:
        where = f"card '{self.card}'" if self.side == "front" else f"the back of card '{self.card}'"
        if len(self.cards) > 1:
            where += f" (and {len(self.cards) - 1} more)"
        return f"{self.lang}: {where} of deck '{self.deck}', {self.field}"

    def overflow_text(self) -> str:
        shrunk = f" even at {self.scale:.0%} font size" if self.scale < 1 else ""
        return (f"text overflows its {self.width_mm:g} x {self.height_mm:g} mm box by {self.overflow_mm:g} mm"
                f"{shrunk}")


def card_fits(faces: DeckFaces, face_fits: list[list[FitBox]]) -> list[CardFit]:
    """The measured text boxes of a deck's distinct faces (one list per face), named by the cards
    that print them."""
    cards = faces.deck.cards
    found = []
    for face, fits in enumerate(face_fits):
        fronts = [card.id for card, used in zip(cards, faces.front_of) if used == face]
        backs = [card.id for card, used in zip(cards, faces.back_of) if used == face]
        for fit in fits:
            found.append(CardFit(faces.lang, faces.deck.id, "front" if fronts else "back", fronts or backs,
                                 fit.field, fit.width_mm, fit.height_mm, fit.overflow_mm, fit.scale))
    return found
