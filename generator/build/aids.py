"""Player aids: every aid in each language and bilingual, in the number it states, for each paper."""

from __future__ import annotations

from generator.build.builder import OutputBuilder
from generator.build.outputs import FileEntry, OutputFile, output_lang
from generator.build.context import BuildContext
from generator.build.pieces import faces_copies, save_pdf
from generator.render.faces import GameRenderer
from generator.render.printed import aid_deck, aid_size, resolved_aid, single_sided
from generator.render.inksaver import prints_light
from generator.render.sheet_writer import SheetWriter, impose_deck
from generator.render.titles import file_title


def aid_variants(context: BuildContext) -> list[tuple[str, list[str]]]:
    """Each language alone, then all of them together (bilingual) when there are two or more."""
    variants = [(lang, [lang]) for lang in context.langs]
    if len(context.langs) > 1:
        variants.append((output_lang(context.langs), list(context.langs)))
    return variants


def build_aids(context: BuildContext) -> list[FileEntry]:
    """Every aid in each language and bilingual, in the number it states, for each paper."""
    game = context.game
    aids = list(game.printables.aids.values()) if game.printables else []
    files = []
    for variant, langs in aid_variants(context):
        renderer = GameRenderer(game, langs[0])
        for aid in aids:
            resolved = resolved_aid(game, aid, langs)
            for option in context.sheets:
                size = aid_size(aid, option.paper, option.margin)
                deck = aid_deck(game, aid, langs, size, aid.bleed_mm)
                faces, copies = faces_copies(renderer, deck, context)
                # the aid's faces are tagged: so is the sheet
                writer = SheetWriter(prints_light(game), tagged_sources=faces)
                impose_deck(writer, size, aid.bleed_mm, copies, single_sided(option))
                name = f"aid-{aid.id}-{variant}-{option.paper}.pdf"
                names = {"name": aid.name, "title": resolved.title}
                title = file_title(game, "aid", langs, option.paper, names)
                save_pdf(context, writer, context.out_dir / name, title, variant)
                files.append(
                    {
                        "path": name,
                        "kind": "aid",
                        "aid": aid.id,
                        "lang": variant,
                        "paper": option.paper,
                        "pages": len(writer.pdf.pages),
                        "copies": aid.copies,
                        "size_mm": [round(v, 2) for v in size],
                    }
                )
                context.progress.wrote(game.id, name, len(writer.pdf.pages))
    return files


AID_FILE = OutputFile(
    "aid-<aid>-<lang>-<paper>.pdf",
    "a player aid of aids/, as many as it states, in each language and, with two or more, in all of them "
    "together (`aid-phases-ja+en-a4.pdf`)",
)
BUILDER = OutputBuilder("aids", build_aids, reports=("aid",), files=(AID_FILE,))
