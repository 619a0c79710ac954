"""The export targets `pnpgen export --to NAME` knows, in the order its help lists them.

A new target is a module of generator/export/ with its TARGET (an ExportTarget: generator/export/target.py),
and its line here.
"""

from __future__ import annotations

from generator.export import pdfx, png, services, tts
from generator.export.target import ExportTarget

TARGETS: dict[str, ExportTarget] = {
    target.name: target
    for target in (
        png.TARGET,
        services.TGC,
        services.MPC,
        tts.TARGET,
        pdfx.TARGET,
    )
}
