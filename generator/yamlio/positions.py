"""Where a parsed value is: the line and column of a mapping's keys and a list's items, as ruamel's `lc`."""

from __future__ import annotations

from typing import Any


class Positions:
    """Where a container and its keys or items start (0-based line and column), as ruamel's `lc`."""

    def __init__(self, line: int, col: int):
        self.line, self.col = line, col
        self.data: dict[Any, tuple[int, int]] = {}  # a key (any scalar) or an index -> (line, column)

    def key(self, key: object) -> tuple[int, int]:
        return self.data[key]

    def item(self, index: int) -> tuple[int, int]:
        return self.data[index]

    value = key


class LocatedMap(dict[Any, Any]):
    lc: Positions


class LocatedList(list[Any]):
    lc: Positions


def key_line(mapping: object, key: object) -> int | None:
    """1-based line of a key in a mapping loaded with positions, or of the mapping itself."""
    positions = getattr(mapping, "lc", None)  # a LocatedMap's, or ruamel's
    if positions is not None:
        try:
            return positions.key(key)[0] + 1
        except (KeyError, TypeError, AttributeError):
            return node_line(mapping)
    return None


def item_line(seq: object, index: int) -> int | None:
    positions = getattr(seq, "lc", None)
    if positions is not None:
        try:
            return positions.item(index)[0] + 1
        except (KeyError, TypeError, AttributeError, IndexError):
            return node_line(seq)
    return None


def node_line(node: object) -> int | None:
    lc = getattr(node, "lc", None)
    return lc.line + 1 if lc is not None and lc.line is not None else None
