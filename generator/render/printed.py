"""What is printed besides the cards, as faces: board tile captions, aid and token pseudo-decks, their sizes.

Aids and token sheets go through the card pipeline: each becomes a deck of faces (templates in
templates/base/, overridable per game), rendered once per distinct face and imposed like cards
(token backs mirrored for duplex like card backs). Boards are one page at full size, imposed on
the paper when they fit and tiled (render/tiles.py) when they do not. The builders writing their
files are in generator/build/ (boards.py, aids.py, tokens.py).
"""

from __future__ import annotations

import math
from dataclasses import replace

from collections.abc import Callable

from markupsafe import Markup, escape

from generator.model.placeholders import data_names, resolve_all
from generator.model.game import CARD_SIZES, DEFAULT_BLEED_MM, Aid, Board, Card, Deck, Game, Text, TokenSheet
from generator.model.printables import HALF_PAGE, TOKEN_SIDE
from generator.render import fonts, typeset_html
from generator.render.boards import own_or_base, stylesheet, text_of
from generator.render.batches import Batch
from generator.render.game_words import WordSet, flagged
from generator.render.paper import MARGIN_MM, PAPERS
from generator.render.sheet_marks import MARK_ROOM_MM
from generator.render.sheet_plan import SheetOptions, first_sheet, largest_alone
from generator.render.templating import TemplateKind, Templates
from generator.render.titles import paper_name
from generator.render.tiles import (
    ALL_PAPERS,
    EDGES,
    TileLayout,
    map_label_positions,
    neighbour,
    scale_bar_at,
    tile_edges,
    tile_layout,
    tile_window,
)


PRINTER_MARGIN_MM = 4.0  # a home printer prints nothing in the outer 4-5 mm of the paper
HALF_PAGE_GAP_MM = 1.0  # slack around half-page aids, so that two always fit
PRINT_SHOP_PAPER = "a4"  # the paper a half-page aid is sized for in a print shop's file (and the component spec)
# The words pnpgen prints around tiles, by language (other languages use English); a game's labels.yaml may word
# any of them as `tile_<key>`. A tile's line of the assembly note is `cut_` and the kinds of edges it cuts (see
# tiles.tile_edges): the board's own edges (`outer`), the edges laid over a neighbour (`overlap`), or both.
TILE_WORDS = {
    "en": {
        "tile": "{board}: tile {name} ({index} of {count})",
        "ruler": "50 mm: print at 100% (no scaling)",
        "map": "{board}: {count} tiles on {paper}",
        "assemble": "Cut each tile at its crop marks on the edges listed below; an edge not listed goes under the "
        "next tile. Lay each tile over its neighbour by {overlap} mm, its cut edge on the red ticks: it covers the "
        "round targets, and a target left showing means it is short of its place.",
        "cut_outer": "{tile}: cut {outer} (the board's edge)",
        "cut_overlap": "{tile}: cut {overlap} (laid over {under})",
        "cut_outer_overlap": "{tile}: cut {outer} (the board's edge) and {overlap} (laid over {under})",
        "edge": "the {edges} edge",
        "edges": "the {edges} edges",
        "list": ", ",
        "list_last": " and ",
        "left": "left",
        "right": "right",
        "top": "top",
        "bottom": "bottom",
    },
    "ja": {
        "tile": "{board}：タイル {name}（{count}枚中{index}枚目）",
        "ruler": "50 mm：拡大縮小なし（100%）で印刷",
        "map": "{board}：{paper}で{count}枚",
        "assemble": "各タイルを下に書いた辺だけトンボで切ります。書いていない辺は次のタイルの下になります。"
        "赤い目印に切った端をそろえて、となりのタイルに{overlap} mm重ねます。丸い合わせマークはすべて隠れます。"
        "見えているマークがあれば、重ねる位置が足りません。",
        "cut_outer": "{tile}：{outer}（ボードの端）を切る",
        "cut_overlap": "{tile}：{overlap}（{under}に重ねる）を切る",
        "cut_outer_overlap": "{tile}：{outer}（ボードの端）と{overlap}（{under}に重ねる）を切る",
        "edge": "{edges}の辺",
        "edges": "{edges}の辺",
        "list": "・",
        "list_last": "・",
        "left": "左",
        "right": "右",
        "top": "上",
        "bottom": "下",
    },
}
GAME_TILE_LABEL = {key: f"tile_{key}" for key in TILE_WORDS["en"]}  # labels.yaml keys (docs/schema.md lists them)


TILE_PUNCTUATION = ("list", "list_last")  # not words: in a language pnpgen has no words of, the English ones


def tile_keys(game: Game) -> list[str]:
    """The words a default build's boards print around their tiles (on A4 and Letter): captions and ruler, and for
    a board of several tiles the page map, its note and each tile's line of the assembly note."""
    used: set[str] = set()

    def record(key: str) -> Markup:
        used.add(key)
        return Markup("")

    boards = game.printables.boards.values() if game.printables else []
    for board in boards:
        for paper in ("a4", "letter"):
            layout = board_tiles(board, paper)
            if layout is not None:
                used |= {"tile", "ruler"} | ({"map", "assemble"} if layout.count > 1 else set())
                cut_lines(record, layout)
    return [key for key in TILE_WORDS["en"] if key in used and key not in TILE_PUNCTUATION]


TILE_WORD_SET = WordSet(
    "boards printed in tiles",
    {lang: {k: w for k, w in words.items() if k not in TILE_PUNCTUATION} for lang, words in TILE_WORDS.items()},
    GAME_TILE_LABEL.__getitem__,
    tile_keys,
)


def tile_words(game: Game, lang: str, fallbacks: dict[str, dict[str, Text]] | None = None) -> Callable[[str], Markup]:
    """The words around tiles in lang, as markup: the game's label, else pnpgen's own; one printed in another
    language for want of a translation is marked untranslated and noted in fallbacks (lang -> string id -> Text)."""
    words = TILE_WORD_SET.words(game, fallbacks)

    def word(key: str) -> Markup:
        if key in TILE_PUNCTUATION:
            label = game.labels.get(GAME_TILE_LABEL[key])
            own = label.get(lang) if label is not None and label.has(lang) else None
            return escape(own if own is not None else TILE_WORDS.get(lang, TILE_WORDS["en"])[key])
        return flagged(words.word(key, lang))

    return word


def listed(word: Callable[[str], Markup], items: list) -> Markup:
    """Items as a sentence lists them: `left, top and bottom`."""
    if len(items) < 2:
        return Markup("").join(items)
    return word("list").join(items[:-1]) + word("list_last") + escape(items[-1])


def cut_lines(word: Callable[[str], Markup], layout: TileLayout) -> list[Markup]:
    """Each tile's edges to cut, as the tiling has them (tiles.tile_edges): its line of the assembly note."""

    def edges(names: list[str]) -> Markup:
        return word("edge" if len(names) == 1 else "edges").format(edges=listed(word, [word(n) for n in names]))

    lines = []
    for col, row in layout.tiles():
        kinds = tile_edges(layout, col, row)
        outer = [edge for edge in EDGES if kinds[edge] == "outer"]
        overlap = [edge for edge in EDGES if kinds[edge] == "overlap"]
        key = "cut_" + "_".join(name for name, found in (("outer", outer), ("overlap", overlap)) if found)
        under = listed(word, [neighbour(layout, col, row, edge) for edge in overlap])
        lines.append(
            word(key).format(tile=layout.name(col, row), outer=edges(outer), overlap=edges(overlap), under=under)
        )
    return lines


def assembly_lines(game: Game, layout: TileLayout, lang: str, fallbacks: dict | None = None) -> list[Markup]:
    """The assembly note's line of each tile, in lang (markup)."""
    return cut_lines(tile_words(game, lang, fallbacks), layout)


TILE_CAPTIONS = TemplateKind(
    "Tile captions",
    "`tile-captions.html` in the game's template folder replaces pnpgen's, and its `tile-captions.css` adds to "
    "pnpgen's (pnpgen's classes: `pnp-page`, `pnp-head`, `pnp-note`, `pnp-map-label`, `pnp-tile`, `pnp-ruler`): "
    "the texts around the tiles of a board larger than the paper, one paper-size page per tile (the page map "
    "first), laid over the tiles; pnpgen draws the marks, the small map and the 50 mm bar. Positions are mm "
    "from the paper's top left",
    {
        "paper": "the paper's `width` and `height`",
        "window": "the tile's window on the paper: `x`, `y`, `w`, `h`",
        "margin": "the printable margin",
        "bar": "the left end of the 50 mm bar: `x`, and `y` from the paper's bottom",
        "page_map": "for more than one tile, the page map's `title`, `note` (how to assemble), `cuts` (each tile's "
        "edges to cut, a line each) and `labels` (each tile's `name` at `x`, `y` on the small map); else none",
        "captions": "each tile's caption, in tile order",
        "ruler": "the words beside the 50 mm bar",
        "safe_mm": "how far text stays from the paper's edge",
        "styles": "the fonts, the typesetting styles, pnpgen's tile-captions.css and the game's, for a `<style>` "
        "element",
    },
)
TOKEN_FIELDS = {  # what a token's `card` holds in token.html and token-back.html
    **{key: item.doc for key, item in TOKEN_SIDE.items()},
    "shape": "the sheet's `shape:`, `round` or `square`",
    "back": "the token's other side (`sides: 2`), with the same keys",
}
AID_FIELDS = {  # what an aid's `card` holds in aid.html
    "langs": "the languages printed: one, or every language for the aid in all of them",
    "title": "the aid's title by language (`card.title[l]`)",
    "colour": "its `colour:`",
    "sections": "its sections, each with `mark` and `by_lang[l]`: `heading`, `text`, `items` and `numbers` "
    "(each `value`, `label` and `unit`)",
    "written": "its title and sections as aids/<aid>.yaml holds them",
}


def single_sided(option: SheetOptions) -> SheetOptions:
    """Boards and aids have no backs: plain sheets whatever the cards' duplex or gutter-fold choice."""
    return replace(option, duplex="none", layout="duplex")


# --- boards --------------------------------------------------------------------------------------


def fits_on(board: Board, paper: str, margin: float = MARGIN_MM) -> bool:
    try:
        first_sheet(paper, board.size_mm, board.bleed_mm, 1, margin, label_bands=False)
    except ValueError:
        return False
    return True


def board_tiles(board: Board, paper: str, margin: float = MARGIN_MM) -> TileLayout | None:
    """How the board is printed on the paper: None when it is imposed whole with crop marks (it fits a home
    paper), else its tiles (a single one on a sheet whose tile window holds it)."""
    if paper in PAPERS and fits_on(board, paper, margin):
        return None
    return tile_layout(board.size_mm, paper, margin=margin, bleed=board.bleed_mm)


def board_sheets(board: Board, paper: str, margin: float = MARGIN_MM) -> int:
    """How many sheets of the paper one copy of the board takes."""
    layout = board_tiles(board, paper, margin)
    return 1 if layout is None else layout.count


def one_sheet_sizes(
    paper: str, margin: float = MARGIN_MM, bleed: float = DEFAULT_BLEED_MM
) -> list[tuple[float, float]]:
    """The largest boards of that bleed one sheet of the paper holds, as board_tiles prints them (imposed on a
    home paper, or as a single tile), portrait and landscape; none of them smaller than another on both sides."""
    sizes = largest_alone(paper, bleed, margin) if paper in PAPERS else []
    w, h = ALL_PAPERS[paper]
    sizes += [tile_window(turned, margin, bleed) for turned in ((w, h), (h, w))]
    return [s for s in sizes if not any(o != s and o[0] >= s[0] and o[1] >= s[1] for o in sizes)]


def mm_down(value: float) -> str:
    """A size in mm rounded down to 0.1 mm (a size said to fit must fit)."""
    return f"{math.floor(value * 10 + 1e-6) / 10:g}"


def size_text(size: tuple[float, float]) -> str:
    return f"{mm_down(size[0])} x {mm_down(size[1])}"


def why_tiled(board: Board, paper: str, margin: float = MARGIN_MM) -> str | None:
    """Why the board is printed in tiles on the paper, with the largest board of its shape one sheet holds and
    the size at which it would fit; None when it takes one sheet."""
    sheets = board_sheets(board, paper, margin)
    if sheets == 1:
        return None
    w, h = board.size_mm
    sizes = [s for s in one_sheet_sizes(paper, margin, board.bleed_mm) if (s[0] >= s[1]) == (w >= h) or w == h]
    cut = max(((min(w, s[0]), min(h, s[1])) for s in sizes), key=lambda s: s[0] * s[1])
    name = paper_name(paper)
    return (
        f"board '{board.id}' ({size_text(board.size_mm)} mm) is printed in {sheets} tiles on {name}: one {name} "
        "sheet holds a board of "
        f"at most {' or '.join(size_text(s) for s in sizes)} mm, its {board.bleed_mm:g} mm bleed inside the "
        f"printer's {margin:g} mm margin; at {size_text(cut)} mm it would fit one sheet"
    )


def furniture_batch(
    game: Game, board: Board, layout: TileLayout, lang: str, paper: str, fallbacks: dict | None = None
) -> Batch:
    """Paper-size pages holding the texts around the tiles (and the page map's), in embedded fonts: drawn by
    tile-captions.html (the game's own, else templates/base/); the words printed untranslated noted in
    fallbacks."""
    name = text_of(board.name, lang, game.source_language)
    word = tile_words(game, lang, fallbacks)
    page_map = None
    if layout.count > 1:
        page_map = {
            "title": word("map").format(board=name, count=layout.count, paper=paper.upper()),
            "note": word("assemble").format(overlap=f"{layout.overlap:g}"),
            "cuts": cut_lines(word, layout),
            "labels": [{"name": n, "x": x, "y": y} for n, (x, y) in map_label_positions(layout).items()],
        }
    tile = word("tile")
    captions = [
        tile.format(board=name, name=layout.name(col, row), index=index, count=layout.count)
        for index, (col, row) in enumerate(layout.tiles(), 1)
    ]
    bar_x, bar_y = scale_bar_at(layout)
    css = stylesheet(game, "tile-captions.css")
    context = TILE_CAPTIONS.context(
        paper={"width": layout.paper[0], "height": layout.paper[1]},
        window=layout.paper_window(),
        margin=layout.margin,
        bar={"x": bar_x, "y": bar_y},
        page_map=page_map,
        captions=captions,
        ruler=word("ruler"),
        safe_mm=PRINTER_MARGIN_MM,
        styles=Markup(f"{fonts.font_face_css()}{typeset_html.stylesheet()}{fonts.for_language(css, lang)}"),
    )
    templates = Templates.of_game(game, lang, data_names(game))
    html = templates.render(
        own_or_base(game, "tile-captions.html"), context, f"the tile captions of board '{board.id}'"
    )
    return Batch(
        html, game.dir.resolve().as_uri() + "/", image_dpi=game.image_dpi
    )  # what it may read: the game's folder (render/fetch.py)


# --- decks of faces for aids and tokens ---------------------------------------------------------


def pseudo_deck(
    id_: str,
    source,
    size: tuple[float, float],
    bleed: float,
    template: str,
    back: str | None,
    cards: list[Card],
    fields: list[str],
) -> Deck:
    return Deck(
        id=id_,
        name=source.name,
        file=source.file,
        size_mm=size,
        size_name=None,
        bleed_mm=bleed,
        template=template,
        back_template=back,
        fields=dict.fromkeys(fields),
        cards=cards,
    )


def aid_deck(game: Game, aid: Aid, langs: list[str], size: tuple[float, float], bleed: float = 0.0) -> Deck:
    """An aid in the given languages (two or more: side by side) as a pseudo-deck of one face, its placeholders
    resolved. At home it prints without bleed on a sheet it shares; a print shop's file gives it one."""
    card = aid_card(resolved_aid(game, aid, langs), langs, game.source_language)
    deck = pseudo_deck(f"aid-{aid.id}", aid, size, bleed, own_or_base(game, "aid.html"), None, [card], list(AID_FIELDS))
    deck.cut = "sheet"
    return deck


def resolved_aid(game: Game, aid: Aid, langs: list[str]) -> Aid:
    """The aid with the placeholders of its title and sections resolved in the given languages."""
    data = data_names(game)
    return replace(
        aid,
        title=resolve_all(aid.title, data, [*langs, game.source_language]),
        sections=resolve_all(aid.sections, data, [*langs, game.source_language]),
    )


def board_deck(board: Board) -> Deck:
    """A board as a print shop's piece: a pseudo-deck of its faces (render/boards.py renders each: one, or one per
    card of its `for_each`), as many copies of each as it states."""
    cards = [
        Card(
            id=face.card or board.id,
            name=board.name,
            count=board.copies,
            fields={},
            deck_id=f"board-{board.id}",
            file=board.file,
            line=None,
            index=index,
        )
        for index, face in enumerate(board.printed_faces)
    ]
    deck = pseudo_deck(f"board-{board.id}", board, board.size_mm, board.bleed_mm, "board.html", None, cards, [])
    deck.cut = "sheet"
    return deck


# --- tokens ---------------------------------------------------------------------------------------


def token_deck(game: Game, sheet: TokenSheet) -> Deck:
    keys = list(TOKEN_SIDE)  # a side's; TOKEN_FIELDS adds the shape and the back
    cards = []
    for index, token in enumerate(sheet.tokens):
        fields = {key: token.get(key) for key in keys}
        fields.update(shape=sheet.shape, back={key: token["back"].get(key) for key in keys})
        cards.append(
            Card(
                id=token["id"],
                name=sheet.name,
                count=token["count"] * (sheet.sets or 1),
                fields=fields,
                deck_id=f"tokens-{sheet.id}",
                file=sheet.file,
                line=token.get("line"),
                index=index,
            )
        )
    back = own_or_base(game, "token-back.html") if sheet.sides == 2 else None
    deck = pseudo_deck(
        f"tokens-{sheet.id}",
        sheet,
        (sheet.size_mm, sheet.size_mm),
        sheet.bleed_mm,
        own_or_base(game, "token.html"),
        back,
        cards,
        list(TOKEN_FIELDS),
    )
    deck.cut = sheet.shape
    return deck


def aid_size(aid: Aid, paper: str, margin: float = MARGIN_MM) -> tuple[float, float]:
    """A half-page aid: two side by side on landscape paper, each with its bleed, inside the printable margin with
    room for the marks."""
    if aid.size == HALF_PAGE:
        short, long = sorted(PAPERS[paper])
        edge, bleed = margin + MARK_ROOM_MM, 2 * aid.bleed_mm
        return ((long - 2 * edge) / 2 - HALF_PAGE_GAP_MM - bleed, short - 2 * edge - HALF_PAGE_GAP_MM - bleed)
    return CARD_SIZES[aid.size] if isinstance(aid.size, str) else aid.size


def shown(value) -> str:
    """A number as an aid prints it; a list like the storage costs as 0 / 5 / 10 / 15."""
    return " / ".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value)


def aid_card(aid: Aid, langs: list[str], fallback: str) -> Card:
    def texts(value):
        return {lang: text_of(value, lang, fallback) for lang in langs} if value is not None else None

    sections = []
    for section in aid.sections:
        by_lang = {
            lang: {
                "heading": text_of(section["heading"], lang, fallback),
                "text": text_of(section.get("text"), lang, fallback),
                "items": [text_of(item, lang, fallback) for item in section.get("items", [])],
                "numbers": [
                    {
                        "value": shown(n["value"]),
                        "label": text_of(n["label"], lang, fallback),
                        "unit": text_of(n.get("unit"), lang, fallback),
                    }
                    for n in section.get("numbers", [])
                ],
            }
            for lang in langs
        }
        sections.append({"mark": section.get("mark"), "by_lang": by_lang})
    fields = {
        "langs": langs,
        "title": texts(aid.title),
        "colour": aid.colour,
        "sections": sections,
        "written": {"title": aid.title, "sections": aid.sections},
    }  # where each text was written
    return Card(
        id=aid.id,
        name=aid.name,
        count=aid.copies,
        fields=fields,
        deck_id=f"aid-{aid.id}",
        file=aid.file,
        line=None,
        index=0,
    )
