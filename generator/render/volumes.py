"""Card sheet files in volumes: a deck of thousands of cards is written as files of at most VOLUME_SHEETS
sheets each (cards-en-a4-01.pdf, cards-en-a4-02.pdf ...), as a printer's tray or a print shop takes them.
A file of fewer sheets keeps its one name (cards-en-a4.pdf).

Each volume is hashed from what it prints: the face keys of its copies and where they go, its marks, the
words of its sheet labels ("sheet n of N" counts the sheets of every volume) and the code that writes it.
A one-card edit changes the hash of the volume holding that card and no other, so only that file is
written again. Faces are read back from the face cache a volume at a time (CachedFaces): a build holds the
faces of the volume it writes, never the game's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import NamedTuple

from generator import heap
from generator.fsutil import write_atomic
from generator.render import lighten, paper, sheet_labels, sheet_marks, sheet_pages, sheet_plan, sheet_writer
from generator.render.batches import Batch
from generator.render.pipeline import CachedFaces, FaceCache
from generator.render.sheet_labels import SheetWords, label_batches, label_pages
from generator.render.sheet_pages import SheetPage, page_heads, pages_of
from generator.render.sheet_plan import FoldSheet, Sheet, SheetOptions
from generator.render.sheet_writer import SheetWriter, one_orientation, save_pdf_bytes, write_pages

VOLUME_SHEETS = 50  # sheets a volume (100 duplex pages, 450 poker cards): a printer's tray, a file of a few MB


class FaceRef(NamedTuple):
    """A face placed on a sheet, by its face cache key, and the card printing it (`deck/card`). A tuple: a
    large game's plan makes one per copy and language (a frozen dataclass takes 1.6 times as long to make)."""

    key: str
    card: str
    back: bool = False


@dataclass(frozen=True)
class SheetText:
    """What the labels of a file's sheets say, besides each sheet's number and decks."""

    title: str
    deck_names: dict[str, str]
    lang: str
    duplex: str
    margin: float
    sheets: int  # the N of "sheet n of N": every sheet of every volume
    words: SheetWords  # the labels' words in lang, as the game prints them


@dataclass
class Volume:
    """Consecutive sheets written as one file: `number` of `count` (0 of 1: the file is not split). The
    sheets are planned, not drawn: a volume that is kept never draws its pages."""

    path: str
    number: int
    count: int
    sheets: list[Sheet | FoldSheet]
    first_sheet: int
    options: SheetOptions
    text: SheetText
    inputs: str = ""
    kept: dict | None = None  # the previous build.json entry, when the file on disk is this volume
    _label_batches: list[Batch] | None = None  # from the build's rendering until the volume is written

    @property
    def last_sheet(self) -> int:
        return self.first_sheet + len(self.sheets) - 1

    def pages(self) -> list[SheetPage]:
        """The volume's pages, drawn anew (not kept: a large game's volumes are all planned at once)."""
        return pages_of(self.sheets, self.options, self.first_sheet)

    def _copies(self):
        return (copy for sheet in self.sheets for copy in sheet.copies)

    def cards(self) -> list[str]:
        """The cards (`deck/card`) printed in the volume, in order of their first copy."""
        return list(dict.fromkeys(copy.front.card for copy in self._copies()))

    def copies_by_deck(self) -> dict[str, int]:
        """How many copies of each deck's cards the volume prints, decks in order."""
        counts: dict[str, int] = {}
        for copy in self._copies():
            counts[copy.deck] = counts.get(copy.deck, 0) + 1
        return counts

    def face_keys(self) -> set[str]:
        return {face.key for copy in self._copies() for face in (copy.front, copy.back) if face is not None}

    def label_batches(self, pages: list[SheetPage] | None = None) -> list[Batch]:
        """The documents of the sheet labels, made once (a build renders them, then places them) from the
        volume's pages (their heads when not given: a label needs nothing drawn)."""
        if self._label_batches is None:
            t = self.text
            heads = page_heads(self.sheets, self.options, self.first_sheet) if pages is None else pages
            self._label_batches = label_batches(heads, t.title, t.deck_names, t.duplex, t.margin, t.words, t.sheets)
        return self._label_batches

    def take_label_batches(self, pages: list[SheetPage]) -> list[Batch]:
        """The label documents, to be placed: the volume keeps them no longer (a large game's volumes are
        written one after another, each holding its own labels only while it is written)."""
        batches = self.label_batches(pages)
        self._label_batches = None
        return batches


def split_volumes(
    planned: list[Sheet | FoldSheet], options: SheetOptions, stem: str, text: SheetText, per_volume: int
) -> list[Volume]:
    """Planned sheets in volumes of `per_volume` sheets; one volume named `stem.pdf` when they fit in one, or
    `per_volume` is 0."""
    if per_volume <= 0 or len(planned) <= per_volume:
        return [Volume(f"{stem}.pdf", 0, 1, planned, 1, options, text)]
    count = -(-len(planned) // per_volume)
    digits = max(2, len(str(count)))
    return [
        Volume(
            f"{stem}-{number:0{digits}d}.pdf",
            number,
            count,
            planned[start : start + per_volume],
            start + 1,
            options,
            text,
        )
        for number, start in enumerate(range(0, len(planned), per_volume), 1)
    ]


def volume_files(stem: str) -> re.Pattern:
    """The names a file of this stem has, split or not."""
    return re.compile(re.escape(stem) + r"(-\d+)?\.pdf")


SHEET_MODULES = (paper, sheet_marks, sheet_plan, sheet_pages, sheet_writer, sheet_labels, lighten)  # plan, draw, write


def code_fingerprint(*modules) -> str:
    """Hash of the modules that decide how sheets are imposed and written (SHEET_MODULES and the given ones:
    this one, the card builder's ...) and of the sheet labels' template."""
    digest = hashlib.sha256()
    for module in (*SHEET_MODULES, *modules):
        digest.update(Path(module.__file__).read_bytes())
    digest.update(sheet_labels.template_source().encode("utf-8"))  # the labels' markup
    return digest.hexdigest()


def volume_inputs(volume: Volume, code: str) -> str:
    """Hash of everything the volume's file is made from (see the module's doc), from its planned sheets:
    how their blocks lie and which faces they hold decide every mark and place drawn."""
    digest = hashlib.sha256(code.encode())
    t = volume.text
    digest.update(
        json.dumps(
            [
                t.title,
                t.deck_names,
                t.lang,
                t.words.texts,
                t.duplex,
                t.margin,
                t.sheets,
                volume.number,
                volume.count,
                volume.first_sheet,
                asdict(volume.options),
            ],
            sort_keys=True,
        ).encode()
    )
    for sheet in volume.sheets:
        layout = (
            (sheet.grid, sheet.labelled)
            if isinstance(sheet, FoldSheet)
            else (sheet.paper, sheet.blocks, sheet.mark_areas)
        )
        faces = [(copy.front.key, copy.back.key if copy.back else None, copy.deck) for copy in sheet.copies]
        digest.update(repr((layout, faces)).encode("utf-8"))
    return digest.hexdigest()


def whole_file_inputs(
    groups: list, options: SheetOptions, stem: str, text: SheetText, per_volume: int, code: str
) -> str:
    """Hash of what a file's volumes are planned from (CopyGroups of FaceRef pairs, options, the words of its
    labels but the count of sheets, the split and the code): plans being deterministic, equal hashes give
    equal volumes, so a file whose hash is the last build's is kept without planning its sheets."""
    digest = hashlib.sha256(code.encode())
    words = [stem, per_volume, text.title, text.deck_names, text.lang, text.words.texts, text.duplex, text.margin]
    digest.update(json.dumps([words, asdict(options)], sort_keys=True).encode())
    for group in groups:
        digest.update(repr((group.card, group.bleed, len(group.copies))).encode())
        digest.update(
            "\n".join(
                f"{front.key} {front.card} {back.key if back else '-'} {back.card if back else '-'} {deck}"
                for front, back, deck in group.copies
            ).encode("utf-8")
        )
    return digest.hexdigest()


def write_volume(
    volume: Volume,
    path: Path,
    title: str,
    cache: FaceCache,
    jobs: int,
    light: bool = False,
    check: Callable[[bytes], None] | None = None,
) -> int:
    """Impose the volume's sheets with their labels, faces read back from the cache (`light`: drawn light, see
    SheetWriter); write the file (staged in the command's OutputSet), `check` reading it first, and return its page
    count. Only this volume's faces are open meanwhile."""
    faces = CachedFaces(cache)
    t = volume.text
    texts: list = []
    try:
        writer = SheetWriter(light)
        drawn = volume.pages()
        texts, furniture = label_pages(
            drawn,
            t.title,
            t.deck_names,
            t.duplex,
            t.margin,
            t.words,
            cache,
            jobs,
            t.sheets,
            batches=volume.take_label_batches(drawn),
        )
        write_pages(writer, drawn, furniture, face=lambda ref: faces.page(ref.key))
        one_orientation(writer.pdf)
        data = save_pdf_bytes(writer.pdf, title, t.lang)
        pages = len(writer.pdf.pages)
        writer.pdf.close()
    finally:
        faces.close()
        for pdf in texts:
            pdf.close()
    heap.release_free_memory()  # what pikepdf freed: a volume's faces and sheets, tens of megabytes
    if check is not None:
        check(data)
    write_atomic(path, data)
    return pages
