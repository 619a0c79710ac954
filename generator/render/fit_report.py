"""What a measured text box reports (CardFit): a data-fit box on a printed piece, or text found past its box,
the safe area, the trim or the cut, under a box painted over it or over other text; where on the piece, how
far, and the YAML file and line that wrote the text. render/weasy/fit.py measures the boxes (FitBox); the
builders name them by the pieces printing them (faces.card_fits for cards, tokens and aids); build.json, the
build's warnings and `pnpgen i18n status` report them.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from generator.model.game import Text
from generator.render.weasy.fit import FitBox

PICTURE_KINDS = ("image", "bleed")  # findings about a raster picture (its file in `image`), not about text
SAFE_INSET_MM = 3.0  # text stays this far inside the trim (Japanese print shops ask for 3 mm)
TOKEN_SAFE_MM = 1.0  # a token is small and its cut is its only edge

FINDINGS = {
    "cutoff": "text is cut off: {other} characters are not printed, about {d:g} mm more than fits",
    "box": "text runs past its {w:g} x {h:g} mm box by {d:g} mm",
    "safe": "text runs past the safe area ({safe:g} mm inside the trim) by {d:g} mm",
    "trim": "text runs past the trim by {d:g} mm",
    "cut": "text runs past the cut ({cut}) by {d:g} mm",
    "covered": "text is hidden under a box painted over it ({other}) by {d:g} mm",
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
    image: str = ""  # a raster picture (kind `image`): its file
    pixels: tuple = ()  # its width and height in pixels
    dpi: float = 0.0  # its resolution as printed in its box (width_mm x height_mm)
    gap_mm: float = 0.0  # a picture stopping at the trim (kind `bleed`, its edge in `other`): mm of the edge left white

    @classmethod
    def of(cls, fit: FitBox, lang: str, deck: str, side: str, cards: list[str], field: str, **where) -> CardFit:
        """The finding of a measured box (its size, overflow, scale, kind, area, other text), named by the
        piece printing it and located by `where` (source, file, line, piece)."""
        measured = (fit.width_mm, fit.height_mm, fit.overflow_mm, fit.scale, fit.kind)
        found = cls(lang, deck, side, cards, field, *measured, area=tuple(fit.area), other=fit.other, **where)
        if fit.kind in PICTURE_KINDS:
            found.image, found.pixels, found.dpi, found.gap_mm = fit.text, tuple(fit.pixels), fit.dpi, fit.gap_mm
        return found

    @property
    def safe_mm(self) -> float:
        return {"token": TOKEN_SAFE_MM, "rules": 4.0, "board": 3.0, "guide": 5.0}.get(self.piece, SAFE_INSET_MM)

    @property
    def card(self) -> str:
        return self.cards[0] if self.cards else ""

    def describe(self) -> str:
        if self.piece == "rules":
            where = f"rule block '{self.card}'"
        elif self.piece == "guide":
            where = f"the print-and-play file's {self.card}"
        elif self.piece in ("board", "aid"):
            where = f"{self.piece} '{self.card}'"
        else:
            where = f"{self.piece} '{self.card}'" if self.side == "front" else f"the back of {self.piece} '{self.card}'"
            if len(self.cards) > 1:
                where += f" (and {len(self.cards) - 1} more)"
            where += f" of {'deck' if self.piece == 'card' else 'sheet'} '{self.deck.removeprefix('tokens-')}'"
        shown = ", ".join(part for part in (self.field, self.source) if part)
        return f"{self.lang}: {where}" + (f", {shown}" if shown else "")

    def resolution_text(self, shown: str, min_dpi: int) -> str:
        """`picture 'art/x.png' (200 x 150 px) prints at 72 dpi in its 40 x 30 mm box: ...`."""
        size = f" ({self.pixels[0]} x {self.pixels[1]} px)" if len(self.pixels) == 2 else ""
        return (
            f"picture '{shown}'{size} prints at {self.dpi:.0f} dpi in its {self.width_mm:g} x {self.height_mm:g} mm "
            f"box, under the {min_dpi} dpi asked for print (game.yaml print: min_dpi)"
        )

    def picture_text(self, shown: str, min_dpi: int) -> str | None:
        """What is wrong with a picture (kind `image` or `bleed`) as the build and serve say it, or None."""
        if self.kind == "image":
            return self.resolution_text(shown, min_dpi) if self.dpi < min_dpi else None
        if self.kind == "bleed":
            return (
                f"picture '{shown}' stops at the trim on its {self.other} edge{'s' if ' and ' in self.other else ''} "
                f"({self.gap_mm:g} mm): the bleed there prints white, and a cut a little outside the trim shows paper"
            )
        return None

    def overflow_text(self) -> str:
        if self.kind != "fit":
            cut = "its circle" if self.piece == "token" else "its rounded corner"
            return FINDINGS[self.kind].format(
                w=self.width_mm, h=self.height_mm, d=self.overflow_mm, other=self.other, safe=self.safe_mm, cut=cut
            )
        shrunk = f" even at {self.scale:.0%} font size" if self.scale < 1 else ""
        return f"text overflows its {self.width_mm:g} x {self.height_mm:g} mm box by {self.overflow_mm:g} mm{shrunk}"


def located(card, lang: str, fit: FitBox) -> tuple[str, Text | None]:
    """The card key whose text a box shows, and that Text: data-fit names it; otherwise the box's text is
    compared with every text of the card."""
    if fit.kind in PICTURE_KINDS:
        return picture_key(card.fields, fit.text), None
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


def picture_key(values, url: str) -> str:
    """The key path of the card value naming the picture at url (`art`, `parts[1].art`), or ""."""
    return next((key for key, written in _leaves(values, "", str) if written and names_picture(url, written)), "")


def names_picture(url: str, written: str) -> bool:
    """Whether a picture's URL, as the page drew it, is the file a value of the game's YAML names."""
    return unquote(urlsplit(url).path).endswith("/" + written.lstrip("./"))


RUBY_MARKUP = re.compile(r"\{([^{}|]+)\|([^{}]+)\}")


def _comparable(text: str) -> str:
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text or "")).casefold()


def _texts(value, path: str):
    return _leaves(value, path, Text)


def _leaves(value, path: str, kind: type):
    """(key path, value) of every value of that kind inside value."""
    if isinstance(value, kind):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, f"{path}.{key}" if path else str(key), kind)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from _leaves(item, f"{path}[{index}]", kind)
