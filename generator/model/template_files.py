"""The files of a game's template folders that carry the name of one of pnpgen's own templates (templates/base/).

A game replaces some of pnpgen's templates with its own of the same name (`paths.GAME_MAY_REPLACE`); any other
of pnpgen's names there would be read by nothing, so a designer who put it there expecting it to style the
rule sheet or the cards would see no effect and no word: it is refused, unless the game's own templates use it
(a deck's template, game.yaml's `style:`, a name another of its templates includes or imports). A `base/`
folder there would stand in for pnpgen's own templates: refused too.
"""

from __future__ import annotations

import re
from pathlib import Path

from generator.errors import Problem
from generator.paths import BASE_PREFIX, GAME_MAY_REPLACE, TEMPLATES_DIR, template_dirs

WHAT_IT_IS = {".css": "stylesheet", ".html": "template"}


def pnpgens_names() -> list[str]:
    """The names of pnpgen's own templates and stylesheets (templates/base/)."""
    return sorted(path.name for path in (TEMPLATES_DIR / BASE_PREFIX).iterdir() if path.is_file())


def game_template_folders(game_dir: Path) -> list[Path]:
    """The game's own template folders (its templates/, the project's templates/<game>/), not pnpgen's."""
    return [folder for folder in template_dirs(game_dir)[:2] if folder.is_dir() and folder != TEMPLATES_DIR]


def template_file_problems(game_dir: Path, used: set[str]) -> list[Problem]:
    """A problem for each file of the game's template folders named as one of pnpgen's templates that a game
    does not replace, unless `used` (the templates its decks and game.yaml name) or its other templates name it;
    and for a `base/` folder among them."""
    problems = []
    for folder in game_template_folders(game_dir):
        if (folder / BASE_PREFIX).is_dir():
            problems.append(
                Problem(
                    folder / BASE_PREFIX,
                    None,
                    f"a folder named {BASE_PREFIX} in a game's templates would stand in for pnpgen's own templates",
                    hint="rename the folder, and the names that include its templates",
                )
            )
        texts = None
        for name in pnpgens_names():
            path = folder / name
            if name in GAME_MAY_REPLACE or name in used or not path.is_file():
                continue
            texts = texts if texts is not None else template_texts(folder, path)
            if not re.search(rf"[\"'(/]{re.escape(name)}[\"')]", texts):
                problems.append(unread(path))
    return problems


def template_texts(folder: Path, leaving_out: Path) -> str:
    """The text of every template and stylesheet of the folder but one: where its other templates name files."""
    texts = []
    for path in sorted(folder.rglob("*")):
        if path.suffix in (".html", ".css", ".svg", ".j2", ".jinja") and path != leaving_out and path.is_file():
            texts.append(path.read_text(encoding="utf-8", errors="replace"))
    return "\n".join(texts)


def unread(path: Path) -> Problem:
    kind = WHAT_IT_IS.get(path.suffix, "file")
    replaceable = ", ".join(GAME_MAY_REPLACE)
    styles = "; a game's styles go in its style.css (or the stylesheet game.yaml's `style:` names)"
    return Problem(
        path,
        None,
        f"pnpgen reads its own {path.name} (templates/{BASE_PREFIX}{path.name}), never a game's, and nothing of this "
        f"game names this {kind}",
        hint=f"a game may replace only {replaceable}{styles if path.suffix == '.css' else ''}; "
        "if it is a template of your own, give it another name; else remove it",
    )
