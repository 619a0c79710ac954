"""Reading YAML with the position of every key, so that errors can name file and line.

Reading for a build uses libyaml's C parser through PyYAML (ruamel's round-trip parser is pure Python
and was most of a cached rebuild's time); the containers it returns carry an `lc` like ruamel's, so
both kinds answer `key_line` and `item_line`. Editing files in place uses ruamel (`round_trip_yaml`),
which keeps comments and formatting.
"""

from __future__ import annotations

import bisect
import hashlib
import pickle
import re
from pathlib import Path

import yaml as pyyaml
from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from generator.errors import InputError, Problem
from generator.fsutil import read_sealed_entry, write_sealed_entry

_BASE_LOADER = getattr(pyyaml, "CSafeLoader", pyyaml.SafeLoader)
BOOL_TAG = "tag:yaml.org,2002:bool"


class FAST_LOADER(_BASE_LOADER):  # noqa: N801
    """libyaml with YAML 1.2 booleans, as ruamel reads them: `no`, `yes`, `on`, `off` stay text."""

    def resolve(self, kind, value, implicit):
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
# (an "alias bomb"); the values counted are those the aliases repeat, on top of those written out (a
# 20,000-card deck file writes about 340,000, which its size bounds).
MAX_VALUES = 200_000  # the largest kit file holds about 2,000
MAX_TEXT = 100_000  # characters in one text
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
        raise InputError(Problem(path, None, "file not found", hint="create it or check the path")) from None
    except UnicodeDecodeError as exc:
        raise InputError(Problem(path, None, f"not UTF-8 text ({exc.reason})", hint="save the file as UTF-8")) from None
    if len(text) > MAX_FILE_BYTES:
        raise InputError(
            Problem(
                path,
                None,
                f"the file is larger than {MAX_FILE_BYTES >> 20} MB",
                hint="split it, or check that it is the file you meant",
            )
        )
    if _remembered_dir is not None and len(text) >= REMEMBER_FROM_BYTES and "&" not in text:
        return _load_remembered(text, path, _remembered_dir)
    return load_yaml_text(text, path)


# A large file (a deck of thousands of cards) is remembered parsed, with its text: read again unchanged it
# costs an unpickling, and with a few cards edited only those cards are parsed again (see _reparsed). The
# pickle is sealed (fsutil.write_sealed_entry): one the user's pnpgen did not write is never unpickled.
REMEMBER_FROM_BYTES = 256 << 10
REMEMBERED_VERSION = 1
_remembered_dir: Path | None = None


def remember_in(directory: Path | None) -> None:
    """Remember large parsed files in directory (a build's cache); None: parse every file in full."""
    global _remembered_dir
    _remembered_dir = directory


def _load_remembered(text: str, path: Path, directory: Path):
    store = directory / "yaml" / f"{hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:24]}.pickle"
    old_text, old_document = _remembered(store)
    if old_text == text:
        return old_document
    document, reparsed = _reparsed(old_text, old_document, text) if old_text is not None else (None, 0)
    if document is None:
        document = load_yaml_text(text, path)
    elif reparsed < REWRITE_FROM_SHARE:
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


REWRITE_FROM_SHARE = 0.02  # of a list's items parsed again since the file was remembered: remember it anew


def _reparsed(old_text: str, old, text: str):
    """The document of text, from the document of old_text, parsing again only the items of a block list that
    changed (lines before them and after them are the same), and the share of the list's items that was. None
    when the change is not inside the items of one list, or the items do not parse on
    their own as items of that list: then the file is parsed in full.

    The parser's state where an unchanged item starts is the same as before (the text before it is), and the
    changed items parsed alone at their own lines and column end where the next item starts, as they must."""
    if not isinstance(old, LocatedMap):
        return None, 0
    old_lines, lines = old_text.splitlines(keepends=True), text.splitlines(keepends=True)
    first, limit = 0, min(len(old_lines), len(lines))
    while first < limit and old_lines[first] == lines[first]:
        first += 1
    same_tail = 0
    while same_tail < limit - first and old_lines[-1 - same_tail] == lines[-1 - same_tail]:
        same_tail += 1
    old_end, delta = len(old_lines) - same_tail, len(lines) - len(old_lines)
    key_lines = sorted(old.lc.data[key][0] for key in old)
    for _key, items in old.items():
        if not isinstance(items, LocatedList) or not items or not hasattr(items, "lc"):
            continue
        starts = [items.lc.data[index][0] for index in range(len(items))]
        after = next((line for line in key_lines if line > starts[-1]), len(old_lines))
        if not starts[0] <= first <= after or old_end > after:
            continue
        i = bisect.bisect_right(starts, first) - 1
        j = bisect.bisect_right(starts, max(first, old_end - 1)) - 1
        span_start, span_end = starts[i], (starts[j + 1] if j + 1 < len(starts) else after)
        column = items.lc.col
        if not all(_starts_item(old_lines, line, column) for line in (span_start, *starts[j + 1 : j + 2])):
            return None, 0
        try:
            parsed = fast_load("\n" * span_start + "".join(lines[span_start : span_end + delta]))
        except Exception:  # noqa: BLE001 - parsed in full, which says what is wrong
            return None, 0
        if parsed is None:
            parsed = LocatedList()
            parsed.lc = Positions(span_start, column)
        if (
            not isinstance(parsed, LocatedList)
            or (parsed and parsed.lc.col != column)
            or len(items) - (j + 1 - i) + len(parsed) == 0
        ):
            return None, 0
        positions = (
            [items.lc.data[k] for k in range(i)]
            + [parsed.lc.data[k] for k in range(len(parsed))]
            + [(items.lc.data[k][0] + delta, items.lc.data[k][1]) for k in range(j + 1, len(items))]
        )
        if delta:
            for item in items[j + 1 :]:
                _shift(item, delta)
            for other in old:
                if old.lc.data[other][0] >= span_end:
                    old.lc.data[other] = (old.lc.data[other][0] + delta, old.lc.data[other][1])
                    _shift(old[other], delta)
        items[i : j + 1] = parsed
        items.lc.data = dict(enumerate(positions))
        return old, max(j + 1 - i, len(parsed)) / len(items)
    return None, 0


def _starts_item(lines: list[str], line: int, column: int) -> bool:
    """Whether the line starts a block list item (`- `) at column."""
    text = lines[line] if line < len(lines) else ""
    return (
        text[:column].strip(" ") == ""
        and len(text) > column
        and text[column] == "-"
        and text[column + 1 : column + 2] in (" ", "\n", "\r", "")
    )


def _shift(node, delta: int) -> None:
    """Move a parsed value's recorded lines by delta."""
    lc = getattr(node, "lc", None)
    if lc is None:
        return
    lc.line += delta
    lc.data = {key: (line + delta, col) for key, (line, col) in lc.data.items()}
    for child in node.values() if isinstance(node, dict) else node:
        _shift(child, delta)


def load_yaml_text(text: str, path: Path):
    """Parse YAML text read from path (named in errors), as load_yaml does."""
    try:
        return fast_load(text)
    except DuplicateKey as exc:
        raise InputError(
            Problem(
                path,
                exc.line,
                f"the key '{exc.key}' appears twice in this mapping",
                str(exc.key),
                hint="remove or rename one of them",
            )
        ) from None
    except BadValue as exc:
        raise InputError(Problem(path, exc.line, exc.message, hint=exc.hint)) from None
    except pyyaml.reader.ReaderError as exc:  # a character YAML does not allow: say on which line
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise InputError(
            Problem(
                path,
                line,
                f"a control character (U+{exc.character:04X}) in column {column}",
                hint='remove it, or write it as an escape in double quotes, like "\\t"',
            )
        ) from None
    except pyyaml.MarkedYAMLError as exc:
        raise InputError(syntax_problem(exc, text, path)) from None
    except pyyaml.YAMLError as exc:
        raise InputError(Problem(path, None, f"malformed YAML: {exc}")) from None


def load_yaml_round_trip(path: Path):
    """Parse with ruamel for editing (comments kept); a syntax error becomes a located InputError."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    try:
        return round_trip_yaml().load(text)
    except MarkedYAMLError as exc:
        raise InputError(syntax_problem(exc, text, path)) from None
    except YAMLError as exc:
        raise InputError(Problem(path, None, f"malformed YAML: {exc}")) from None


QUOTE_IT = 'quote the text ("...") or write one language a line (block style; docs/schema.md shows it)'
OPENS_COLLECTION = re.compile(r"(?:^|:\s|-\s)\s*[{\[]")


def syntax_problem(exc, text: str, path: Path) -> Problem:
    """A YAML syntax error at its line, with a hint for the common cause: a text YAML reads as syntax."""
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else None
    what = exc.problem or exc.context or "malformed YAML"
    lines = text.splitlines()
    in_flow = "flow mapping" in str(exc.context) or "flow sequence" in str(exc.context)
    if in_flow and exc.context_mark and (line is None or line > len(lines) or not lines[line - 1].strip()):
        line = exc.context_mark.line + 1  # the problem was found past the end: name the line the braces open on
    source = lines[line - 1] if line and line <= len(lines) else ""
    if in_flow:
        hint = (
            "inside {ja: ..., en: ...} a comma, `: `, ` #`, brackets or braces (furigana {漢字|かんじ}, "
            "placeholders) in a text break it: " + QUOTE_IT
        )
    elif "mapping values are not allowed" in what and source.count(": ") > 1:
        hint = 'a text holding `: ` (a colon and a space) must be quoted ("...")'
    elif "expected key" in what and OPENS_COLLECTION.search(source):
        hint = (
            "a text starting with { or [ (furigana {漢字|かんじ}, a placeholder {...}) is read as a mapping or a "
            'list: quote it, like ja: "{札|ふだ}を引く"'
        )
    else:
        hint = "check indentation, colons and quotes on this line or the one above"
    return Problem(path, line, f"malformed YAML: {what}", hint=hint)


def fast_load(text: str):
    node = pyyaml.compose(text, Loader=FAST_LOADER)
    if node is None:
        return None
    if "&" in text:  # an alias needs an anchor: without one, every value is written out in the file
        _check_expanded_size(node)
    try:
        return _build(node, pyyaml.SafeLoader(""))
    except RecursionError:
        raise BadValue(1, "the values are nested too deeply", "at most a few hundred levels") from None


def _check_expanded_size(root) -> None:
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


def _scalar(node, constructor):
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


def _build(node, constructor):
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
