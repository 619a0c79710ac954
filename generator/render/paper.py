"""Paper and millimetres: the papers pnpgen prints on, the margin a home printer leaves blank, rectangles on
the paper, and how a length is written into a PDF.

Geometry is in millimetres with the origin at the paper's bottom-left corner (PDF convention).
"""

from __future__ import annotations

from dataclasses import dataclass

MM = 72.0 / 25.4  # PDF points per millimetre
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # portrait, mm
MARGIN_MM = 5.0  # home printers leave the paper's outer edge blank: nothing is placed there


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    def inset(self, d: float) -> Rect:
        return Rect(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    @property
    def top(self) -> float:
        return self.y + self.h

    @property
    def right(self) -> float:
        return self.x + self.w


def printable(paper: tuple[float, float], margin: float) -> Rect:
    """The part of the paper a home printer prints: everything pnpgen draws stays inside it."""
    return Rect(margin, margin, paper[0] - 2 * margin, paper[1] - 2 * margin)


def orientations(paper_name: str) -> list[tuple[float, float]]:
    """The paper's size portrait, then landscape."""
    w, h = PAPERS[paper_name]
    return [(w, h), (h, w)]


def pdf_number(value: float) -> str:
    """A number as a PDF content stream writes it: at most 4 decimals, no trailing zeros."""
    return f"{value:.4f}".rstrip("0").rstrip(".")
