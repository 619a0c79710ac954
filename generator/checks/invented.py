"""validate: every `placeholder:` names what it says is invented in a way the rule sheet can print.

A card's list names its own keys (CARD_KEYS) or its deck's fields; a field named there needs a `label:` in
the source language (its translations are strings like any other) when the game has rules, since the rules'
prototype note names it. A deck's, component's, board's, aid's, token sheet's or the game's list names keys the
note has words for (THING_KEYS); anything else is said in words. A board element marked invented needs a label
to be named by.
"""

from __future__ import annotations

from pathlib import Path

from generator.errors import Problem, did_you_mean
from generator.model.game import Game, Text
from generator.model.invented import CARD_KEYS, THING_KEYS
from generator.model.rules import has_rules

IN_WORDS = "or say what is invented in words: placeholder: {ja: ..., en: ...}"


def check_invented(game: Game) -> list[Problem]:
    problems = card_problems(game)
    things: list[tuple[object, Path | None, int | None, str]] = [
        (game.placeholder, game.files.get("game"), None, "placeholder")
    ]
    things += [(c.placeholder, c.file, c.line, f"components[{c.id}].placeholder") for c in game.components]
    things += [(d.placeholder, d.file, d.lines.get("placeholder"), "placeholder") for d in game.decks.values()]
    printables = game.printables
    for items in (printables.boards, printables.aids, printables.tokens) if printables else ():
        for item in items.values():
            things.append((item.placeholder, item.file, None, "placeholder"))
            problems += element_problems(item)
    for marked, file, line, key in things:
        for name in marked if isinstance(marked, list) else []:
            if name not in THING_KEYS:
                problems.append(
                    Problem(
                        file,
                        line,
                        f"placeholder names '{name}', which the rules' prototype note has no word for",
                        key,
                        hint=f"name one of {', '.join(THING_KEYS)}, {IN_WORDS}",
                    )
                )
    return problems


def card_problems(game: Game) -> list[Problem]:
    problems = []
    needs_labels = has_rules(game)
    unlabelled: set[tuple[str, str]] = set()
    for deck in game.decks.values():
        for card in deck.cards:
            if not isinstance(card.placeholder, list):
                continue
            for name in card.placeholder:
                if name in CARD_KEYS:
                    continue
                declared = deck.fields.get(name)
                if declared is None:
                    problems.append(
                        Problem(
                            card.file,
                            card.line_of("placeholder"),
                            f"card '{card.id}' says its '{name}' is invented, but deck '{deck.id}' has no such field",
                            f"cards[{card.id}].placeholder",
                            hint=did_you_mean(name, [*CARD_KEYS, *deck.fields]),
                        )
                    )
                    continue
                # a label without a translation is an untranslated string like any other (validate's translations,
                # printed flagged in the source language): only a label the source language lacks is a problem here
                source = game.source_language
                missing = [source] if declared.label is None or not declared.label.has(source) else []
                if needs_labels and missing and (deck.id, name) not in unlabelled:
                    unlabelled.add((deck.id, name))
                    problems.append(
                        Problem(
                            deck.file,
                            deck.lines.get("fields"),
                            f"field '{name}' is named invented (card '{card.id}'), but has no {', '.join(missing)} "
                            "label for the rules' prototype note",
                            f"fields.{name}.label",
                            hint=f"add `label: {{{', '.join(f'{lang}: ...' for lang in game.languages)}}}` "
                            "to its declaration",
                        )
                    )
    return problems


def element_problems(item) -> list[Problem]:
    problems = []
    for element in getattr(item, "elements", []):
        if element.get("placeholder") and not isinstance(element.get("label"), Text):
            problems.append(
                Problem(
                    item.file,
                    element.get("line"),
                    f"a {element.get('kind', '')} element is marked invented but has no label to name it by",
                    "elements.placeholder",
                    hint=f"give it a `label:`, or mark the board itself ({IN_WORDS})",
                )
            )
    return problems
