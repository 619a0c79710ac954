"""The card sheets: one PDF per language and paper (in volumes when large), every deck in box-contents order
(and reprints)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from generator.build.builder import OutputBuilder
from generator.build.outputs import FileEntry, OutputFile
from generator.build.context import BuildContext, report_fits
from generator.build.decks import RenderedDeck, prepare_game
from generator.build.pieces import check_bleed, marked_name
from generator.build.report import previous_entries
from generator.heap import frozen_heap, long_lived
from generator.model import Game
from generator.model.game import Text
from generator.render import volumes as volumes_module
from generator.render.changes import card_keys, changed_cards, reference_keys
from generator.render.faces import card_fits
from generator.render.inksaver import prints_light
from generator.render.memo import FaceMemo
from generator.render.pipeline import render_missing
from generator.render.sheet_labels import printed_keys, sheet_words
from generator.render.sheet_plan import CopyGroup, SheetOptions, plan_pages
from generator.render.titles import file_title
from generator.render.typeset import plain
from generator.render.volumes import (
    FaceRef,
    SheetText,
    Volume,
    code_fingerprint,
    split_volumes,
    volume_files,
    volume_inputs,
    whole_file_inputs,
    write_volume,
)


def build_cards(context: BuildContext) -> list[FileEntry]:
    """The card sheets: one PDF per language and paper (in volumes when large), every deck in box-contents
    order.

    A file whose inputs (faces, copies, options, code) are those of the file already written is kept as it
    is: a rebuild with nothing changed renders and writes nothing, and a one-card edit writes the volume
    holding that card only.
    """
    memo = FaceMemo(context.cache.directory if context.options.use_cache else None)  # not kept in a scratch cache
    prepared = prepare_game(context.game, context.langs, memo, context.progress)
    with frozen_heap():  # the game and its faces live to the end of the build: no collection walks them
        return write_cards(context, prepared)


def write_cards(context: BuildContext, prepared: dict[str, list[RenderedDeck]]) -> list[FileEntry]:
    game, langs, out_dir, progress = context.game, context.langs, context.out_dir, context.progress
    since = context.options.changed_since
    before = reference_keys(since, game, langs) if since else None  # a bad REF stops the build before any write
    previous = previous_entries(out_dir)
    # (lang, volume, the inputs of its whole file); for a volume of a file known unchanged, its entry
    planned: list[tuple[str, Volume | FileEntry, str]] = []
    with long_lived():  # a copy, a place and a face reference per card and paper, kept to the end of the build
        for lang in langs:
            for option in context.sheets:
                stem = card_file_stem("cards", lang, option)
                groups = copy_groups(prepared[lang], option)
                whole = file_inputs(context, groups, option, lang, stem)
                unchanged = unchanged_file(previous, out_dir, stem, whole)
                if unchanged:  # its volumes need no plan: not one of their inputs changed
                    planned += [(lang, entry, whole) for entry in unchanged]
                    continue
                for volume in plan_volumes(context, prepared[lang], option, lang, stem, groups=groups):
                    old = previous.get(volume.path, {})
                    if old.get("inputs") == volume.inputs and (out_dir / volume.path).is_file():
                        volume.kept = old
                    planned.append((lang, volume, whole))
    stale: list[tuple[str, Volume]] = [
        (lang, volume) for lang, volume, _ in planned if isinstance(volume, Volume) and volume.kept is None
    ]
    render_volumes(context, prepared, stale)
    with long_lived():  # the text boxes of every face, kept for the report
        for lang in langs:
            for deck in prepared[lang]:
                deck.fits = deck.fits or card_fits(deck.faces, [context.cache.face_fits(key) for key in deck.keys])
    report_fits(context, [fit for lang in langs for deck in prepared[lang] for fit in deck.fits])
    for lang in langs:
        for deck in prepared[lang]:
            context.note_untranslated(deck.faces)
    keys = {lang: card_keys(prepared[lang]) for lang in {lang for lang, _ in stale}}
    files = []
    stale_count = len(stale)
    with progress.task(f"{game.id}: writing card sheets", stale_count, "files") as task:
        for lang, item, whole in planned:
            if not isinstance(item, Volume):
                files.append(item)
            elif item.kept is not None:
                files.append({**item.kept, "file_inputs": whole})
            else:
                entry = write_card_volume(context, item, keys[lang])
                files.append({**entry, "kind": "cards", "inputs": item.inputs, "file_inputs": whole})
                task.advance()
    kept = len(planned) - stale_count
    if kept:
        progress.say(f"{game.id}: {kept} card sheet file(s) up to date")
    if since and before is not None:
        files += build_reprint(context, prepared, since, before)
    return files


def card_file_stem(kind: str, lang: str, option: SheetOptions) -> str:
    suffix = "-gutterfold" if option.layout == "gutterfold" else ""
    return f"{kind}-{lang}-{option.paper}{suffix}"


def plan_volumes(
    context: BuildContext,
    decks: list[RenderedDeck],
    option: SheetOptions,
    lang: str,
    stem: str,
    only: set[str] | None = None,
    groups: list[CopyGroup] | None = None,
) -> list[Volume]:
    """The sheets of one file (the `deck/card`s in `only` when given; `groups`: their copies, when already
    made), planned with face keys in place of faces, split into volumes, each with the hash of its inputs."""
    option = replace(option, label_bands=True)
    planned = plan_pages(copy_groups(decks, option, only) if groups is None else groups, option)
    text = sheet_text(context, lang, option, len(planned))
    volumes = split_volumes(planned, option, stem, text, context.options.volume_sheets)
    code = sheets_code(context.game)
    for volume in volumes:
        volume.inputs = volume_inputs(volume, code)
    return volumes


def sheet_text(context: BuildContext, lang: str, option: SheetOptions, sheets: int) -> SheetText:
    """What the labels of a file's sheets say (`sheets`: how many the file has); their words printed
    untranslated are noted for build.json."""
    game = context.game
    fallbacks: dict[str, dict[str, Text]] = {}
    title = marked_name(context, game.title, lang, fallbacks)
    names = {deck_id: marked_name(context, deck.name, lang, fallbacks) for deck_id, deck in game.decks.items()}
    keys = printed_keys(option.duplex, option.layout == "gutterfold")
    words = sheet_words(game, lang, keys, fallbacks)
    context.note_rules(fallbacks)
    return SheetText(title, names, lang, option.duplex, option.margin, sheets, words)


def sheets_code(game: Game) -> str:
    """The code that plans and writes card sheet files (see volumes.code_fingerprint), and whether the faces are
    drawn light (the ink-saving version)."""
    return code_fingerprint(volumes_module, sys.modules[__name__]) + (":light" if prints_light(game) else "")


def file_inputs(context: BuildContext, groups: list[CopyGroup], option: SheetOptions, lang: str, stem: str) -> str:
    """Hash of everything the file's volumes are planned from, which decides every volume's inputs: its
    copies (faces, cards, decks, sizes), options, words and the code. Cheap, unlike the plan."""
    option = replace(option, label_bands=True)
    text = sheet_text(context, lang, option, 0)  # the count of sheets follows from the rest
    return whole_file_inputs(groups, option, stem, text, context.options.volume_sheets, sheets_code(context.game))


def unchanged_file(previous: dict[str, FileEntry], out_dir: Path, stem: str, inputs: str) -> list[FileEntry]:
    """The last build's entries of the file's volumes, in order, when the file was planned from these same
    inputs and every volume is on disk; else nothing (the file is planned, and each volume checked)."""
    pattern = volume_files(stem)
    entries = [
        entry
        for path, entry in previous.items()
        if entry.get("kind") == "cards" and entry.get("file_inputs") == inputs and pattern.fullmatch(path)
    ]
    by_number = {entry.get("volume", {}).get("number", 0): entry for entry in entries}
    count = max((entry.get("volume", {}).get("of", 1) for entry in entries), default=0)
    every_volume = sorted(by_number) in ([0], list(range(1, count + 1))) and len(by_number) == len(entries)
    if not every_volume or not all((out_dir / entry["path"]).is_file() for entry in entries):
        return []
    return [by_number[number] for number in sorted(by_number)]


def render_volumes(
    context: BuildContext, prepared: dict[str, list[RenderedDeck]], volumes: list[tuple[str, Volume]]
) -> None:
    """Render into the face cache what the volumes print and the cache lacks: their faces and sheet labels,
    in one pass on every core, streamed to the cache (nothing held)."""
    if not volumes:
        return
    game, progress = context.game, context.progress
    langs = list(dict.fromkeys(lang for lang, _ in volumes))
    decks = [deck for lang in langs for deck in prepared[lang]]
    wanted = {key for _, volume in volumes for key in volume.face_keys()}
    progress.say(f"{game.id}: {sum(len(deck.keys) for deck in decks)} distinct faces ({', '.join(langs)})")
    sheet_labels = (batch for _, volume in volumes for batch in volume.label_batches())
    render_missing(
        [deck.request for deck in decks],
        context.cache,
        context.jobs,
        wanted=wanted,
        extra=sheet_labels,
        progress=progress,
    )


def write_card_volume(context: BuildContext, volume: Volume, keys: dict[str, str], kind: str = "cards") -> FileEntry:
    """Write one file of card sheets (`kind` cards or reprint); its build.json entry (for a volume: which sheets
    and cards it holds)."""
    game, lang, option = context.game, volume.text.lang, volume.options
    title = file_title(
        game,
        kind,
        [lang],
        option.paper,
        gutterfold=option.layout == "gutterfold",
        volume=(volume.number, volume.count) if volume.number else None,
    )
    path = context.out_dir / volume.path
    pages = write_volume(
        volume,
        path,
        title,
        context.cache,
        context.jobs,
        prints_light(context.game),
        check=lambda data: check_bleed(context, path, data),
    )
    context.progress.wrote(game.id, volume.path, pages)
    cards = volume.cards()
    faces_count = volume.copies_by_deck()
    entry: FileEntry = {
        "path": volume.path,
        "lang": lang,
        "paper": volume.options.paper,
        "pages": pages,
        "faces": faces_count,
        "decks": list(faces_count),
        "sheets": [sheet.decks for sheet in volume.sheets],
        "duplex": volume.text.duplex if volume.options.layout == "duplex" else "gutterfold",
    }
    if volume.number:
        entry["volume"] = {
            "number": volume.number,
            "of": volume.count,
            "first_sheet": volume.first_sheet,
            "last_sheet": volume.last_sheet,
            "first_card": cards[0] if cards else None,
            "last_card": cards[-1] if cards else None,
        }
    entry["face_keys"] = {card: keys[card] for card in cards if card in keys}
    return entry


def build_reprint(
    context: BuildContext, prepared: dict[str, list[RenderedDeck]], since: str, before: dict[str, dict[str, str]]
) -> list[FileEntry]:
    """--changed-since: a file per language and paper holding only the cards whose faces changed, with their
    backs, as many copies as the deck has of each."""
    files = []
    for lang in context.langs:
        keys = card_keys(prepared[lang])
        changed = changed_cards(keys, before[lang])
        if not changed:
            context.progress.say(f"{context.game.id}: no card face changed in {lang} since {since}: no reprint")
            continue
        volumes = [
            (lang, volume)
            for option in context.sheets
            for volume in plan_volumes(
                context, prepared[lang], option, lang, card_file_stem("reprint", lang, option), changed
            )
        ]
        render_volumes(context, prepared, volumes)
        for _, volume in volumes:
            entry = write_card_volume(context, volume, keys, "reprint")
            files.append({**entry, "kind": "reprint", "since": since, "cards": sorted(changed & set(volume.cards()))})
    return files


def deck_name(game: Game, deck_id: str, lang: str) -> str:
    return plain(game.decks[deck_id].name.get(lang, game.source_language))


def copy_groups(decks: list[RenderedDeck], option: SheetOptions, only: set[str] | None = None) -> list[CopyGroup]:
    """The copies to impose: one group per deck, or (shared sheets) one per card size and bleed, in the
    order the sizes first appear in the box contents; with `only`, the copies of those `deck/card`s."""
    groups: dict[tuple[tuple[float, float], float] | int, CopyGroup] = {}  # by card size and bleed, or by deck
    for index, rendered in enumerate(decks):
        deck = rendered.faces.deck
        width, height = deck.size_mm
        key = ((width, height), deck.bleed_mm) if option.sheets == "shared" else index
        group = groups.setdefault(key, CopyGroup((width, height), deck.bleed_mm, []))
        group.copies += [(front, back, deck.id) for front, back in printed_copies(rendered, only)]
    return [group for group in groups.values() if group.copies]


def printed_copies(rendered: RenderedDeck, only: set[str] | None = None) -> list[tuple[FaceRef, FaceRef | None]]:
    """(front, back) for every printed copy, in deck order (of the `deck/card`s in `only`), each face named
    by its cache key and the card printing it (see FaceRef); made once for every paper."""
    if only is None:
        if rendered.copies is None:
            rendered.copies = _printed_copies(rendered, None)
        return rendered.copies
    return _printed_copies(rendered, only)


def _printed_copies(rendered: RenderedDeck, only: set[str] | None) -> list[tuple[FaceRef, FaceRef | None]]:
    faces, keys = rendered.faces, rendered.keys
    copies = []
    for card, front, back in zip(faces.deck.cards, faces.front_of, faces.back_of):
        name = f"{faces.deck.id}/{card.id}"
        if only is not None and name not in only:
            continue
        pair = (FaceRef(keys[front], name), FaceRef(keys[back], name, back=True) if back is not None else None)
        copies.extend([pair] * card.count)
    return copies


CARD_SHEETS = OutputFile(
    "cards-<lang>-<paper>[-gutterfold][-<nn>].pdf",
    "the card sheets in one language on one paper: every deck in box-contents order, each sheet of fronts followed "
    "by its backs (`--duplex`), or with `--layout gutterfold` fronts above the fold and backs below; a file of more "
    "than `--volume-sheets` sheets is written in volumes `-01`, `-02` ...",
)
REPRINT = OutputFile(
    "reprint-<lang>-<paper>[-gutterfold][-<nn>].pdf",
    "with `--changed-since REF`: only the cards whose front or back changed since REF, each as many times as its "
    "deck has it, with its back",
)
BUILDER = OutputBuilder("cards", build_cards, reports=("cards", "reprint", "card"), files=(CARD_SHEETS, REPRINT))
