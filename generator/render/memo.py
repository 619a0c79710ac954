"""What each card's faces came out as last time, so that a rebuild runs the templates only for the cards
that changed.

A card's face HTML is a pure function of what its templates read: the card, the deck and game around it,
the labels, the templates and their files, the stylesheets and fonts, pnpgen's own code. Everything but the
card is hashed once per deck and language (the deck's *context key*); each card adds its own data. A card
whose render also read something that key does not cover (another card through `decks`, the game's data
through a `{...}` placeholder) is recorded with a hash of every file of the game, and taken from the memo only
while none of them changed.

For a card taken from the memo the build knows the keys of its faces (which the face cache renders from)
without their HTML; a face the face cache lacks is rendered from its card again (DeckFaces.page).
"""

from __future__ import annotations

import functools
import hashlib
import json
import marshal
import operator
import sys
from pathlib import Path

from generator.fsutil import read_sealed_entry, write_sealed_entry, content_digest
from generator.model.cards import CARD_KEYS, CARD_MODEL
from generator.model.game import Text
from generator.model.schema import Localized
from generator.paths import template_dirs

MEMO_VERSION = "3"
STORED_AS = f"pnpgen face memo {MEMO_VERSION}, Python {sys.version_info[:2]}"  # marshal's format is Python's own
PACKAGE_DIR = Path(__file__).resolve().parent.parent


class FaceMemo:
    """Per deck and language, card key -> (front face key, back face key, untranslated texts, files used, the
    game's files' hash when the faces read more of the game than the card, else None)."""

    def __init__(self, directory: Path | None):
        self.directory = directory

    def _path(self, game_dir: Path, deck_id: str, lang: str) -> Path:
        assert self.directory is not None, "load and save use no file without a directory"
        name = hashlib.sha256(f"{game_dir}\0{deck_id}\0{lang}".encode()).hexdigest()[:24]
        return self.directory / "memo" / f"{name}.marshal"

    def load(self, game_dir: Path, deck_id: str, lang: str) -> dict[str, list]:
        if self.directory is None:
            return {}
        sealed = read_sealed_entry(self._path(game_dir, deck_id, lang))  # only what this user's pnpgen wrote
        if sealed is None:
            return {}  # none yet, or not ours: every card is rendered
        try:  # marshal: builtin values only, and several times faster to read than JSON (20,000 cards a deck)
            stored = marshal.loads(sealed)
            return stored[1] if stored[0] == STORED_AS and isinstance(stored[1], dict) else {}
        except (ValueError, EOFError, TypeError, IndexError, KeyError):
            return {}

    def save(self, game_dir: Path, deck_id: str, lang: str, cards: dict[str, list]) -> None:
        if self.directory is not None:
            write_sealed_entry(self._path(game_dir, deck_id, lang), marshal.dumps((STORED_AS, cards)))


def context_key(game_dir: Path, parts: list) -> str:
    """Hash of what every card of a deck is rendered with: the given parts (views of the game and deck, the
    labels, the document around the faces), the template folders' files and pnpgen's code."""
    digest = hashlib.sha256(MEMO_VERSION.encode())
    digest.update(code_fingerprint().encode())
    for folder in template_dirs(game_dir):
        digest.update(folder_fingerprint(folder).encode())
    digest.update(json.dumps(plain_value(parts), ensure_ascii=False, sort_keys=True).encode())
    return digest.hexdigest()


def card_key(context: str, card) -> str:
    """Hash of a card's own data (texts in every language, fields, count, back) within its deck's context."""
    digest = hashlib.sha256(context.encode())
    digest.update(card_data(card))
    return digest.hexdigest()


def card_data(card) -> bytes:
    """A card's own data as bytes, made once per loaded card (every language of a build uses it)."""
    if "_data" not in card.__dict__:
        data = card_data_attributes()(card)
        try:  # the C encoder: twice as fast as plain_value's walk, for every card of every rebuild
            encoded = _CARD_DATA.encode(data)
        except (TypeError, ValueError):  # keys of mixed types, which sort_keys cannot order
            encoded = repr(plain_value(data))
        card.__dict__["_data"] = encoded.encode()
    return card.__dict__["_data"]


@functools.lru_cache(maxsize=1)
def card_data_attributes() -> operator.attrgetter:
    """What card_data reads of a card, in one call: the attribute of each of its built-in keys (cards.CARD_MODEL; a
    required text as its texts, which the encoder writes without a detour) and its declared fields. Made once: a
    test that adds a key clears it."""
    names = [
        f"{attr}.values" if isinstance(CARD_KEYS[key].spec, Localized) and CARD_KEYS[key].required else attr
        for key, attr in CARD_MODEL.carried()
    ]
    return operator.attrgetter(*names, "fields")


def _encoded_text(value):
    """How the card data encoder writes what JSON lacks: a Text as its texts (not where it was written)."""
    if isinstance(value, Text):
        return {"\0text": value.values}
    return [type(value).__name__, str(value)]


_CARD_DATA = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=_encoded_text)


def plain_value(value):
    """value with each Text as its texts (not where it was written) and containers as lists: a hashable
    description that only the data changes."""
    if isinstance(value, Text):
        return ["text", sorted(value.values.items())]
    if isinstance(value, dict):
        return ["map", sorted(([str(k), plain_value(v)] for k, v in value.items()), key=lambda kv: kv[0])]
    if isinstance(value, (list, tuple)):
        return [plain_value(item) for item in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return [type(value).__name__, str(value)]


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """pnpgen's own Python code: a change to how faces are made (templating, typesetting) changes every key."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        digest.update(str(path.relative_to(PACKAGE_DIR)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def folder_fingerprint(folder: Path, leave_out: tuple[str, ...] = ()) -> str:
    """Every file of a template folder, by name and content (templates, macros, icons, images, stylesheets);
    `leave_out`: names of files directly in the folder that the caller hashes its own way."""
    digest = hashlib.sha256(str(folder).encode())
    if folder.is_dir():
        for path in sorted(
            p for p in folder.rglob("*") if p.is_file() and p.relative_to(folder).as_posix() not in leave_out
        ):
            digest.update(str(path.relative_to(folder)).encode() + b"\0")
            digest.update(content_digest(path))
    return digest.hexdigest()


def text_paths(card, extra: dict[str, Text]) -> dict[int, tuple]:
    """Where each Text a card's faces can print is found again in the next build's model: the card's name
    and fields by their path, the texts around the card by name (`extra`)."""
    found: dict[int, tuple] = {id(text): ("extra", name) for name, text in extra.items()}
    found[id(card.name)] = ("name",)
    for name, value in card.fields.items():
        for path, text in _nested(value, ("fields", name)):
            found[id(text)] = path
    return found


def text_at(card, extra: dict[str, Text], path: list) -> Text | None:
    """The Text text_paths located at path, in this build's model (None when it is not there)."""
    if path[0] == "extra":
        return extra.get(path[1])
    value = card.name if path[0] == "name" else card.fields
    for step in path[1:]:
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            return None
    return value if isinstance(value, Text) else None


def _nested(value, path: tuple):
    if isinstance(value, Text):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _nested(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _nested(item, (*path, index))
