"""The parsed-YAML cache: a large file (a deck of thousands of cards) is remembered parsed, with its text.

Read again unchanged it costs an unpickling, and with a few cards edited only those cards are parsed again
(`reparse`). The pickle is sealed (fsutil.write_sealed_entry): one the user's pnpgen did not write is never
unpickled. A build or validate turns it on for the game's cache folder (`remember_in`).
"""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

from generator.fsutil import read_sealed_entry, write_sealed_entry
from generator.yamlio.reparse import reparsed
from generator.yamlio.text import load_yaml_text

REMEMBER_FROM_BYTES = 256 << 10
REMEMBERED_VERSION = 1
REWRITE_FROM_SHARE = 0.02  # of a list's items parsed again since the file was remembered: remember it anew
_remembered_dir: Path | None = None


def remember_in(directory: Path | None) -> None:
    """Remember large parsed files in directory (a build's cache); None: parse every file in full."""
    global _remembered_dir
    _remembered_dir = directory


def remembers(text: str) -> bool:
    """Whether a file of this text is remembered: a large one without anchors, while a cache is set."""
    return _remembered_dir is not None and len(text) >= REMEMBER_FROM_BYTES and "&" not in text


def load_remembered(text: str, path: Path):
    """The document of a file's text (`remembers(text)`), from the cache when it holds this text or an older one."""
    if _remembered_dir is None:
        return load_yaml_text(text, path)
    store = _remembered_dir / "yaml" / f"{hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:24]}.pickle"
    old_text, old_document = _remembered(store)
    if old_text == text:
        return old_document
    document, share = reparsed(old_text, old_document, text) if old_text is not None else (None, 0)
    if document is None:
        document = load_yaml_text(text, path)
    elif share < REWRITE_FROM_SHARE:
        return document  # the next read parses the same few items again: cheaper than writing it all
    write_sealed_entry(store, pickle.dumps((REMEMBERED_VERSION, text, document), protocol=pickle.HIGHEST_PROTOCOL))
    return document


def _remembered(store: Path) -> tuple[str | None, object]:
    """The text and document remembered in store; (None, None) when there are none this user's pnpgen sealed."""
    sealed = read_sealed_entry(store)
    try:
        version, text, document = pickle.loads(sealed) if sealed is not None else (None, None, None)
    except Exception:  # noqa: BLE001 - sealed by an older pnpgen whose classes changed: parsed in full
        return None, None
    return (text, document) if version == REMEMBERED_VERSION else (None, None)
