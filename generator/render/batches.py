"""A document to render and its content key, by which the face cache stores the render.

A Batch is one WeasyPrint document: a deck's distinct faces (card-size pages), a board, a rule sheet, the
labels of card sheets. Its key hashes its text (or what the text is made from) with everything else that
decides the PDF: what the text reads, by name and content (render/reads.py: not where the game's folder is),
WeasyPrint's version, the fonts and how they are embedded, the text check's version and the layout passes.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable

from generator.render import fonts
from generator.render.reads import DocumentReads
from generator.render.weasy.compactfonts import EMBEDDING
from generator.model.game import DEFAULT_IMAGE_DPI
from generator.render.weasy.fit import CHECK_VERSION
from generator.render.pictures import RECIPE as PICTURES_RECIPE
from generator.render.weasy.patches import weasyprint_version
from generator.render.worker import RenderedBatch, render_document

# What render_measured does between layout and PDF besides WeasyPrint (shrinking text, pulling down short
# last lines): a change to it changes the PDFs from the same HTML, so it is part of every cache key.
LAYOUT_PASSES = "shrink-2 furigana-2 phrases-2 lastlines-6 lastpage-3 grow-2 justify-2"
TAGGED = "tagged-1"  # in the key of a tagged batch: how structure elements are tagged (render/weasy/taglang.py)


class Batch:
    """One WeasyPrint document to render: its text, base URL and cache key.

    A document known by what it is made from (`inputs`: a text that changes whenever its HTML would) is keyed
    by those inputs, and `make` writes its HTML only when it is rendered: finding it in the cache costs no
    template render (the sheet labels: a render and the typesetting of every label, in every rebuild).

    A `tagged` batch is written as a tagged PDF (its structure tree: what rule sheets and aids are read by)."""

    def __init__(
        self,
        html: str | None,
        base_url: str,
        inputs: str | None = None,
        make: Callable[[], str] | None = None,
        tagged: bool = False,
        image_dpi: int = DEFAULT_IMAGE_DPI,
    ):
        assert html is not None or (inputs is not None and make is not None), "a batch needs its HTML or a maker"
        self._html, self.base_url, self.inputs, self._make = html, base_url, inputs, make
        self.tagged = tagged
        self.decided: dict[str, str] | None = None  # the passes' decisions for its blocks known (weasy/decisions.py)
        self.image_dpi = image_dpi  # finer pictures are embedded scaled down to this (weasy/pictures.py)

    @property
    def html(self) -> str:
        if self._html is None:
            assert self._make is not None
            self._html = self._make()
        return self._html

    @functools.cached_property
    def key(self) -> str:
        tagging = ((TAGGED,) if self.tagged else ()) + (f"pictures at {self.image_dpi} dpi",)
        if self.inputs is not None:  # not a document: the inputs name no file to read
            return _digest_of(_key_start(), (self.base_url, *tagging, "made from", self.inputs)).hexdigest()
        return content_key(self.base_url, *tagging, self.html)


def content_key(base_url: str, *texts: str) -> str:
    """Hash of everything that determines the rendering of a document made of texts against base_url: the
    texts with the folder's URL and path put aside, the name and content of every file they name that the
    document may read (render/reads.py), WeasyPrint's version, the fonts and how they are embedded."""
    return content_keyer(base_url, *texts[:-1])(texts[-1])


def renderer_fingerprint() -> str:
    """Hash of what renders every batch (WeasyPrint's version, the fonts, the text check, the layout passes):
    the start of every content key."""
    return _key_start().hexdigest()


def content_keyer(base_url: str, *common: str) -> Callable[[str], str]:
    """content_key(base_url, *common, last) as a function of last: the common texts (a deck's document around
    its faces, tens of kilobytes) are hashed once, and each file the texts read is hashed once."""
    reads = DocumentReads(base_url)
    start = _digest_of(_key_start(), [reads.key_text(text) for text in common])
    return lambda last: _digest_of(start.copy(), (reads.key_text(last),)).hexdigest()


def content_keys(common: tuple[str, ...], lasts: list[str]) -> list[str]:
    """content_key(*common, last) for each of lasts (common: the base URL, then the common texts)."""
    key = content_keyer(*common)
    return [key(last) for last in lasts]


def _key_start():
    return _digest_of(
        hashlib.sha256(),
        (weasyprint_version(), fonts.fingerprint(), CHECK_VERSION, LAYOUT_PASSES, EMBEDDING, PICTURES_RECIPE),
    )


def _digest_of(digest, parts):
    for part in parts:
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest


def render_fitted(batch: Batch) -> RenderedBatch:
    """Render one batch, with its measured text boxes (see render/worker.py: what a render worker runs)."""
    fonts.require_fonts_for(batch.html)
    return render_document(batch.html, batch.base_url, batch.tagged, batch.image_dpi, batch.decided)


def render_batch(batch: Batch) -> bytes:
    return render_fitted(batch).pdf
