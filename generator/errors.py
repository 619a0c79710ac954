"""Errors about the user's input: each names the file, line and key, and says what to do."""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Problem:
    """One located problem in the user's files."""

    file: Path | None
    line: int | None
    message: str
    key: str | None = None
    hint: str | None = None
    cell: str | None = None  # a spreadsheet cell, like `assets!C12`, in place of a line

    def location(self) -> str:
        if self.file is None:
            return "pnpgen"
        name = display_path(self.file)
        if self.cell:
            return f"{name}: {self.cell}"
        return f"{name}:{self.line}" if self.line else name

    def __str__(self) -> str:
        key = f"{self.key}: " if self.key else ""
        hint = f" ({self.hint})" if self.hint else ""
        return f"{self.location()}: {key}{self.message}{hint}"


class InputError(Exception):
    """The input cannot be used. Carries one or more located problems; the CLI exits 2."""

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = problems if isinstance(problems, list) else [problems]
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self):  # raised in a render worker, received whole by the command
        return type(self), (self.problems,)


SHOWN_PROBLEMS = 50  # one mistake repeated down a sheet is one mistake: the first 50, then how many more


class ProblemList:
    """Problems as they are found: the first SHOWN_PROBLEMS kept, the rest only counted (a sheet of 100,000
    bad rows costs neither the memory nor the screen of 100,000 problems)."""

    def __init__(self) -> None:
        self.kept: list[Problem] = []
        self.more = 0

    def add(self, problems: list[Problem]) -> None:
        room = SHOWN_PROBLEMS - len(self.kept)
        self.kept += problems[: max(room, 0)]
        self.more += max(len(problems) - max(room, 0), 0)

    def __bool__(self) -> bool:
        return bool(self.kept)

    def __len__(self) -> int:
        return len(self.kept) + self.more

    def final(self) -> list[Problem]:
        """The kept problems, then one saying how many more there are."""
        if not self.more:
            return list(self.kept)
        return self.kept + [more_problems(self.kept[-1].file, self.more)]


def more_problems(file: Path | None, count: int) -> Problem:
    return Problem(file, None, f"and {count:,} more problems", hint="correct these and run again to see the rest")


def capped(problems: list[Problem]) -> list[Problem]:
    """At most SHOWN_PROBLEMS problems and a count of the rest (a list already capped is left as it is)."""
    if len(problems) <= SHOWN_PROBLEMS + 1:
        return problems
    found = ProblemList()
    found.add(problems)
    return found.final()


def unique_problems(problems: list[Problem]) -> list[Problem]:
    """Problems in their order, each reported once."""
    seen, unique = set(), []
    for problem in problems:
        key = (problem.file, problem.line, problem.key, problem.message)
        if key not in seen:
            seen.add(key)
            unique.append(problem)
    return unique


def did_you_mean(word: object, choices: Iterable[object]) -> str | None:
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def display_path(path: Path) -> str:
    """A path relative to the working directory when it is below it, else absolute."""
    try:
        return os.path.relpath(path) if not os.path.relpath(path).startswith("..") else str(path)
    except ValueError:
        return str(path)


def unknown_language(game, lang: str, all_allowed: bool = False) -> InputError:
    """The error of a language the game (a model.Game) does not have, located at its `languages`, with the
    nearest one it has."""
    choices = ", ".join(game.languages) + (" or all" if all_allowed else "")
    return InputError(
        Problem(
            game.files["game"],
            None,
            f"the game has no language '{lang}'",
            "languages",
            hint=did_you_mean(lang, game.languages) or f"choose from {choices}",
        )
    )
