"""Raster pictures embedded at the resolution they print at, in the colours they were drawn in.

WeasyPrint's `dpi` option (given to render() as the game's `print: {image_dpi}`, 350 by default) measures each
picture where it is drawn and asks for a smaller copy of one finer than that (`dpi_ratio`); the copy is made by
render/pictures.py instead (RasterImage.get_x_object replaced): once (kept in the user's cache, sealed), well
(JPEG's reduced decoding, Lanczos, JPEG_QUALITY, where WeasyPrint takes Pillow's default quality 75) and in
its colours. WeasyPrint writes a picture's samples as DeviceRGB, DeviceGray or DeviceCMYK and drops its ICC
profile: an Adobe RGB picture prints dull, a CMYK one with its own profile prints its numbers through another
press's, and a 16-bit greyscale PNG (Pillow's `I;16`) is written as 8-bit RGB samples it is not. Such a picture
is converted too, even where it is not made smaller.

Any other picture is embedded as WeasyPrint embeds it (a JPEG's own bytes). Within one PDF, WeasyPrint writes
each picture once however often it is drawn; sheet_writer.share_pictures does the same across the faces imposed
on one file.
"""

from __future__ import annotations

import copy

from generator.render.pictures import needs_converting, prepared


def embed_pictures() -> None:
    """Have WeasyPrint embed each raster picture through prepared() (see the module's doc)."""
    from weasyprint.images import RasterImage

    original = RasterImage.get_x_object
    if getattr(original, "prepares_pictures", False):
        return

    def get_x_object(image, interpolate, dpi_ratio):
        source = image.image_data.data
        if dpi_ratio >= 1 and not needs_converting(source):
            return original(image, interpolate, dpi_ratio)
        size = (max(1, round(image.width * dpi_ratio)), max(1, round(image.height * dpi_ratio)))
        made = prepared(source, size if dpi_ratio < 1 else None)
        stand_in = copy.copy(image)
        stand_in.width, stand_in.height, stand_in.mode = made.width, made.height, made.mode
        stand_in.format, stand_in.invert_colors = made.format, made.inverted
        stand_in.ratio = made.width / made.height
        stand_in.image_data = image.cache_image_data(made.data, slot=f"prepared-{made.width}x{made.height}")
        return original(stand_in, interpolate, 1)

    get_x_object.prepares_pictures = True  # type: ignore[attr-defined]  # set on a function object
    get_x_object.__wrapped__ = original  # type: ignore[attr-defined]  # what internals.py checks
    RasterImage.get_x_object = get_x_object
