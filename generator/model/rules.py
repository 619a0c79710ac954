"""A game's rules (cards/<game>/rules.yaml): ordered blocks, each holding its text in every language.

Keeping every language inside the same block is what keeps translations aligned block by block. A block
without a text in some language is a missing translation (validate and `i18n status` list it; an edition
prints the source language's text there), so a language can be added first and translated afterwards.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.errors import InputError, Problem
from generator.model.game import Game, Text
from generator.model.schema import (
    INVALID,
    Checker,
    Enum,
    Field,
    FileKind,
    Int,
    ListOf,
    Localized,
    Model,
    Object,
    OneOf,
    Str,
    Where,
    start,
)
from generator.yamlio.read import load_yaml

RULES_FILE = "rules.yaml"
BLOCK_TYPES = [
    "heading",
    "paragraph",
    "list",
    "steps",
    "table",
    "example",
    "note",
    "figure",
    "components",
    "players",
    "card",
    "prototype",
]
POINT = ListOf(Int(whole=False))
CELL = OneOf([Localized(), Str()], expected="a text {ja: ..., en: ...} or a plain value")
COLUMN = Object(
    {
        "head": Field(Localized(), required=True, doc="the column's heading"),
        "value": Field(Str(), required=True, doc="an expression evaluated at each player count, like deck.assets"),
    },
    what="players column",
    doc="A column of a `players` table: one row per player count.",
)
BLOCK = Object(
    {
        "id": Field(Str(), doc="a name for the block; made from the section heading when left out"),
        "type": Field(Enum(BLOCK_TYPES), default="paragraph", doc="what the block is (see the block types below)"),
        "level": Field(Int(1, 3), default=1, doc="headings: 1 chapter, 2 section, 3 subsection"),
        "text": Field(Localized(), doc="the block's text; a caption for figures and tables"),
        "items": Field(ListOf(Localized()), doc="list and steps items"),
        "head": Field(ListOf(CELL), doc="table header cells"),
        "rows": Field(ListOf(ListOf(CELL)), doc="table rows"),
        "columns": Field(ListOf(COLUMN), doc="players tables: one column per expression"),
        "src": Field(Str(), doc="figures: an image file beside rules.yaml"),
        "deck": Field(Str(), doc="card blocks: the deck of the cards shown"),
        "cards": Field(ListOf(Str()), doc="card blocks: ids of the cards shown, the first at the bottom of a pile"),
        "callouts": Field(ListOf(POINT), doc="card blocks: [x, y] in mm from the card's top left, numbered ① ② ..."),
        "offset": Field(POINT, default=[0.0, 0.0], doc="card blocks: [x, y] in mm from one card of a pile to the next"),
        "width": Field(Int(10, 200, whole=False), default=40.0, doc="card blocks: printed width of a card in mm"),
        "per_row": Field(
            Int(1, 20),
            doc="card blocks: the cards laid edge to edge, this many to a row, each row below the last (cards "
            "that join, like map cards; `offset` is not used)",
        ),
    },
    what="block",
    doc="One block of the rules, holding its text in every language.",
)
BLOCK_TYPE_DOCS = {
    "heading": "a heading (`text`, `level`); level 1 and 2 headings make the contents page",
    "paragraph": "running text (`text`)",
    "list": "a bulleted list (`items`)",
    "steps": "a numbered list (`items`)",
    "table": "a table (`head`, `rows`; `text` is its caption)",
    "example": "an example, set apart (`text`)",
    "note": "a note, set apart (`text`)",
    "figure": "an image (`src`, `text` its caption)",
    "components": "the box contents, the rows `pnpgen components` prints",
    "players": "a table with one row per player count (`columns`)",
    "card": "real card faces rendered by the game's templates (`deck`, `cards`, `width`, `offset` or `per_row`, "
    "`callouts`)",
    "prototype": 'where the prototype note goes ("About this prototype": every value marked `placeholder:`, '
    "made from the data in every language); without this block it closes the rules of a game that has any",
}
assert list(BLOCK_TYPE_DOCS) == BLOCK_TYPES
NEEDS = {
    "heading": "text",
    "paragraph": "text",
    "example": "text",
    "note": "text",
    "list": "items",
    "steps": "items",
    "table": "rows",
    "figure": "src",
    "players": "columns",
    "card": "cards",
}


@dataclass
class Block:
    id: str
    type: str
    file: Path
    line: int | None
    level: int = 1
    text: Text | None = None
    items: list[Text] = field(default_factory=list)
    head: list[Text | str] = field(default_factory=list)  # Text or plain strings
    rows: list[list[Text | str]] = field(default_factory=list)
    columns: list[dict[str, Any]] = field(default_factory=list)  # COLUMN's keys
    src: str | None = None
    deck: str | None = None
    cards: list[str] = field(default_factory=list)
    callouts: list[list[float]] = field(default_factory=list)
    offset: list[float] = field(default_factory=lambda: [0.0, 0.0])
    width: float = 40.0
    per_row: int | None = None  # cards laid edge to edge in rows of this many
    generated: bool = False  # made by pnpgen from the data (the prototype note): printed as it is

    def texts(self) -> Iterator[tuple[str, Text]]:
        """(label, Text) for every localized text of the block."""
        if self.text is not None:
            yield "text", self.text
        for index, item in enumerate(self.items):
            yield f"items[{index}]", item
        for index, cell in enumerate(self.head):
            if isinstance(cell, Text):
                yield f"head[{index}]", cell
        for r, row in enumerate(self.rows):
            for c, cell in enumerate(row):
                if isinstance(cell, Text):
                    yield f"rows[{r}][{c}]", cell
        for index, column in enumerate(self.columns):
            yield f"columns[{index}].head", column["head"]


COVER_CHOICES = ["auto", "always", "never"]
COVER_FROM_PAGES = 6  # `cover: auto`: rules whose text takes more pages than this get a cover and contents
RULES_SCHEMA = Object(
    {
        "cover": Field(
            Enum(COVER_CHOICES),
            default="auto",
            doc="a cover and a contents page: `always`, `never`, or `auto` (only when the text takes more "
            f"than {COVER_FROM_PAGES} pages); `never` leaves both out",
        ),
        "blocks": Field(ListOf(BLOCK), required=True, doc="the rules, block by block, in reading order"),
    },
    what="rules.yaml",
)
RULES_FILE_KIND = FileKind(
    RULES_FILE,
    RULES_SCHEMA,
    doc=(
        "The rule sheet, printed by `pnpgen rules` and `pnpgen build` in each language and side by side. Every "
        "block holds its text in every language, so the editions stay aligned block by block; numbers and names "
        "come from the data through `{...}` placeholders."
    ),
)


@dataclass
class Rulebook:
    file: Path
    blocks: list[Block]
    cover: str = "auto"  # a cover and a contents page: always, never, or only for long rules

    def headings(self, max_level: int = 2) -> list[Block]:
        return [b for b in self.blocks if b.type == "heading" and b.level <= max_level]


# A block's id, when left out, is made from its section's; the loader says where each block was written, and
# pnpgen marks the blocks it makes itself (`generated`: the prototype note).
BLOCK_MODEL = Model(Block, BLOCK.fields, given=("id", "file", "line", "generated"))
RULEBOOK_MODEL = Model(Rulebook, RULES_SCHEMA.fields, given=("file", "blocks"))


def rules_path(game: Game) -> Path:
    return game.dir / RULES_FILE


def has_rules(game: Game) -> bool:
    return rules_path(game).is_file()


def load_rules(game: Game) -> Rulebook:
    """Read and check rules.yaml; every problem (schema, duplicate id, missing language) is located."""
    path = rules_path(game)
    document = load_yaml(path)
    checker = Checker(game.languages)
    root = start(path, document)
    schema = RULES_SCHEMA
    if not isinstance(document, dict):
        raise InputError(Problem(path, 1, "expected a mapping with `blocks:`, a list of blocks"))
    checked = schema.check(document, root, checker)
    problems = [_named_by_id(problem, document.get("blocks")) for problem in checker.problems]
    if checked is INVALID or "blocks" not in checked:
        raise InputError(problems)
    raw_blocks = document["blocks"]
    blocks = []
    section, counter = "intro", 0
    seen: dict[str, int | None] = {}  # block id -> its line
    for index, entry in enumerate(checked["blocks"]):
        where = root.child(document, "blocks").child(raw_blocks, index)
        if entry.get("type") == "heading" and "id" in entry:
            section, counter = entry["id"], 0
        counter += 1
        block_id = entry.get("id") or f"{section}-{counter}"
        block = _block(block_id, entry, where)
        problems += _block_problems(block, where, seen)
        blocks.append(block)
    if problems:
        raise InputError(problems)
    return RULEBOOK_MODEL.make(checked, file=path, blocks=blocks)


def _named_by_id(problem: Problem, raw_blocks: object) -> Problem:
    """`blocks[12].text` reads better as `blocks[setup-table].text` when the block has an id."""
    key = problem.key or ""
    match = re.match(r"blocks\[(\d+)\]", key)
    if match and isinstance(raw_blocks, list) and int(match.group(1)) < len(raw_blocks):
        raw = raw_blocks[int(match.group(1))]
        if isinstance(raw, dict) and isinstance(raw.get("id"), str):
            problem.key = f"blocks[{raw['id']}]" + key[match.end() :]
    return problem


def _block(block_id: str, entry: dict[str, Any], where: Where) -> Block:
    return BLOCK_MODEL.make(entry, id=block_id, file=where.file, line=where.line)


def _block_problems(block: Block, where: Where, seen: dict[str, int | None]) -> list[Problem]:
    problems = []
    label = f"blocks[{block.id}]"
    if block.id in seen:
        problems.append(
            Problem(
                block.file, where.line, f"duplicate block id '{block.id}': also used at line {seen[block.id]}", label
            )
        )
    seen.setdefault(block.id, where.line)
    needed = NEEDS.get(block.type)
    if needed and not getattr(block, needed):
        problems.append(Problem(block.file, where.line, f"a {block.type} block needs `{needed}:`", label))
    return problems
