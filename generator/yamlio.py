"""Reading YAML with the position of every key, so that errors can name file and line."""
from __future__ import annotations

from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from generator.errors import InputError, Problem


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


def key_line(mapping, key) -> int | None:
    """1-based line of a key in a mapping loaded by ruamel, or of the mapping itself."""
    if isinstance(mapping, CommentedMap):
        try:
            return mapping.lc.key(key)[0] + 1
        except (KeyError, TypeError, AttributeError):
            return node_line(mapping)
    return None


def item_line(seq, index: int) -> int | None:
    if isinstance(seq, CommentedSeq):
        try:
            return seq.lc.item(index)[0] + 1
        except (KeyError, TypeError, AttributeError, IndexError):
            return node_line(seq)
    return None


def node_line(node) -> int | None:
    lc = getattr(node, "lc", None)
    return lc.line + 1 if lc is not None and lc.line is not None else None
