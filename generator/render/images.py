"""Images are decoded, not trusted: a corrupt PNG, JPEG or SVG is an error naming the file and where it is used.

WeasyPrint leaves an image it cannot read out of the page (an icon prints its alt text, a figure its
caption alone) and says nothing. So every image a template, icon or rule figure uses is decoded once
before rendering: rasters by Pillow, SVG by an XML parse and a test render of the file alone.
"""

from __future__ import annotations

import hashlib
import logging
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from generator.fsutil import content_digest
from generator.model.schema import PLACEHOLDER_IMAGE

NO_PICTURE = "has no picture yet"  # why a card without a picture value prints a placeholder box
RASTERS = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff"}
_checked: dict[tuple[Path, int, int], str | None] = {}  # (path, mtime, size) -> why it cannot be used
_rendered_dir: Path | None = None  # where SVGs that rendered are remembered by content (the face cache)


def remember_in(directory: Path | None) -> None:
    """Remember the pictures that decoded (the SVGs that passed the test render) in directory, by content, so a
    rebuild decodes none again (a hundred 2,000 x 2,800 px JPEGs: 3 s of every build)."""
    global _rendered_dir
    _rendered_dir = directory


def image_problem(path: Path) -> str | None:
    """Why the image at path cannot be printed, or None when it decodes. Each file version is decoded once."""
    try:
        stat = path.stat()
    except OSError as error:
        return f"cannot be read ({error.strerror})"
    key = (path.resolve(), stat.st_mtime_ns, stat.st_size)
    if key not in _checked:
        _checked[key] = _decode(path)
    return _checked[key]


def _decode(path: Path) -> str | None:
    suffix = path.suffix.lower()
    if suffix in RASTERS:
        return _remembered(path, "raster-ok", _raster_problem)
    if suffix == ".svg":
        try:
            root = ElementTree.parse(path).getroot()
        except ElementTree.ParseError as error:
            return f"is not a well-formed SVG file ({error})"
        if not root.tag.endswith("svg"):
            return f"is not an SVG image (its root element is <{root.tag.split('}')[-1]}>)"
        return _remembered(path, "svg-ok", _svg_render_problem)
    return None


def _remembered(path: Path, kind: str, problem) -> str | None:
    """problem(path), unless a file of this content passed it before (a marker in the face cache's `kind` folder)."""
    from generator.render.weasy.patches import weasyprint_version

    digest = hashlib.sha256(content_digest(path) + weasyprint_version().encode()).hexdigest()
    known = _rendered_dir / kind / digest if _rendered_dir else None
    if known is not None and known.exists():
        return None
    why = problem(path)
    if why is None and known is not None:
        known.parent.mkdir(parents=True, exist_ok=True)
        known.touch()
    return why


def _raster_problem(path: Path) -> str | None:
    from PIL import Image, ImageFile

    tolerant = ImageFile.LOAD_TRUNCATED_IMAGES  # WeasyPrint turns it on: a cut-off file would print half grey
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with Image.open(path) as image:
            # a JPEG is decoded at an eighth of its size: every coefficient is still read (a damaged or cut-off
            # file fails alike), at a fifth of the time of a 2,000 x 2,800 px picture decoded whole
            image.draft(image.mode, (max(1, image.width // 8), max(1, image.height // 8)))
            image.load()
    except Exception as error:  # noqa: BLE001 - Pillow raises OSError, SyntaxError, ValueError... for a damaged file
        return f"cannot be decoded as an image ({error})"
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = tolerant
    return None


def _svg_render_problem(path: Path) -> str | None:
    """Render the SVG alone, as the cards will: what WeasyPrint logs about it, or None."""
    from generator.render import weasy

    weasyprint = weasy.load()
    caught: list[str] = []

    class Catch(logging.Handler):
        def emit(self, record):
            caught.append(record.getMessage())

    handler = Catch(logging.WARNING)
    logger = logging.getLogger("weasyprint")
    level = logger.level  # the command line quiets WeasyPrint's warnings: hear them for this render
    logger.setLevel(logging.WARNING)
    logger.addHandler(handler)
    try:
        html = f'<img src="{path.resolve().as_uri()}" style="width:10mm;height:10mm">'
        weasyprint.HTML(string=html).render()
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    if caught:
        return f"cannot be drawn as an SVG image ({caught[0]})"
    return None


def check_used_images(used: dict) -> None:
    """Raise the located problems of every image a template used: `used` maps each file to where it was
    first asked for (template file, line, what asked)."""
    from generator.errors import InputError, Problem

    problems = []
    for path, (file, line, what) in used.items():
        why = image_problem(path)
        if why:
            problems.append(
                Problem(
                    file,
                    line,
                    f"image '{path}' {why} (used by {what})",
                    hint="replace the file with a working PNG, JPEG or SVG",
                )
            )
    if problems:
        raise InputError(problems)


def art_file(game_dir: Path, written: str) -> Path:
    """The file a card's image value names (a path inside the game's folder, checked by the schema)."""
    return game_dir / written


def art_problem(game_dir: Path, written: str | None) -> str | None:
    """Why the picture an image field names cannot print (a placeholder box prints in its place), or None:
    no value, `placeholder`, a file that is not there, is not inside the game's folder, or does not decode."""
    if not written or written == PLACEHOLDER_IMAGE:
        return NO_PICTURE
    path = art_file(game_dir, written)
    root = game_dir.resolve()
    if not path.resolve().is_relative_to(root):
        return f"'{written}' leads outside the game's folder"
    if not path.is_file():
        return f"'{written}' not found"
    why = image_problem(path)
    return f"'{written}' {why}" if why else None


def card_pictures(deck) -> Iterator[tuple[Any, str, str | None]]:
    """(card, key path, picture path or `placeholder` or None) for every image value of a deck's cards; a
    top-level image field a card leaves out gives None (`picture` or `parts[0].art` for nested ones)."""
    from generator.model.schema import ImagePath, walk_images

    for card in deck.cards:
        for name, declared in deck.fields.items():
            if isinstance(declared.spec, ImagePath) and card.fields.get(name) is None:
                yield card, name, None
            elif name in card.fields:
                for path, written in walk_images(declared.spec, card.fields[name], (name,)):
                    yield card, key_path(path), written


def key_path(path: tuple) -> str:
    """`parts[0].art` for the path ('parts', 0, 'art')."""
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path).lstrip(".")


def unpictured(game) -> Iterator[tuple[Any, Any, str, str]]:
    """(deck, card, key, why) for every picture a card prints a placeholder box for."""
    for deck in game.decks.values():
        for card, key, written in card_pictures(deck):
            why = art_problem(game.dir, written)
            if why is not None:
                yield deck, card, key, why
