"""Reading YAML with the position of every key, so that errors can name file and line.

Reading for a build uses libyaml's C parser through PyYAML (ruamel's round-trip parser is pure Python
and was most of a cached rebuild's time); the containers it returns carry an `lc` like ruamel's, so
both kinds answer `key_line` and `item_line`. Editing files in place uses ruamel (`round_trip_yaml`),
which keeps comments and formatting.
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml as pyyaml
from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from generator.errors import InputError, Problem

_BASE_LOADER = getattr(pyyaml, "CSafeLoader", pyyaml.SafeLoader)
BOOL_TAG = "tag:yaml.org,2002:bool"


class FAST_LOADER(_BASE_LOADER):  # noqa: N801
    """libyaml with YAML 1.2 booleans, as ruamel reads them: `no`, `yes`, `on`, `off` stay text."""


FAST_LOADER.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != BOOL_TAG]
    for first, resolvers in _BASE_LOADER.yaml_implicit_resolvers.items()}
FAST_LOADER.add_implicit_resolver(BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


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


class DuplicateKey(Exception):
    def __init__(self, key, line):
        super().__init__(key)
        self.key, self.line = key, line


class BadValue(Exception):
    """A value that cannot be used (too large, unhashable key, a tag whose text does not parse), at a line."""

    def __init__(self, line: int, message: str, hint: str | None = None):
        super().__init__(message)
        self.line, self.message, self.hint = line, message, hint


# Bounds on what one file may hold. Aliases share a node, so a file of a few lines can name 9^9 values
# (an "alias bomb"); the values counted are those after expanding every alias, refused past MAX_VALUES when
# they are more than twice the file's own (a deck of 20,000 cards holds some 300,000 values, none repeated).
MAX_VALUES = 200_000     # the largest kit file holds about 2,000
MAX_TEXT = 100_000        # characters in one text
MAX_FILE_BYTES = 20 << 20


def round_trip_yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096
    return yaml


def load_yaml(path: Path):
    """Parse a YAML file; a syntax error becomes a located InputError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(Problem(path, None, "file not found", hint="create it or check the path"))
    except UnicodeDecodeError as exc:
        raise InputError(Problem(path, None, f"not UTF-8 text ({exc.reason})", hint="save the file as UTF-8"))
    if len(text) > MAX_FILE_BYTES:
        raise InputError(Problem(path, None, f"the file is larger than {MAX_FILE_BYTES >> 20} MB",
                                 hint="split it, or check that it is the file you meant"))
    return load_yaml_text(text, path)


def load_yaml_text(text: str, path: Path):
    """Parse YAML text read from path (named in errors), as load_yaml does."""
    try:
        return _fast_load(text)
    except DuplicateKey as exc:
        raise InputError(Problem(path, exc.line, f"the key '{exc.key}' appears twice in this mapping",
                                 str(exc.key), hint="remove or rename one of them"))
    except BadValue as exc:
        raise InputError(Problem(path, exc.line, exc.message, hint=exc.hint))
    except pyyaml.reader.ReaderError as exc:  # a character YAML does not allow: say on which line
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise InputError(Problem(path, line, f"a control character (U+{exc.character:04X}) in column {column}",
                                 hint="remove it, or write it as an escape in double quotes, like \"\\t\""))
    except pyyaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        what = exc.problem or exc.context or "malformed YAML"
        raise InputError(Problem(path, line, f"malformed YAML: {what}",
                                 hint="check indentation, colons and quotes on this line or the one above"))
    except pyyaml.YAMLError as exc:
        raise InputError(Problem(path, None, f"malformed YAML: {exc}"))


def load_yaml_round_trip(path: Path):
    """Parse with ruamel for editing (comments kept); a syntax error becomes a located InputError."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    try:
        return round_trip_yaml().load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        what = exc.problem or exc.context or "malformed YAML"
        raise InputError(Problem(path, line, f"malformed YAML: {what}",
                                 hint="check indentation, colons and quotes on this line or the one above"))
    except YAMLError as exc:
        raise InputError(Problem(path, None, f"malformed YAML: {exc}"))


def _fast_load(text: str):
    node = pyyaml.compose(text, Loader=FAST_LOADER)
    if node is None:
        return None
    _check_expanded_size(node)
    try:
        return _build(node, pyyaml.SafeLoader(""))
    except RecursionError:
        raise BadValue(1, "the values are nested too deeply", "at most a few hundred levels")


def _check_expanded_size(root) -> None:
    """Refuse a document whose aliases expand to more than MAX_VALUES values, naming the node that crosses it."""
    sizes: dict[int, int] = {}
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes:
            continue
        children = ([n for pair in node.value for n in pair] if isinstance(node, pyyaml.MappingNode)
                    else node.value if isinstance(node, pyyaml.SequenceNode) else [])
        if not children_done:
            stack.append((node, True))
            stack.extend((child, False) for child in children if id(child) not in sizes)
            continue
        size = 1 + sum(sizes[id(child)] for child in children)
        if size > MAX_VALUES and size > 2 * (len(sizes) + 1):  # a large file without aliases is no bomb
            raise BadValue(node.start_mark.line + 1, f"the aliases (*name) here expand to more than {MAX_VALUES:,} "
                           "values", "an alias repeats its anchor's whole value: use fewer or smaller ones")
        sizes[id(node)] = size


def _scalar(node, constructor):
    """A scalar's value; a text too long or a value its tag cannot read is a BadValue at its line."""
    line = node.start_mark.line + 1
    if isinstance(node.value, str) and len(node.value) > MAX_TEXT:
        raise BadValue(line, f"a text of {len(node.value):,} characters (at most {MAX_TEXT:,})")
    try:
        return constructor.construct_object(node, deep=True)
    except pyyaml.MarkedYAMLError:
        raise
    except Exception as exc:  # noqa: BLE001 - PyYAML's tag constructors fail in many ways (`!!timestamp text`)
        detail = f": {str(exc).split(';')[0]}" if isinstance(exc, (ValueError, ArithmeticError)) else ""
        raise BadValue(line, f"cannot read the value '{node.value[:40]}' as {node.tag.rsplit(':', 1)[-1]}{detail}",
                       "quote it to make it a text")


def _build(node, constructor):
    """Plain values for scalars; LocatedMap / LocatedList (with positions) for containers."""
    if isinstance(node, pyyaml.MappingNode):
        out = LocatedMap()
        out.lc = Positions(node.start_mark.line, node.start_mark.column)
        for key_node, value_node in node.value:
            if not isinstance(key_node, pyyaml.ScalarNode):
                raise BadValue(key_node.start_mark.line + 1, "a key must be a plain text or number, not a list "
                               "or a mapping", "write the key as a text; `? [a, b]` makes a list a key")
            key = _scalar(key_node, constructor)
            if key in out:
                raise DuplicateKey(key, key_node.start_mark.line + 1)
            out[key] = _build(value_node, constructor)
            out.lc.data[key] = (key_node.start_mark.line, key_node.start_mark.column)
        return out
    if isinstance(node, pyyaml.SequenceNode):
        out = LocatedList()
        out.lc = Positions(node.start_mark.line, node.start_mark.column)
        for index, item in enumerate(node.value):
            out.append(_build(item, constructor))
            out.lc.data[index] = (item.start_mark.line, item.start_mark.column)
        return out
    return _scalar(node, constructor)


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
