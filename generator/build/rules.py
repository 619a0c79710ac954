"""Rule sheets: every edition (each language alone, and side by side) on every paper, from rules.yaml."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pikepdf

from generator.build.builder import OutputBuilder
from generator.build.outputs import FileEntry, OutputFile, output_lang
from generator.build.context import BuildContext
from generator.fsutil import write_atomic
from generator.model.game import Game, Text
from generator.model.rules import Rulebook, has_rules, load_rules
from generator.progress import Progress
from generator.render.fit_report import PICTURE_KINDS, CardFit, find_text
from generator.render.weasy.fit import FitBox
from generator.render.pipeline import FaceCache
from generator.render.rulebook import RulebookWriter, editions, render_editions, require_valid_rules


def write_rulebooks(
    game: Game,
    langs: list[str],
    papers: list[str],
    out_dir: Path,
    progress: Progress,
    cache_dir: Path | None = None,
    jobs: int = 1,
    report: Callable[[list[CardFit]], None] | None = None,
    untranslated: Callable[[dict[str, dict[str, Text]]], None] | None = None,
) -> list[FileEntry]:
    """Every edition on every paper, rendered on `jobs` cores; unchanged ones come from the cache.
    `report` is given the text found overflowing (see rule_findings); untranslated(fallbacks) is told which
    texts were printed in the source language, by language."""
    if not has_rules(game):
        return []
    writer = RulebookWriter(game, load_rules(game))
    writer.check()
    wanted = [(edition, paper) for edition in editions(game, langs) for paper in papers]
    cache = FaceCache(cache_dir)
    keys, pdfs = render_editions(writer, wanted, cache, jobs)
    if untranslated is not None:
        untranslated({lang: texts for lang, texts in writer.fallbacks.items() if lang in langs})
    if report is not None:
        for (edition, _), key in zip(wanted, keys):
            report(rule_findings(game, writer.rulebook, edition, cache.face_fits(key)))
    files = []
    for (edition, paper), data in zip(wanted, pdfs):
        name = f"rules-{output_lang(edition)}-{paper}.pdf"
        write_atomic(out_dir / name, data)
        pages = len(pikepdf.open(io.BytesIO(data)).pages)
        files.append({"path": name, "kind": "rules", "lang": output_lang(edition), "paper": paper, "pages": pages})
    progress.say(f"{game.id}: wrote {len(files)} rule sheets ({cache.hits} from the cache, {cache.misses} rendered)")
    return files


def rule_findings(game: Game, rulebook: Rulebook, edition: tuple[str, ...], fits: list[FitBox]) -> list[CardFit]:
    """The text found overflowing and the raster pictures (a figure) of one edition, each named by its block and
    located in rules.yaml."""
    blocks = {block.id: block for block in rulebook.blocks}
    found = []
    for fit in fits:
        if not (fit.overflows or fit.kind in PICTURE_KINDS):
            continue
        lang, _, block_id = fit.anchor.partition("-")
        if lang == "b" or lang not in edition:  # single editions name their blocks b-ID, pairs LANG-ID
            lang = edition[0]
        block = blocks.get(block_id)
        texts = {name: getattr(block, name) for name in vars(block)} if block else {}
        key, text = find_text(texts, lang, fit.text)
        line = (text.line_of(lang) if text is not None else None) or (block.line if block else None)
        found.append(
            CardFit.of(
                fit,
                lang,
                "rules",
                "front",
                [block_id or "(page)"],
                key,
                file=str(block.file if block else game.dir / "rules.yaml"),
                line=line,
                piece="rules",
            )
        )
    return found


def build_rules(context: BuildContext) -> list[FileEntry]:
    """The build's rule sheets: every language asked for, alone and side by side, on every paper."""
    return write_rulebooks(
        context.game,
        context.langs,
        context.papers,
        context.out_dir,
        context.progress,
        context.cache.directory,
        context.jobs,
        context.report,
        context.note_rules,
    )


RULE_SHEETS = OutputFile(
    "rules-<lang>-<paper>.pdf",
    "the rule sheet of rules.yaml in each language, and two languages side by side (`rules-ja+en-a4.pdf`), each "
    "block's twins starting level; with more than two languages, the source language beside each translation",
)
BUILDER = OutputBuilder("rules", build_rules, require_valid_rules, reports=("rules",), files=(RULE_SHEETS,))
