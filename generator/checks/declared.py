"""validate: the checks a game declares in game.yaml (`checks:` expect, same, unique, each, distinct_pairs).

This module knows no game by name; the expressions are model/expr.py's, their names model/setup.py's.
"""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

from generator.errors import InputError, Problem
from generator.model.expr import ExpressionError, ExpressionTooLarge, evaluate
from generator.model.game import Card, Game
from generator.model.setup import PlayerCount, functions_for, names_for


def run_declared_checks(game: Game, table: dict[int, PlayerCount]) -> list[Problem]:
    problems = []
    file = game.files["game"]
    for check in game.checks:
        lines = check.get("_lines", {})
        line = check["_line"]
        about = f" ({check['about']})" if check.get("about") else ""
        rows = [row for n, row in table.items() if not check.get("players") or n in check["players"]]
        try:
            if "expect" in check:
                for row in rows:
                    if not evaluate(check["expect"], names_for(game, row), functions_for(game, row.players)):
                        problems.append(
                            Problem(
                                file,
                                lines.get("expect", line),
                                f"with {row.players} players, `{check['expect']}` does not hold{about}",
                            )
                        )
            if "same" in check:
                values = {
                    row.players: evaluate(check["same"], names_for(game, row), functions_for(game, row.players))
                    for row in rows
                }
                if len(set(values.values())) > 1:
                    shown = ", ".join(
                        f"{n} players: {v:g}" if isinstance(v, (int, float)) else f"{n}: {v}" for n, v in values.items()
                    )
                    problems.append(
                        Problem(
                            file, lines.get("same", line), f"`{check['same']}` differs by player count ({shown}){about}"
                        )
                    )
            if "unique" in check:
                problems += check_unique(game, check["unique"], file, line)
            if "each" in check:
                problems += check_each(game, check["each"], file, line, about)
            if "distinct_pairs" in check:
                for row in rows:
                    problem = check_distinct_pairs(game, check["distinct_pairs"], row.players)
                    if problem:
                        problems.append(Problem(file, line, problem + about))
        except ExpressionTooLarge as error:
            hint = "an expression computes counts and numbers of cards, nothing larger"
            raise InputError(Problem(file, line, f"check cannot be evaluated: {error}", hint=hint)) from None
        except ExpressionError as error:
            problems.append(Problem(file, line, f"check cannot be evaluated: {error}"))
    return problems


def check_unique(game: Game, spec: dict, file: Path, line: int) -> list[Problem]:
    deck = game.decks.get(spec["deck"])
    if deck is None:
        return [Problem(file, line, f"unique: no deck '{spec['deck']}'")]
    seen: dict[tuple[object, ...], Card] = {}
    problems: list[Problem] = []
    for card in deck.cards:
        key = tuple(card.fields.get(f) for f in spec["fields"])
        if key in seen:
            shown = ", ".join(f"{f}={v}" for f, v in zip(spec["fields"], key))
            problems.append(
                Problem(
                    card.file,
                    card.line_of(spec["fields"][-1]),
                    f"card '{card.id}' repeats {shown} of card '{seen[key].id}'",
                )
            )
        seen[key] = card
    return problems


def check_each(game: Game, spec: dict, file: Path, line: int, about: str) -> list[Problem]:
    deck = game.decks.get(spec["deck"])
    if deck is None:
        return [Problem(file, line, f"each: no deck '{spec['deck']}'")]
    problems = []
    for card in deck.cards:
        names = dict.fromkeys(deck.fields)
        names.update(card.fields)
        names.update(id=card.id, count=card.count)
        if not evaluate(spec["expect"], names, functions_for(game, None)):
            problems.append(
                Problem(
                    card.file,
                    card.line,
                    f"card '{card.id}': `{spec['expect']}` does not hold{about} (rule at {file.name}:{line})",
                )
            )
    return problems


def check_distinct_pairs(game: Game, spec: dict, players: int) -> str | None:
    """Can every player take `take` cards so that no two players hold the same combination?"""
    available = functions_for(game, players)["per"](spec["deck"], spec["by"])
    take = spec.get("take", 2)
    combos = list(itertools.combinations_with_replacement(sorted(available, key=str), take))

    def fits(index, chosen, used):
        if len(chosen) == players:
            return True
        for i in range(index, len(combos)):
            need = Counter(combos[i])
            room = all(used[k] + n <= available[k] for k, n in need.items())
            if room and fits(i + 1, chosen + [combos[i]], used + need):
                return True
        return False

    if fits(0, [], Counter()):
        return None
    return (
        f"with {players} players the {sum(available.values())} cards of deck '{spec['deck']}' "
        f"cannot give every player {take} with no two players holding the same {spec['by']}s"
    )
