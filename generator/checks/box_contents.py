"""validate: the box contents (components.yaml) against what is printed: counts, kinds, nothing unlisted."""

from __future__ import annotations

from generator.errors import Problem, did_you_mean
from generator.model.game import Game


def deck_copy_count(game: Game, deck_id: str) -> int | None:
    """Copies of the deck in the box (None: no such deck)."""
    deck = game.decks.get(deck_id)
    return deck.copies if deck else None


def printable(folder: str, count):
    """A producer for boards, aids or token sheets: `count` of the item, None if there is none."""

    def produced(game: Game, item_id: str) -> int | None:
        item = getattr(game.printables, folder, {}).get(item_id) if game.printables else None
        return count(item) if item else None

    return produced


# How many pieces each kind of source produces, by kind (`deck: assets` -> copies of deck assets).
def rulebook_copies(game: Game, name: str) -> int | None:
    """`rules: rules` names cards/<game>/rules.yaml: one printed rulebook."""
    return 1 if (game.dir / f"{name}.yaml").is_file() else None


# Returns None when the game has no such source.
PRODUCERS: dict = {
    "deck": deck_copy_count,
    "board": printable("boards", lambda board: board.printed),
    "aid": printable("aids", lambda aid: aid.copies),
    "tokens": printable("tokens", lambda sheet: sheet.counted),
    "rules": rulebook_copies,
}


def _printed_in(folder: str):
    return lambda game: {i.id: i.file for i in getattr(game.printables, folder, {}).values()}


# What each kind of source can name, to find printed things no component lists.
PRINTED: dict = {
    "deck": lambda game: {d.id: d.file for d in game.decks.values()},
    **{kind: _printed_in(folder) for kind, folder in (("board", "boards"), ("aid", "aids"), ("tokens", "tokens"))},
}


def check_box_contents(game: Game) -> list[Problem]:
    problems = []
    named = set()
    for component in game.components:
        if not component.source:
            if component.printed:
                problems.append(
                    Problem(
                        component.file,
                        component.line,
                        f"component '{component.id}' says it is printed, but names nothing that prints it",
                        hint="name its deck, board, aid, tokens or rules, or leave `printed:` out (not printed)",
                    )
                )
            continue
        kind, source = component.source
        named.add((kind, source))
        producer = PRODUCERS.get(kind)
        produced = producer(game, source) if producer else None
        if produced is None:
            known = list(PRINTED[kind](game)) if kind in PRINTED else []
            problems.append(
                Problem(
                    component.file,
                    component.line,
                    f"component '{component.id}' names {kind} '{source}', which does not exist",
                    hint=did_you_mean(source, known) or (f"{kind}: {', '.join(known)}" if known else None),
                )
            )
            continue
        if produced != component.count:
            difference = produced - component.count
            what = f"{abs(difference)} {'more' if difference > 0 else 'fewer'}"
            problems.append(
                Problem(
                    component.file,
                    component.line,
                    f"the box holds {component.count} {component.id} but {kind} '{source}' prints {produced} ({what})",
                )
            )
        if component.per_kind and kind == "deck":
            problems += check_per_kind(component, game.decks[source])
    for kind, printed in PRINTED.items():
        for item_id, file in printed(game).items():
            if (kind, item_id) not in named:
                problems.append(
                    Problem(
                        file,
                        1,
                        f"{kind} '{item_id}' is printed but no component in components.yaml names it",
                        hint=f"add a component with `{kind}: {item_id}`",
                    )
                )
    return problems


def check_per_kind(component, deck) -> list[Problem]:
    problems = []
    kinds = component.count // component.per_kind
    if component.count % component.per_kind or len(deck.cards) != kinds:
        problems.append(
            Problem(
                component.file,
                component.line,
                f"{component.count} {component.id} at {component.per_kind} of each kind "
                f"make {component.count / component.per_kind:g} kinds, but deck "
                f"'{deck.id}' has {len(deck.cards)}",
            )
        )
    for card in deck.cards:
        if card.count != component.per_kind:
            problems.append(
                Problem(
                    card.file,
                    card.line_of("count"),
                    f"card '{card.id}' has {card.count} copies; the box contents say {component.per_kind} of each kind",
                )
            )
    return problems
