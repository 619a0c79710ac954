"""Card faces as PNG images for the page: a face's page of its cached batch PDF, rasterized by pdfium.

Faces are named by their face-cache key (a hash of everything that determines them), so an image never
changes under its name: an edit gives the face a new key, and the page a new image URL.
"""

from __future__ import annotations

import io
import re
import threading
from pathlib import Path

from generator.fsutil import write_cache_entry
from generator.render.pipeline import FaceCache

DPI = 150
FACE_KEY = re.compile(r"^[0-9a-f]{64}$")


class Previews:
    def __init__(self, faces: FaceCache, directory: Path):
        self.faces = faces
        self.directory = directory
        self.known: set[str] = set()
        self.pdfium = threading.Lock()  # pdfium is not thread-safe; the server answers on many threads

    def know(self, keys) -> None:
        """Faces of the current game: the only ones served."""
        self.known.update(keys)

    def png(self, key: str) -> bytes | None:
        """The face's image, or None when the key is not a face of this game (or not rendered)."""
        if not FACE_KEY.match(key) or key not in self.known:
            return None
        path = self.directory / key[:2] / f"{key}.png"
        if path.is_file():
            return path.read_bytes()
        where = self.faces.find_face(key)
        batch = self.faces.get(where[0]) if where else None
        if batch is None or where is None:
            return None
        data = self.rasterize(batch, where[1])
        write_cache_entry(path, data)
        return data

    def rasterize(self, batch: bytes, index: int) -> bytes:
        with self.pdfium:
            return rasterize(batch, index)


def rasterize(pdf: bytes, index: int) -> bytes:
    """One page at the trim box (the bleed left out), as PNG."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        page = document[index]
        left, bottom, right, top = page.get_mediabox()
        trim = page.get_trimbox()
        crop = (trim[0] - left, trim[1] - bottom, right - trim[2], top - trim[3])
        image = page.render(scale=DPI / 72, crop=crop).to_pil()
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        return buffer.getvalue()
    finally:
        document.close()
