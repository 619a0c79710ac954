"""YAML text parsed by libyaml into values that know their positions, within bounds.

libyaml's C parser through PyYAML, reading YAML 1.2 booleans as ruamel does; mappings and lists come back
as `positions.LocatedMap` and `LocatedList`. A duplicate key, a value that cannot be used and a file that
would expand past MAX_VALUES raise with their line (`read.load_yaml_text` makes them located problems).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import yaml as pyyaml

from generator.yamlio.positions import LocatedList, LocatedMap, Positions

if TYPE_CHECKING:  # one base for the type checker: libyaml's loader has the same methods, written in C
    _BASE_LOADER = pyyaml.SafeLoader
else:
    _BASE_LOADER = getattr(pyyaml, "CSafeLoader", pyyaml.SafeLoader)
BOOL_TAG = "tag:yaml.org,2002:bool"


class FAST_LOADER(_BASE_LOADER):  # noqa: N801
    """libyaml with YAML 1.2 booleans, as ruamel reads them: `no`, `yes`, `on`, `off` stay text."""

    def resolve(self, kind: type[pyyaml.Node], value: Any, implicit: tuple[bool, bool]) -> str:
        """The tag of a node; a plain scalar's is remembered by its text (keys repeat on every card)."""
        if kind is not pyyaml.ScalarNode or not implicit[0]:
            return super().resolve(kind, value, implicit)
        key = (value, implicit[1])
        tag = _RESOLVED.get(key)
        if tag is None:
            tag = super().resolve(kind, value, implicit)
            if len(_RESOLVED) < 50_000:
                _RESOLVED[key] = tag
        return tag


_RESOLVED: dict[tuple[str, bool], str] = {}


FAST_LOADER.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != BOOL_TAG]
    for first, resolvers in _BASE_LOADER.yaml_implicit_resolvers.items()
}
FAST_LOADER.add_implicit_resolver(BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


class DuplicateKey(Exception):
    def __init__(self, key: object, line: int):
        super().__init__(key)
        self.key, self.line = key, line


class BadValue(Exception):
    """A value that cannot be used (too large, unhashable key, a tag whose text does not parse), at a line."""

    def __init__(self, line: int, message: str, hint: str | None = None):
        super().__init__(message)
        self.line, self.message, self.hint = line, message, hint


# Bounds on what one file may hold (its size is read.MAX_FILE_BYTES). Aliases share a node, so a file of a
# few lines can name 9^9 values (an "alias bomb"); the values counted are those the aliases repeat, on top
# of those written out (a 20,000-card deck file writes about 340,000, which its size bounds).
MAX_VALUES = 200_000  # the largest kit file holds about 2,000
MAX_TEXT = 100_000  # characters in one text


def fast_load(text: str) -> Any:
    """The document's values (a YAML document is any value, as json.loads gives: Any)."""
    node = pyyaml.compose(text, Loader=FAST_LOADER)
    if node is None:
        return None
    if "&" in text:  # an alias needs an anchor: without one, every value is written out in the file
        _check_expanded_size(node)
    try:
        return _build(node, pyyaml.SafeLoader(""))
    except RecursionError:
        raise BadValue(1, "the values are nested too deeply", "at most a few hundred levels") from None


def _check_expanded_size(root: pyyaml.Node) -> None:
    """Refuse a document whose aliases repeat more than MAX_VALUES values, naming the node that crosses it."""
    sizes: dict[int, int] = {}
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes:
            continue
        children = (
            [n for pair in node.value for n in pair]
            if isinstance(node, pyyaml.MappingNode)
            else node.value
            if isinstance(node, pyyaml.SequenceNode)
            else []
        )
        if not children_done:
            stack.append((node, True))
            stack.extend((child, False) for child in children if id(child) not in sizes)
            continue
        size = 1 + sum(sizes[id(child)] for child in children)
        if size - len(sizes) > MAX_VALUES:  # every node below is among the sizes: the rest are repeats
            raise BadValue(
                node.start_mark.line + 1,
                f"the aliases (*name) here expand to more than {MAX_VALUES:,} values",
                "an alias repeats its anchor's whole value: use fewer or smaller ones",
            )
        sizes[id(node)] = size


STR_TAG = "tag:yaml.org,2002:str"


def _scalar(node: pyyaml.Node, constructor: pyyaml.SafeLoader) -> Any:
    """A scalar's value; a text too long or a value its tag cannot read is a BadValue at its line."""
    if len(node.value) > MAX_TEXT:
        raise BadValue(node.start_mark.line + 1, f"a text of {len(node.value):,} characters (at most {MAX_TEXT:,})")
    if node.tag == STR_TAG:
        return node.value  # what the constructor makes of a text, without its bookkeeping (most values are texts)
    line = node.start_mark.line + 1
    try:
        return constructor.construct_object(node, deep=True)
    except pyyaml.MarkedYAMLError:
        raise
    except Exception as exc:  # noqa: BLE001 - PyYAML's tag constructors fail in many ways (`!!timestamp text`)
        detail = f": {str(exc).split(';')[0]}" if isinstance(exc, (ValueError, ArithmeticError)) else ""
        raise BadValue(
            line,
            f"cannot read the value '{node.value[:40]}' as {node.tag.rsplit(':', 1)[-1]}{detail}",
            "quote it to make it a text",
        ) from None


def _build(node: pyyaml.Node, constructor: pyyaml.SafeLoader) -> Any:
    """Plain values for scalars; LocatedMap / LocatedList (with positions) for containers."""
    if isinstance(node, pyyaml.MappingNode):
        out = LocatedMap()
        out.lc = Positions(node.start_mark.line, node.start_mark.column)
        for key_node, value_node in node.value:
            if not isinstance(key_node, pyyaml.ScalarNode):
                raise BadValue(
                    key_node.start_mark.line + 1,
                    "a key must be a plain text or number, not a list or a mapping",
                    "write the key as a text; `? [a, b]` makes a list a key",
                )
            key = _scalar(key_node, constructor)
            if key in out:
                raise DuplicateKey(key, key_node.start_mark.line + 1)
            out[key] = _build(value_node, constructor)
            out.lc.data[key] = (key_node.start_mark.line, key_node.start_mark.column)
        return out
    if isinstance(node, pyyaml.SequenceNode):
        items = LocatedList()
        items.lc = Positions(node.start_mark.line, node.start_mark.column)
        for index, item in enumerate(node.value):
            items.append(_build(item, constructor))
            items.lc.data[index] = (item.start_mark.line, item.start_mark.column)
        return items
    return _scalar(node, constructor)
