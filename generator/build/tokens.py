"""Token sheets: one PDF per token file, language and paper; two-sided tokens get mirrored backs."""

from __future__ import annotations

from generator.build.builder import OutputBuilder
from generator.build.outputs import FileEntry, OutputFile
from generator.build.context import BuildContext
from generator.build.pieces import faces_copies, marked_name, save_pdf
from generator.model.game import Text
from generator.render.faces import GameRenderer
from generator.render.sheet_labels import printed_keys, sheet_words, write_labelled
from generator.render.printed import token_deck
from generator.render.sheet_plan import CopyGroup
from generator.render.inksaver import prints_light
from generator.render.sheet_writer import SheetWriter
from generator.render.titles import file_title


def build_tokens(context: BuildContext) -> list[FileEntry]:
    """One PDF of token sheets per token file, language and paper; two-sided tokens get mirrored backs."""
    game = context.game
    sheets = list(game.printables.tokens.values()) if game.printables else []
    files = []
    for lang in context.langs:
        renderer = GameRenderer(game, lang)
        for sheet in sheets:
            _open, copies = faces_copies(renderer, token_deck(game, sheet), context)
            group = CopyGroup(
                (sheet.size_mm, sheet.size_mm),
                sheet.bleed_mm,
                [(front, back, sheet.id) for front, back in copies],
                round=sheet.shape == "round",
            )
            for option in context.sheets:
                writer = SheetWriter(prints_light(game))
                duplex = option.duplex if sheet.sides == 2 else "none"
                fallbacks: dict[str, dict[str, Text]] = {}
                words = sheet_words(game, lang, printed_keys(duplex, gutterfold=False), fallbacks)
                label_title = marked_name(context, game.title, lang, fallbacks)
                names = {sheet.id: marked_name(context, sheet.name, lang, fallbacks)}
                context.note_rules(fallbacks)
                _pages, _texts = write_labelled(
                    writer,
                    [group],
                    option,
                    label_title,
                    names,
                    words,
                    context.cache,
                    context.jobs,
                    duplex,
                )
                name = f"tokens-{sheet.id}-{lang}-{option.paper}.pdf"
                title = file_title(game, "tokens", [lang], option.paper, {"name": sheet.name})
                save_pdf(context, writer, context.out_dir / name, title, lang)
                files.append(
                    {
                        "path": name,
                        "kind": "tokens",
                        "tokens": sheet.id,
                        "lang": lang,
                        "paper": option.paper,
                        "pages": len(writer.pdf.pages),
                        "pieces": len(copies),
                        "sides": sheet.sides,
                        "shape": sheet.shape,
                        "duplex": option.duplex if sheet.sides == 2 else "none",
                    }
                )
                context.progress.wrote(game.id, name, len(writer.pdf.pages))
    return files


TOKEN_FILE = OutputFile(
    "tokens-<sheet>-<lang>-<paper>.pdf",
    "a token sheet of tokens/, labelled like the card sheets; two-sided tokens with their backs behind them",
)
BUILDER = OutputBuilder("tokens", build_tokens, reports=("tokens", "token"), files=(TOKEN_FILE,))
