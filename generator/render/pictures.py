"""Pictures as they are embedded: scaled down to the size they print at, in colours a PDF shows as drawn.

render/weasy/pictures.py hands WeasyPrint's pictures here as it writes them (see there why); this module knows
nothing of WeasyPrint. A picture made smaller, or converted, is kept in the user's cache (`pictures/`), keyed
by its content, the size it is made at and how it is made (RECIPE), sealed like every cache entry pnpgen loads
(fsutil.write_sealed_entry: a file planted in the folder is never embedded) and stored as plain bytes after a
one-line JSON header, no pickle. A template edited renders every face again, and finds its pictures made.

Colours: a profile other than sRGB is converted to sRGB (what the rest of the page is; PDF/X export then
converts sRGB to the output intent), 16-bit samples to 8 bits. A CMYK picture without a profile keeps its
numbers (DeviceCMYK, as the designer set them for the press); a greyscale one stays grey.
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass

from generator.fsutil import read_sealed_entry, write_sealed_entry
from generator.paths import user_cache_dir

RECIPE = "pictures-1"  # part of each copy's key and of the face cache keys: a change makes every copy again
JPEG_QUALITY = 92  # Pillow's default (75, what WeasyPrint's own downscaling writes) shows on a printed picture
KEPT_MODES = ("RGB", "RGBA", "L", "LA", "CMYK")  # what WeasyPrint writes as they are
SIXTEEN_BITS = ("I;16", "I;16B", "I;16L", "I;16N", "I")


@dataclass(frozen=True)
class Prepared:
    """A picture as it is embedded: its encoded bytes (JPEG or PNG), mode and size in pixels."""

    data: bytes
    format: str  # JPEG | PNG
    mode: str
    width: int
    height: int
    inverted: bool  # an Adobe CMYK JPEG (its samples stored inverted, as Pillow writes CMYK)


def needs_converting(source: bytes) -> bool:
    """Whether the picture would print in other colours than its own if embedded as it is: a profile other than
    sRGB, or samples a PDF does not take as they are (16-bit). Reads the file's header only."""
    from PIL import Image

    try:
        with Image.open(io.BytesIO(source)) as image:
            return image.mode not in KEPT_MODES + ("P", "1") or _foreign_profile(image) is not None
    except Exception:  # noqa: BLE001 - decoded once before; what cannot be reopened is embedded as it is
        return False


def prepared(source: bytes, size: tuple[int, int] | None) -> Prepared:
    """The picture of `source` made `size` pixels large (None: as large as it is) in colours WeasyPrint writes
    as they are: from the user's cache when it was made before, else made and kept there."""
    key = hashlib.sha256(source + f"\0{size}\0{RECIPE}".encode()).hexdigest()
    entry = user_cache_dir("pictures") / key[:2] / key
    found = _read(entry)
    if found is not None:
        return found
    made = _make(source, size)
    header = {"format": made.format, "mode": made.mode, "size": [made.width, made.height], "inverted": made.inverted}
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        write_sealed_entry(entry, json.dumps(header).encode() + b"\n" + made.data)
    except OSError:
        pass  # an unwritable cache: made again next time
    return made


def _read(entry) -> Prepared | None:
    sealed = read_sealed_entry(entry)
    if sealed is None:
        return None
    head, _, data = bytes(sealed).partition(b"\n")
    try:
        header = json.loads(head)
        width, height = (int(value) for value in header["size"])
        return Prepared(data, str(header["format"]), str(header["mode"]), width, height, bool(header["inverted"]))
    except (ValueError, KeyError, TypeError):
        return None


def _make(source: bytes, size: tuple[int, int] | None) -> Prepared:
    from PIL import Image

    with Image.open(io.BytesIO(source)) as opened:
        was_jpeg = opened.format in ("JPEG", "MPO")
        if size is not None and was_jpeg:
            opened.draft(opened.mode, size)  # decoded at 1/2, 1/4 or 1/8 when that is still as large as size
        image = in_printable_colours(opened)
    if size is not None and image.size != size:
        image = image.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
    out = io.BytesIO()
    if was_jpeg and image.mode in ("RGB", "L", "CMYK"):
        image.save(out, format="JPEG", quality=JPEG_QUALITY)
        return Prepared(out.getvalue(), "JPEG", image.mode, image.width, image.height, image.mode == "CMYK")
    image.save(out, format="PNG")
    return Prepared(out.getvalue(), "PNG", image.mode, image.width, image.height, False)


def in_printable_colours(image):
    """The picture in a mode WeasyPrint writes as it is (KEPT_MODES), converted to sRGB from another RGB or
    CMYK ICC profile (CMYK pictures with no profile keep their numbers), 16-bit samples scaled to 8."""
    from PIL import ImageCms

    image.load()
    profile = _foreign_profile(image)  # read before a conversion drops the picture's info
    if image.mode in SIXTEEN_BITS:
        image = image.convert("I").point(lambda value: value * (1 / 257)).convert("L")
    if image.mode == "P" or image.mode not in KEPT_MODES:
        image = image.convert("RGBA" if "transparency" in image.info or "A" in image.mode else "RGB")
    if profile is not None and image.mode in ("RGB", "RGBA", "CMYK"):
        alpha = image.getchannel("A") if image.mode == "RGBA" else None
        colour = image.convert("RGB") if alpha is not None else image
        image = ImageCms.profileToProfile(
            colour, profile, _srgb(), renderingIntent=ImageCms.Intent.PERCEPTUAL, outputMode="RGB"
        )
        if alpha is not None:
            image.putalpha(alpha)
    return image


def _srgb():
    from PIL import ImageCms

    return ImageCms.createProfile("sRGB")


def _foreign_profile(image):
    """The picture's ICC profile when it is not sRGB (and applies to its colours), else None."""
    from PIL import ImageCms

    icc = image.info.get("icc_profile")
    if not icc:
        return None
    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    except (OSError, ImageCms.PyCMSError):
        return None  # a damaged profile: the samples as they are, as any viewer shows them
    if "srgb" in ImageCms.getProfileDescription(profile).lower():
        return None
    return profile if profile.profile.xcolor_space.strip() in ("RGB", "CMYK") else None
