"""Domain objects of a game: what the YAML describes, after checking."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from generator.errors import Problem

# Card sizes in millimetres (width, height).
CARD_SIZES = {
    "poker": (63.0, 88.0),
    "bridge": (58.0, 89.0),
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}
DEFAULT_BLEED_MM = 3.0
INK_SAVER_BACKS = ("print", "omit")
DEFAULT_MIN_DPI = 300  # what print shops ask of a picture at its printed size (Japanese shops: 350)
DEFAULT_IMAGE_DPI = 350  # finer pictures are embedded scaled down to this at their printed size


@dataclass(frozen=True)
class Text:
    """A localized string and where it was written."""

    values: dict[str, str]
    file: Path | None = None
    line: int | None = None
    path: tuple[str | int, ...] = ()
    lines: dict[str, int | None] = field(default_factory=dict, compare=False)  # language -> line of its text

    def line_of(self, lang: str) -> int | None:
        return self.lines.get(lang, self.line)

    def has(self, lang: str) -> bool:
        """Whether the text is written in lang (an empty entry is a missing translation)."""
        return bool(str(self.values.get(lang, "")).strip())

    def get(self, lang: str, fallback: str | None = None) -> str:
        if self.has(lang):
            return self.values[lang]
        if fallback and self.has(fallback):
            return self.values[fallback]
        return next((value for value in self.values.values() if value.strip()), "")

    def __hash__(self) -> int:
        return hash((tuple(sorted(self.values.items())), self.path))


@dataclass
class Card:
    id: str
    name: Text
    count: int
    fields: dict[str, Any]
    deck_id: str
    file: Path
    line: int | None
    index: int
    remove_at: list[int] = field(default_factory=list)
    placeholder: bool | list[str] = False
    back: dict[str, Any] | None = None
    lines: dict[str, int | None] = field(default_factory=dict)  # card key -> line

    def line_of(self, key: str) -> int | None:
        return self.lines.get(key, self.line)

    def copies(self, players: int | None = None) -> int:
        if players is not None and players in self.remove_at:
            return 0
        return self.count


@dataclass(frozen=True)
class SheetSource:
    """The spreadsheet a deck reads its cards from (`cards_from:`): the file, the sheet read (None for a CSV file)
    and its header's labels in column order. A card's texts then say the row (their `line`, from 1)."""

    file: Path
    name: str | None
    labels: tuple[str, ...]


@dataclass
class Deck:
    id: str
    name: Text
    file: Path
    size_mm: tuple[float, float]
    size_name: str | None
    bleed_mm: float
    template: str
    back_template: str | None
    fields: dict[str, Any]  # name -> schema.Field (schema imports this module: it cannot be named here)
    cards: list[Card]
    lines: dict[str, int | None] = field(default_factory=dict)  # deck-level key -> line
    placeholder: bool | list[str] | Text = False  # true, the deck-level keys invented (e.g. size), or in words
    material: str | None = None  # what a manufacturer makes it of
    cut: str = "card"  # how its pieces are cut: card (rounded corners), round or square (tokens), sheet (aids)
    sheet: SheetSource | None = None  # where its cards are read from, when a spreadsheet (`cards_from:`)

    @property
    def copies(self) -> int:
        return sum(card.count for card in self.cards)

    def copies_at(self, players: int) -> int:
        return sum(card.copies(players) for card in self.cards)

    def templates(self) -> list[str]:
        """The names of the templates drawing its faces: the front's, the back's and any card's own back's."""
        names = [self.template, self.back_template] + [(card.back or {}).get("template") for card in self.cards]
        return list(dict.fromkeys(name for name in names if name))


@dataclass
class Component:
    id: str
    name: Text
    count: int
    file: Path
    line: int | None
    source: tuple[str, str] | None = None  # ("deck", "assets"), ("board", "main"), ...
    note: Text | None = None
    placeholder: bool | list[str] | Text = False  # true (its count), the keys invented, or in words
    per_kind: int | None = None
    printed: bool = True  # false: the players bring their own (cubes, dice), whether or not a file prints it


# --- boards, player aids and token sheets (model/printables.py loads them) ---------------------------


@dataclass
class BoardFace:
    """One printed face of a board: the board itself, or, for a board printed per card (`for_each`), one card's."""

    card: str | None  # the card it is printed for (None: a board printed once)
    background: str
    elements: list[dict[str, Any]]  # resolved: every =expression evaluated, for_each expanded


@dataclass
class Board:
    id: str
    name: Text
    file: Path
    size_mm: tuple[float, float]
    copies: int  # of each face
    background: str  # the first face's (each face's: `faces`)
    elements: list[dict[str, Any]]  # the first face's, resolved: every =expression evaluated, for_each expanded
    faces: list[BoardFace] = field(default_factory=list)  # one, or one per card of `for_each`
    for_each: str | None = None  # the deck whose every card has its own face
    background_image: str | None = None  # a picture of the game's folder covering the board and its bleed
    template: str | None = None  # a template of the game's drawn under the elements
    data: dict[str, Any] = field(default_factory=dict)  # the board's own values, for its template
    bleed_mm: float = DEFAULT_BLEED_MM
    placeholder: bool | list[str] | Text = False
    material: str | None = None

    @property
    def printed(self) -> int:
        """How many are printed: its copies of each face."""
        return self.copies * len(self.printed_faces)

    @property
    def printed_faces(self) -> list[BoardFace]:
        """Its faces (a board made with none is its one face)."""
        return self.faces or [BoardFace(None, self.background, self.elements)]


@dataclass
class Aid:
    id: str
    name: Text
    file: Path
    size: str | tuple[float, float]
    copies: int
    title: Text
    colour: str
    sections: list[dict[str, Any]]
    bleed_mm: float = DEFAULT_BLEED_MM
    placeholder: bool | list[str] | Text = False
    material: str | None = None


@dataclass
class TokenSheet:
    id: str
    name: Text
    file: Path
    shape: str
    size_mm: float
    sides: int
    bleed_mm: float
    tokens: list[dict[str, Any]]
    sets: int | None = None  # the box counts sets of the sheet's tokens (else single tokens)
    placeholder: bool | list[str] | Text = False
    material: str | None = None

    @property
    def pieces(self) -> int:
        each_set: int = sum(token["count"] for token in self.tokens)  # a token's count is checked whole
        return (self.sets or 1) * each_set

    @property
    def counted(self) -> int:
        """What the box contents count: sets when the sheet is a set, else pieces."""
        return self.sets if self.sets else self.pieces


@dataclass
class Printables:
    boards: dict[str, Board] = field(default_factory=dict)
    aids: dict[str, Aid] = field(default_factory=dict)
    tokens: dict[str, TokenSheet] = field(default_factory=dict)
    warnings: list[Problem] = field(default_factory=list)  # read as meant, better written otherwise (old key names)


@dataclass
class GlossaryTerm:
    """A term of the game's glossary (glossary.yaml, model/glossary.py): its forms in each language."""

    forms: dict[str, list[str]]  # lang -> accepted forms, the first one preferred
    line: int | None
    avoid: dict[str, list[str]] = field(default_factory=dict)  # lang -> words that must not name it

    def kept(self) -> bool:
        """The same word in every language (a name): a copy of the source is not 'untranslated'."""
        firsts = {forms[0] for forms in self.forms.values() if forms}
        return len(firsts) == 1


@dataclass
class Game:
    id: str
    dir: Path
    title: Text
    players: tuple[int, int]
    languages: list[str]
    source_language: str
    components: list[Component]
    decks: dict[str, Deck]
    play_time: tuple[int, int] | None = None  # minutes, shortest and longest
    age: int | None = None  # the youngest age the game is for
    style: str | None = None
    files: dict[str, Path] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict)  # checked game.yaml, for later stages
    numbers: dict[str, Any] = field(default_factory=dict)
    setup: list[dict[str, Any]] = field(default_factory=list)  # deals, each with its `_line`
    checks: list[dict[str, Any]] = field(default_factory=list)  # declared invariants, each with its `_line`
    template_problems: list[Problem] = field(default_factory=list)  # missing templates (when not required)
    printables: Printables | None = None  # boards, aids and token sheets
    labels: dict[str, Text] = field(default_factory=dict)  # template labels by key (labels.yaml)
    glossary: list[GlossaryTerm] = field(default_factory=list)  # glossary.yaml's terms
    placeholder: bool | list[str] | Text = False  # true, the game-level keys that are invented, or in words
    version: str | None = None
    date: str | None = None  # ISO 8601: 2025-01-20
    ink_saver: dict[str, str] = field(default_factory=lambda: {"backs": "print"})  # style, backs
    variant: str = ""  # "ink-saver": the game as its ink-saving version prints it (render/inksaver.py)
    print_settings: dict[str, Any] | None = None  # game.yaml `print:` (min_dpi, image_dpi)

    @property
    def min_dpi(self) -> int:
        """The least resolution a raster picture may print at (game.yaml `print: {min_dpi}`)."""
        return int((self.print_settings or {}).get("min_dpi") or DEFAULT_MIN_DPI)

    @property
    def image_dpi(self) -> int:
        """The resolution finer pictures are scaled down to as they are embedded (game.yaml `print: {image_dpi}`)."""
        return int((self.print_settings or {}).get("image_dpi") or DEFAULT_IMAGE_DPI)

    def cards(self) -> Iterator[Card]:

        for deck in self.decks.values():
            yield from deck.cards

    def decks_in_box_order(self) -> list[Deck]:
        """Decks in the order the box contents list them, then any the list does not name."""
        named = [
            c.source[1] for c in self.components if c.source and c.source[0] == "deck" and c.source[1] in self.decks
        ]
        order = list(dict.fromkeys(named)) + [d for d in self.decks if d not in named]
        return [self.decks[deck_id] for deck_id in order]
