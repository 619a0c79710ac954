"""png: one PNG per distinct face at 300, 350 or 600 dpi, with or without the bleed, and a CSV manifest."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.export.deck_images import MM_PER_INCH, DeckExport, manifest_rows, save_png, write_manifest
from generator.export.target import OptionAdder, Target

DPI_CHOICES = (300, 350, 600)


@dataclass(frozen=True)
class PngOptions:
    dpi: int = 300
    bleed: bool = True  # the images carry the bleed (else they are trimmed)


def add_options(parser: OptionAdder) -> None:
    parser.add_argument("--dpi", type=int, default=300, choices=DPI_CHOICES, help="resolution (default: 300)")
    parser.add_argument("--no-bleed", action="store_true", help="trimmed images without the bleed")


def read_options(values: Mapping[str, Any]) -> PngOptions:
    return PngOptions(dpi=values["dpi"], bleed=not values["no_bleed"])


def pixel_size(size_mm: tuple[float, float], dpi: int) -> tuple[int, int]:
    return round(size_mm[0] * dpi / MM_PER_INCH), round(size_mm[1] * dpi / MM_PER_INCH)


def export_deck(deck: DeckExport, options: PngOptions, out_dir: Path, progress) -> list[dict]:
    px_per_mm = options.dpi / MM_PER_INCH
    with_bleed = pixel_size(deck.bleed_size_mm, options.dpi)
    trim = pixel_size(deck.deck.size_mm, options.dpi)
    for face in deck.faces:
        image = deck.raster(face, px_per_mm, with_bleed)
        if not options.bleed:
            left, top = (with_bleed[0] - trim[0]) // 2, (with_bleed[1] - trim[1]) // 2
            image = image.crop((left, top, left + trim[0], top + trim[1]))
        save_png(out_dir / f"{face.name}.png", image, options.dpi)
    size = with_bleed if options.bleed else trim
    progress.say(f"{deck.deck.id}: {len(deck.faces)} PNGs of {size[0]}x{size[1]} px")
    return manifest_rows(deck, lambda face: f"{face.name}.png")


def export_game(decks: list[DeckExport], options: PngOptions, out_dir: Path, progress, title: str = "") -> list[str]:
    rows = []
    for deck in decks:
        rows += export_deck(deck, options, out_dir, progress)
    write_manifest(out_dir / "manifest.csv", rows)
    return [f"{face.name}.png" for deck in decks for face in deck.faces] + ["manifest.csv"]


TARGET = Target(
    "png",
    "one PNG per distinct face and back, with a CSV manifest of copy counts",
    export_game,
    add_options,
    read_options,
)
