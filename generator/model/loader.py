"""Load a game directory: every file checked against its schema, every problem located."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from generator.errors import InputError, Problem, unique_problems
from generator.fsutil import finish_interrupted
from generator.model.cards import (
    BACK,
    BLEED,
    CARD,
    CARD_KEYS,
    CARD_MODEL,
    INVENTED,
    INVENTED_DOC,
    MATERIAL,
    MATERIAL_DOC,
    card_schema,
)
from generator.model.glossary import load_glossary
from generator.model.labels import load_labels
from generator.model.printables import load_printables
from generator.model.game import (
    CARD_SIZES,
    DEFAULT_BLEED_MM,
    DEFAULT_IMAGE_DPI,
    DEFAULT_MIN_DPI,
    INK_SAVER_BACKS,
    Card,
    Component,
    Deck,
    Game,
    SheetSource,
)
from generator.model.template_files import template_file_problems
from generator.model.schema import (
    Bool,
    FIELD_DECLARATION,
    INVALID,
    Checker,
    Described,
    Enum,
    Field,
    FileKind,
    Id,
    Int,
    IsoDate,
    LanguageCode,
    ListOf,
    Localized,
    Mapping,
    MapOf,
    Model,
    Object,
    OneOf,
    Str,
    Where,
    compile_field,
    start,
)
from generator.paths import find_template, template_dirs
from generator.yamlio.positions import key_line
from generator.yamlio.read import load_yaml

# A well-formed BCP 47 tag (RFC 5646 section 2.1): language, extlang, script, region, variants, extensions.
LANGUAGE_TAG = re.compile(
    r"^(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{4,8})(?:-[a-z]{4})?(?:-(?:[a-z]{2}|\d{3}))?"
    r"(?:-(?:[a-z\d]{5,8}|\d[a-z\d]{3}))*(?:-[\da-wyz](?:-[a-z\d]{2,8})+)*"
    r"(?:-x(?:-[a-z\d]{1,8})+)?$",
    re.IGNORECASE,
)

PLAYERS = Object(
    {
        "min": Field(Int(1, 20), required=True, doc="the fewest players"),
        "max": Field(Int(1, 20), required=True, doc="the most players"),
    },
    what="player range",
    doc="How many can play: `{min: 3, max: 5}`.",
)

PLAY_TIME = Object(
    {
        "min": Field(Int(1, 1440), required=True, doc="the shortest game, in minutes"),
        "max": Field(Int(1, 1440), required=True, doc="the longest game, in minutes"),
    },
    what="play time",
    doc="How long a game takes, in minutes: `{min: 15, max: 30}` (the same number twice for one figure).",
)
INK_SAVER = Object(
    {
        "style": Field(
            Str(),
            doc="a stylesheet in the game's templates/ applied to every face after the game's own in the "
            "ink-saving version: light backgrounds, outlined frames (without it pnpgen prints every face light: "
            "backgrounds, frames and pictures at a quarter of their ink, light text made dark, dark text kept)",
        ),
        "backs": Field(
            Enum(list(INK_SAVER_BACKS)),
            default="print",
            doc="`print`: the backs are printed, light like the fronts; `omit`: the game needs no printed backs "
            "(the cards tell nothing by their backs), so the ink-saving version leaves them out and prints "
            "one-sided",
        ),
    },
    what="ink saver",
    doc="What the ink-saving version of the print-and-play file changes: `{style: ink-saver.css, backs: print}`.",
)

DEAL = Object(
    {
        "deck": Field(Str(), required=True, doc="the id of the deck dealt from"),
        "per_player": Field(Int(0, 100), doc="cards each player gets"),
        "seats": Field(ListOf(Int(0, 100)), doc="cards for the 1st, 2nd, ... seat; the last number repeats"),
        "where": Field(
            Object({}, what="card filter", extra=True),
            doc="deal only cards with these field values, like `{starting: true}`",
        ),
        "rest": Field(
            Enum(["deck", "box", "reserve"]),
            default="deck",
            doc="where the cards of the pool no player got go: `deck` (they stay in it), `box` (back in the box: "
            "removed at that player count) or `reserve` (set aside, in play but not in the deck)",
        ),
        "label": Field(Localized(), doc="the deal's name, a translation string; `{setup.<deck>.label}` prints it"),
    },
    what="setup deal",
    doc="One deal at setup, checked by validate at every player count against the cards in play; "
    "rules name its values as `{setup.<deck>.per_player}`.",
)
CHECK = Object(
    {
        "about": Field(Str(), doc="what the check means, shown when it fails"),
        "expect": Field(Str(), doc="an expression true at every player count"),
        "same": Field(Str(), doc="an expression with the same value at every player count"),
        "players": Field(ListOf(Int(1, 20)), doc="only at these player counts"),
        "unique": Field(
            Object(
                {
                    "deck": Field(Str(), required=True, doc="the deck whose cards are compared"),
                    "fields": Field(
                        ListOf(Str()), required=True, doc="fields whose values together differ from card to card"
                    ),
                },
                what="unique check",
                doc="No two cards of a deck share the values of these fields.",
            ),
            doc="no two cards of a deck share these fields' values",
        ),
        "each": Field(
            Object(
                {
                    "deck": Field(Str(), required=True, doc="the deck whose cards are checked"),
                    "expect": Field(
                        Str(), required=True, doc="an expression over one card's fields, true for every card"
                    ),
                },
                what="each-card check",
                doc="An expression true for every card of a deck.",
            ),
            doc="an expression true for every card of a deck",
        ),
        "distinct_pairs": Field(
            Object(
                {
                    "deck": Field(Str(), required=True, doc="the deck drafted from"),
                    "by": Field(Str(), required=True, doc="the field that must differ"),
                    "take": Field(Int(1, 10), default=2, doc="cards taken together"),
                },
                what="distinct pairs check",
                doc="Cards taken together never share the value of a field.",
            ),
            doc="cards taken together never share the value of a field",
        ),
    },
    what="check",
    doc="An invariant `pnpgen validate` evaluates at every player count; give one of `expect`, "
    "`same`, `unique`, `each`, `distinct_pairs`.",
)

GAME_SCHEMA = {
    "title": Field(Localized(), required=True, doc="the game's name"),
    "players": Field(PLAYERS, required=True, doc="how many can play", shown=False),
    "play_time": Field(
        PLAY_TIME,
        doc="how long a game takes; the rule sheet's and the print-and-play file's covers show it",
        shown=False,
    ),
    "age": Field(
        Int(1, 99), doc="the youngest age the game is for (8 means 8+); the rule sheet's cover shows it", shown=False
    ),
    "languages": Field(
        ListOf(LanguageCode()), required=True, doc="the languages the game is printed in (BCP 47)", shown=False
    ),
    "source_language": Field(
        LanguageCode(), required=True, doc="the language translations are made from; one of `languages`", shown=False
    ),
    "style": Field(Str(), doc="the stylesheet of every face the game's own templates draw", shown=False),
    "version": Field(Str(), doc="the kit's version, like `0.3` (the print-and-play file's cover)"),
    "date": Field(IsoDate(), doc="the day of that version, `2025-01-20` (the print-and-play file's cover)"),
    "ink_saver": Field(
        INK_SAVER, doc="how the ink-saving print-and-play file (`pnpgen build --ink-saver`) prints", shown=False
    ),
    "placeholder": Field(INVENTED, doc=INVENTED_DOC),
    "print": Field(
        Object(
            {
                "min_dpi": Field(
                    Int(50, 2400),
                    default=DEFAULT_MIN_DPI,
                    doc="the least resolution a raster picture may print at, in dots per inch at its laid-out size: "
                    "less is a build warning, less than half of it an error with `--strict` (Japanese print shops "
                    "ask 350)",
                ),
                "image_dpi": Field(
                    Int(72, 2400),
                    default=DEFAULT_IMAGE_DPI,
                    doc="the resolution pictures are embedded at, in dots per inch at their laid-out size: a finer "
                    "picture is scaled down to it (the PDF stays small), a coarser one is embedded as it is",
                ),
            },
            what="print settings",
            doc="How the game's pictures must print.",
        ),
        doc="print settings: `min_dpi`, `image_dpi`",
        attr="print_settings",
        shown=False,
    ),
    "numbers": Field(
        Object({}, what="numbers", extra=True),
        doc="named numbers (a number, a list or a mapping each) for checks, rules and `=` values",
        shown=False,
    ),
    "setup": Field(ListOf(DEAL), doc="what is dealt at setup", shown=False),
    "checks": Field(ListOf(CHECK), doc="invariants `pnpgen validate` checks", shown=False),
}
GAME = Object(GAME_SCHEMA, what="game.yaml")


# The loader gives a Game its folder and files, what it read from the other files, and what it makes of the keys.
GAME_MODEL = Model(
    Game,
    GAME_SCHEMA,
    given=(
        *("id", "dir", "files", "raw", "components", "decks", "template_problems", "printables", "labels"),
        *("glossary", "players", "play_time", "languages", "source_language", "numbers", "setup", "checks", "variant"),
    ),
)


COMPONENT_SOURCES = ("deck", "board", "aid", "tokens", "rules")
COMPONENT = Object(
    {
        "id": Field(Id(), required=True, doc="names the component in checks (`component[id]`) and translations"),
        "name": Field(Localized(), required=True, doc="as the rule sheet's component list prints it"),
        "count": Field(Int(0), required=True, doc="how many the box holds; checked against its source"),
        "deck": Field(
            Str(), doc="the deck (`decks/<id>.yaml`) these cards are; validate checks the count", attr="source"
        ),
        "board": Field(Str(), doc="the board (`boards/<id>.yaml`) it is", attr="source"),
        "aid": Field(Str(), doc="the player aid (`aids/<id>.yaml`) it is", attr="source"),
        "tokens": Field(Str(), doc="the token sheet (`tokens/<id>.yaml`) it is", attr="source"),
        "rules": Field(Str(), doc="`rules`: the rule sheet (rules.yaml), a checked component", attr="source"),
        "note": Field(Localized(), doc="a note printed beside it in the component list"),
        "per_kind": Field(Int(1), doc="copies of each distinct card, e.g. 9 of each good"),
        "printed": Field(
            Bool(),
            doc="false: the kit prints none, the players use their own (what has no deck, board, aid, tokens "
            "or rules behind it is not printed either); the components list says so",
        ),
        "placeholder": Field(INVENTED, doc=INVENTED_DOC),
    },
    what="component",
    doc="One thing in the box; at most one of `deck`, `board`, `aid`, `tokens`, `rules` says which file prints it.",
)
assert set(COMPONENT_SOURCES) <= set(COMPONENT.fields)
# printed: true by default when a file prints it.
COMPONENT_MODEL = Model(Component, COMPONENT.fields, given=("file", "line", "source", "printed"))

SIZE = OneOf(
    [
        Enum(list(CARD_SIZES)),
        Object(
            {
                "width": Field(Int(10, 600, whole=False), required=True, doc="mm, across the trim"),
                "height": Field(Int(10, 600, whole=False), required=True, doc="mm, down the trim"),
            },
            what="size",
            doc="A card size of the deck's own: `{width: 88, height: 63}`.",
        ),
    ],
    expected=f"a card size ({', '.join(CARD_SIZES)}) or {{width: mm, height: mm}}",
)
DECK_SCHEMA = Object(
    {
        "name": Field(Localized(), required=True, doc="the deck's name (`{deck:<id>}` in texts)"),
        "size": Field(
            SIZE,
            required=True,
            doc="card size: "
            + ", ".join(f"{name} {w:g} x {h:g}" for name, (w, h) in CARD_SIZES.items())
            + " mm, or `{width: mm, height: mm}`",
            attr="size_name",  # and size_mm, which the loader makes of it
            view_doc="its size's name (`poker`, `mini` ...), none for a size in mm",
        ),
        "bleed": BLEED,
        "template": Field(
            Str(), required=True, doc="the front's Jinja2 HTML template, in the game's templates/", shown=False
        ),
        "back": Field(BACK, doc="the back; without it the cards have none", attr="back_template", shown=False),
        "fields": Field(
            Described(Mapping("fields"), MapOf(Str(), FIELD_DECLARATION, key="field")),
            doc="the cards' own keys, each declared by name (see below)",
            shown=False,
        ),
        "cards": Field(
            Described(ListOf(Mapping("card")), ListOf(CARD)),
            doc="the cards (a deck has `cards:` or `cards_from:`, not both)",
            shown=False,
        ),
        "cards_from": Field(
            Str(),
            doc="a spreadsheet (.xlsx, .ods, .csv) beside the deck file holding the cards, one "
            "row a card: the sheet named after the deck, else the first",
            attr="",
        ),
        "placeholder": Field(INVENTED, doc=INVENTED_DOC),
        "material": Field(MATERIAL, doc=MATERIAL_DOC, shown=False),
    },
    what="deck",
)
# A deck's id is its file's name; the loader makes the values of size, bleed, back, fields and cards.
DECK_MODEL = Model(
    Deck,
    DECK_SCHEMA.fields,
    given=(
        "id",
        "file",
        "lines",
        "cut",
        "size_mm",
        "size_name",
        "bleed_mm",
        "back_template",
        "fields",
        "cards",
        "sheet",
    ),
)

GAME_FILE = FileKind(
    "game.yaml",
    GAME,
    required=True,
    doc=(
        "The game: its title, player range, languages, named numbers, what is dealt at setup and the checks "
        "`pnpgen validate` runs at every player count."
    ),
)
COMPONENTS_FILE = FileKind(
    "components.yaml",
    Object(
        {"components": Field(ListOf(COMPONENT), required=True, doc="the box contents, in the rule sheet's order")},
        what="components.yaml",
    ),
    required=True,
    doc=(
        "The box contents. Validate counts each printed component against its deck, board, aid or token sheet; "
        "`pnpgen components` and the rule sheet's `components` block list them."
    ),
)
DECK_FILE = FileKind(
    "decks/<deck>.yaml",
    DECK_SCHEMA,
    doc=(
        "One deck of cards; the file name is the deck's id. Its cards are listed under `cards:` or read from a "
        "spreadsheet (`cards_from:`, one row per card and one column per key, as `pnpgen table export` writes it)."
    ),
)


def load_game(game_dir: Path, require_templates: bool = True) -> Game:
    """Read game.yaml, components.yaml and decks/*.yaml; raise InputError listing every problem.

    With require_templates=False a missing template does not stop loading: it is kept in
    `game.template_problems` (validate reports it; data-only commands can run without templates).
    """
    game_dir = Path(game_dir).resolve()
    finish_interrupted(game_dir)  # an import killed while it renamed its files: all of them new
    problems: list[Problem] = []
    template_problems: list[Problem] = []
    game_file = game_dir / "game.yaml"
    document = _load(game_file, problems)
    if document is None:
        raise InputError(problems)
    checker = Checker()
    info = GAME.check(document, start(game_file, document), checker)
    problems += checker.problems
    if info is INVALID or "languages" not in info or "title" not in info or "players" not in info:
        raise InputError(problems)
    languages = [str(lang) for lang in info["languages"]]
    _check_game_info(info, document, game_file, languages, problems)
    _recheck_texts(document, game_file, languages, problems)

    components = _load_components(game_dir / "components.yaml", languages, problems)
    decks = {}
    deck_files = sorted((game_dir / "decks").glob("*.yaml")) if (game_dir / "decks").is_dir() else []
    for deck_file in deck_files:
        deck = _load_deck(game_dir, deck_file, languages, problems, template_problems)
        if deck is not None:
            decks[deck.id] = deck
    players = info["players"]
    printables = load_printables(
        game_dir, languages, decks, dict(info.get("numbers", {})), (players["min"], players["max"]), problems
    )
    labels = load_labels(game_dir, languages, problems)
    glossary = load_glossary(game_dir, languages, str(info.get("source_language", "")), problems)
    named = {name for deck in decks.values() for name in deck.templates()} | {str(info.get("style", "style.css"))}
    template_problems += template_file_problems(game_dir, named)
    if require_templates:
        problems += template_problems
    if problems:
        raise InputError(unique_problems(problems))  # game.yaml texts are checked twice
    return GAME_MODEL.make(
        info,
        id=game_dir.name,
        dir=game_dir,
        players=(players["min"], players["max"]),
        play_time=(info["play_time"]["min"], info["play_time"]["max"]) if "play_time" in info else None,
        languages=languages,
        source_language=str(info["source_language"]),
        components=components,
        decks=decks,
        files={"game": game_file, "components": game_dir / "components.yaml"},
        raw=info,
        numbers=dict(info.get("numbers", {})),
        setup=_with_lines(info.get("setup", []), document, "setup", game_file),
        checks=_with_lines(info.get("checks", []), document, "checks", game_file),
        template_problems=template_problems,
        printables=printables,
        labels=labels,
        glossary=glossary,
    )


def is_language_tag(tag: str) -> bool:
    return bool(LANGUAGE_TAG.match(tag))


def _with_lines(entries: list[dict[str, Any]], document: dict[Any, Any], key: str, file: Path) -> list[dict[str, Any]]:
    """Each checked entry with the line it was written on (as `_line`)."""
    raw = document.get(key) or []
    where = start(file, document).child(document, key)
    out = []
    for i, entry in enumerate(entries):
        at = where.child(raw, i)
        keys = {k: at.child(raw[i], k).line for k in raw[i]} if isinstance(raw[i], dict) else {}
        out.append({**entry, "_line": at.line, "_lines": keys})
    return out


def _load(path: Path, problems: list[Problem]) -> dict[Any, Any] | None:
    try:
        document = load_yaml(path)
    except InputError as error:
        problems.extend(error.problems)
        return None
    if not isinstance(document, dict):
        problems.append(Problem(path, 1, "expected a mapping of keys at the top of the file"))
        return None
    return document


def _check_game_info(
    info: dict[str, Any], document: dict[Any, Any], file: Path, languages: list[str], problems: list[Problem]
) -> None:
    where = start(file, document)
    if not languages:
        problems.append(
            Problem(file, where.child(document, "languages").line, "list at least one language", "languages")
        )
    raw_languages = document.get("languages") or []
    for index, lang in enumerate(languages):
        if not is_language_tag(lang):
            hint = (
                f"write '{lang.replace('_', '-')}' (BCP 47 uses hyphens)"
                if "_" in lang
                else "a BCP 47 language tag, like ja, en, de, zh-Hans, zh-Hant, ko or pt-BR"
            )
            problems.append(
                Problem(
                    file,
                    where.child(document, "languages").child(raw_languages, index).line,
                    f"'{lang}' is not a language tag",
                    f"languages[{index}]",
                    hint,
                )
            )
        elif languages.index(lang) != index:
            problems.append(
                Problem(file, where.child(document, "languages").line, f"'{lang}' is listed twice", "languages")
            )
    source = info.get("source_language")
    if source is not None and source not in languages:
        problems.append(
            Problem(
                file,
                where.child(document, "source_language").line,
                f"'{source}' is not in languages ({', '.join(languages)})",
                "source_language",
            )
        )
    for key in ("players", "play_time"):
        low_high = info.get(key, {})
        if low_high.get("min", 0) > low_high.get("max", 99999):
            problems.append(Problem(file, where.child(document, key).line, "min is larger than max", key))


def _recheck_texts(document: dict[Any, Any], file: Path, languages: list[str], problems: list[Problem]) -> None:
    """game.yaml's texts were read before the languages were known: check their language keys now."""
    checker = Checker(languages)
    Localized().check(document.get("title"), start(file, document).child(document, "title"), checker)
    problems += checker.problems


def _load_components(path: Path, languages: list[str], problems: list[Problem]) -> list[Component]:
    document = _load(path, problems)
    if document is None:
        return []
    checker = Checker(languages)
    schema = Object({"components": Field(ListOf(COMPONENT), required=True)}, what="components.yaml")
    checked = schema.check(document, start(path, document), checker)
    problems += checker.problems
    if checked is INVALID or "components" not in checked:
        return []
    raw_list = document.get("components") or []
    components = []
    for index, entry in enumerate(checked["components"]):
        raw = raw_list[index] if index < len(raw_list) else {}
        source = next(((kind, entry[kind]) for kind in COMPONENT_SOURCES if kind in entry), None)
        where = start(path, document).child(document, "components").child(raw_list, index)
        components.append(
            COMPONENT_MODEL.make(
                entry, file=path, line=where.line, source=source, printed=entry.get("printed", source is not None)
            )
        )
        if sum(kind in raw for kind in COMPONENT_SOURCES) > 1:
            problems.append(
                Problem(
                    path, where.line, "a component has one source: " + " or ".join(COMPONENT_SOURCES), entry.get("id")
                )
            )
    return components


def _load_deck(
    game_dir: Path, path: Path, languages: list[str], problems: list[Problem], template_problems: list[Problem]
) -> Deck | None:
    document = _load(path, problems)
    if document is None:
        return None
    checker = Checker(languages)
    root = start(path, document)
    deck = DECK_SCHEMA.check(document, root, checker)
    if deck is INVALID:
        problems += checker.problems
        return None
    fields = {}
    raw_fields = document.get("fields") or {}
    if isinstance(raw_fields, dict):
        for name, node in raw_fields.items():
            where = root.child(document, "fields").child(raw_fields, name)
            if name in CARD_KEYS:
                checker.report(where, f"'{name}' is a built-in card key; it needs no declaration")
                continue
            compiled = compile_field(node, where, checker)
            if compiled:
                fields[str(name)] = compiled
    schema = card_schema(fields)
    make_card, required, deck_id = CARD_MODEL.maker(), CARD_MODEL.required(), path.stem  # once for every card
    cards = []
    raw_cards, wheres, sheet = _card_sources(game_dir, path, document, root, deck, fields, languages, checker)
    for index, (raw, where) in enumerate(zip(raw_cards, wheres)):
        label = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else index
        checked = schema.check(raw, where.relabel(f"cards[{label}]"), checker)
        if checked is INVALID or not required <= checked.keys():
            continue
        cards.append(
            make_card(
                checked,
                fields={k: v for k, v in checked.items() if k not in CARD_KEYS},
                deck_id=deck_id,
                file=where.file,
                line=where.line,
                index=index,
                lines={k: key_line(raw, k) or where.line for k in raw},  # as where.child(raw, k).line
            )
        )
    lines = {key: root.child(document, key).line for key in document}
    problems += checker.problems
    templates = Checker(languages)
    _check_templates(game_dir, deck, cards, templates, root, document)
    template_problems += templates.problems
    size = deck.get("size")
    if size is None:  # without the cards' size there is no deck to check the other files with
        return None
    back = deck.get("back")
    return DECK_MODEL.make(
        deck,
        id=path.stem,
        file=path,
        size_mm=CARD_SIZES[size] if isinstance(size, str) else (float(size["width"]), float(size["height"])),
        size_name=size if isinstance(size, str) else None,
        bleed_mm=float(deck.get("bleed", DEFAULT_BLEED_MM)),
        back_template=back["template"] if back else None,
        fields=fields,
        cards=cards,
        lines=lines,
        sheet=sheet,
    )


def _card_sources(
    game_dir: Path,
    path: Path,
    document: dict[Any, Any],
    root: Where,
    deck: dict[str, Any],
    fields: dict[str, Field],
    languages: list[str],
    checker: Checker,
) -> tuple[list[Any], list[Where], SheetSource | None]:
    """The raw cards of a deck and where each is written: its `cards:` list, or the rows of the
    spreadsheet `cards_from:` names (read, cell by cell, against the same schema), and that sheet."""
    if "cards_from" not in deck:
        listed = document.get("cards")
        raw_cards = listed if isinstance(listed, list) else []
        if "cards" not in deck:
            checker.report(root, "a deck needs `cards:` (a list) or `cards_from:` (a spreadsheet)")
        return raw_cards, [root.child(document, "cards").child(raw_cards, i) for i in range(len(raw_cards))], None
    where = root.child(document, "cards_from")
    if "cards" in deck:
        checker.report(
            where, "a deck has `cards:` or `cards_from:`, not both", "remove the list, or the spreadsheet's name"
        )
        return [], [], None
    sheet_file = (path.parent / deck["cards_from"]).resolve()
    if not sheet_file.is_relative_to(game_dir):
        checker.report(
            where, f"'{deck['cards_from']}' is outside the game's folder", "keep the spreadsheet beside the deck file"
        )
        return [], [], None
    from generator.model.table.cards import read_deck_sheet
    from generator.model.table.places import sheet_card_path

    try:
        sheet, rows = read_deck_sheet(sheet_file, path.stem, fields, languages)
    except InputError as error:
        checker.problems += error.problems
        return [], [], None
    wheres = [Where(sheet_file, row.line, "", sheet_card_path(sheet, i)) for i, row in enumerate(rows)]
    return [row.card for row in rows], wheres, sheet


def _check_templates(
    game_dir: Path, deck: dict[str, Any], cards: list[Card], checker: Checker, root: Where, document: dict[Any, Any]
) -> None:
    wanted = []
    if deck.get("template"):
        wanted.append((deck["template"], root.child(document, "template")))
    if deck.get("back"):
        wanted.append((deck["back"]["template"], root.child(document, "back")))
    raw_cards = document.get("cards") or []
    for card in cards:
        if card.back:
            at = root.child(document, "cards").child(raw_cards, card.index)
            wanted.append((card.back["template"], at.relabel(f"cards[{card.id}].back.template")))
    for name, where in wanted:
        if find_template(game_dir, name) is None:
            looked = ", ".join(str(d) for d in template_dirs(game_dir))
            checker.report(where, f"template '{name}' not found", f"looked in {looked}")
