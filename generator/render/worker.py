"""What a render worker runs: one WeasyPrint document in, its PDF and measured text boxes out.

Light on purpose: this module imports WeasyPrint's loader, the text check and the fonts and the bleed check (which
imports PDFium for a face with a picture at its trim only), nothing of the model,
the templates or the imposition. A worker is sent a document's text and base URL (plain strings) and sends
back a RenderedBatch, so a worker forked from the fork server (see generator/processes.py and
generator/render/preload.py) never imports the rest of pnpgen. The batches themselves, and the cache keys,
are made by render/batches.py; the pool that runs them is render/pipeline.py's.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field

from generator import heap
from generator.render import fonts
from generator.render.bleed_check import Trim, pictures_short_of_bleed
from generator.render.fetch import Confinement
from generator.render.weasy.decisions import BlockDecisions
from generator.render.weasy.fit import FitBox, render_measured


@dataclass
class RenderedBatch:
    """A batch's PDF and the measured text boxes (data-fit) of its pages, its pictures (kind `image`) and those of
    them that stop at the trim (kind `bleed`)."""

    pdf: bytes
    fits: list[FitBox] = field(default_factory=list)
    decided: dict[str, str] | None = None  # each block's markup after the passes, by its key (weasy/decisions.py)


def render_document(
    html: str,
    base_url: str,
    tagged: bool = False,
    image_dpi: int | None = None,
    decided: dict[str, str] | None = None,
) -> RenderedBatch:
    """Render one document (a pure function of its text, base URL and tagging: safe to cache and parallelize).
    The layout is measured between render() and write_pdf(), so the check costs no second rendering. A tagged
    PDF holds the document's structure (headings, lists, tables, figures, each in its language) for screen
    readers and reflow. Pictures finer than image_dpi at their printed size are embedded scaled down to it.
    `decided`: what the passes decided for the document's blocks in an earlier layout (weasy/decisions.py), given
    back with every block's decisions; the PDF is the same with or without it."""
    from generator.render import weasy

    weasyprint = weasy.load()

    confinement = Confinement(base_url, fonts.fetched_font_files())
    decisions = BlockDecisions(known=decided) if decided is not None else None
    document, fits = render_measured(
        weasy.SharedFonts(
            weasyprint.HTML(string=html, base_url=base_url, url_fetcher=confinement.fetcher()), dpi=image_dpi
        ),
        decisions,
    )
    confinement.raise_refused(html)
    pdf = document.write_pdf(pdf_tags=tagged)
    if any(fit.kind == "image" for fit in fits):
        fits += pictures_short_of_bleed(pdf, fits, page_trims(document))
    return RenderedBatch(pdf, fits, decisions.found if decisions is not None else None)


def page_trims(document) -> list[Trim]:
    """Each laid-out page's trim (width, height) and the bleed of each edge, in mm."""
    px_mm = 25.4 / 96
    return [
        (page.width * px_mm, page.height * px_mm, {edge: value * px_mm for edge, value in page.bleed.items()})
        for page in document.pages
    ]


def render_and_release(
    html: str,
    base_url: str,
    tagged: bool = False,
    image_dpi: int | None = None,
    decided: dict[str, str] | None = None,
) -> RenderedBatch:
    """render_document in a worker, then give the layout's memory back to the system: a worker that laid out
    a long rule sheet would otherwise keep that peak for the rest of the build."""
    try:
        return render_document(html, base_url, tagged, image_dpi, decided)
    finally:
        gc.collect()
        heap.release_free_memory()
