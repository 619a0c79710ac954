"""Write texts back into the game's YAML files, keeping comments, key order and formatting.

Every writer of texts (`i18n import`, the editor's saves, spreadsheet imports) goes through `prepare`,
then `write_all`. Each string's Text knows its file and key path; ruamel.yaml's round trip sets the one
value. A file is rewritten only when a value in it changed, and only with indentation settings that
reproduce the file byte for byte before the change (otherwise nothing is written and the file is named).

Every new file text is read back before anything is written, with the reader `build` and `validate` use:
it must hold exactly the old values with the new texts in their places. ruamel writes some texts plain
where YAML reads them otherwise (`? key` or `: x` in a flow mapping, `3` for a text): such a text is
written double-quoted, and a file that still does not read back is refused, naming the key.
"""

from __future__ import annotations

from pathlib import Path

from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from generator.errors import InputError, Problem
from generator.fsutil import write_atomic
from generator.yamlio.edit import styled
from generator.yamlio.round_trip import dump, faithful_yaml
from generator.yamlio.text import load_yaml_text


def prepare(changes: list[tuple[Path, tuple, str, str]]) -> dict[Path, str]:
    """The new text of every file a change touches, each read back; changes are (file, key path, lang, text)."""
    by_file: dict[Path, list] = {}
    for file, path, lang, text in changes:
        by_file.setdefault(file, []).append((path, lang, text))
    return {file: rewrite_texts(file, edits) for file, edits in by_file.items()}


def rewrite_texts(file: Path, edits: list[tuple[tuple, str, str]]) -> str:
    """The file's text with the edits (key path, lang, text) made, checked to read back as intended."""
    refuse_spreadsheet(file)
    original = file.read_text(encoding="utf-8")
    expected = load_yaml_text(original, file)
    for path, lang, text in edits:
        container(expected, path)[lang] = text
    for quote_all in (False, True):
        yaml, document = faithful_yaml(original, file)
        for path, lang, text in edits:
            node = container(document, path)
            node[lang] = DoubleQuotedScalarString(text) if quote_all else styled(text, node.get(lang))
        new = dump(yaml, document)
        if reads_back(new, file, expected):
            return new
    path, lang, _ = edits[0]
    raise InputError(
        Problem(
            file,
            None,
            "the new text would not read back as written",
            ".".join(str(k) for k in (*path, lang)),
            hint="nothing was written; please report this text to pnpgen's authors",
        )
    )


def rewrite(file: Path, apply) -> str:
    """The file's new text once `apply(document)` changed its round-trip document in place, checked to read
    back as the values of that document."""
    refuse_spreadsheet(file)
    yaml, document = faithful_yaml(file.read_text(encoding="utf-8"), file)
    apply(document)
    new = dump(yaml, document)
    if not reads_back(new, file, document):
        raise InputError(
            Problem(
                file,
                None,
                "the new values would not read back as written",
                difference(document, read_or_none(new, file)),
                hint="nothing was written; please report this change to pnpgen's authors",
            )
        )
    return new


def read_or_none(text: str, file: Path):
    try:
        return load_yaml_text(text, file)
    except InputError:
        return None


def difference(expected, got, path: tuple = ()) -> str | None:
    """The key path of the first value that reads back otherwise, like `cards.3.name.en`."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in expected:
            found = difference(expected[key], got.get(key), (*path, key))
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        return next((d for i, item in enumerate(expected) if (d := difference(item, got[i], (*path, i)))), None)
    return None if expected == got else ".".join(str(key) for key in path) or None


def refuse_spreadsheet(file: Path) -> None:
    if file.suffix.lower() not in (".yaml", ".yml"):  # a deck's cards read from a spreadsheet (`cards_from:`)
        raise InputError(
            Problem(
                file,
                None,
                "this text comes from a spreadsheet, which the YAML writer does not write into",
                hint=f"edit it in {file.name}",
            )
        )


def container(document, path: tuple):
    for key in path:
        document = document[key]
    return document


def reads_back(text: str, file: Path, expected) -> bool:
    try:
        return load_yaml_text(text, file) == expected
    except InputError:
        return False


def write_all(prepared: dict[Path, str]) -> None:
    for file, text in prepared.items():
        write_atomic(file, text)
