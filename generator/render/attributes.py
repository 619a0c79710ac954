"""The `data-` attributes of the HTML pnpgen renders, each declared once with what it does, in the module that
reads or writes it: those a template may write (docs/templates.md lists them) and those pnpgen writes itself."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Attribute:
    name: str
    value: str  # what it takes
    doc: str
    for_templates: bool = True  # False: pnpgen writes it on the pages it makes; a template does not

    def __str__(self) -> str:
        return self.name
