"""tts: Tabletop Simulator deck sheets and the saved object that imports them.

A deck sheet is a grid of at most 10 x 7 trimmed card fronts. Tabletop Simulator shows the sheet's
last slot (bottom right) for a card hidden in another player's hand, so that slot always holds the
deck's back, and a sheet carries at most 69 distinct fronts. Copies are not drawn twice: the deck
lists a card id once per copy. A sheet is at most 4096 px a side. Every deck has one back image
(blank when the deck has no back), or, when its cards have different backs, a back sheet laid out
like the front sheet (UniqueBack). Each PNG says the resolution its cards are drawn at (a poker card in a
full 10 x 7 sheet is about 165 dpi).

tts.json names each sheet by URL: `--base-url` where they will be uploaded, else a file:// URL of this
machine (Tabletop Simulator reads no relative path), and the export then says so.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from generator.errors import InputError, Problem, display_path
from generator.export.deck_images import MM_PER_INCH, DeckExport, save_png
from generator.export.target import OptionAdder, Target
from generator.fsutil import write_atomic
from generator.model.game import Game

MAX_COLUMNS, MAX_ROWS = 10, 7
MAX_SIDE_PX = 4096
MAX_PX_PER_MM = 300 / 25.4  # a small deck's cards are not drawn larger than 300 dpi
MIN_SIDE = 2  # the smallest grid Tabletop Simulator's custom deck dialog offers
POKER_MM = (63.0, 88.0)  # a custom card at scale 1 is a poker card: other sizes are scaled from it


@dataclass(frozen=True)
class SheetGrid:
    columns: int
    rows: int
    card_px: tuple[int, int]
    card_mm: tuple[float, float]

    @property
    def dpi(self) -> float:
        """The resolution the cards are drawn at (`trimmed` scales a face by its width)."""
        return self.card_px[0] / self.card_mm[0] * MM_PER_INCH

    @property
    def slots(self) -> int:
        return self.columns * self.rows

    @property
    def hidden_slot(self) -> int:
        return self.slots - 1

    @property
    def size(self) -> tuple[int, int]:
        return self.columns * self.card_px[0], self.rows * self.card_px[1]

    def box(self, slot: int) -> tuple[int, int]:
        row, column = divmod(slot, self.columns)
        return column * self.card_px[0], row * self.card_px[1]


def sheet_grid(faces: int, card_mm: tuple[float, float]) -> SheetGrid:
    """The smallest grid holding `faces` fronts and the hidden slot, and the largest card size that keeps
    the sheet within 4096 px."""
    if not 1 <= faces <= MAX_COLUMNS * MAX_ROWS - 1:
        raise ValueError(f"a sheet holds 1 to {MAX_COLUMNS * MAX_ROWS - 1} faces, not {faces}")
    rows = max(MIN_SIDE, math.ceil((faces + 1) / MAX_COLUMNS))
    columns = max(MIN_SIDE, math.ceil((faces + 1) / rows))
    scale = min(MAX_SIDE_PX / (columns * card_mm[0]), MAX_SIDE_PX / (rows * card_mm[1]), MAX_PX_PER_MM)
    return SheetGrid(columns, rows, (math.floor(card_mm[0] * scale), math.floor(card_mm[1] * scale)), card_mm)


def trimmed(deck: DeckExport, face, size: tuple[int, int]) -> Image.Image:
    """The face without its bleed, exactly `size` pixels."""
    w = deck.deck.size_mm[0]
    scale = size[0] / w
    b = deck.deck.bleed_mm * scale
    full = deck.raster(face, scale, (round(size[0] + 2 * b), round(size[1] + 2 * b)))
    left, top = round(b), round(b)
    return full.crop((left, top, left + size[0], top + size[1]))


def draw_sheet(deck: DeckExport, faces: list, grid: SheetGrid, hidden: Image.Image) -> Image.Image:
    sheet = Image.new("RGB", grid.size, "white")
    for slot, face in enumerate(faces):
        if face is not None:  # a card without a back among cards with backs stays blank
            sheet.paste(trimmed(deck, face, grid.card_px), grid.box(slot))
    sheet.paste(hidden, grid.box(grid.hidden_slot))
    return sheet


def back_image(deck: DeckExport, size: tuple[int, int]) -> Image.Image:
    """The deck's back (the first one when they differ), or a blank card when the deck has none."""
    backs = deck.backs
    return trimmed(deck, backs[0], size) if backs else Image.new("RGB", size, "white")


def export_deck(deck: DeckExport, out_dir: Path, url_of, first_key: int) -> tuple[dict, list[str]]:
    """Write the deck's sheets; return its Tabletop Simulator object and the files written."""
    fronts = [face for face in deck.faces if face.side == "front"]
    per_sheet = MAX_COLUMNS * MAX_ROWS - 1
    files, custom, slot_of = [], {}, {}
    for number, start in enumerate(range(0, len(fronts), per_sheet), start=1):
        chunk = fronts[start : start + per_sheet]
        grid = sheet_grid(len(chunk), deck.deck.size_mm)
        key = first_key + number - 1
        name = f"{deck.deck.id}-sheet-{number}.png"
        save_png(out_dir / name, draw_sheet(deck, chunk, grid, back_image(deck, grid.card_px)), grid.dpi)
        back_name, unique = _backs(deck, chunk, grid, number, out_dir)
        files += [name] + ([back_name] if back_name not in files else [])
        custom[str(key)] = {
            "FaceURL": url_of(name),
            "BackURL": url_of(back_name),
            "NumWidth": grid.columns,
            "NumHeight": grid.rows,
            "BackIsHidden": True,
            "UniqueBack": unique,
            "Type": 0,
        }
        for slot, face in enumerate(chunk):
            for card_id in face.cards:
                slot_of[card_id] = key * 100 + slot
    return _deck_object(deck, custom, slot_of), files


def _backs(deck: DeckExport, chunk: list, grid: SheetGrid, number: int, out_dir: Path) -> tuple[str, bool]:
    """One back image for the deck (written with the first sheet), or, when the cards' backs differ, a
    back sheet matching this front sheet (Tabletop Simulator's UniqueBack)."""
    if len(deck.backs) <= 1:
        name = f"{deck.deck.id}-back.png"
        if number == 1:
            save_png(out_dir / name, back_image(deck, grid.card_px), grid.dpi)
        return name, False
    name = f"{deck.deck.id}-backs-{number}.png"
    backs = [deck.back_of(face.cards[0]) for face in chunk]
    save_png(out_dir / name, draw_sheet(deck, backs, grid, back_image(deck, grid.card_px)), grid.dpi)
    return name, True


def card_scale(size_mm: tuple[float, float]) -> tuple[float, float]:
    """(scaleX, scaleZ) of a card of this size against Tabletop Simulator's poker card, upright: a mini
    card comes out smaller and a tarot card larger, each in its own proportions. A landscape card is
    measured turned upright (Tabletop Simulator turns it with SidewaysCard)."""
    short, long = sorted(size_mm)
    return round(short / POKER_MM[0], 4), round(long / POKER_MM[1], 4)


def _deck_object(deck: DeckExport, custom: dict, slot_of: dict) -> dict:
    lang = deck.lang
    fallback = deck.deck.name.get(lang)
    scale = card_scale(deck.deck.size_mm)
    cards = []
    for card in deck.deck.cards:
        card_id = slot_of[card.id]
        entry = {
            "Name": "Card",
            "Nickname": card.name.get(lang, fallback),
            "CardID": card_id,
            "Transform": _transform(scale=scale),
            "CustomDeck": {str(card_id // 100): custom[str(card_id // 100)]},
        }
        cards += [entry] * card.count
    sideways = deck.deck.size_mm[0] > deck.deck.size_mm[1]
    if len(cards) == 1:
        return {**cards[0], "SidewaysCard": sideways}
    return {
        "Name": "DeckCustom",
        "Nickname": deck.deck.name.get(lang),
        "Transform": _transform(scale=scale),
        "SidewaysCard": sideways,
        "HideWhenFaceDown": True,
        "DeckIDs": [c["CardID"] for c in cards],
        "CustomDeck": custom,
        "ContainedObjects": cards,
    }


def _transform(x: float = 0.0, scale: tuple[float, float] = (1.0, 1.0)) -> dict:
    return {
        "posX": x,
        "posY": 1.0,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0,
        "scaleX": scale[0],
        "scaleY": 1.0,
        "scaleZ": scale[1],
    }


@dataclass(frozen=True)
class TtsOptions:
    base_url: str | None = None  # where the sheets will be served from (default: file URLs)


def add_options(parser: OptionAdder) -> None:
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="the address (https://...) of the folder the images will be uploaded to; without it tts.json names "
        "them by file:// URLs of this machine, which Tabletop Simulator finds here only",
    )


def read_options(values: Mapping[str, Any]) -> TtsOptions:
    return TtsOptions(base_url=values["base_url"])


def check(game: Game, options: TtsOptions) -> None:
    """A --base-url that is not a URL would name images Tabletop Simulator cannot find."""
    if options.base_url and not re.match(r"^(https?|file)://", options.base_url):
        raise InputError(
            Problem(
                None,
                None,
                f"--base-url '{options.base_url}' is not a URL: Tabletop Simulator reads no relative address",
                hint="give the address of the uploaded folder, like https://example.org/my-game/",
            )
        )


def export_game(decks: list[DeckExport], options: TtsOptions, out_dir: Path, progress, title: str = "") -> list[str]:
    def url_of(name: str) -> str:
        if options.base_url:
            return options.base_url.rstrip("/") + "/" + name
        return (out_dir / name).resolve().as_uri()

    objects, files, key = [], [], 1
    for index, deck in enumerate(decks):
        obj, written = export_deck(deck, out_dir, url_of, key)
        obj["Transform"]["posX"] = 3.0 * index
        key += len(obj["CustomDeck"])
        objects.append(obj)
        files += written
        progress.say(f"{deck.deck.id}: {len(written)} Tabletop Simulator images")
    saved = {
        "SaveName": title,
        "GameMode": "",
        "Date": "",
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": objects,
        "TabStates": {},
        "VersionNumber": "",
    }
    write_atomic(out_dir / "tts.json", json.dumps(saved, ensure_ascii=False, indent=2) + "\n")
    if not options.base_url:
        progress.warn(
            f"{display_path(out_dir / 'tts.json')} names its images by file:// URLs of this machine: Tabletop "
            "Simulator finds them here only. To share the deck, upload the PNG files and export again with "
            "--base-url URL (the address of the folder they are in)"
        )
    return files + ["tts.json"]


TARGET = Target(
    "tts",
    "Tabletop Simulator deck sheets (at most 10x7, 4096 px) and the saved object JSON",
    export_game,
    add_options,
    read_options,
    check,
)
