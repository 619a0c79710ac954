"""The print-and-play file: per language and paper, one PDF of everything to print, after a cover with the
printing guide and the component checklist.

It is made from the files the other builders wrote in this build, found by their build.json entries (kind,
language, paper, pages, duplex): their pages are copied as they are (pikepdf), in printing order: rules, card
sheets (every volume), token sheets, boards, aids. Only the guide and the checklist are rendered. A two-sided
part starts on an odd page, so that printing the whole file two-sided puts every back behind its front: a blank
page goes before it where needed, and the guide says so. Each part gets a bookmark and its pages a label
("Cards 3/14"). With --ink-saver the builders of printed components (cards, boards, aids, tokens) run again on
the game's ink-saving variant into OUT/<game>/ink-saver/, and those files are bound the same way with the same
rule sheets; the ink both versions take is measured. Every file here is an output of the build like the others':
listed in build.json, removed with the commit when a build within its scope no longer writes it.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

import pikepdf

from generator.build import aids, boards, cards, tokens
from generator.build.builder import OutputBuilder
from generator.build.outputs import FileEntry, OutputFile
from generator.build.context import BuildContext
from generator.build.report import (
    REPORT_FILE,
    build_scope,
    carry_over,
    previous_entries,
    previous_report,
    report_of,
    write_report,
)
from generator.fsutil import remove_output, write_atomic, written_path
from generator.model import Game
from generator.model.game import Aid, Board, Text, TokenSheet
from generator.render.fit_report import CardFit, find_text
from generator.render.ink import coverage, page_darkness
from generator.render.inksaver import INK_SAVER, backs_omitted, check_ink_saver, ink_saver_game
from generator.render.batches import Batch
from generator.render.pipeline import FaceCache, render_batches
from generator.render.pnp_guide import CheckedComponent, Guide, GuidePart, GuideWriter, runs
from generator.render import sheet_writer
from generator.render.sheet_writer import save_pdf_bytes
from generator.render.titles import file_title
from generator.render.templating import localize
from generator.render.weasy.fit import FitBox

# build.json's kinds of file, the part of the bundle each makes, in printing order
GROUP_OF_KIND = {"rules": "rules", "cards": "cards", "tokens": "tokens", "board": "boards", "aid": "aids"}
# the build.json key naming the printable a file of that kind prints (components.yaml names it by the same key)
PRINTABLE_KEY = {"tokens": "tokens", "board": "board", "aid": "aid"}
# the builders whose files the ink-saving version prints light (the rule sheets are bound as they are)
VARIANT_BUILDERS = (cards.BUILDER, boards.BUILDER, aids.BUILDER, tokens.BUILDER)
PAPER_OF_GROUP = {"rules": "plain", "cards": "card", "tokens": "card", "boards": "card", "aids": "heavy"}
TWO_SIDED = ("long", "short")
FRONT_MATTER = ("guide", "checklist")
ATTEMPTS = 4  # laying out the guide again when its own length moved the page numbers it gives
# the code that binds the files and writes the PDF: a change binds every file again
BINDING_CODE = hashlib.sha256(
    b"".join(Path(module).read_bytes() for module in (__file__, sheet_writer.__file__))
).hexdigest()


@dataclass
class Part:
    """A file of the build as a part of the bundle."""

    entry: FileEntry
    group: str
    name: str
    sides: str
    detail: tuple[str, ...] = ()  # the decks a card sheet file holds
    first: int = 0  # its first page in the bundle, once paginated

    @property
    def pages(self) -> int:
        return int(self.entry.get("pages", 0))

    @property
    def last(self) -> int:
        return self.first + self.pages - 1


@dataclass
class Layout:
    """The bundle's pages: the front matter, then each part (after a blank page where a back needs one)."""

    front: tuple[int, ...]  # pages of the guide and of the checklist
    parts: list[Part]
    blanks: list[int] = field(default_factory=list)
    order: list[Part | None] = field(default_factory=list)  # the parts in order, None for a blank page

    @property
    def total(self) -> int:
        return sum(self.front) + sum(part.pages for part in self.parts) + len(self.blanks)


def paginate(parts: list[Part], front: tuple[int, ...]) -> Layout:
    """Number the parts' pages after the front matter; a two-sided part starts on an odd page."""
    layout = Layout(front, parts)
    page = sum(front) + 1
    for part in parts:
        if part.sides in TWO_SIDED and page % 2 == 0:
            layout.blanks.append(page)
            layout.order.append(None)
            page += 1
        part.first = page
        layout.order.append(part)
        page += part.pages
    return layout


def chosen_parts(game: Game, entries: list[FileEntry], lang: str, paper: str, writer: GuideWriter) -> list[Part]:
    """The files of one language and paper, in printing order: by kind, two-sided before one-sided within a
    kind (fewer blank pages), then in box-contents order and by volume."""
    box = box_order(game)
    parts = []
    for entry in entries:
        group = GROUP_OF_KIND.get(entry.get("kind", ""))
        if group is None or entry.get("lang") != lang or entry.get("paper") != paper or not entry.get("pages"):
            continue
        name, detail = part_name(game, entry, group, lang, writer)
        parts.append(Part(entry, group, name, sides_of(entry, group), detail))

    def order(part: Part) -> tuple[int, bool, int, int]:
        volume = part.entry.get("volume", {}).get("number", 0)
        place = min((box.get(item, len(box)) for item in printed_items(part.entry)), default=len(box))
        return (GROUPS.index(part.group), part.sides not in TWO_SIDED, place, volume)

    return sorted(parts, key=order)


GROUPS = tuple(dict.fromkeys(GROUP_OF_KIND.values()))


def sides_of(entry: FileEntry, group: str) -> str:
    duplex = entry.get("duplex")
    if duplex in TWO_SIDED or duplex == "gutterfold":
        return str(duplex)
    return "either" if group == "rules" else "one"


def box_order(game: Game) -> dict[tuple[str, str], int]:
    """(kind, printable id) -> its place in the box contents."""
    return {c.source: index for index, c in enumerate(game.components) if c.source and c.source[0] in PRINTABLE_KEY}


def printed_items(entry: FileEntry) -> list[tuple[str, str]]:
    """(kind, id) of each printable a file prints, as components.yaml names them (`tokens: money`): the token
    files sharing a token sheet file, a board, an aid."""
    kind = entry.get("kind", "")
    if kind not in PRINTABLE_KEY:
        return []
    held = entry.get(PRINTABLE_KEY[kind], "")
    return [(kind, str(item)) for item in (held if isinstance(held, list) else [held])]


def part_name(game: Game, entry: FileEntry, group: str, lang: str, writer: GuideWriter) -> tuple[str, tuple[str, ...]]:
    """What the guide calls a file, and what it holds besides: the box contents' name of what it prints (else
    the printable's own), the decks of a card sheet file."""
    fallback = game.source_language
    names = component_names(game)
    if group == "cards":
        volume = entry.get("volume")
        name = writer.page_label("cards", lang) + (f" ({volume['number']}/{volume['of']})" if volume else "")
        decks = [names.get(("deck", d)) or game.decks[d].name for d in entry.get("decks", []) if d in game.decks]
        detail = tuple(text_in(text, lang, fallback) for text in decks)
        return name, () if detail == (name,) else detail
    if group == "rules":
        named = next((text for (source, _), text in names.items() if source == "rules"), None)
        return (text_in(named, lang, fallback) if named else writer.page_label("rules", lang)), ()
    held = [printed_name(game, item) for item in printed_items(entry)]
    if len(held) > 1:  # the token files sharing one file: named like a card sheet file, with what it holds
        return writer.page_label(group, lang), tuple(text_in(text, lang, fallback) for text in held if text)
    named = held[0] if held else None
    return (text_in(named, lang, fallback) if named else writer.page_label(group, lang)), ()


def printed_name(game: Game, item: tuple[str, str]) -> Text | None:
    """The box contents' name of a printable (else its own)."""
    named = component_names(game).get(item)
    if named is None and game.printables is not None:
        items: dict[str, Mapping[str, Aid | Board | TokenSheet]] = {
            "tokens": game.printables.tokens,
            "board": game.printables.boards,
            "aid": game.printables.aids,
        }
        found = items.get(item[0], {}).get(item[1])
        named = found.name if found is not None else None
    return named


def component_names(game: Game) -> dict[tuple[str, str], Text]:
    return {c.source: c.name for c in game.components if c.source}


def text_in(text: Text, lang: str, fallback: str) -> str:
    """A game's text in lang, or an Untranslated one in the fallback language (the guide marks it)."""
    shown: str = localize(text, lang, fallback)  # an Untranslated (a str) keeps its mark
    return shown


def checked_components(game: Game, parts: list[Part]) -> list[CheckedComponent]:
    """Every component of components.yaml with the pages printing it in the bundle."""
    found = []
    for component in game.components:
        pages: list[int] = []
        kind, item_id = component.source or ("", "")
        for part in parts:
            if kind == "deck" and part.group == "cards":
                pages += deck_pages(part, item_id)
            elif kind == "tokens" and part.group == "tokens":
                pages += deck_pages(part, item_id, "tokens")
            elif (kind == "rules" and part.group == "rules") or (kind, item_id) in printed_items(part.entry):
                pages += list(range(part.first, part.last + 1))
        found.append(CheckedComponent(component.id, runs(pages) if component.printed else []))
    return found


def deck_pages(part: Part, deck_id: str, held: str = "decks") -> list[int]:
    """The pages of a card (or token) sheet file printing the deck (or token file): its sheets' fronts and backs;
    `held` names the entry's list of what the file holds."""
    sheets = part.entry.get("sheets") or []
    if not sheets:
        listed = part.entry.get(held, [])
        return (
            list(range(part.first, part.last + 1))
            if deck_id in (listed if isinstance(listed, list) else [listed])
            else []
        )
    per_sheet = max(1, part.pages // len(sheets))
    return [
        part.first + index * per_sheet + offset
        for index, decks in enumerate(sheets)
        if deck_id in decks
        for offset in range(per_sheet)
    ]


def build_bundle(context: BuildContext) -> list[FileEntry]:
    """Every language and paper's print-and-play file (and with --ink-saver its ink-saving version); the files
    the last build wrote and this one does not (`--no-pnp`, no `--ink-saver`) are removed with the commit, as any
    output within the build's scope."""
    standard, saving = bundles_wanted(context)
    previous = previous_entries(context.out_dir)
    there = context.written + carried_entries(context)
    files = [
        write_bundle(context, there, lang, paper, previous=previous.get(bundle_name(lang, paper)))
        for lang, paper in standard
    ]
    shown, bound = ink_saver_files(context, make=bool(saving))
    rules = [entry for entry in there if entry.get("kind") == "rules"]  # printed as they are in both versions
    files += [
        write_bundle(context, bound + rules, lang, paper, INK_SAVER, previous.get(bundle_name(lang, paper, INK_SAVER)))
        for lang, paper in saving
    ]
    kept = sum(entry is previous.get(entry["path"]) for entry in files)
    if kept:
        context.progress.say(f"{context.game.id}: {kept} print-and-play file(s) up to date")
    return files + shown


def bundles_wanted(context: BuildContext) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The (language, paper) of the print-and-play files to write, and of their ink-saving versions: every one of
    the build (the ink-saving ones with --ink-saver); in a build of some outputs (`pnpgen rules`), those the last
    build wrote, bound again."""
    if not context.options.pnp:
        return [], []
    keys = [(lang, paper) for lang in context.langs for paper in context.papers]
    if context.options.outputs is None:
        return keys, keys if context.options.ink_saver else []
    previous = previous_entries(context.out_dir)
    return (
        [key for key in keys if bundle_name(*key) in previous],
        [key for key in keys if context.options.ink_saver or bundle_name(*key, INK_SAVER) in previous],
    )


def bundle_name(lang: str, paper: str, variant: str = "") -> str:
    return f"pnp-{lang}-{paper}{'-' + variant if variant else ''}.pdf"


def carried_entries(context: BuildContext) -> list[FileEntry]:
    """The last build's files of the kinds this build does not make (`pnpgen rules` makes the rule sheets only):
    the bundle binds them as they are, when they are still there."""
    made = {kind for output in context.outputs for kind in output.reports}
    return [
        entry
        for path, entry in previous_entries(context.out_dir).items()
        if entry.get("kind") not in made and (context.out_dir / path).is_file()
    ]


def ink_saver_files(context: BuildContext, make: bool) -> tuple[list[FileEntry], list[FileEntry]]:
    """The component files of the ink-saving version, in ink-saver/ with a build.json of their own (so that a file
    whose inputs are unchanged is kept there too). When `make`, this build's builders of printed components run
    again on the game's ink-saving variant; that build.json keeps what it listed outside this build's scope, as
    the main one does. Returns (the main build.json's entries of the files written, every file there is, as the
    ink-saving print-and-play file binds them: paths from the game's folder)."""
    out_dir = context.out_dir / INK_SAVER
    previous = previous_report(out_dir)
    game = ink_saver_game(context.game) if make else context.game
    inner = replace(context, game=game, out_dir=out_dir, fits=[], untranslated={}, flagged={}, written=[], _ids=None)
    made = {output.kind for output in context.outputs}
    builders = [builder for builder in VARIANT_BUILDERS if builder.kind in made] if make else []
    if builders:
        context.progress.say(f"{context.game.id}: the ink-saving version")
    for builder in builders:
        inner.written += builder.build(inner)
    report = carry_over(report_of(game, inner.written, inner.fits), previous, build_scope(context))
    if report["files"]:
        write_report(out_dir, report)
    elif previous:
        remove_output(out_dir / REPORT_FILE.name)
    bound = [
        {**entry, "path": f"{INK_SAVER}/{entry['path']}"}
        for entry in report["files"]
        if entry in inner.written or (out_dir / entry["path"]).is_file()
    ]
    shown = [
        {**entry, "path": f"{INK_SAVER}/{entry['path']}", "kind": INK_SAVER, "of": entry["kind"]}
        for entry in inner.written
    ]
    return shown, bound


def write_bundle(
    context: BuildContext,
    entries: list[FileEntry],
    lang: str,
    paper: str,
    variant: str = "",
    previous: FileEntry | None = None,
) -> FileEntry:
    """One print-and-play file; its build.json entry. A file whose inputs (its parts' bytes, its guide's pages as
    rendered, the binding code) are those the last build bound (`previous`: its entry) is kept as it is."""
    game = context.game
    name = bundle_name(lang, paper, variant)
    writer = GuideWriter(game)
    parts = chosen_parts(game, entries, lang, paper, writer)
    # the guide's pages are kept beside the faces but are none: the build's count of faces leaves them out
    pages_cache = FaceCache(context.cache.directory)
    layout, batches, opened = lay_out(context, pages_cache, writer, parts, lang, paper, variant, front_of(previous))
    context.report(guide_findings(game, lang, [pages_cache.face_fits(batch.key) for batch in batches]))
    group_labels(layout, writer, lang)  # the viewer's page labels and bookmarks print words too: noted with the rest
    context.note_rules(writer.words.fallbacks)
    inputs = bundle_inputs(context.out_dir, layout, [batch.key for batch in batches], name)
    if previous is not None and previous.get("inputs") == inputs and (context.out_dir / name).is_file():
        if context.options.ink_saver and "ink" not in previous:
            return {**previous, "ink": coverage(page_darkness(context.out_dir / name))}
        return previous
    title = file_title(game, "pnp", [lang], paper, ink_saver=bool(variant))
    data = bind(layout, opened, context.out_dir, writer, lang, title)
    write_atomic(context.out_dir / name, data)
    context.progress.wrote(game.id, name, layout.total)
    entry = {
        "path": name,
        "kind": "pnp",
        "lang": lang,
        "paper": paper,
        "pages": layout.total,
        "edition": variant or "standard",
        "front_matter": dict(zip(FRONT_MATTER, layout.front)),
        "parts": [
            {"path": p.entry["path"], "group": p.group, "first": p.first, "last": p.last, "sides": p.sides}
            for p in parts
        ],
        "blank_pages": layout.blanks,
        "inputs": inputs,
    }
    if context.options.ink_saver:
        entry["ink"] = coverage(page_darkness(data))
    return entry


def lay_out(
    context: BuildContext,
    cache: FaceCache,
    writer: GuideWriter,
    parts: list[Part],
    lang: str,
    paper: str,
    variant: str,
    front: tuple[int, ...],
) -> tuple[Layout, list[Batch], list[pikepdf.Pdf]]:
    """The bundle's pages and its guide and checklist, rendered (from the face cache when unchanged): laid out again
    while the guide's own length moves the page numbers it gives."""
    game = context.game
    for _ in range(ATTEMPTS):
        layout = paginate(parts, front)
        guide = Guide(
            lang,
            paper,
            ink_saver=bool(variant),
            backs_omitted=bool(variant) and backs_omitted(game),
            parts=[guide_part(part) for part in parts],
            blanks=layout.blanks,
            checklist=checked_components(game, parts),
        )
        batches = [writer.batch(guide, page) for page in FRONT_MATTER]
        documents = render_batches(batches, cache, context.jobs)
        opened = [pikepdf.open(io.BytesIO(data)) for data in documents]
        counted = tuple(len(pdf.pages) for pdf in opened)
        if counted == front:
            break
        front = counted
    return layout, batches, opened


def front_of(previous: FileEntry | None) -> tuple[int, ...]:
    """The pages the guide and the checklist took in the last build: where laying them out starts."""
    counts = previous.get("front_matter") if previous else None
    if isinstance(counts, dict) and all(isinstance(counts.get(which), int) for which in FRONT_MATTER):
        return tuple(max(1, counts[which]) for which in FRONT_MATTER)
    return (1,) * len(FRONT_MATTER)


def bundle_inputs(out_dir: Path, layout: Layout, guide_keys: list[str], name: str) -> str:
    """Hash of everything a print-and-play file is bound from: the bytes of each part's file, in order with the
    blank pages, the guide's and checklist's pages (their render keys: the words, the data, the fonts) and the
    code that binds them."""
    digest = hashlib.sha256(BINDING_CODE.encode())
    digest.update(json.dumps([name, guide_keys, layout.blanks]).encode())
    for part in layout.order:
        if part is None:
            digest.update(b"blank")
            continue
        digest.update(part.entry["path"].encode())
        with open(written_path(out_dir / part.entry["path"]), "rb") as source:
            digest.update(hashlib.file_digest(source, "sha256").digest())
    return digest.hexdigest()


def guide_part(part: Part) -> GuidePart:
    return GuidePart(
        part.group,
        part.name,
        part.first,
        part.last,
        part.sides,
        PAPER_OF_GROUP[part.group],
        part.detail,
        tiled="tiles" in part.entry,
    )


def bind(
    layout: Layout, front: list[pikepdf.Pdf], source_dir: Path, writer: GuideWriter, lang: str, title: str
) -> bytes:
    """The bundle's PDF: the front matter, then each part's pages as its file has them, blank pages between; a
    bookmark per part (under one per kind), a label per page."""
    pdf = pikepdf.new()
    marks: list[tuple[str, int, list[tuple[str, int]]]] = []  # (title, page index, the parts under it)
    for which, document in zip(FRONT_MATTER, front):
        marks.append((writer.word(which, lang), len(pdf.pages), []))
        pdf.pages.extend(document.pages)
    opened = []  # the parts' files, open until the bundle is saved
    for index, part in enumerate(layout.order):
        if part is None:
            following = next(p for p in layout.order[index + 1 :] if p is not None)
            pdf.add_blank_page(page_size=page_size(source_dir / following.entry["path"]))
            continue
        source = pikepdf.open(written_path(source_dir / part.entry["path"]))
        opened.append(source)
        group = writer.page_label(part.group, lang)
        if marks[-1][0] != group or len(marks) <= len(FRONT_MATTER):
            marks.append((group, len(pdf.pages), []))
        marks[-1][2].append((part.name, len(pdf.pages)))
        pdf.pages.extend(source.pages)
    set_page_labels(pdf, group_labels(layout, writer, lang))
    with pdf.open_outline() as outline:
        for mark, page, children in marks:
            item = pikepdf.OutlineItem(mark, page)
            if len(children) > 1 or (children and children[0][0] != mark):
                item.children.extend(pikepdf.OutlineItem(child, at) for child, at in children)
            outline.root.append(item)
    return save_pdf_bytes(pdf, title, lang)


def group_labels(layout: Layout, writer: GuideWriter, lang: str) -> list[str]:
    """Each page's label: its group's word and its place among the group's pages ("Cards 3/14")."""
    labels = numbered(writer.page_label("guide", lang), sum(layout.front))
    groups: dict[str, int] = {}
    for part in layout.parts:
        groups[part.group] = groups.get(part.group, 0) + part.pages
    seen: dict[str, int] = {}
    for placed in layout.order:
        if placed is None:
            labels.append(writer.page_label("blank", lang))
            continue
        for _ in range(placed.pages):
            seen[placed.group] = seen.get(placed.group, 0) + 1
            labels.append(f"{writer.page_label(placed.group, lang)} {seen[placed.group]}/{groups[placed.group]}")
    return labels


def numbered(word: str, count: int) -> list[str]:
    return [f"{word} {index}/{count}" for index in range(1, count + 1)]


def set_page_labels(pdf: pikepdf.Pdf, labels: list[str]) -> None:
    """One page label range per page, its whole label as the prefix: a viewer shows "Cards 3/14"."""
    numbers = pikepdf.Array()
    for index, label in enumerate(labels):
        numbers.append(index)
        numbers.append(pikepdf.Dictionary(P=pikepdf.String(label)))
    pdf.Root.PageLabels = pdf.make_indirect(pikepdf.Dictionary(Nums=numbers))


def page_size(path: Path) -> tuple[float, float]:
    with pikepdf.open(written_path(path)) as source:
        box = [float(value) for value in source.pages[0].mediabox]
    return box[2] - box[0], box[3] - box[1]


def guide_findings(game: Game, lang: str, measured: list[list[FitBox]]) -> list[CardFit]:
    """The text found out of place on the guide and the checklist, located where the text is written."""
    found = []
    for which, fits in zip(FRONT_MATTER, measured):
        for fit in fits:
            if not fit.overflows:
                continue
            values = {"title": game.title, **{f"components[{c.id}]": c.name for c in game.components}}
            key, text = find_text(values, lang, fit.text)
            file = text.file if text is not None and text.file else game.files.get("game")
            line = text.line_of(lang) if text is not None else None
            found.append(CardFit.of(fit, lang, "pnp", "front", [which], key, file=str(file), line=line, piece="guide"))
    return found


PNP_FILE = OutputFile(
    "pnp-<lang>-<paper>[-ink-saver].pdf",
    "the print-and-play file: a cover with the printing guide (each part's pages, one- or two-sided and the flip, "
    "the paper), the component checklist, then the rule sheet, card sheets, token sheets, boards and aids of that "
    "language and paper, bookmarked, each two-sided part starting on an odd page; `--no-pnp` leaves it out, "
    "`--ink-saver` adds the ink-saving version",
)
INK_SAVER_FILES = OutputFile(
    "ink-saver/<file>",
    "with `--ink-saver`: the card sheets, boards, aids and token sheets printed light, which the ink-saving "
    "print-and-play file binds, with their own build.json",
)
BUILDER = OutputBuilder(
    "bundle", build_bundle, check_ink_saver, reports=("pnp", INK_SAVER, "guide"), files=(PNP_FILE, INK_SAVER_FILES)
)
