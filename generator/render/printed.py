"""Builders for what is printed besides the cards: boards, player aids and token sheets.

Aids and token sheets go through the card pipeline: each becomes a deck of faces (templates in
templates/base/, overridable per game), rendered once per distinct face and imposed like cards
(token backs mirrored for duplex like card backs). Boards are one page at full size, imposed on
the paper when they fit and tiled (render/tiles.py) when they do not.
"""
from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import pikepdf
from markupsafe import Markup

from generator.fsutil import write_atomic
from generator.checks.placeholders import data_names, resolve_all
from generator.model.game import CARD_SIZES, Card, Deck, Game
from generator.model.printables import HALF_PAGE, TOKEN_SIDE, Aid, Board, TokenSheet
from generator.paths import find_template
from generator.render import fonts, typeset_html
from generator.render.boards import BOARD_BLEED_MM, board_batch, own_or_base, text_of
from generator.render.faces import Batch, CardFit, GameRenderer, card_fits, find_text
from generator.render.weasy.fit import FitBox
from generator.render.pipeline import face_request, render_batches, render_faces
from generator.render.labels import write_labelled
from generator.render.sheets import (MARGIN_MM, MARK_ROOM_MM, PAPERS, CopyGroup, SheetOptions, SheetWriter, first_sheet,
                                     impose_deck, save_pdf_bytes)
from generator.render.typeset import plain
from generator.render.templating import Templates
from generator.render.tiles import TileLayout, map_label_positions, scale_bar_at, tile_layout, write_tiles

if TYPE_CHECKING:
    from generator.commands.build import BuildContext

PRINTER_MARGIN_MM = 4.0   # a home printer prints nothing in the outer 4-5 mm of the paper
HALF_PAGE_GAP_MM = 1.0   # slack around half-page aids, so that two always fit
BILINGUAL_JOIN = "+"
# Texts the generator prints around tiles, by language (other languages use English).
TILE_TEXTS = {
    "en": {"tile": "{board}: tile {name} ({index} of {count})", "ruler": "50 mm: print at 100% (no scaling)",
           "map": "{board}: {count} tiles on {paper}", "overlap": "Trim each tile at its crop marks on the left and "
           "top and lay it over its neighbour by {overlap} mm, its edge on the red ticks: it covers the round "
           "targets, and a target left showing means it is short of its place."},
    "ja": {"tile": "{board}：タイル {name}（{count}枚中{index}枚目）", "ruler": "50 mm：拡大縮小なし（100%）で印刷",
           "map": "{board}：{paper}で{count}枚", "overlap": "各タイルの左と上をトンボで切り、赤い目印に端をそろえて"
           "となりのタイルに{overlap} mm重ねます。丸い合わせマークはすべて隠れます。見えているマークがあれば、重ねる位置が足りません。"},
}


def save_pdf(writer: SheetWriter, path: Path, title: str, lang: str) -> None:
    write_atomic(path, save_pdf_bytes(writer.pdf, title, lang))


def rendered_pages(context: "BuildContext", documents: list[Batch]) -> tuple[list[pikepdf.Pdf], list[list]]:
    """Render the batches (from the cache where possible): the open PDFs (keep them while their pages
    are used) and each one's pages."""
    pdfs = [pikepdf.open(io.BytesIO(data)) for data in render_batches(documents, context.cache, context.jobs)]
    return pdfs, [list(pdf.pages) for pdf in pdfs]


def single_sided(option: SheetOptions) -> SheetOptions:
    """Boards and aids have no backs: plain sheets whatever the cards' duplex or gutter-fold choice."""
    return replace(option, duplex="none", layout="duplex")


# --- boards --------------------------------------------------------------------------------------

def board_papers(context: "BuildContext", board: Board) -> list[str]:
    """The home papers, and the larger --board-paper for a board that needs tiles on them."""
    extra = getattr(context.args, "board_paper", None)
    tiled = not all(fits_on(board, option.paper, option.margin) for option in context.sheets)
    return context.papers + ([extra] if extra and tiled else [])


def fits_on(board: Board, paper: str, margin: float = MARGIN_MM) -> bool:
    try:
        first_sheet(paper, board.size_mm, BOARD_BLEED_MM, 1, margin, labels=False)
    except ValueError:
        return False
    return True


def furniture_batch(game: Game, board: Board, layout: TileLayout, lang: str, paper: str) -> Batch:
    """Paper-size pages holding the texts around the tiles (and the page map's), in embedded fonts: drawn by
    tile-captions.html (the game's own, else templates/base/)."""
    words = TILE_TEXTS.get(lang, TILE_TEXTS["en"])
    name = text_of(board.name, lang, game.source_language)
    page_map = None
    if layout.count > 1:
        page_map = {"title": words["map"].format(board=name, count=layout.count, paper=paper.upper()),
                    "note": words["overlap"].format(overlap=f"{layout.overlap:g}"),
                    "labels": [{"name": n, "x": x, "y": y} for n, (x, y) in map_label_positions(layout).items()]}
    captions = [words["tile"].format(board=name, name=layout.name(col, row), index=index, count=layout.count)
                for index, (col, row) in enumerate(layout.tiles(), 1)]
    bar_x, bar_y = scale_bar_at(layout)
    css = find_template(game.dir, own_or_base(game, "tile-captions.css")).read_text(encoding="utf-8")
    context = {"paper": {"width": layout.paper[0], "height": layout.paper[1]}, "window": layout.paper_window(),
               "margin": layout.margin, "bar": {"x": bar_x, "y": bar_y}, "page_map": page_map, "captions": captions,
               "ruler": words["ruler"], "safe_mm": PRINTER_MARGIN_MM,
               "styles": Markup(f"{fonts.font_face_css()}{typeset_html.stylesheet()}{fonts.for_language(css, lang)}")}
    templates = Templates(game.dir, lang, game.source_language, data_names(game), labels=game.labels)
    html = templates.render(own_or_base(game, "tile-captions.html"), context,
                            f"the tile captions of board '{board.id}'")
    return Batch(html, game.dir.resolve().as_uri() + "/")  # what it may read: the game's folder (render/fetch.py)


def board_findings(context: "BuildContext", board: Board, lang: str, fits: list[FitBox],
                   source: str = "") -> list[CardFit]:
    """The text findings of a board (or of the captions around its tiles), located in the board's file."""
    found = []
    for fit in fits:
        if not fit.overflows:
            continue
        key, text = find_text(board.elements, lang, fit.text, "elements")
        found.append(CardFit(lang, f"board-{board.id}", "front", [board.id], key, fit.width_mm, fit.height_mm,
                             fit.overflow_mm, fit.scale, fit.kind, source or fit.source, tuple(fit.area), fit.other,
                             str(text.file if text is not None and text.file else board.file),
                             text.line_of(lang) if text is not None else None, "board"))
    return found


def board_entry(board: Board, path: str, lang: str, paper: str, pages: int, tiles: TileLayout | None) -> dict:
    entry = {"path": path, "kind": "board", "board": board.id, "lang": lang, "paper": paper, "pages": pages,
             "copies": board.copies, "size_mm": list(board.size_mm)}
    if tiles is not None:
        entry.update(tiles=tiles.count, grid=f"{tiles.cols}x{tiles.rows}", overlap_mm=tiles.overlap,
                     paper_mm=list(tiles.paper))
    return entry


def build_boards(context: "BuildContext") -> list[dict]:
    """One PDF per board, language and paper: imposed copies when the board fits, else tiles."""
    game = context.game
    boards = list(game.printables.boards.values()) if game.printables else []
    files = []
    for lang in context.langs:
        batches = [board_batch(game, board, lang) for board in boards]
        _open, faces = rendered_pages(context, batches)
        for board, batch in zip(boards, batches):
            context.report(board_findings(context, board, lang, context.cache.face_fits(batch.key)))
        for board, (page,) in zip(boards, faces):
            for paper in board_papers(context, board):
                files.append(write_board(context, board, page, lang, paper))
    return files


def write_board(context: "BuildContext", board: Board, page, lang: str, paper: str) -> dict:
    writer = SheetWriter()
    name = f"board-{board.id}-{lang}-{paper}.pdf"
    layout = None
    options = next((option for option in context.sheets if option.paper == paper), None)
    if options is not None and fits_on(board, paper, options.margin):
        impose_deck(writer, board.size_mm, BOARD_BLEED_MM, [(page, None)] * board.copies, single_sided(options))
    else:
        layout = tile_layout(board.size_mm, paper, margin=options.margin if options else MARGIN_MM, bleed=BOARD_BLEED_MM)
        batch = furniture_batch(context.game, board, layout, lang, paper)
        _open, (furniture,) = rendered_pages(context, [batch])
        context.report(board_findings(context, board, lang, context.cache.face_fits(batch.key), "tile captions"))
        for _ in range(board.copies):
            write_tiles(writer, layout, page, furniture)
    save_pdf(writer, context.out_dir / name, f"{text_of(board.name, lang, context.game.source_language)} ({lang})", lang)
    context.progress.say(f"{context.game.id}: wrote {name} ({len(writer.pdf.pages)} pages)")
    return board_entry(board, name, lang, paper, len(writer.pdf.pages), layout)


# --- decks of faces for aids and tokens ---------------------------------------------------------

def faces_copies(renderer: GameRenderer, deck: Deck, context: "BuildContext") -> tuple[list, list]:
    """The open face PDFs (keep them while used) and (front page, back page or None) for every copy
    of every card of a pseudo-deck."""
    faces = renderer.deck_faces(deck)
    context.note_untranslated(faces)
    request = face_request(renderer, faces)
    rendered = render_faces([request], context.cache, context.jobs)
    sources, [pages] = rendered.sources, rendered.pages
    context.report(card_fits(faces, [context.cache.face_fits(key) for key in request[2]]))
    copies = []
    for card, front, back in zip(deck.cards, faces.front_of, faces.back_of):
        copies += [(pages[front], pages[back] if back is not None else None)] * card.count
    return sources, copies


def pseudo_deck(id_: str, source, size: tuple[float, float], bleed: float, template: str, back: str | None,
                cards: list[Card], fields: list[str]) -> Deck:
    return Deck(id=id_, name=source.name, file=source.file, size_mm=size, size_name=None, bleed_mm=bleed,
                template=template, back_template=back, fields={name: None for name in fields}, cards=cards)


# --- tokens ---------------------------------------------------------------------------------------

def token_deck(game: Game, sheet: TokenSheet) -> Deck:
    keys = list(TOKEN_SIDE)
    cards = []
    for index, token in enumerate(sheet.tokens):
        fields = {key: token.get(key) for key in keys}
        fields.update(shape=sheet.shape, back={key: token["back"].get(key) for key in keys})
        cards.append(Card(id=token["id"], name=sheet.name, count=token["count"] * (sheet.sets or 1), fields=fields,
                          deck_id=f"tokens-{sheet.id}", file=sheet.file, line=token.get("line"), index=index))
    back = own_or_base(game, "token-back.html") if sheet.sides == 2 else None
    deck = pseudo_deck(f"tokens-{sheet.id}", sheet, (sheet.size_mm, sheet.size_mm), sheet.bleed_mm,
                       own_or_base(game, "token.html"), back, cards, [*keys, "shape", "back"])
    deck.cut = sheet.shape
    return deck


def build_tokens(context: "BuildContext") -> list[dict]:
    """One PDF of token sheets per token file, language and paper; two-sided tokens get mirrored backs."""
    game = context.game
    sheets = list(game.printables.tokens.values()) if game.printables else []
    files = []
    for lang in context.langs:
        renderer = GameRenderer(game, lang)
        for sheet in sheets:
            _open, copies = faces_copies(renderer, token_deck(game, sheet), context)
            group = CopyGroup((sheet.size_mm, sheet.size_mm), sheet.bleed_mm,
                              [(front, back, sheet.id) for front, back in copies])
            for option in context.sheets:
                writer = SheetWriter()
                _pages, _texts = write_labelled(writer, [group], option, plain(text_of(game.title, lang, game.source_language)),
                                                {sheet.id: plain(text_of(sheet.name, lang, game.source_language))}, lang,
                                                context.cache, context.jobs, None if sheet.sides == 2 else "none")
                name = f"tokens-{sheet.id}-{lang}-{option.paper}.pdf"
                save_pdf(writer, context.out_dir / name, f"{text_of(sheet.name, lang, game.source_language)} ({lang})", lang)
                files.append({"path": name, "kind": "tokens", "tokens": sheet.id, "lang": lang,
                              "paper": option.paper, "pages": len(writer.pdf.pages), "pieces": len(copies),
                              "sides": sheet.sides, "shape": sheet.shape,
                              "duplex": option.duplex if sheet.sides == 2 else "none"})
                context.progress.say(f"{game.id}: wrote {name} ({len(writer.pdf.pages)} pages)")
    return files


# --- player aids ---------------------------------------------------------------------------------

def aid_variants(context: "BuildContext") -> list[tuple[str, list[str]]]:
    """Each language alone, then all of them together (bilingual) when there are two or more."""
    variants = [(lang, [lang]) for lang in context.langs]
    if len(context.langs) > 1:
        variants.append((BILINGUAL_JOIN.join(context.langs), list(context.langs)))
    return variants


def aid_size(aid: Aid, paper: str, margin: float = MARGIN_MM) -> tuple[float, float]:
    """A half-page aid: two side by side on landscape paper, inside the printable margin with room for the marks."""
    if aid.size == HALF_PAGE:
        short, long = sorted(PAPERS[paper])
        edge = margin + MARK_ROOM_MM
        return ((long - 2 * edge) / 2 - HALF_PAGE_GAP_MM, short - 2 * edge - HALF_PAGE_GAP_MM)
    return CARD_SIZES[aid.size] if isinstance(aid.size, str) else aid.size


def shown(value) -> str:
    """A number as an aid prints it; a list like the storage costs as 0 / 5 / 10 / 15."""
    return " / ".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value)


def aid_card(aid: Aid, langs: list[str], fallback: str) -> Card:
    def texts(value):
        return {lang: text_of(value, lang, fallback) for lang in langs} if value is not None else None

    sections = []
    for section in aid.sections:
        by_lang = {lang: {"heading": text_of(section["heading"], lang, fallback),
                          "text": text_of(section.get("text"), lang, fallback),
                          "items": [text_of(item, lang, fallback) for item in section.get("items", [])],
                          "numbers": [{"value": shown(n["value"]), "label": text_of(n["label"], lang, fallback),
                                       "unit": text_of(n.get("unit"), lang, fallback)}
                                      for n in section.get("numbers", [])]}
                   for lang in langs}
        sections.append({"mark": section.get("mark"), "by_lang": by_lang})
    fields = {"langs": langs, "title": texts(aid.title), "colour": aid.colour, "sections": sections,
              "written": {"title": aid.title, "sections": aid.sections}}  # where each text was written
    return Card(id=aid.id, name=aid.name, count=aid.copies, fields=fields, deck_id=f"aid-{aid.id}", file=aid.file,
                line=None, index=0)


def build_aids(context: "BuildContext") -> list[dict]:
    """Every aid in each language and bilingual, in the number it states, for each paper."""
    game = context.game
    aids = list(game.printables.aids.values()) if game.printables else []
    files = []
    for variant, langs in aid_variants(context):
        renderer = GameRenderer(game, langs[0])
        for aid in aids:
            data = data_names(game)
            resolved = replace(aid, title=resolve_all(aid.title, data, [*langs, game.source_language]),
                              sections=resolve_all(aid.sections, data, [*langs, game.source_language]))
            card = aid_card(resolved, langs, game.source_language)
            for option in context.sheets:
                size = aid_size(aid, option.paper, option.margin)
                deck = pseudo_deck(f"aid-{aid.id}", aid, size, 0.0, own_or_base(game, "aid.html"), None, [card],
                                   ["langs", "title", "colour", "sections", "written"])
                deck.cut = "sheet"
                writer = SheetWriter()
                _open, copies = faces_copies(renderer, deck, context)
                impose_deck(writer, size, 0.0, copies, single_sided(option))
                name = f"aid-{aid.id}-{variant.replace(BILINGUAL_JOIN, '-')}-{option.paper}.pdf"
                save_pdf(writer, context.out_dir / name, f"{text_of(aid.name, langs[0], game.source_language)} ({variant})", variant)
                files.append({"path": name, "kind": "aid", "aid": aid.id, "lang": variant, "paper": option.paper,
                              "pages": len(writer.pdf.pages), "copies": aid.copies,
                              "size_mm": [round(v, 2) for v in size]})
                context.progress.say(f"{game.id}: wrote {name} ({len(writer.pdf.pages)} pages)")
    return files
