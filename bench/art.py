"""The benchmark deck with pictures: each of the 100 distinct cards shows its own 2,000 x 2,800 px JPEG over its
whole face and bleed (a poker card, 69 x 94 mm with 3 mm of bleed: 951 x 1,295 px at 350 dpi).

The pictures are made from a fixed seed (a gradient, a fractal and fine grain: a JPEG of about a megabyte, like
a scanned painting), once per run, in the run's own folder.
"""

from __future__ import annotations

import random
from pathlib import Path

from deck import DISTINCT, write_pnpgen_game

PICTURE_PX = (2000, 2800)
PRINTED_MM = (69.0, 94.0)  # a poker card with its bleed
DPI = 350


def printed_px(dpi: int = DPI) -> tuple[int, int]:
    """The picture's pixels at dpi as it prints: it covers the card and its bleed (CSS `object-fit: cover`, the
    image() helper's default), so its printed size is the larger of the two scales, cropped on the other side."""
    inches_per_px = max(mm / 25.4 / px for px, mm in zip(PICTURE_PX, PRINTED_MM))
    return tuple(max(1, round(px * inches_per_px * dpi)) for px in PICTURE_PX)  # type: ignore[return-value]


def write_pictures(folder: Path, count: int = DISTINCT, seed: int = 1) -> list[Path]:
    """count distinct JPEG pictures of PICTURE_PX in folder (made once: kept when there)."""
    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    paths = []
    for index in range(count):
        path = folder / f"picture-{index + 1:03d}.jpg"
        paths.append(path)
        x, y, zoom = rng.uniform(-1.5, 0.2), rng.uniform(-0.8, 0.8), rng.uniform(0.3, 1.5)
        if path.exists():
            continue
        small = (PICTURE_PX[0] // 4, PICTURE_PX[1] // 4)
        gradient = Image.linear_gradient("L").rotate(index * 3.6).resize(small)
        fractal = Image.effect_mandelbrot(small, (x - zoom, y - zoom * 1.4, x + zoom, y + zoom * 1.4), 60)
        grain = Image.effect_noise(small, 40)
        picture = Image.merge("RGB", (gradient, fractal, grain)).resize(PICTURE_PX, Image.Resampling.BICUBIC)
        fine = Image.effect_noise(PICTURE_PX, 30).convert("RGB")
        Image.blend(picture, fine, 0.12).save(path, quality=90)
    return paths


def write_art_game(folder: Path, edit: str | None = None) -> Path:
    """The benchmark deck (deck.write_pnpgen_game), each card with its picture over its whole face."""
    game = write_pnpgen_game(folder, edit)
    pictures = write_pictures(game / "art")
    deck = game / "decks" / "cards.yaml"
    lines = deck.read_text().splitlines()
    out = []
    for line in lines:
        out.append(line)
        if line == "  body: {type: text}":
            out.append("  art: {type: image}")
        if line.startswith("  - id: card-"):
            number = int(line.rsplit("-", 1)[1])
            out.append(f"    art: art/{pictures[number - 1].name}")
    deck.write_text("\n".join(out) + "\n")
    template = game / "templates" / "card.html"
    text = template.read_text().replace(
        '<div class="bleed" style="background:#fffff0"></div>',
        f'<div class="bleed">{{{{ image(card.art, {PRINTED_MM[0]:g}, {PRINTED_MM[1]:g}) }}}}</div>',
    )
    template.write_text(text)
    return game


def downsampled_bytes(folder: Path, quality: int = 92) -> int:
    """The bytes of the pictures of folder downsampled to their printed size at 350 dpi, each a JPEG of the
    quality pnpgen embeds (render/pictures.JPEG_QUALITY): what the deck's PDF is compared with (not timed)."""
    import io

    from PIL import Image

    total = 0
    for path in sorted(folder.glob("*.jpg")):
        with Image.open(path) as picture:
            encoded = io.BytesIO()
            picture.resize(printed_px(), Image.Resampling.LANCZOS).save(encoded, format="JPEG", quality=quality)
            total += len(encoded.getvalue())
    return total
