"""Card faces: every card's front and back as HTML, each distinct face once, with its content key.

GameRenderer runs a deck's templates card by card (or takes a card's face keys from the face memo when its
inputs are unchanged) into DeckFaces: the deck's distinct faces and which card prints which. The faces are
rendered in batches of card-size pages (render/pipeline.py, keyed as render/batches.py says); what templates
see is render/face_views.py's, and the measured text boxes are named by the cards printing them here
(card_fits, reports of render/fit_report.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from generator.errors import InputError, Problem
from generator.model.game import Deck, Game
from generator.model.placeholders import data_names
from generator.paths import TEMPLATES_DIR, find_template, is_pnpgens, template_dirs
from generator.render import fonts, typeset_html
from generator.render.attributes import Attribute
from generator.render.batches import content_keyer, renderer_fingerprint
from generator.render.face_views import CARD_FACE, card_view, deck_view, decks_view, game_view
from generator.render.fit_report import SAFE_INSET_MM, TOKEN_SAFE_MM, CardFit, located
from generator.render.images import check_used_images
from generator.render.inksaver import variant_css
from generator.render.memo import FaceMemo, card_key, context_key, folder_fingerprint, text_at, text_paths
from generator.render.templating import Templates, Untranslated
from generator.render.weasy.fit import FitBox

CARD_CORNER_MM = 3.0  # the corner radius of a rounded-corner cut
# what a face's text must stay inside, by how the deck is cut: safe inset (mm), cut shape, corner radius (mm)
CUTS = {
    "card": (SAFE_INSET_MM, "rect", CARD_CORNER_MM),
    "round": (TOKEN_SAFE_MM, "round", 0.0),
    "square": (TOKEN_SAFE_MM, "rect", 0.0),
    "sheet": (SAFE_INSET_MM, "rect", 0.0),
}
PIECES = {"card": "card", "round": "token", "square": "token", "sheet": "aid"}  # what a cut makes
TAGGED_PIECES = ("aid",)  # read as documents: their faces are tagged PDFs (cards and tokens are pieces to cut)


def is_tagged(deck: Deck) -> bool:
    """Whether the deck's faces are rendered as tagged PDFs (their structure tree is carried onto the sheets)."""
    return PIECES.get(deck.cut, "card") in TAGGED_PIECES


CARD_ID = Attribute(
    "data-card",
    "a card id",
    "On the box pnpgen puts around a face: the card it belongs to (named when a face asks for a file it may not read).",
    for_templates=False,
)
FLAG_LANG = Attribute(
    "data-lang",
    "a language",
    "On the corner flag of a face that prints text for want of a translation: the language that text is in.",
    for_templates=False,
)
TAGGED_FACE = Attribute(
    "data-tagged",
    "(no value)",
    "On the html of a face rendered as a tagged PDF (an aid's): its structure tree is carried onto the sheet.",
    for_templates=False,
)
ATTRIBUTES = (CARD_ID, FLAG_LANG, TAGGED_FACE)
# The classes a face template lays itself out with (card.css and the page geometry of `GameRenderer.document`).
FACE_CLASSES = {
    "face": "the card at its trim size, which pnpgen puts around what a template writes, with `front` or `back` "
    "(`pnp-front` or `pnp-back` around a face drawn by pnpgen's own token or aid template)",
    "bleed": "a box reaching the bleed (3 mm by default) past the trim on every side: backgrounds and pictures "
    "that must run off the cut; position it `absolute`",
    "safe": f"a box {SAFE_INSET_MM:g} mm inside the trim, for text (print shops ask for 3 mm); position it `absolute`",
    "serif": "Noto Serif CJK (明朝) instead of Noto Sans CJK",
}


@dataclass
class DeckFaces:
    """The distinct faces of one deck in one language, and which face each card uses.

    Each distinct face has its cache key; its HTML is there unless the face memo gave the key without
    running the templates (`page` runs them again for it)."""

    deck: Deck
    lang: str
    pages: list[str | None] = field(default_factory=list)  # distinct face HTML, in first-use order
    front_of: list[int] = field(default_factory=list)  # card index -> page index
    back_of: list[int | None] = field(default_factory=list)
    untranslated: dict[str, list[Untranslated]] = field(default_factory=dict)  # card id -> printed in fallback
    keys: list[str] = field(default_factory=list)  # the face cache key of each page
    remake: Callable[[int, str], str] | None = field(default=None, repr=False, compare=False)  # (card, side) -> HTML
    _index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)  # face key -> page index
    _made_by: list[tuple[int, str]] = field(default_factory=list, repr=False, compare=False)

    def add(self, key: str, html: str | None, card: int = -1, side: str = "front") -> int:
        """The page index of the face with this key, a new page if the deck has none yet."""
        if key not in self._index:
            self._index[key] = len(self.pages)
            self.pages.append(html)
            self.keys.append(key)
            self._made_by.append((card, side))
        elif html is not None and self.pages[self._index[key]] is None:
            self.pages[self._index[key]] = html
        return self._index[key]

    def page(self, index: int) -> str:
        """A face's HTML, running its card's template again when the memo gave only its key."""
        html = self.pages[index]
        if html is None:
            assert self.remake is not None, "a face known only by its key needs remake"
            html = self.pages[index] = self.remake(*self._made_by[index])
        return html

    def release(self, index: int) -> None:
        """Drop a face's HTML once it is handed to the renderer (`page` makes it again if asked): a game of
        20,000 cards would otherwise hold every face's HTML to the end of the build."""
        if self.remake is not None:
            self.pages[index] = None

    def cards_of(self) -> list[tuple[list, list]]:
        """For each distinct face, the cards printing it as their front and those printing it as their back."""
        printing: list[tuple[list, list]] = [([], []) for _ in self.pages]
        for card, front, back in zip(self.deck.cards, self.front_of, self.back_of):
            printing[front][0].append(card)
            if back is not None:
                printing[back][1].append(card)
        return printing


class FacePages(Sequence):
    """A deck's face HTML as a sequence, each made when asked for (see DeckFaces.page)."""

    def __init__(self, faces: DeckFaces):
        self.faces = faces

    def __len__(self) -> int:
        return len(self.faces.pages)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.faces.page(i) for i in range(len(self))[index]]
        return self.faces.page(index)

    def release(self, index: int) -> None:
        self.faces.release(index)


class _WatchedData:
    """The game's DataNames, noting whether a placeholder read them (a face that did is not memoized)."""

    def __init__(self, data):
        self._data, self.read = data, False

    def __getattr__(self, name):
        self.read = True
        return getattr(self._data, name)


class GameRenderer:
    """Turns a game's decks into distinct face pages for one language; with a FaceMemo, only the cards
    whose inputs changed since the memo was written run through their templates."""

    def __init__(self, game: Game, lang: str, memo: FaceMemo | None = None):
        self.game = game
        self.lang = lang
        self.data = _WatchedData(data_names(game))
        self.templates = Templates.of_game(game, lang, self.data)
        self.base_css = (TEMPLATES_DIR / "base" / "card.css").read_text(encoding="utf-8")
        self.game_css = self._game_stylesheet()
        self.variant_css = variant_css(game)  # the ink-saving version's, after the game's own, on every face
        self.memo = memo

    def _game_stylesheet(self) -> str:
        """The game's style.css (or game.yaml's `style:`), empty when it has none."""
        style_name = self.game.style or "style.css"
        style = find_template(self.game.dir, style_name)
        if style is None and self.game.style:
            raise InputError(Problem(self.game.files["game"], None, f"stylesheet '{style_name}' not found", "style"))
        return style.read_text(encoding="utf-8") if style is not None else ""

    def stylesheet(self, deck: Deck) -> str:
        """card.css, then the game's stylesheet for a deck any of whose faces the game's own templates draw: a
        token sheet or aid drawn by pnpgen's templates alone looks the same whatever the game's style.css says."""
        if all(is_pnpgens(name) for name in deck.templates()):
            return f"{self.base_css}{self.variant_css}"
        return f"{self.base_css}\n{self.game_css}{self.variant_css}"

    def deck_context(self, deck: Deck) -> dict:
        """What the templates of every card of the deck see besides the card: `game`, `decks` and `deck`."""
        game, lang = self.game, self.lang
        return {
            "game": game_view(game, lang),
            "decks": decks_view(game, lang, self.data),
            "deck": deck_view(deck, lang, game.source_language),
        }

    def deck_faces(self, deck: Deck, on_card: Callable[[], None] | None = None) -> DeckFaces:
        """The deck's distinct faces: each card's from the memo when its inputs are unchanged, else from its
        templates."""
        shared = self.deck_context(deck)
        frame, base_url = self.document(deck, []), self.base_url()
        result = DeckFaces(
            deck, self.lang, remake=lambda card, side: self.card_faces(deck, deck.cards[card], shared)[side][0]
        )
        memo = self._memo_run(deck, shared, frame, base_url)
        face_key = content_keyer(base_url, frame)
        for index, card in enumerate(deck.cards):
            known = memo.get(card)
            if known is not None:
                (front, back), missing = known
                result.front_of.append(result.add(front, None, index, "front"))
                result.back_of.append(result.add(back, None, index, "back") if back is not None else None)
            else:
                missing = self._run_card(result, index, shared, face_key, memo)
            if missing:
                result.untranslated[card.id] = missing
            if on_card is not None:
                on_card()
        check_used_images(self.templates.used)  # a corrupt icon would print its alt text, silently
        memo.save()
        return result

    def _memo_run(self, deck: Deck, shared: dict, frame: str, base_url: str) -> _MemoRun:
        """The deck's memo, keyed by everything but the card that its faces are made from."""
        around = {
            "title": self.game.title,
            "deck": deck.name,
            **{f"label:{key}": text for key, text in self.game.labels.items()},
        }
        return _MemoRun(
            self.memo,
            self.game.dir,
            deck,
            self.lang,
            around,
            [
                renderer_fingerprint(),  # the renderer and fonts: the face keys the memo gives hash them
                self.lang,
                self.game.source_language,
                shared["game"],
                shared["deck"],
                list(deck.fields),
                deck.template,
                deck.back_template,
                base_url,
                frame,
                self.game.labels,
                {lang: sorted(words.words) for lang, words in self.templates.words.items()},  # kept whole
            ],
            self.templates.used,
        )

    def _run_card(
        self, result: DeckFaces, index: int, shared: dict, face_key: Callable[[str], str], memo: _MemoRun
    ) -> list[Untranslated]:
        """Run a card's templates: its faces join the deck's and the memo; return the texts it prints untranslated."""
        card = result.deck.cards[index]
        self.data.read, used_before = False, set(self.templates.used)
        self.templates.read_game_files = False
        faces = self.card_faces(result.deck, card, shared)
        keys = {side: face_key(html) for side, (html, _) in faces.items()}
        result.front_of.append(result.add(keys["front"], faces["front"][0], index, "front"))
        result.back_of.append(result.add(keys["back"], faces["back"][0], index, "back") if "back" in faces else None)
        missing = faces["front"][1] + [
            text for text in faces.get("back", ("", []))[1] if all(text.text is not m.text for m in faces["front"][1])
        ]
        memo.put(
            card,
            keys,
            missing,
            {path: self.templates.used[path] for path in self.templates.used if path not in used_before},
            read_game=self.data.read or self.templates.read_game_files or "decks" in self.templates.env.resolved,
        )
        return missing

    def card_faces(self, deck: Deck, card, shared: dict) -> dict[str, tuple[str, list[Untranslated]]]:
        """A card's front (and back, if it has one) as face HTML, each with the texts it prints untranslated."""
        ctx = CARD_FACE.context(**shared, card=card_view(card, deck, self.lang, self.game.source_language, self.data))
        subject = f"card '{card.id}' of deck '{deck.id}' ({self.lang})"
        self.templates.env.resolved.clear()
        front = self.templates.render(deck.template, ctx, subject)
        missing = list(self.templates.untranslated.values())
        faces = {"front": (_wrap(front, side_class("front", deck.template), card.id, missing), missing)}
        back_name = (card.back or {}).get("template") or deck.back_template
        if back_name:
            back = self.templates.render(back_name, ctx, f"the back of {subject}")
            on_back = list(self.templates.untranslated.values())
            faces["back"] = (_wrap(back, side_class("back", back_name), "", on_back), on_back)
        return faces

    def document(self, deck: Deck, pages: list[str]) -> str:
        """A WeasyPrint document whose pages are the given faces, at the deck's size with bleed."""
        w, h = deck.size_mm
        b = deck.bleed_mm
        s = SAFE_INSET_MM
        geometry = (
            f"@page {{ size: {w}mm {h}mm; margin: 0; bleed: {b}mm; }}\n"
            f".face {{ width: {w}mm; height: {h}mm; }}\n"
            f".bleed {{ left: -{b}mm; top: -{b}mm; width: {w + 2 * b}mm; height: {h + 2 * b}mm; }}\n"
            f".safe {{ left: {s}mm; top: {s}mm; width: {w - 2 * s}mm; height: {h - 2 * s}mm; }}\n"
        )
        safe, cut, corner = CUTS.get(deck.cut, CUTS["card"])
        css = fonts.for_languages(self.stylesheet(deck), self.lang, self.game.languages)
        tagged = f" {TAGGED_FACE}" if is_tagged(deck) else ""  # which makes the face keys those of tagged faces
        # the resolution pictures are embedded at (pipeline.FaceRequest.image_dpi), here so that face keys hash it
        pictures = f"/* pictures embedded at {self.game.image_dpi} dpi */\n"
        return (
            f'<!doctype html><html lang="{self.lang}" data-safe="{safe:g}" data-cut="{cut}" '
            f'data-corner="{corner:g}"{tagged}><head><meta charset="utf-8"><style>\n'
            f"{pictures}{fonts.font_face_css()}{typeset_html.stylesheet()}{css}\n{geometry}</style></head><body>\n"
            + "\n".join(pages)
            + "\n</body></html>"
        )

    def base_url(self) -> str:
        for folder in template_dirs(self.game.dir):
            if folder.is_dir():
                return folder.resolve().as_uri() + "/"
        return TEMPLATES_DIR.resolve().as_uri() + "/"


class _MemoRun:
    """A deck's memo in one language during deck_faces: the entries read, and those to write back."""

    def __init__(
        self, memo: FaceMemo | None, game_dir, deck: Deck, lang: str, around: dict, context_parts: list, used: dict
    ):
        self.memo, self.game_dir, self.deck_id, self.lang, self.around = memo, game_dir, deck.id, lang, around
        self.used = used  # the renderer's files used by templates (checked after the deck)
        self.known = memo.load(game_dir, deck.id, lang) if memo else {}
        self.context = context_key(game_dir, context_parts) if memo else ""
        self.kept: dict[str, list] = {}
        self.changed = False
        self._game_print: str | None = None

    def game_print(self) -> str:
        """Every file of the game: what a card's faces depend on when they read other cards or the game's data
        (a placeholder naming a deck's size, a table of the setup, another card's field, the `decks` view)."""
        if self._game_print is None:
            self._game_print = folder_fingerprint(Path(self.game_dir))
        return self._game_print

    def get(self, card) -> tuple[tuple[str, str | None], list[Untranslated]] | None:
        """The keys of the card's front and back faces and its untranslated texts, if its inputs are known."""
        if self.memo is None:
            return None
        key = card_key(self.context, card)
        entry = self.known.get(key)
        if entry is None:
            return None
        front, back, printed, used, game = entry
        if game is not None and game != self.game_print():
            return None
        missing = []
        for path, lang, shown in printed:
            text = text_at(card, self.around, path)
            if text is None:
                return None
            missing.append(Untranslated(text, lang, shown))
        self.kept[key] = entry
        for path, file, line, how in used:
            self.used.setdefault(Path(path), (Path(file) if file else None, line, how))
        return (front, back), missing

    def put(self, card, keys: dict[str, str], missing: list[Untranslated], used: dict, read_game: bool) -> None:
        """Remember the card's faces; `read_game`: they read more of the game than the card (see game_print)."""
        if self.memo is None:
            return
        paths = text_paths(card, self.around)
        if any(id(text.text) not in paths for text in missing):
            return  # it printed a text the next build could not find again: render it each time
        self.changed = True
        self.kept[card_key(self.context, card)] = [
            keys["front"],
            keys.get("back"),
            [[paths[id(text.text)], text.lang, str(text)] for text in missing],
            [[str(path), str(file) if file else None, line, how] for path, (file, line, how) in used.items()],
            self.game_print() if read_game else None,
        ]

    def save(self) -> None:
        if self.memo is not None and (self.changed or len(self.kept) != len(self.known)):
            self.memo.save(self.game_dir, self.deck_id, self.lang, self.kept)


def side_class(side: str, template: str) -> str:
    """The class naming a face's side on the box around it: `front` or `back` (which a game's templates may
    style) around what a game's template drew, `pnp-front` or `pnp-back` around what pnpgen's drew."""
    return f"pnp-{side}" if is_pnpgens(template) else side


def _wrap(html: str, kind: str, card_id: str, untranslated: Sequence[Untranslated] = ()) -> str:
    data = f' {CARD_ID}="{card_id}"' if card_id else ""
    flag = untranslated_flag(untranslated[0].lang if untranslated else None)
    return f'<div class="face {kind}"{data}>{html}{flag}</div>'


def untranslated_flag(lang: str | None) -> str:
    """A small triangle in the top right corner of a face (of a page): some text on it is printed in the fallback
    language `lang`, so an incomplete edition is seen as one. None: nothing is."""
    if lang is None:
        return ""
    return (
        f'<div class="pnp-untranslated-flag" {FLAG_LANG}="{lang}">'
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="4mm" height="4mm">'
        '<path d="M0 0 H10 V10 Z" fill="#d9467c"/></svg></div>'
    )


def face_keys(renderer: GameRenderer, faces: DeckFaces) -> list[str]:
    """One key per distinct face: its HTML plus the document around it (stylesheets, page geometry)."""
    return faces.keys


def card_fits(faces: DeckFaces, face_fits: list[list[FitBox]]) -> list[CardFit]:
    """The measured text boxes of a deck's distinct faces (one list per face), named by the cards
    that print them and located in the YAML."""
    piece = PIECES.get(faces.deck.cut, "card")
    found = []
    for (fronts, backs), fits in zip(faces.cards_of(), face_fits):
        printing = fronts or backs
        for fit in fits:
            key, text = located(printing[0], faces.lang, fit) if printing else ("", None)
            card = printing[0] if printing else None
            line = (text.line_of(faces.lang) if text is not None else None) or (card.line_of(key) if card else None)
            found.append(
                CardFit.of(
                    fit,
                    faces.lang,
                    faces.deck.id,
                    "front" if fronts else "back",
                    [card.id for card in printing],
                    fit.field or key,
                    source=fit.source if fit.kind != "fit" else "",
                    file=str((text.file if text is not None else None) or (card.file if card else faces.deck.file)),
                    line=line,
                    piece=piece,
                )
            )
    return found
