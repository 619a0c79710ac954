"""The card sheets: one PDF per language and paper, every deck in box-contents order (and reprints)."""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from generator.build.builder import OutputBuilder
from generator.build.context import BuildContext, report_fits
from generator.build.decks import RenderedDeck, prepare_game, render_prepared
from generator.build.report import previous_entries
from generator.fsutil import write_atomic
from generator.model import Game
from generator.render import labels as labels_module
from generator.render import sheets as sheets_module
from generator.render.changes import card_keys, changed_cards, reference_keys
from generator.render.faces import card_fits
from generator.render.labels import write_labelled
from generator.render.memo import FaceMemo
from generator.render.sheets import CopyGroup, SheetOptions, SheetWriter, save_pdf_bytes
from generator.render.typeset import plain


def sheet_inputs(game: Game, lang: str, decks: list[RenderedDeck], option: SheetOptions) -> str:
    """Hash of everything a card sheet PDF is made from: its faces' keys, the copies, the sheet options and
    the code that imposes them. An output whose recorded hash matches is up to date and not written again."""
    digest = hashlib.sha256()
    for module in (sheets_module, labels_module, sys.modules[__name__]):
        assert module.__file__ is not None, "pnpgen's own source modules"
        digest.update(Path(module.__file__).read_bytes())
    digest.update(labels_module.template_source().encode("utf-8"))  # the labels' markup
    parts: list[Any] = [game.title.get(lang, game.source_language), lang, asdict(option)]
    for deck in decks:
        parts.append(
            [
                deck.faces.deck.id,
                deck_name(game, deck.faces.deck.id, lang),
                deck.faces.deck.size_mm,
                deck.faces.deck.bleed_mm,
                deck.keys,
                deck.faces.front_of,
                deck.faces.back_of,
                [card.count for card in deck.faces.deck.cards],
            ]
        )
    digest.update(json.dumps(parts, sort_keys=True).encode("utf-8"))
    return digest.hexdigest()


@dataclass
class PlannedSheet:
    """A card sheet file the build will have: kept as it is when its inputs are those of the file written."""

    lang: str
    option: SheetOptions
    name: str  # the file's name, e.g. cards-ja-a4.pdf
    inputs: str  # hash of what it is made from (sheet_inputs)
    kept: dict | None = None  # the previous build.json entry, when the file is up to date

    @property
    def stale(self) -> bool:
        return self.kept is None


def build_cards(context: BuildContext) -> list[dict]:
    """The card sheets: one PDF per language and paper, every deck in box-contents order.

    A sheet PDF whose inputs (faces, copies, options, code) are those of the file already written is kept
    as it is: a rebuild with nothing changed renders and writes nothing.
    """
    game, langs, options, out_dir, progress = (
        context.game,
        context.langs,
        context.sheets,
        context.out_dir,
        context.progress,
    )
    prepared = prepare_game(game, langs, FaceMemo(context.cache.directory), progress)
    since = context.options.changed_since
    before = reference_keys(since, game, langs) if since else None  # a bad REF stops the build before any write
    previous = previous_entries(out_dir)
    planned = []
    for lang in langs:
        for option in options:
            suffix = "-gutterfold" if option.layout == "gutterfold" else ""
            name = f"cards-{lang}-{option.paper}{suffix}.pdf"
            inputs = sheet_inputs(game, lang, prepared[lang], option)
            old = previous.get(name, {})
            current = old.get("inputs") == inputs and (out_dir / name).is_file()
            planned.append(PlannedSheet(lang, option, name, inputs, old if current else None))
    stale = {lang: prepared[lang] for lang in langs if any(p.lang == lang and p.stale for p in planned)}
    if stale:
        render_prepared(game, stale, context.cache, context.jobs, progress)
    for lang in langs:
        for deck in prepared[lang]:
            deck.fits = deck.fits or card_fits(deck.faces, [context.cache.face_fits(key) for key in deck.keys])
    report_fits(context, [fit for lang in langs for deck in prepared[lang] for fit in deck.fits])
    for lang in langs:
        for deck in prepared[lang]:
            context.note_untranslated(deck.faces)
    files = []
    with progress.task(f"{game.id}: writing card sheets", sum(1 for p in planned if p.kept is None), "files") as task:
        for plan in planned:
            if plan.kept is not None:
                files.append(plan.kept)
                continue
            entry = write_card_file(context, prepared[plan.lang], plan.option, plan.lang, plan.name)
            files.append({**entry, "kind": "cards", "inputs": plan.inputs, "face_keys": card_keys(prepared[plan.lang])})
            task.advance()
    if len(files) > sum(1 for p in planned if p.stale):
        progress.say(f"{game.id}: {sum(1 for p in planned if not p.stale)} card sheet file(s) up to date")
    if since and before is not None:
        files += build_reprint(context, prepared, since, before)
    return files


def write_card_file(
    context: BuildContext,
    decks: list[RenderedDeck],
    option: SheetOptions,
    lang: str,
    name: str,
    only: set[str] | None = None,
) -> dict:
    """Impose the decks' copies (only the `deck/card`s in `only` when given) with their sheet labels, write
    the PDF and return its build.json entry."""
    game = context.game
    writer = SheetWriter()
    pages, _texts = write_labelled(
        writer,
        copy_groups(decks, option, only),
        option,
        plain(game.title.get(lang, game.source_language)),
        {deck_id: deck_name(game, deck_id, lang) for deck_id in game.decks},
        lang,
        context.cache,
        context.jobs,
    )
    write_pdf(writer, context.out_dir / name, game, lang)
    faces_count = {d.faces.deck.id: len(printed_copies(d, only)) for d in decks if printed_copies(d, only)}
    context.progress.say(f"{game.id}: wrote {name} ({len(writer.pdf.pages)} pages)")
    return {
        "path": name,
        "lang": lang,
        "paper": option.paper,
        "pages": len(writer.pdf.pages),
        "faces": faces_count,
        "decks": list(faces_count),
        "sheets": [page.decks for page in pages if page.side != "back"],
        "duplex": option.duplex if option.layout == "duplex" else "gutterfold",
    }


def build_reprint(
    context: BuildContext, prepared: dict[str, list[RenderedDeck]], since: str, before: dict[str, dict[str, str]]
) -> list[dict]:
    """--changed-since: a file per language and paper holding only the cards whose faces changed, with their
    backs, as many copies as the deck has of each."""
    files = []
    for lang in context.langs:
        changed = changed_cards(card_keys(prepared[lang]), before[lang])
        if not changed:
            context.progress.say(f"{context.game.id}: no card face changed in {lang} since {since}: no reprint")
            for option in context.sheets:  # an older reprint would read as this one
                (context.out_dir / f"reprint-{lang}-{option.paper}.pdf").unlink(missing_ok=True)
            continue
        if any(not deck.pages for deck in prepared[lang]):  # its card sheets were up to date: nothing loaded
            render_prepared(context.game, {lang: prepared[lang]}, context.cache, context.jobs, context.progress)
        for option in context.sheets:
            name = f"reprint-{lang}-{option.paper}.pdf"
            entry = write_card_file(context, prepared[lang], option, lang, name, changed)
            files.append({**entry, "kind": "reprint", "since": since, "cards": sorted(changed)})
    return files


def deck_name(game: Game, deck_id: str, lang: str) -> str:
    return plain(game.decks[deck_id].name.get(lang, game.source_language))


def copy_groups(decks: list[RenderedDeck], option: SheetOptions, only: set[str] | None = None) -> list[CopyGroup]:
    """The copies to impose: one group per deck, or (shared sheets) one per card size and bleed, in the
    order the sizes first appear in the box contents; with `only`, the copies of those `deck/card`s."""
    groups: dict = {}
    for index, rendered in enumerate(decks):
        deck = rendered.faces.deck
        width, height = deck.size_mm
        key = ((width, height), deck.bleed_mm) if option.sheets == "shared" else index
        group = groups.setdefault(key, CopyGroup((width, height), deck.bleed_mm, []))
        group.copies += [(front, back, deck.id) for front, back in printed_copies(rendered, only)]
    return [group for group in groups.values() if group.copies]


def printed_copies(rendered: RenderedDeck, only: set[str] | None = None) -> list:
    """(front page, back page) for every printed copy, in deck order (of the `deck/card`s in `only`)."""
    faces, pages = rendered.faces, rendered.pages
    copies = []
    for card, front, back in zip(faces.deck.cards, faces.front_of, faces.back_of):
        if only is not None and f"{faces.deck.id}/{card.id}" not in only:
            continue
        pair = (pages[front], pages[back] if back is not None else None)
        copies.extend([pair] * card.count)
    return copies


CARD_FILE_TITLES = {"en": "{title}: card sheets", "ja": "{title} カードシート"}


def write_pdf(writer: SheetWriter, path: Path, game: Game, lang: str) -> None:
    title = CARD_FILE_TITLES.get(lang, CARD_FILE_TITLES["en"]).format(title=game.title.get(lang, game.source_language))
    write_atomic(path, save_pdf_bytes(writer.pdf, title, lang))


BUILDER = OutputBuilder("cards", build_cards)
