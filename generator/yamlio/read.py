"""Reading a YAML file: its text within bounds, parsed (or remembered parsed) into a located document."""

from __future__ import annotations

from pathlib import Path

from generator.errors import InputError, Problem
from generator.yamlio.remembered import load_remembered, remembers
from generator.yamlio.text import load_yaml_text

MAX_FILE_BYTES = 20 << 20  # the bounds on what is in a file are parse.MAX_VALUES and MAX_TEXT


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
    if remembers(text):
        return load_remembered(text, path)
    return load_yaml_text(text, path)
