"""tgc and mpc: each face as the exact PNG a print service's card template asks for (RGB, 300 dpi).

A service's image is its trim plus its own bleed, in inches at 300 dpi. Our faces are our trim plus
3 mm: neither the trim (poker 63 x 88 mm against 2.5 x 3.5 in = 63.5 x 88.9 mm) nor the bleed
(3 mm against 1/8 in = 3.175 mm for The Game Crafter) is quite theirs. So each face is scaled
uniformly, never stretched, by the smallest factor that makes our bleed image cover the service's
whole image, and centred: the service cuts at most a fraction of a millimetre inside or outside our
trim line (`trim_offset_mm` in the manifest says how much), which the 3 mm safe area absorbs.
A landscape card goes onto a portrait product turned a quarter turn clockwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from PIL import Image

from generator.export.deck_images import MM_PER_INCH, DeckExport, deck_problem, manifest_rows, save_png, write_manifest
from generator.export.target import Target
from generator.model.game import Game

SERVICE_DPI = 300
SIZE_TOLERANCE_MM = 1.5  # a product fits a card when each trim side is this close


@dataclass(frozen=True)
class Product:
    name: str
    trim_in: tuple[float, float]  # portrait, inches
    pixels: tuple[int, int]  # the whole image the service asks for, trim plus its bleed

    @property
    def trim_mm(self) -> tuple[float, float]:
        return self.trim_in[0] * MM_PER_INCH, self.trim_in[1] * MM_PER_INCH


def _products(bleed_in: float, sizes: dict[str, tuple[float, float]]) -> list[Product]:
    return [
        Product(
            name, trim, (round((trim[0] + 2 * bleed_in) * SERVICE_DPI), round((trim[1] + 2 * bleed_in) * SERVICE_DPI))
        )
        for name, trim in sizes.items()
    ]


TRIM_SIZES_IN = {
    "poker": (2.5, 3.5),
    "bridge": (2.25, 3.5),
    "mini": (1.75, 2.5),
    "tarot": (2.75, 4.75),
    "small square": (2.5, 2.5),
    "square": (3.5, 3.5),
}
# The Game Crafter: 1/8 in bleed (poker 825 x 1125 px); MakePlayingCards: 0.12 in (poker 822 x 1122 px).
# The other products apply the same bleed to the trim sizes both services list.
SERVICES = {"tgc": _products(0.125, TRIM_SIZES_IN), "mpc": _products(0.12, TRIM_SIZES_IN)}
SERVICE_NAMES = {"tgc": "The Game Crafter", "mpc": "MakePlayingCards"}


@dataclass(frozen=True)
class Fit:
    """How a deck's faces become a product's image."""

    product: Product
    turned: bool  # a landscape card on a portrait product
    px_per_mm: float  # the uniform scale of our face
    trim_offset_mm: float  # how far the service's cut lies from our trim line, at most, on the card


def product_for(service: str, deck) -> Fit:
    """The service's product for the deck's card size, or an error naming the sizes it has."""
    w, h = deck.size_mm
    turned = w > h
    card = (h, w) if turned else (w, h)
    for product in SERVICES[service]:
        pw, ph = product.trim_mm
        if abs(pw - card[0]) <= SIZE_TOLERANCE_MM and abs(ph - card[1]) <= SIZE_TOLERANCE_MM:
            return fit_product(product, card, deck.bleed_mm, turned)
    sizes = ", ".join(f"{p.name} {p.trim_mm[0]:.1f}x{p.trim_mm[1]:.1f} mm" for p in SERVICES[service])
    raise deck_problem(
        deck, "size", f"{SERVICE_NAMES[service]} has no card of {w:g} x {h:g} mm", hint=f"its card sizes: {sizes}"
    )


def fit_product(product: Product, card: tuple[float, float], bleed: float, turned: bool) -> Fit:
    bleed_box = (card[0] + 2 * bleed, card[1] + 2 * bleed)
    scale = max(product.pixels[0] / bleed_box[0], product.pixels[1] / bleed_box[1])
    trim_px = (product.trim_in[0] * SERVICE_DPI, product.trim_in[1] * SERVICE_DPI)
    offset_px = max(abs(card[0] * scale - trim_px[0]), abs(card[1] * scale - trim_px[1])) / 2
    return Fit(product, turned, scale, offset_px / scale)


def service_image(deck: DeckExport, face, fit_: Fit) -> Image.Image:
    w, h = deck.bleed_size_mm
    size = (math.ceil(w * fit_.px_per_mm), math.ceil(h * fit_.px_per_mm))
    image = deck.raster(face, fit_.px_per_mm, size)
    if fit_.turned:
        image = image.transpose(Image.Transpose.ROTATE_270)
    tw, th = fit_.product.pixels
    left, top = (image.width - tw) // 2, (image.height - th) // 2
    return image.crop((left, top, left + tw, top + th))


def check_sizes(service: str, game: Game, options: None) -> None:
    """Every deck's card size is one of the service's products (else a located error naming its sizes)."""
    for deck in game.decks.values():
        product_for(service, deck)


def export_game(
    service: str, decks: list[DeckExport], options: None, out_dir: Path, progress, title: str = ""
) -> list[str]:
    fits = {deck.deck.id: product_for(service, deck.deck) for deck in decks}  # every size checked first
    rows, files = [], []
    for deck in decks:
        fit_ = fits[deck.deck.id]
        for face in deck.faces:
            save_png(out_dir / f"{face.name}.png", service_image(deck, face, fit_), SERVICE_DPI)
            files.append(f"{face.name}.png")
        extra = {
            "product": fit_.product.name,
            "pixels": "x".join(map(str, fit_.product.pixels)),
            "turned": "yes" if fit_.turned else "no",
            "trim_offset_mm": f"{fit_.trim_offset_mm:.2f}",
        }
        rows += [{**row, **extra} for row in manifest_rows(deck, lambda face: f"{face.name}.png")]
        progress.say(
            f"{deck.deck.id}: {len(deck.faces)} {SERVICE_NAMES[service]} {fit_.product.name} images "
            f"({extra['pixels']} px)"
        )
    write_manifest(out_dir / "manifest.csv", rows)
    return files + ["manifest.csv"]


def service_target(service: str, summary: str) -> Target:
    return Target(service, summary, partial(export_game, service), check=partial(check_sizes, service))


TGC = service_target("tgc", "The Game Crafter's exact image sizes (poker 825x1125 px), RGB")
MPC = service_target("mpc", "MakePlayingCards' exact image sizes (poker 822x1122 px), RGB")
