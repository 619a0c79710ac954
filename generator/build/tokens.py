"""Token sheets: the game's token sheets ganged on shared sheets in one PDF per language and paper (or one PDF per
token file with `--sheets per-deck`); two-sided tokens get mirrored backs, a one-sided token among them a blank
back."""

from __future__ import annotations

from dataclasses import dataclass

import pikepdf

from generator.build.builder import OutputBuilder
from generator.build.context import BuildContext
from generator.build.outputs import FileEntry, OutputFile
from generator.build.pieces import faces_copies, marked_name, save_pdf
from generator.model.game import Text, TokenSheet
from generator.render.faces import GameRenderer
from generator.render.inksaver import prints_light
from generator.render.printed import token_deck
from generator.render.sheet_labels import printed_keys, sheet_words, write_labelled
from generator.render.sheet_plan import CopyGroup, SheetOptions
from generator.render.sheet_writer import SheetWriter
from generator.render.titles import file_title, word
from generator.render.typeset import plain


@dataclass
class RenderedSheet:
    """A token file's faces, rendered: (front, back or None) for every token it prints."""

    sheet: TokenSheet
    copies: list[tuple[pikepdf.Page, pikepdf.Page | None]]


def build_tokens(context: BuildContext) -> list[FileEntry]:
    """The game's token sheets in one PDF per language and paper, sharing sheets (per token file with
    `--sheets per-deck`)."""
    game = context.game
    sheets = list(game.printables.tokens.values()) if game.printables else []
    files = []
    for lang in context.langs:
        renderer = GameRenderer(game, lang)
        opened, rendered = [], []
        for sheet in sheets:
            sources, copies = faces_copies(renderer, token_deck(game, sheet), context)
            opened.append(sources)  # kept open while their pages are placed
            rendered.append(RenderedSheet(sheet, copies))
        for option in context.sheets:
            parts = [rendered] if option.sheets == "shared" else [[one] for one in rendered]
            files += [write_tokens(context, part, lang, option) for part in parts if part]
    return files


def token_groups(rendered: list[RenderedSheet]) -> list[CopyGroup]:
    """The copies to impose: one group per token size, bleed and shape, in the order the sizes first appear."""
    groups: dict[tuple[float, float, bool], CopyGroup] = {}
    for part in rendered:
        sheet = part.sheet
        key = (sheet.size_mm, sheet.bleed_mm, sheet.shape == "round")
        group = groups.setdefault(
            key, CopyGroup((sheet.size_mm, sheet.size_mm), sheet.bleed_mm, [], round=sheet.shape == "round")
        )
        group.copies += [(front, back, sheet.id) for front, back in part.copies]
    return list(groups.values())


def write_tokens(context: BuildContext, rendered: list[RenderedSheet], lang: str, option: SheetOptions) -> FileEntry:
    """One PDF of token sheets: the token files given, sharing sheets."""
    game = context.game
    two_sided = any(part.sheet.sides == 2 for part in rendered)
    duplex = option.duplex if two_sided else "none"
    writer = SheetWriter(prints_light(game))
    fallbacks: dict[str, dict[str, Text]] = {}
    words = sheet_words(game, lang, printed_keys(duplex, gutterfold=False), fallbacks)
    label_title = marked_name(context, game.title, lang, fallbacks)
    names = {part.sheet.id: marked_name(context, part.sheet.name, lang, fallbacks) for part in rendered}
    context.note_rules(fallbacks)
    pages, _texts = write_labelled(
        writer, token_groups(rendered), option, label_title, names, words, context.cache, context.jobs, duplex
    )
    alone = rendered[0].sheet if len(rendered) == 1 and option.sheets != "shared" else None
    name = f"tokens-{alone.id}-{lang}-{option.paper}.pdf" if alone else f"tokens-{lang}-{option.paper}.pdf"
    names_in_title = {"name": alone.name} if alone else {"name": token_sheets_name(context, rendered, lang)}
    title = file_title(game, "tokens", [lang], option.paper, names_in_title)
    save_pdf(context, writer, context.out_dir / name, title, lang)
    context.progress.wrote(game.id, name, len(writer.pdf.pages))
    return {
        "path": name,
        "kind": "tokens",
        "tokens": [part.sheet.id for part in rendered],
        "sheets": [page.decks for page in pages if page.side == "front"],  # the token files on each sheet
        "lang": lang,
        "paper": option.paper,
        "pages": len(writer.pdf.pages),
        "pieces": sum(len(part.copies) for part in rendered),
        "sides": 2 if two_sided else 1,
        "shapes": sorted({part.sheet.shape for part in rendered}),
        "duplex": duplex,
    }


def token_sheets_name(context: BuildContext, rendered: list[RenderedSheet], lang: str) -> str:
    """What the ganged file holds, for its title: the token files' names."""
    game = context.game
    joined = word(game, "languages_joined", lang)  # " + ", as the languages of a side-by-side file
    return joined.join(plain(part.sheet.name.get(lang, game.source_language)) for part in rendered)


TOKEN_FILE = OutputFile(
    "tokens-<lang>-<paper>.pdf",
    "the game's token sheets, sharing sheets, labelled like the card sheets; two-sided tokens with their backs behind "
    "them, a one-sided token among them with a blank back",
)
TOKEN_FILE_ALONE = OutputFile(
    "tokens-<sheet>-<lang>-<paper>.pdf",
    "with `--sheets per-deck`: a token sheet of tokens/ in a file of its own",
)
BUILDER = OutputBuilder("tokens", build_tokens, reports=("tokens", "token"), files=(TOKEN_FILE, TOKEN_FILE_ALONE))
