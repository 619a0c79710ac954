"""validate's checks of the data that every build runs before rendering (see build/problems.py)."""
from __future__ import annotations

from generator.errors import Problem


def data_problems(game, langs: list[str] | None = None) -> list[Problem]:
    """validate's checks of the data (box contents, deals and declared checks at every player count, ids,
    references, translations into `langs`, rules): fast, so every build runs them before rendering."""
    from generator.checks.validate import validate

    return validate(game, templates=False, langs=langs).problems
