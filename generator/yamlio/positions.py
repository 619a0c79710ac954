"""Where a parsed value is: the line and column of a mapping's keys and a list's items, as ruamel's `lc`."""

from __future__ import annotations


class Positions:
    """Where a container and its keys or items start (0-based line and column), as ruamel's `lc`."""

    def __init__(self, line: int, col: int):
        self.line, self.col = line, col
        self.data: dict = {}

    def key(self, key):
        return self.data[key]

    def item(self, index):
        return self.data[index]

    value = key


class LocatedMap(dict):
    lc: Positions


class LocatedList(list):
    lc: Positions


def key_line(mapping, key) -> int | None:
    """1-based line of a key in a mapping loaded with positions, or of the mapping itself."""
    if getattr(mapping, "lc", None) is not None:
        try:
            return mapping.lc.key(key)[0] + 1
        except (KeyError, TypeError, AttributeError):
            return node_line(mapping)
    return None


def item_line(seq, index: int) -> int | None:
    if getattr(seq, "lc", None) is not None:
        try:
            return seq.lc.item(index)[0] + 1
        except (KeyError, TypeError, AttributeError, IndexError):
            return node_line(seq)
    return None


def node_line(node) -> int | None:
    lc = getattr(node, "lc", None)
    return lc.line + 1 if lc is not None and lc.line is not None else None
