"""`pnpgen validate`: every check of a game, each problem with file and line, in one Report.

The checks live in modules of their own (box_contents, references, translations, placeholders, invented, art,
declared, templates); the game declares what must hold (setup deals, invariants, unique fields) in game.yaml, and no
check knows a game by name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from generator.checks.art import check_art
from generator.checks.boards import board_notes
from generator.checks.box_contents import check_box_contents
from generator.checks.declared import run_declared_checks
from generator.checks.invented import check_invented
from generator.checks.placeholders import check_placeholders
from generator.checks.references import check_ids, check_references, check_removals
from generator.checks.templates import check_templates
from generator.checks.translations import check_translations
from generator.errors import InputError, Problem, display_path, unique_problems
from generator.model.game import Game
from generator.model.setup import PlayerCount, deal
from generator.render.rulebook import require_valid_rules


@dataclass
class Report:
    game: Game
    counts: dict[int, PlayerCount]
    problems: list[Problem]
    notes: list[Problem] = field(default_factory=list)  # what is not wrong but worth knowing: how boards print

    def as_json(self) -> dict:
        return {
            "game": self.game.id,
            "players": {
                str(n): {
                    "decks": {d: row.in_play for d, row in pc.decks.items()},
                    "removed": {d: row.removed for d, row in pc.decks.items()},
                    "dealt": {d: row.dealt for d, row in pc.decks.items()},
                    "reserved": {d: row.reserved for d, row in pc.decks.items()},
                    "left": {d: row.left for d, row in pc.decks.items()},
                    "setup": pc.setup,
                }
                for n, pc in self.counts.items()
            },
            "problems": [problem_json(p, self.game.dir) for p in self.problems],
            "notes": [problem_json(p, self.game.dir) for p in self.notes],
        }


def problem_json(problem: Problem, game_dir: Path | None) -> dict:
    """A problem as `validate --json` gives it: its file relative to the game directory when there is one."""
    file = None
    if problem.file is not None:
        file = os.path.relpath(problem.file, game_dir) if game_dir else display_path(problem.file)
    message = f"{problem.key}: {problem.message}" if problem.key else problem.message
    return {"file": file, "line": problem.line, "message": message, "hint": problem.hint}


def validate(
    game: Game,
    only_players: int | None = None,
    templates: bool = True,
    langs: list[str] | None = None,
    memo=None,
    progress=None,
) -> Report:
    """Every check; `templates=False` leaves out the template checks (a build finds those as errors itself);
    `langs` limits the missing translations looked for to those languages (a build of some of them); `memo`
    (a FaceMemo) spares the template dry run the cards run before with the same inputs; `progress` counts them."""
    problems: list[Problem] = []
    low, high = game.players
    counts = [only_players] if only_players else list(range(low, high + 1))
    problems += game.template_problems
    problems += game.printables.warnings if game.printables else []
    problems += check_templates(game, memo, progress) if templates else []
    problems += check_box_contents(game)
    problems += check_ids(game)
    problems += check_references(game)
    problems += check_removals(game)
    problems += check_translations(game, langs)
    problems += check_placeholders(game)
    problems += check_invented(game)
    problems += check_art(game)
    problems += rules_problems(game)
    table = {}
    for players in counts:
        table[players] = deal(game, players, problems)
    problems += run_declared_checks(game, table)
    return Report(game, table, unique_problems(problems), board_notes(game))


def data_problems(game: Game, langs: list[str] | None = None) -> list[Problem]:
    """validate's checks of the data (box contents, deals and declared checks at every player count, ids,
    references, translations into `langs`, rules): fast, so every build runs them before rendering."""
    return validate(game, templates=False, langs=langs).problems


def rules_problems(game: Game) -> list[Problem]:
    """rules.yaml, if the game has one: its blocks, languages and every placeholder resolve."""
    try:
        require_valid_rules(game)
    except InputError as error:
        return error.problems
    return []
