"""Where pnpgen's own files are, where a project's games, templates and builds are, and how a GAME argument
becomes a game directory.

pnpgen runs from its source tree (a checkout, editable install or not) or installed from a wheel. Its own
templates (base/) are package data in a wheel (generator/templates/base, mapped there from the top-level
templates/base by pyproject.toml) and the top-level templates/ of a checkout: the package data is looked
for first.

A project is a folder of games (cards/<game>) and their own templates (templates/<game>). Run from a checkout,
the project is the checkout, wherever the command runs. Installed, it is the current directory. Builds go to
output/ of the current directory either way (--out chooses another). These paths are relative, so a command
run in a server's fork uses its caller's directory.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from generator.errors import InputError, Problem, did_you_mean

PACKAGE_DIR = Path(__file__).resolve().parent
INSTALLED = (PACKAGE_DIR / "templates" / "base").is_dir()
PROJECT_DIR = Path() if INSTALLED else PACKAGE_DIR.parent
TEMPLATES_DIR = PACKAGE_DIR / "templates" if INSTALLED else PROJECT_DIR / "templates"  # pnpgen's: holds base/
GAME_TEMPLATES_DIR = PROJECT_DIR / "templates"  # templates/<game> of the project's games
PAGE_DIR = PACKAGE_DIR / "web"  # the page of `pnpgen serve`: index.html, app.js, style.css
CARDS_DIR = PROJECT_DIR / "cards"
OUTPUT_DIR = Path("output")  # builds go to ./output of the folder a command runs in, unless --out
BASE_PREFIX = "base/"  # the names of pnpgen's own templates start with it: base/board.html
# pnpgen's templates a game replaces with its own of the same name (the stylesheets among them add to pnpgen's)
GAME_MAY_REPLACE = (
    "board.html",
    "board.css",
    "tile-captions.html",
    "tile-captions.css",
    "token.html",
    "token-back.html",
    "aid.html",
)


def debian() -> bool:
    """Whether pnpgen runs on a Debian system whose packages it sees (`apt-get install` is the way to add a
    font or a colour profile): not inside a conda environment, which has fontconfig of its own."""
    conda = os.path.isdir(os.path.join(sys.prefix, "conda-meta"))
    return os.path.isfile("/etc/debian_version") and shutil.which("apt-get") is not None and not conda


def cache_dir(game_dir: Path, out: Path = OUTPUT_DIR) -> Path:
    """Where a game's caches go: under the output folder the user chose, under the project's output/ for
    the project's games, and in the user's cache directory for a game elsewhere (never in a pnpgen checkout
    on behalf of an outside game, never inside an installed pnpgen)."""
    if Path(out).resolve() != OUTPUT_DIR.resolve() or Path(game_dir).resolve().is_relative_to(PROJECT_DIR.resolve()):
        return Path(out) / ".cache"
    return user_cache_dir()


def user_cache_dir(kind: str = "") -> Path:
    """The user's cache folder of pnpgen, or one of its parts (`kind`): compiled templates, C declarations,
    hyphenation patterns, and the caches of a game outside the project (see cache_dir)."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "pnpgen" / kind


def face_cache_dir(game_dir: Path, out: Path = OUTPUT_DIR) -> Path:
    return cache_dir(game_dir, out) / "faces"


def list_games() -> list[Path]:
    if not CARDS_DIR.is_dir():
        return []
    return sorted(p for p in CARDS_DIR.iterdir() if (p / "game.yaml").is_file())


def every_game() -> list[Path]:
    """The project's games, for a command given none; an error saying where it looked when there are none."""
    games = list_games()
    if not games:
        raise InputError(
            Problem(
                None,
                None,
                f"no game given, and {why_no_games()}",
                hint="give a game directory, such as ~/games/my-game, or run pnpgen in a folder "
                "whose cards/ holds games; `pnpgen new NAME` makes a game",
            )
        )
    return games


def why_no_games() -> str:
    if CARDS_DIR.is_dir():
        return f"{CARDS_DIR.resolve()}/ holds no game"
    return f"there is no cards/ folder in {PROJECT_DIR.resolve()}"


def resolve_game(arg: str) -> Path:
    """A game name under cards/ or a path to a game directory anywhere."""
    path = Path(arg).expanduser()
    if (path / "game.yaml").is_file():
        return path.resolve()
    named = CARDS_DIR / arg
    if (named / "game.yaml").is_file():
        return named.resolve()
    names = [p.name for p in list_games()]
    if path.is_dir():
        message = "this directory has no game.yaml"
        hint = "a game directory holds game.yaml, components.yaml and decks/; `pnpgen new NAME` makes one"
    else:
        message = "no such game"
        hint = did_you_mean(arg, names) or (
            f"games under cards/: {', '.join(names)}; or give a path"
            if names
            else f"give a path to a game directory ({why_no_games()})"
        )
    raise InputError(Problem(path, None, message, hint=hint))


def is_pnpgens(template: str) -> bool:
    """Whether a template name is one of pnpgen's own (templates/base/), not a game's."""
    return template.startswith(BASE_PREFIX)


def template_dirs(game_dir: Path) -> list[Path]:
    """Where a game's templates are looked up: its own folder first, then the project's, then pnpgen's."""
    return [game_dir / "templates", GAME_TEMPLATES_DIR / game_dir.name, TEMPLATES_DIR]


def find_template(game_dir: Path, name: str) -> Path | None:
    for folder in template_dirs(game_dir):
        candidate = folder / name
        if candidate.is_file():
            return candidate
    return None
