"""Player aids: every aid in each language and bilingual, in the number it states, for each paper."""

from __future__ import annotations

from generator.build.builder import OutputBuilder, OutputFile, output_lang
from generator.build.context import BuildContext
from generator.build.pieces import faces_copies, save_pdf
from generator.render.boards import text_of
from generator.render.faces import GameRenderer
from generator.render.printed import aid_deck, aid_size, single_sided
from generator.render.inksaver import prints_light
from generator.render.sheet_writer import SheetWriter, impose_deck


def aid_variants(context: BuildContext) -> list[tuple[str, list[str]]]:
    """Each language alone, then all of them together (bilingual) when there are two or more."""
    variants = [(lang, [lang]) for lang in context.langs]
    if len(context.langs) > 1:
        variants.append((output_lang(context.langs), list(context.langs)))
    return variants


def build_aids(context: BuildContext) -> list[dict]:
    """Every aid in each language and bilingual, in the number it states, for each paper."""
    game = context.game
    aids = list(game.printables.aids.values()) if game.printables else []
    files = []
    for variant, langs in aid_variants(context):
        renderer = GameRenderer(game, langs[0])
        for aid in aids:
            for option in context.sheets:
                size = aid_size(aid, option.paper, option.margin)
                deck = aid_deck(game, aid, langs, size)
                writer = SheetWriter(prints_light(game))
                _open, copies = faces_copies(renderer, deck, context)
                impose_deck(writer, size, 0.0, copies, single_sided(option))
                name = f"aid-{aid.id}-{variant}-{option.paper}.pdf"
                save_pdf(
                    writer,
                    context.out_dir / name,
                    f"{text_of(aid.name, langs[0], game.source_language)} ({variant})",
                    variant,
                )
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
                context.progress.say(f"{game.id}: wrote {name} ({len(writer.pdf.pages)} pages)")
    return files


AID_FILE = OutputFile(
    "aid-<aid>-<lang>-<paper>.pdf",
    "a player aid of aids/, as many as it states, in each language and, with two or more, in all of them "
    "together (`aid-phases-ja+en-a4.pdf`)",
)
BUILDER = OutputBuilder("aids", build_aids, reports=("aid",), files=(AID_FILE,))
