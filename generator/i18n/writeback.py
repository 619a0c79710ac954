"""Write translations back into the game's YAML files, keeping comments, key order and formatting.

Each string's Text knows its file and key path; ruamel.yaml's round trip sets the one value. A file is
rewritten only when a value in it changed, and only with indentation settings that reproduce the file
byte for byte before the change (otherwise nothing is written and the file is named).
"""
from __future__ import annotations

import io
from pathlib import Path

from ruamel.yaml.scalarstring import (DoubleQuotedScalarString, FoldedScalarString, LiteralScalarString,
                                       SingleQuotedScalarString)

from generator.errors import InputError, Problem
from generator.fsutil import write_atomic
from generator.yamlio import round_trip_yaml

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
    raise InputError(Problem(path, None, "cannot rewrite this file without changing its layout",
                             hint="nothing was written; re-indent it consistently (2 spaces, lists indented) "
                                  "and import again"))


def dump(yaml, document) -> str:
    buffer = io.StringIO()
    yaml.dump(document, buffer)
    return buffer.getvalue()


def styled(new: str, old):
    """The new text quoted the way the old one was (a block `|` or `>` text stays one)."""
    if isinstance(old, (LiteralScalarString, FoldedScalarString)):
        return type(old)(new.rstrip("\n") + "\n" if old.endswith("\n") else new)
    if isinstance(old, DoubleQuotedScalarString):
        return DoubleQuotedScalarString(new)
    if isinstance(old, SingleQuotedScalarString):
        return SingleQuotedScalarString(new)
    return new


def prepare(changes: list[tuple[Path, tuple, str, str]]) -> dict[Path, str]:
    """The new text of every file a change touches; changes are (file, key path, lang, text)."""
    by_file: dict[Path, list] = {}
    for file, path, lang, text in changes:
        by_file.setdefault(file, []).append((path, lang, text))

    def set_texts(edits):
        def apply(document):
            for path, lang, text in edits:
                node = document
                for key in path:
                    node = node[key]
                node[lang] = styled(text, node.get(lang))
        return apply

    return {file: rewrite(file, set_texts(edits)) for file, edits in by_file.items()}


def rewrite(file: Path, apply) -> str:
    """The file's new text once `apply(document)` changed its round-trip document in place."""
    if file.suffix.lower() not in (".yaml", ".yml"):  # a deck's cards read from a spreadsheet (`cards_from:`)
        raise InputError(Problem(file, None, "this text comes from a spreadsheet: pnpgen does not write into it",
                                 hint=f"edit it in {file.name}"))
    yaml, document = faithful_yaml(file.read_text(encoding="utf-8"), file)
    apply(document)
    return dump(yaml, document)


def write_all(prepared: dict[Path, str]) -> None:
    for file, text in prepared.items():
        write_atomic(file, text)
