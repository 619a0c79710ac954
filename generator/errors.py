"""Errors about the user's input: each names the file, line and key, and says what to do."""

from __future__ import annotations

import difflib
import os
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


def unique_problems(problems: list[Problem]) -> list[Problem]:
    """Problems in their order, each reported once."""
    seen, unique = set(), []
    for problem in problems:
        key = (problem.file, problem.line, problem.key, problem.message)
        if key not in seen:
            seen.add(key)
            unique.append(problem)
    return unique


def fail(file, line, message, key=None, hint=None):
    raise InputError(Problem(Path(file) if file else None, line, message, key, hint))


def did_you_mean(word: str, choices) -> str | None:
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
