"""Changing values in a ruamel round-trip document so that only they change: containers are updated in place
(a flow mapping stays a flow mapping), quoting is kept, and the comments ruamel attaches to a key or an item
that is removed move to its neighbour instead of disappearing with it."""

from __future__ import annotations

import re
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import (
    DoubleQuotedScalarString,
    FoldedScalarString,
    LiteralScalarString,
    SingleQuotedScalarString,
)

from generator.yamlio.parse import fast_load

MISSING = object()


# Characters YAML reads as line breaks or drops (NEL, the Unicode separators, a byte order mark), and tabs:
# a text holding one is written double-quoted, where the emitter escapes them.
SPECIAL = re.compile("[\\x00-\\x09\\x0b-\\x1f\\x7f-\\x9f\\u2028\\u2029\\ufeff\\ufffe\\uffff\\ud800-\\udfff]")
INDICATORS = "-?:,[]{}#&*!|>'\"%@`= \t"  # a plain text starting with one may read as something else


def styled(new: str, old: object) -> str:
    """The new text quoted the way the old one was (a block `|` or `>` text stays one) when that way holds
    it exactly; double-quoted otherwise (`? key`, `1:20`, a text holding NEL or U+2028)."""
    if isinstance(old, DoubleQuotedScalarString):
        return DoubleQuotedScalarString(new)
    if isinstance(old, (LiteralScalarString, FoldedScalarString)):
        return type(old)(new) if block_holds(new, folded=isinstance(old, FoldedScalarString)) else quoted(new)
    if isinstance(old, SingleQuotedScalarString):
        return SingleQuotedScalarString(new) if "\n" not in new and not SPECIAL.search(new) else quoted(new)
    return new if plain_holds(new) else quoted(new)


def quoted(text: str) -> DoubleQuotedScalarString:
    return DoubleQuotedScalarString(text)


def plain_holds(text: str) -> bool:
    """Whether a text written plain reads back as itself, in a block or in a flow mapping alike (the emitter
    itself quotes what its own YAML 1.2 reading needs; this covers what it misses and what pnpgen's reader,
    YAML 1.1, reads otherwise: `1:20` is a number there)."""
    if not text or text[0] in INDICATORS or text[-1] in " \t:" or "\n" in text or SPECIAL.search(text):
        return False
    if ": " in text or " #" in text:
        return False
    try:
        return fast_load(text) == text
    except Exception:  # noqa: BLE001 - any reading error means: not as plain text
        return False


def block_holds(text: str, folded: bool) -> bool:
    """Whether a `|` (or `>`) block holds the text exactly: line feeds only, no tab or special character, no
    blank first line or leading space (they would set the indentation), no spaces that folding would eat."""
    if not text.strip("\n") or SPECIAL.search(text) or text[0] in " \n":
        return False
    return not folded or not any(line != line.strip(" ") for line in text.split("\n"))


def same(old: object, new: object) -> bool:
    """Equal as data (texts compared without surrounding blanks, 2 equal to 2.0)."""
    if isinstance(old, str) and isinstance(new, str):
        return old.strip() == new.strip()
    if isinstance(old, str) != isinstance(new, str):  # a text field written 12 in YAML and '12' in a cell
        number = new if isinstance(old, str) else old
        text = old if isinstance(old, str) else new
        return isinstance(number, (int, float)) and not isinstance(number, bool) and str(number) == str(text).strip()
    if isinstance(old, bool) or isinstance(new, bool):
        return isinstance(old, bool) and isinstance(new, bool) and old == new
    if isinstance(old, dict) and isinstance(new, dict):
        return old.keys() == new.keys() and all(same(old[k], new[k]) for k in old)
    if isinstance(old, list) and isinstance(new, list):
        return len(old) == len(new) and all(same(a, b) for a, b in zip(old, new))
    return old == new


def fresh(value: object) -> object:
    """A new value for the document: mappings and lists written inline, like the kits' YAML."""
    if isinstance(value, dict):
        node = CommentedMap((key, fresh(item)) for key, item in value.items())
        node.fa.set_flow_style()
        return node
    if isinstance(value, list):
        items = CommentedSeq(fresh(item) for item in value)
        items.fa.set_flow_style()
        return items
    return value


def assign(container: CommentedMap | CommentedSeq, key: Any, new: object, after: list[str] | None = None) -> bool:
    """Set container[key] to the plain value `new`, changing as little as possible; True when it changed.
    A new key goes after the last of the keys `after` the mapping has (else at its end)."""
    old = get(container, key)
    if old is not MISSING and same(old, new):
        return False
    if isinstance(old, CommentedMap) and isinstance(new, dict):
        for name in [name for name in old if name not in new]:
            delete_key(old, name)
        for name, item in new.items():
            assign(old, name, item)
        return True
    if isinstance(old, CommentedSeq) and isinstance(new, list):
        for index in range(min(len(old), len(new))):
            assign(old, index, new[index])
        while len(old) > len(new):
            delete_item(old, len(old) - 1)
        old.extend(fresh(item) for item in new[len(old) :])
        return True
    if old is MISSING and isinstance(container, CommentedMap):
        position = insert_position(container, after or [])
        container.insert(position, key, fresh(new))
        return True
    container[key] = styled(new, old) if isinstance(new, str) else fresh(new)
    return True


def get(container: dict[Any, Any] | list[Any], key: Any) -> Any:
    """container[key] (a mapping's key or a list's index), MISSING when it has none."""
    if isinstance(container, dict):
        return container.get(key, MISSING)
    return container[key] if 0 <= key < len(container) else MISSING


def insert_position(mapping: CommentedMap, after: list[str]) -> int:
    keys = list(mapping)
    indexes = [keys.index(name) for name in after if name in mapping]
    return max(indexes) + 1 if indexes else len(keys)


# --- removing, with the comments kept -------------------------------------------------------------


def delete_key(mapping: CommentedMap, key: object) -> None:
    """Remove a key; a comment written after its value moves to the key before it."""
    keys = list(mapping)
    comment = take_trailing(mapping, key)
    del mapping[key]
    if comment:
        position = keys.index(key)
        if position == 0:
            raise ValueError(f"cannot remove '{key}' without losing the comment after it")
        give_trailing(mapping, keys[position - 1], comment)


def delete_item(seq: CommentedSeq, index: int) -> None:
    """Remove a list item; the comment lines above it go above the next item, those after it (attached to
    its last key) after the item before it."""
    before = seq.ca.items.get(index)
    trailing = take_trailing(seq, index)
    del seq[index]  # ruamel shifts the comments of the following items
    if before and before[1]:
        if index < len(seq):
            slot = seq.ca.items.setdefault(index, [None, None, None, None])
            slot[1] = list(before[1]) + list(slot[1] or [])
        elif index > 0:
            give_trailing(seq, index - 1, "".join(token.value for token in before[1]))
    if trailing:
        if index == 0:
            raise ValueError("cannot remove the first item without losing the comment after it")
        give_trailing(seq, index - 1, trailing)


def take_trailing(container: CommentedMap | CommentedSeq, key: Any) -> str:
    """Remove and return the comment text that follows container[key] (for a block mapping or list, the
    comments after its last entry, however deep)."""
    value = container[key]
    text = ""
    if isinstance(value, (CommentedMap, CommentedSeq)) and len(value) and not value.fa.flow_style():
        last = list(value)[-1] if isinstance(value, CommentedMap) else len(value) - 1
        text = take_trailing(value, last)
    slot = container.ca.items.get(key)
    if slot and len(slot) > 2 and slot[2] is not None:
        text = slot[2].value + text
        slot[2] = None
    return text


def give_trailing(container: CommentedMap | CommentedSeq, key: Any, text: str) -> None:
    """Add comment text after container[key] (after the deepest last entry of a block value)."""
    from ruamel.yaml.error import CommentMark
    from ruamel.yaml.tokens import CommentToken

    value = container[key]
    if isinstance(value, (CommentedMap, CommentedSeq)) and len(value) and not value.fa.flow_style():
        last = list(value)[-1] if isinstance(value, CommentedMap) else len(value) - 1
        give_trailing(value, last, text)
        return
    slot = container.ca.items.setdefault(key, [None, None, None, None])
    while len(slot) < 4:
        slot.append(None)
    if slot[2] is None:
        slot[2] = CommentToken(text if text.startswith(("#", "\n", " ")) else "\n" + text, CommentMark(0), None)
    else:
        existing = slot[2].value
        if not existing.endswith("\n"):
            existing += "\n"
        if text.startswith("#"):  # a comment that ended a line now stands on its own: indent it as its neighbours
            rest = existing.rstrip("\n").rsplit("\n", 1)[-1]
            text = rest[: len(rest) - len(rest.lstrip(" "))] + text
        slot[2].value = existing + text.removeprefix("\n")
