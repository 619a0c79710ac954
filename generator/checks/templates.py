"""`pnpgen validate`'s template checks, without laying anything out: syntax, `card.` names the deck does not
declare, icons and images that are missing or cannot be decoded.

Each deck's templates (and the macros they import or include) are parsed; literal `icon('x')` and
`asset('y')` calls are looked up and decoded; then every card is run through the templates (Jinja only,
no WeasyPrint), which finds what only the data decides: an icon named by a card field, an unknown
placeholder in a card text.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import cast

import jinja2
from jinja2 import meta, nodes

from generator.errors import InputError, Problem, did_you_mean
from generator.model.cards import CARD_MODEL
from generator.model.game import Deck, Game
from generator.paths import find_template
from generator.render.images import image_problem


def check_templates(game: Game, memo=None, progress=None) -> list[Problem]:
    """The template checks; with a FaceMemo (render/memo.py), the dry run runs only the cards whose inputs
    changed since a build or validate last ran them without a problem."""
    if game.template_problems:
        return []  # a missing template is reported already
    problems: list[Problem] = []
    parsed: dict[str, tuple[Path, nodes.Template] | None] = {}
    env = jinja2.Environment(extensions=[])
    for deck in game.decks.values():
        for name in deck.templates():
            problems += parse_all(game, env, name, parsed)
            found = parsed.get(name)
            if found:
                problems += undeclared_card_names(deck, *found)
    for found in parsed.values():
        if found:
            problems += literal_assets(game, *found)
    if not problems:
        problems += dry_run(game, memo, progress)
    return problems


def parse_all(game: Game, env, name: str, parsed: dict) -> list[Problem]:
    """Parse a template and every template it imports or includes (once each); their syntax errors."""
    if name in parsed:
        return []
    path = find_template(game.dir, name)
    parsed[name] = None
    if path is None:
        return []
    try:
        tree = env.parse(path.read_text(encoding="utf-8"), name, str(path))
    except jinja2.TemplateSyntaxError as error:
        return [Problem(path, error.lineno, f"template syntax error: {error.message}")]
    parsed[name] = (path, tree)
    problems = []
    for other in meta.find_referenced_templates(tree):
        if other:
            problems += parse_all(game, env, other, parsed)
    return problems


def undeclared_card_names(deck: Deck, path: Path, tree: nodes.Template) -> list[Problem]:
    known = set(deck.fields) | {key for key, _ in CARD_MODEL.shown()}  # what card_view adds to the declared fields
    problems = []
    # find_all's type is the nearest common base of the classes asked for (Expr): these are the two
    for node in cast("Iterator[nodes.Getattr | nodes.Getitem]", tree.find_all((nodes.Getattr, nodes.Getitem))):
        if not (isinstance(node.node, nodes.Name) and node.node.name == "card"):
            continue
        name = node.attr if isinstance(node, nodes.Getattr) else getattr(node.arg, "value", None)
        if isinstance(name, str) and name not in known:
            hint = did_you_mean(name, known) or f"deck '{deck.id}' declares {', '.join(sorted(deck.fields))}"
            problems.append(
                Problem(
                    path, node.lineno, f"card.{name} is not a field of deck '{deck.id}' ({deck.file.name})", hint=hint
                )
            )
    return problems


def literal_assets(game: Game, path: Path, tree: nodes.Template) -> list[Problem]:
    """icon('name') and asset('file') with a written name: the file exists and decodes."""
    problems = []
    for call in tree.find_all(nodes.Call):
        if not (
            isinstance(call.node, nodes.Name)
            and call.node.name in ("icon", "asset")
            and call.args
            and isinstance(call.args[0], nodes.Const)
            and isinstance(call.args[0].value, str)
        ):
            continue
        written = call.args[0].value
        name = f"icons/{written}.svg" if call.node.name == "icon" else written
        found = find_template(game.dir, name)
        if found is None:
            problems.append(
                Problem(
                    path,
                    call.lineno,
                    f"{call.node.name}('{written}'): '{name}' not found",
                    hint="put it in the game's templates/ folder",
                )
            )
        elif why := image_problem(found):
            problems.append(Problem(path, call.lineno, f"image '{name}' {why} (used by {call.node.name}('{written}'))"))
    return problems


def dry_run(game: Game, memo=None, progress=None) -> list[Problem]:
    """Every card of every deck through its templates in every language (Jinja only: no layout)."""
    from generator.progress import Progress
    from generator.render.faces import GameRenderer

    cards = len(game.languages) * sum(len(deck.cards) for deck in game.decks.values())
    try:
        with (progress or Progress(quiet=True)).task("running the templates", cards, "cards") as task:
            for lang in game.languages:
                renderer = GameRenderer(game, lang, memo)
                for deck in game.decks.values():
                    renderer.deck_faces(deck, task.advance)
    except InputError as error:
        return error.problems
    return []
