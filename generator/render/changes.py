"""Which cards' faces changed since a reference: a git revision of the game, or an earlier build.json.

A card is named by `deck/card`; its faces by the face cache keys of its front and back (a key is a hash of
everything that determines the rendering). A card whose keys differ from the reference's, or that the
reference did not have, changed. At a git revision the game is read from `git archive` in a temporary
folder; a face key names what the face reads by content, not by the folder (render/reads.py), so only content
counts.
"""

from __future__ import annotations

import io
import json
import subprocess
import tarfile
import tempfile
from pathlib import Path

from generator.errors import InputError, Problem
from generator.model import Game, load_game
from generator.render.faces import DeckFaces, GameRenderer

KEY_CHARS = 16  # of a face key, in build.json: enough to tell faces apart


def card_keys(decks) -> dict[str, str]:
    """`deck/card` -> its front and back face keys, for the prepared decks of one language."""
    found = {}
    for rendered in decks:
        found.update(deck_card_keys(rendered.faces, rendered.keys))
    return found


def deck_card_keys(faces: DeckFaces, keys: list[str]) -> dict[str, str]:
    """`deck/card` -> its front and back face keys, for one deck's distinct faces and their keys."""
    return {
        f"{faces.deck.id}/{card.id}": pair(keys[front], keys[back] if back is not None else None)
        for card, front, back in zip(faces.deck.cards, faces.front_of, faces.back_of)
    }


def pair(front: str, back: str | None) -> str:
    return f"{front[:KEY_CHARS]} {back[:KEY_CHARS] if back else '-'}"


def reference_keys(ref: str, game: Game, langs: list[str]) -> dict[str, dict[str, str]]:
    """For each language, `deck/card` -> face keys at the reference."""
    path = Path(ref)
    if path.is_file():
        return keys_from_report(path, langs)
    return keys_at_revision(ref, game, langs)


def keys_from_report(path: Path, langs: list[str]) -> dict[str, dict[str, str]]:
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
        entries = [e for e in report["files"] if e.get("kind") == "cards" and "face_keys" in e]
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise InputError(
            Problem(
                path,
                None,
                f"--changed-since: not a build.json pnpgen can read ({error})",
                hint="give the build.json of an earlier build, or a git revision",
            )
        ) from None
    found: dict[str, dict[str, str]] = {}
    for entry in entries:  # a file in volumes: each lists the cards it holds
        found.setdefault(entry["lang"], {}).update(entry["face_keys"])
    missing = [lang for lang in langs if lang not in found]
    if missing:
        raise InputError(
            Problem(
                path,
                None,
                f"--changed-since: this build.json records no card faces in {', '.join(missing)}",
                hint="it was written before pnpgen recorded face keys, or without that language; "
                "give a git revision instead",
            )
        )
    return found


def keys_at_revision(ref: str, game: Game, langs: list[str]) -> dict[str, dict[str, str]]:
    top = _git(game.dir, "rev-parse", "--show-toplevel")
    if top is None:
        raise InputError(
            Problem(
                None,
                None,
                f"--changed-since {ref}: no such file, and {game.dir} is not in a git repository",
                hint="give an earlier build.json or a git revision",
            )
        )
    top_dir = Path(top.decode().strip())
    relative = game.dir.resolve().relative_to(top_dir.resolve())
    archive = _git(top_dir, "archive", "--format=tar", ref, "--", relative.as_posix())
    if archive is None:
        raise InputError(
            Problem(
                None,
                None,
                f"--changed-since {ref}: not a revision that holds {relative}",
                hint="give a commit, tag or branch (git log shows them), or an earlier build.json",
            )
        )
    with tempfile.TemporaryDirectory(prefix="pnpgen-since-") as temp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(temp, filter="data")
        old_dir = Path(temp) / relative
        old = load_game(old_dir)
        return {lang: _face_keys(old, lang) for lang in langs}


def _face_keys(game: Game, lang: str) -> dict[str, str]:
    """The game's face keys in lang, as a build keys them (GameRenderer.deck_faces)."""
    renderer = GameRenderer(game, lang)
    found = {}
    for deck in game.decks_in_box_order():
        faces = renderer.deck_faces(deck)
        found.update(deck_card_keys(faces, faces.keys))
    return found


def _git(where: Path, *args: str) -> bytes | None:
    try:
        result = subprocess.run(["git", "-C", str(where), *args], capture_output=True)
    except OSError:
        return None
    return result.stdout if result.returncode == 0 else None


def changed_cards(now: dict[str, str], before: dict[str, str]) -> set[str]:
    return {card for card, keys in now.items() if before.get(card) != keys}
