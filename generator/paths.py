"""Where the project's own folders are, and how a GAME argument becomes a game directory."""
from __future__ import annotations

import os
from pathlib import Path

from generator.errors import InputError, Problem, did_you_mean

REPO_ROOT = Path(__file__).resolve().parent.parent
CARDS_DIR = REPO_ROOT / "cards"
TEMPLATES_DIR = REPO_ROOT / "templates"
OUTPUT_DIR = REPO_ROOT / "output"


def cache_dir(game_dir: Path, out: Path = OUTPUT_DIR) -> Path:
    """Where a game's caches go: under the output folder the user chose, under pnpgen's output/ for the
    games of this checkout, and in the user's cache directory for a game elsewhere (never in pnpgen's
    own folder on behalf of an outside game)."""
    if Path(out).resolve() != OUTPUT_DIR.resolve() or Path(game_dir).resolve().is_relative_to(REPO_ROOT):
        return Path(out) / ".cache"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "pnpgen"


def face_cache_dir(game_dir: Path, out: Path = OUTPUT_DIR) -> Path:
    return cache_dir(game_dir, out) / "faces"


def list_games() -> list[Path]:
    if not CARDS_DIR.is_dir():
        return []
    return sorted(p for p in CARDS_DIR.iterdir() if (p / "game.yaml").is_file())


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
        hint = did_you_mean(arg, names) or f"games under cards/: {', '.join(names) or 'none'}; or give a path"
    raise InputError(Problem(path, None, message, hint=hint))


def template_dirs(game_dir: Path) -> list[Path]:
    """Where a game's templates are looked up: its own folder first, then the project's."""
    return [game_dir / "templates", TEMPLATES_DIR / game_dir.name, TEMPLATES_DIR]


def find_template(game_dir: Path, name: str) -> Path | None:
    for folder in template_dirs(game_dir):
        candidate = folder / name
        if candidate.is_file():
            return candidate
    return None
