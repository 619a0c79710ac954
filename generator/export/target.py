"""The ExportTarget protocol: what `pnpgen export --to NAME` needs of a target.

A target owns everything about itself: its name and one line on what it makes, its own command-line options
(added to `pnpgen export`'s parser in a group of their own, read back into the target's options object), the
checks that refuse, before anything is rendered, what it could not export, and the export itself. The
registry is generator/export/registry.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from generator.export.deck_images import DeckExport
from generator.model.game import Game
from generator.progress import Progress


class OptionAdder(Protocol):
    """Where a target adds its options: an argparse parser or argument group, as `pnpgen export` gives it."""

    def add_argument(self, *flags: str, **how: Any) -> Any: ...


class ExportTarget(Protocol):
    @property
    def name(self) -> str:
        """What `--to` names it by, and the start of its folder's name (OUT/<game>/<name>-<lang>/)."""
        ...

    @property
    def summary(self) -> str:
        """What it makes, in one line (`pnpgen export --help`)."""
        ...

    def add_options(self, parser: OptionAdder) -> None:
        """Add the target's own options (`--dpi`, `--icc PATH`, ...)."""

    def read_options(self, values: Mapping[str, Any]) -> Any:
        """The target's options object, from the parsed command line (values by `dest`)."""

    @property
    def piece_bleed_mm(self) -> float | None:
        """The bleed its token sheets, boards and aids are exported with (as pseudo-decks of their distinct
        faces, beside the decks); None: a target of decks only."""
        ...

    def check(self, game: Game, options: Any) -> None:
        """Raise InputError (located) on what would fail after the rendering: a card size a print service
        does not make, a bleed too small, a profile that is not a CMYK one."""

    def export(self, decks: list[DeckExport], options: Any, out_dir: Path, progress: Progress, title: str) -> list[str]:
        """Write one language's files into out_dir (inside the command's OutputSet); return their names."""
        ...


def no_options(parser: OptionAdder) -> None:
    """For a target that has no options of its own."""


def read_no_options(values: Mapping[str, Any]) -> None:
    return None


def nothing_to_check(game: Game, options: Any) -> None:
    """For a target that can export every deck pnpgen can build."""


@dataclass(frozen=True)
class Target:
    """An ExportTarget made of functions."""

    name: str
    summary: str
    write: Callable[[list[DeckExport], Any, Path, Progress, str], list[str]]  # export()
    add_options: Callable[[OptionAdder], None] = no_options
    read_options: Callable[[Mapping[str, Any]], Any] = read_no_options
    check: Callable[[Game, Any], None] = nothing_to_check
    piece_bleed_mm: float | None = None

    def export(self, decks: list[DeckExport], options: Any, out_dir: Path, progress: Progress, title: str) -> list[str]:
        return self.write(decks, options, out_dir, progress, title)
