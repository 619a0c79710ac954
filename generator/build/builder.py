"""The Builder protocol: one kind of output of a game (card sheets, boards, aids, token sheets, rule sheets)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol
from collections.abc import Callable

from generator.build.outputs import FileEntry, OutputFile, OutputKind
from generator.model import Game

if TYPE_CHECKING:
    from generator.build.context import BuildContext


class Builder(OutputKind, Protocol):
    def check(self, game: Game) -> None:
        """Raise InputError on the builder's own input (rules.yaml, ...): called for every game before
        anything is written."""

    def build(self, context: BuildContext) -> list[FileEntry]:
        """Write this kind's files of context.game into context.out_dir; return their build.json entries."""
        ...


def nothing_to_check(game: Game) -> None:
    """For builders whose input validate's data checks cover already."""


@dataclass(frozen=True)
class OutputBuilder:
    """A Builder made of two functions."""

    kind: str
    write: Callable[[BuildContext], list[FileEntry]]
    check_input: Callable[[Game], None] = nothing_to_check
    reports: tuple[str, ...] = ()
    files: tuple[OutputFile, ...] = ()

    def check(self, game: Game) -> None:
        self.check_input(game)

    def build(self, context: BuildContext) -> list[FileEntry]:
        return self.write(context)
