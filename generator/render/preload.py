"""Imported by the fork server only (see generator/processes.py), once, before it forks any render worker:
WeasyPrint with pnpgen's changes, what a worker runs (render/worker.py), the fonts found and the renderer
warmed up on a small document. Each worker forked from it starts with all of that loaded and shared.

Nothing here may fail the fork server: whatever could not be loaded, a worker loads when it needs it.
"""

from __future__ import annotations

import logging

from generator import heap, processes

WARM_UP = (
    '<html lang="en"><head><style>{fonts}</style></head>'
    '<body style="font-family: Noto Sans CJK JP"><p>Card</p><p style="font-weight: bold">Card</p></body></html>'
)


def warm_up() -> None:
    from generator.render import fonts, weasy, worker  # noqa: F401 - imported to be shared by every worker

    weasyprint = weasy.load()
    for name in ("weasyprint", "fontTools"):  # as the command quiets them (commands/runner.py)
        logging.getLogger(name).setLevel(logging.ERROR)
    # fontconfig, Pango and the fonts, in the font configuration every worker's documents share
    weasy.SharedFonts(weasyprint.HTML(string=WARM_UP.format(fonts=fonts.font_face_css()))).render().write_pdf()


processes.serve_forks()
with heap.long_lived():  # no collection while WeasyPrint is imported (0.04 s); what it made is frozen: the
    try:  # workers share those pages, and no collection in them walks (and so copies) them
        warm_up()
    except Exception:  # noqa: BLE001 - the workers load what is missing themselves
        pass
