"""ruamel's round trip, for editing: a document that keeps comments, quoting and layout, and is written
back byte for byte with the indentation the file had."""

from __future__ import annotations

import io
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from generator.errors import InputError, Problem
from generator.yamlio.text import syntax_problem


def round_trip_yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096
    return yaml


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


# (mapping, sequence, offset) indentations tried, most common first.
INDENTS = [(2, 4, 2), (2, 2, 0), (4, 4, 2), (4, 6, 4), (4, 4, 0), (2, 2, 2)]


def faithful_yaml(text: str, path: Path):
    """A round-trip YAML that reproduces text exactly, and the document it loaded."""
    for mapping, sequence, offset in INDENTS:
        yaml = round_trip_yaml()
        yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
        document = yaml.load(text)
        if dump(yaml, document) == text:
            return yaml, document
    raise InputError(
        Problem(
            path,
            None,
            "cannot rewrite this file without changing its layout",
            hint="nothing was written; re-indent it consistently (2 spaces, lists indented) and import again",
        )
    )


def dump(yaml, document) -> str:
    buffer = io.StringIO()
    yaml.dump(document, buffer)
    return buffer.getvalue()
