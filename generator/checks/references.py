"""validate: ids are unique, references name existing cards and decks, removals fall in the player range."""

from __future__ import annotations

from generator.errors import Problem, did_you_mean
from generator.model.game import Card, Game
from generator.model.schema import walk_refs


def check_ids(game: Game) -> list[Problem]:
    problems: list[Problem] = []
    first: dict[str, Card] = {}
    for card in game.cards():
        if card.id in first:
            other = first[card.id]
            problems.append(
                Problem(
                    card.file,
                    card.line_of("id"),
                    f"duplicate id '{card.id}': also used at {other.file.name}:{other.line_of('id')}",
                )
            )
        else:
            first[card.id] = card
    seen_components = {}
    for component in game.components:
        if component.id in seen_components:
            problems.append(Problem(component.file, component.line, f"duplicate component id '{component.id}'"))
        seen_components[component.id] = component
    return problems


def check_references(game: Game) -> list[Problem]:
    problems = []
    for deck in game.decks.values():
        for name, declared in deck.fields.items():
            for card in deck.cards:
                if name not in card.fields:
                    continue
                for _, target_deck, target in walk_refs(declared.spec, card.fields[name]):
                    target_cards = {c.id for c in game.decks[target_deck].cards} if target_deck in game.decks else None
                    if target_cards is None:
                        problems.append(
                            Problem(
                                deck.file,
                                deck.lines.get("fields"),
                                f"field '{name}' refers to deck '{target_deck}', which does not exist",
                                hint=did_you_mean(target_deck, game.decks),
                            )
                        )
                        break
                    if target not in target_cards:
                        problems.append(
                            Problem(
                                card.file,
                                card.line_of(name),
                                f"card '{card.id}' {name}: '{target}' is not a card of deck '{target_deck}'",
                                hint=did_you_mean(target, target_cards),
                            )
                        )
    return problems


def check_removals(game: Game) -> list[Problem]:
    low, high = game.players
    problems = []
    for card in game.cards():
        for n in card.remove_at:
            if not low <= n <= high:
                problems.append(
                    Problem(
                        card.file,
                        card.line_of("remove_at"),
                        f"card '{card.id}' is removed at {n} players, but the game is for {low}-{high} players",
                    )
                )
    return problems
