"""Card faces: every card's front and back as HTML, each distinct face rendered once by WeasyPrint.

A deck's distinct faces are rendered in batches, each batch one WeasyPrint document of card-size
pages (absolutely positioned content, no grid or flex). A batch is identified by the hash of its
whole document text plus the renderer and font versions, which is what the face cache keys on.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from generator.render.attributes import Attribute
from generator.render.images import check_used_images
from generator.model.placeholders import data_names
from generator.model.game import Deck, Game, Text
from generator.render import fonts, typeset_html
from generator.render.weasy.patches import weasyprint_version
from generator.render.weasy.compactfonts import EMBEDDING
from generator.render.weasy.fit import CHECK_VERSION, FitBox
from generator.render.worker import RenderedBatch, render_document
from generator.render.reads import DocumentReads
from generator.render.memo import FaceMemo, card_key, context_key, folder_fingerprint, text_at, text_paths
from generator.render.templating import TemplateKind, Templates, Untranslated, localize
from generator.paths import TEMPLATES_DIR, find_template, template_dirs
from generator.errors import InputError, Problem

# What render_measured does between layout and PDF besides WeasyPrint (shrinking text, pulling down short
# last lines): a change to it changes the PDFs from the same HTML, so it is part of every cache key.
LAYOUT_PASSES = "shrink-2 furigana-1 lastlines-2 lastpage-2 grow-2"
SAFE_INSET_MM = 3.0  # text stays this far inside the trim (Japanese print shops ask for 3 mm)
TOKEN_SAFE_MM = 1.0  # a token is small and its cut is its only edge
CARD_CORNER_MM = 3.0  # the corner radius of a rounded-corner cut
# what a face's text must stay inside, by how the deck is cut: safe inset (mm), cut shape, corner radius (mm)
CUTS = {
    "card": (SAFE_INSET_MM, "rect", CARD_CORNER_MM),
    "round": (TOKEN_SAFE_MM, "round", 0.0),
    "square": (TOKEN_SAFE_MM, "rect", 0.0),
    "sheet": (SAFE_INSET_MM, "rect", 0.0),
}
CARD_FACE = TemplateKind(
    "Card faces",
    "a deck's `template:` (the front) and `back: {template: ...}` (the back, also a card's own `back:`); a "
    "token sheet's `token.html` and `token-back.html` and a player aid's `aid.html`, whose `card` is the token or "
    "the aid (see below)",
    {
        "card": "the card drawn, its texts in the language being built",
        "deck": "its deck",
        "decks": "every card of every deck, by deck id and card id, each as `card` is: "
        "`decks.goods[card.produces].name`. A face that reads it is made again whenever a file of the game changes",
        "game": "the game",
    },
    {
        "card": {
            "id": "the card's id",
            "name": "its name",
            "count": "its copies in the box",
            "remove_at": "the player counts it is removed at",
            "placeholder": "`true`, or the list of its invented keys, when its values are invented for want of the "
            "real ones",
            "<field>": "each field the deck's `fields:` declares, texts in the language being built and their "
            "`{...}` placeholders resolved; none (`{% if card.x %}`) when the card leaves it out",
        },
        "deck": {
            "id": "the deck's id",
            "name": "its name",
            "size": "its size's name (`poker`, `mini` ...), none for a size in mm",
            "width": "the card's width in mm (without bleed)",
            "height": "its height in mm",
            "placeholder": "`true`, or the list of the deck's invented keys (`size` ...)",
        },
        "game": {
            "id": "the game's id (its folder's name)",
            "title": "its title in the language being built",
            "titles": "its title by language (`game.titles.ja`)",
        },
    },
)
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
ATTRIBUTES = (CARD_ID, FLAG_LANG)
# The classes a face template lays itself out with (card.css and the page geometry of `GameRenderer.document`).
FACE_CLASSES = {
    "face": "the card at its trim size, which pnpgen puts around what a template writes, with `front` or `back`",
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


class DeckViews(Mapping):
    """`decks` as templates see it (every card of every deck), made only if a template reads it."""

    def __init__(self, make: Callable[[], dict]):
        self._make = make
        self._views: dict | None = None

    @property
    def views(self) -> dict:
        if self._views is None:
            self._views = self._make()
        return self._views

    def __getitem__(self, key):
        return self.views[key]

    def __iter__(self):
        return iter(self.views)

    def __len__(self) -> int:
        return len(self.views)

    def __repr__(self) -> str:
        return repr(self.views)


class _WatchedData:
    """The game's DataNames, noting whether a placeholder read them (a face that did is not memoized)."""

    def __init__(self, data):
        self._data, self.read = data, False

    def __getattr__(self, name):
        self.read = True
        return getattr(self._data, name)


def card_view(card, deck: Deck, lang: str, fallback: str, data=None) -> dict:
    """What a template sees as `card`: every field localized (placeholders resolved when the game's
    DataNames are given), declared fields present (None if unset)."""
    view = dict.fromkeys(deck.fields)
    view.update(localize(card.fields, lang, fallback, data))
    view.update(
        id=card.id,
        name=localize(card.name, lang, fallback, data),
        count=card.count,
        remove_at=card.remove_at,
        placeholder=card.placeholder,
    )
    return view


class GameRenderer:
    """Turns a game's decks into distinct face pages for one language; with a FaceMemo, only the cards
    whose inputs changed since the memo was written run through their templates."""

    def __init__(self, game: Game, lang: str, memo: FaceMemo | None = None):
        self.game = game
        self.lang = lang
        self.data = _WatchedData(data_names(game))
        self.templates = Templates(game.dir, lang, game.source_language, self.data, labels=game.labels)
        self.stylesheet = self._stylesheet()
        self.memo = memo

    def _stylesheet(self) -> str:
        css = [(TEMPLATES_DIR / "base" / "card.css").read_text(encoding="utf-8")]
        style_name = self.game.style or "style.css"
        style = find_template(self.game.dir, style_name)
        if style is None and self.game.style:
            raise InputError(Problem(self.game.files["game"], None, f"stylesheet '{style_name}' not found", "style"))
        if style is not None:
            css.append(style.read_text(encoding="utf-8"))
        return "\n".join(css)

    def context(self) -> dict:
        game, lang = self.game, self.lang
        fallback = game.source_language
        decks = DeckViews(
            lambda: {
                d.id: {c.id: card_view(c, d, lang, fallback, self.data) for c in d.cards} for d in game.decks.values()
            }
        )
        return {
            "game": {"id": game.id, "title": localize(game.title, lang, fallback), "titles": dict(game.title.values)},
            "decks": decks,
        }

    def deck_view(self, deck: Deck) -> dict:
        return {
            "id": deck.id,
            "name": localize(deck.name, self.lang, self.game.source_language),
            "size": deck.size_name,
            "width": deck.size_mm[0],
            "height": deck.size_mm[1],
            "placeholder": deck.placeholder,
        }

    def deck_faces(self, deck: Deck, on_card: Callable[[], None] | None = None) -> DeckFaces:
        shared = {**self.context(), "deck": self.deck_view(deck)}
        frame, base_url = self.document(deck, []), self.base_url()
        result = DeckFaces(
            deck, self.lang, remake=lambda card, side: self.card_faces(deck, deck.cards[card], shared)[side][0]
        )
        around = {
            "title": self.game.title,
            "deck": deck.name,
            **{f"label:{key}": text for key, text in self.game.labels.items()},
        }
        memo = _MemoRun(
            self.memo,
            self.game.dir,
            deck,
            self.lang,
            around,
            [
                _key_start().hexdigest(),  # the renderer and fonts: the face keys the memo gives hash them
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
            ],
            self.templates.used,
        )
        reads = DocumentReads(base_url)  # the keys hash what the faces read, not where the game's folder is
        start = _digest_of(_key_start(), (reads.key_text(frame),))
        for index, card in enumerate(deck.cards):
            known = memo.get(card)
            if known is not None:
                (front, back), missing = known
                result.front_of.append(result.add(front, None, index, "front"))
                result.back_of.append(result.add(back, None, index, "back") if back is not None else None)
            else:
                self.data.read, used_before = False, set(self.templates.used)
                faces = self.card_faces(deck, card, shared)
                keys = {
                    side: _digest_of(start.copy(), (reads.key_text(html),)).hexdigest()
                    for side, (html, _) in faces.items()
                }
                result.front_of.append(result.add(keys["front"], faces["front"][0], index, "front"))
                result.back_of.append(
                    result.add(keys["back"], faces["back"][0], index, "back") if "back" in faces else None
                )
                missing = faces["front"][1] + [
                    text
                    for text in faces.get("back", ("", []))[1]
                    if all(text.text is not m.text for m in faces["front"][1])
                ]
                memo.put(
                    card,
                    keys,
                    missing,
                    {path: self.templates.used[path] for path in self.templates.used if path not in used_before},
                    read_game=self.data.read or "decks" in self.templates.env.resolved,
                )
            if missing:
                result.untranslated[card.id] = missing
            if on_card is not None:
                on_card()
        check_used_images(self.templates.used)  # a corrupt icon would print its alt text, silently
        memo.save()
        return result

    def card_faces(self, deck: Deck, card, shared: dict) -> dict[str, tuple[str, list[Untranslated]]]:
        """A card's front (and back, if it has one) as face HTML, each with the texts it prints untranslated."""
        ctx = CARD_FACE.context(**shared, card=card_view(card, deck, self.lang, self.game.source_language, self.data))
        subject = f"card '{card.id}' of deck '{deck.id}' ({self.lang})"
        self.templates.env.resolved.clear()
        front = self.templates.render(deck.template, ctx, subject)
        missing = list(self.templates.untranslated.values())
        faces = {"front": (_wrap(front, "front", card.id, missing), missing)}
        back_name = (card.back or {}).get("template") or deck.back_template
        if back_name:
            back = self.templates.render(back_name, ctx, f"the back of {subject}")
            on_back = list(self.templates.untranslated.values())
            faces["back"] = (_wrap(back, "back", "", on_back), on_back)
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
        css = fonts.for_languages(self.stylesheet, self.lang, self.game.languages)
        return (
            f'<!doctype html><html lang="{self.lang}" data-safe="{safe:g}" data-cut="{cut}" '
            f'data-corner="{corner:g}"><head><meta charset="utf-8"><style>\n'
            f"{fonts.font_face_css()}{typeset_html.stylesheet()}{css}\n{geometry}</style></head><body>\n"
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


def _wrap(html: str, kind: str, card_id: str, untranslated: Sequence[Untranslated] = ()) -> str:
    data = f' {CARD_ID}="{card_id}"' if card_id else ""
    return f'<div class="face {kind}"{data}>{html}{untranslated_flag(untranslated)}</div>'


def untranslated_flag(untranslated: Sequence[Untranslated]) -> str:
    """A small triangle in the face's top right corner: some text on it is printed in the fallback
    language, so an incomplete edition is seen as one."""
    if not untranslated:
        return ""
    lang = untranslated[0].lang
    return (
        f'<div class="untranslated-flag" {FLAG_LANG}="{lang}">'
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="4mm" height="4mm">'
        '<path d="M0 0 H10 V10 Z" fill="#d9467c"/></svg></div>'
    )


class Batch:
    """One WeasyPrint document to render: its text, base URL and cache key.

    A document known by what it is made from (`inputs`: a text that changes whenever its HTML would) is keyed
    by those inputs, and `make` writes its HTML only when it is rendered: finding it in the cache costs no
    template render (the sheet labels: a render and the typesetting of every label, in every rebuild)."""

    def __init__(
        self, html: str | None, base_url: str, inputs: str | None = None, make: Callable[[], str] | None = None
    ):
        assert html is not None or (inputs is not None and make is not None), "a batch needs its HTML or a maker"
        self._html, self.base_url, self.inputs, self._make = html, base_url, inputs, make

    @property
    def html(self) -> str:
        if self._html is None:
            assert self._make is not None
            self._html = self._make()
        return self._html

    @functools.cached_property
    def key(self) -> str:
        if self.inputs is not None:
            return content_key(self.base_url, "made from\0", self.inputs)
        return document_key(self.base_url, self.html)


def content_key(*parts: str) -> str:
    """Hash of everything that determines a rendering: the texts given, WeasyPrint's version, the fonts and how
    they are embedded."""
    return _digest_of(_key_start(), parts).hexdigest()


def document_key(base_url: str, html: str, *parts: str) -> str:
    """content_key of a document rendered against base_url: the files it reads count by their content, not
    by where its folder is (render/reads.py)."""
    return content_key(DocumentReads(base_url).key_text(html), *parts)


def _key_start():
    return _digest_of(
        hashlib.sha256(), (weasyprint_version(), fonts.fingerprint(), CHECK_VERSION, LAYOUT_PASSES, EMBEDDING)
    )


def _digest_of(digest, parts):
    for part in parts:
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest


def face_keys(renderer: GameRenderer, faces: DeckFaces) -> list[str]:
    """One key per distinct face: its HTML plus the document around it (stylesheets, page geometry)."""
    return faces.keys


def render_fitted(batch: Batch) -> RenderedBatch:
    """Render one batch, with its measured text boxes (see render/worker.py: what a render worker runs)."""
    return render_document(batch.html, batch.base_url)


def render_batch(batch: Batch) -> bytes:
    return render_fitted(batch).pdf


PIECES = {"card": "card", "round": "token", "square": "token", "sheet": "aid"}
FINDINGS = {
    "cutoff": "text is cut off: {other} characters are not printed, about {d:g} mm more than fits",
    "box": "text runs past its {w:g} x {h:g} mm box by {d:g} mm",
    "safe": "text runs past the safe area ({safe:g} mm inside the trim) by {d:g} mm",
    "trim": "text runs past the trim by {d:g} mm",
    "cut": "text runs past the cut ({cut}) by {d:g} mm",
    "overlap": "text runs onto other text ('{other}') by {d:g} mm",
}


@dataclass
class CardFit:
    """A text box on a printed piece in one language, with the pieces that print it: a data-fit box
    (kind `fit`, measured whether it fits or not) or text found past its box, the safe area, the trim,
    the cut or over other text (see render/weasy/fit.py)."""

    lang: str
    deck: str
    side: str  # front or back
    cards: list[str]  # ids of the cards printing this face
    field: str  # the data-fit field, else the key of the text shown (`name`, `label`, ...) if known
    width_mm: float
    height_mm: float
    overflow_mm: float
    scale: float
    kind: str = "fit"
    source: str = ""  # the template line of the element
    area: tuple = ()  # x, y, width, height of the text on the face, mm from the trim's top-left
    other: str = ""  # the other text, for an overlap
    file: str = ""  # the YAML file and line that wrote the text (or the piece)
    line: int | None = None
    piece: str = "card"  # card, token, aid, board, rules

    @classmethod
    def of(cls, fit: FitBox, lang: str, deck: str, side: str, cards: list[str], field: str, **where) -> CardFit:
        """The finding of a measured box (its size, overflow, scale, kind, area, other text), named by the
        piece printing it and located by `where` (source, file, line, piece)."""
        measured = (fit.width_mm, fit.height_mm, fit.overflow_mm, fit.scale, fit.kind)
        return cls(lang, deck, side, cards, field, *measured, area=tuple(fit.area), other=fit.other, **where)

    @property
    def safe_mm(self) -> float:
        return {"token": TOKEN_SAFE_MM, "rules": 4.0, "board": 3.0}.get(self.piece, SAFE_INSET_MM)

    @property
    def card(self) -> str:
        return self.cards[0] if self.cards else ""

    def describe(self) -> str:
        if self.piece == "rules":
            where = f"rule block '{self.card}'"
        elif self.piece in ("board", "aid"):
            where = f"{self.piece} '{self.card}'"
        else:
            where = f"{self.piece} '{self.card}'" if self.side == "front" else f"the back of {self.piece} '{self.card}'"
            if len(self.cards) > 1:
                where += f" (and {len(self.cards) - 1} more)"
            where += f" of {'deck' if self.piece == 'card' else 'sheet'} '{self.deck.removeprefix('tokens-')}'"
        shown = ", ".join(part for part in (self.field, self.source) if part)
        return f"{self.lang}: {where}" + (f", {shown}" if shown else "")

    def overflow_text(self) -> str:
        if self.kind != "fit":
            cut = "its circle" if self.piece == "token" else "its rounded corner"
            return FINDINGS[self.kind].format(
                w=self.width_mm, h=self.height_mm, d=self.overflow_mm, other=self.other, safe=self.safe_mm, cut=cut
            )
        shrunk = f" even at {self.scale:.0%} font size" if self.scale < 1 else ""
        return f"text overflows its {self.width_mm:g} x {self.height_mm:g} mm box by {self.overflow_mm:g} mm{shrunk}"


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


def located(card, lang: str, fit: FitBox) -> tuple[str, Text | None]:
    """The card key whose text a box shows, and that Text: data-fit names it; otherwise the box's text is
    compared with every text of the card."""
    if fit.field:
        value = card.name if fit.field == "name" else card.fields.get(fit.field)
        return fit.field, value if isinstance(value, Text) else None
    return find_text({"name": card.name, **card.fields}, lang, fit.text)


def find_text(values, lang: str, shown: str, path: str = "") -> tuple[str, Text | None]:
    """(key path, Text) of the text among values that the shown text is, contains or is a part of."""
    wanted = _comparable(shown)
    best: tuple[str, Text | None, int] = ("", None, 0)
    if not wanted:
        return "", None
    for key, text in _texts(values, path):
        value = _comparable(RUBY_MARKUP.sub(r"\2\1", text.get(lang)))
        if not value:
            continue
        score = 3 if value == wanted else 2 if value in wanted else 1 if len(wanted) >= 4 and wanted in value else 0
        if score > best[2] or (
            score == best[2] and best[1] is not None and len(value) > len(_comparable(best[1].get(lang)))
        ):
            best = (key, text, score)
    return best[0], best[1]


RUBY_MARKUP = re.compile(r"\{([^{}|]+)\|([^{}]+)\}")


def _comparable(text: str) -> str:
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text or "")).casefold()


def _texts(value, path: str):
    if isinstance(value, Text):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from _texts(item, f"{path}[{index}]")
