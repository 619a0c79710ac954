"""A translation file in any of the formats: its format from its name, read with the checks every format
shares (UTF-8, no duplicate id, no control character), written."""

from __future__ import annotations

from pathlib import Path

from generator.errors import InputError, Problem
from generator.i18n.exchange.csvfile import read_csv, write_csv
from generator.i18n.exchange.entries import Entry, Exchange, control_character
from generator.i18n.exchange.po import read_po, write_po
from generator.i18n.exchange.xliff import read_xliff, write_xliff

FORMATS = {"po": ".po", "xliff": ".xlf", "csv": ".csv"}


def control_problems(entries: list[Entry], path: Path) -> list[Problem]:
    """Every entry whose source or translation holds a control character."""
    problems = []
    for entry in entries:
        for what, text in (("translation", entry.target), ("source", entry.source)):
            found = control_character(text)
            if found:
                problems.append(
                    Problem(
                        path,
                        entry.line,
                        f"the {what} holds {found}, which is not text",
                        entry.id or None,
                        "remove it (a line break is a line feed; tab is the one other control character kept)",
                    )
                )
                break
    return problems


def format_of(path: Path) -> str:
    suffix = path.suffix.lower()
    for name, ext in FORMATS.items():
        if suffix == ext or (name == "xliff" and suffix == ".xliff"):
            return name
    raise InputError(
        Problem(path, None, f"unknown translation file type '{suffix}'", hint="use a .po, .xlf (.xliff) or .csv file")
    )


def write(exchange: Exchange, fmt: str) -> str:
    """The file's text. The texts hold no control character (`transfer.build_exchange` refuses them)."""
    for entry in exchange.entries:
        for text in (entry.id, entry.source, entry.target, entry.previous or ""):
            if control_character(text):
                raise ValueError(f"{entry.id}: {control_character(text)} in a text to write")
    return {"po": write_po, "xliff": write_xliff, "csv": write_csv}[fmt](exchange)


def read(path: Path) -> Exchange:
    fmt = format_of(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(Problem(path, None, "file not found")) from None
    except OSError as exc:
        raise InputError(Problem(path, None, f"cannot read the file ({exc.strerror})")) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(Problem(path, line, f"not UTF-8 text ({exc.reason})", hint="save the file as UTF-8")) from None
    try:
        exchange = {"po": read_po, "xliff": read_xliff, "csv": read_csv}[fmt](text, path)
    except RecursionError:
        raise InputError(
            Problem(path, None, "elements nested too deeply", hint="a translation file is flat: units in a body")
        ) from None
    refuse_duplicates(exchange.entries, path, exchange.id_name)
    problems = control_problems(exchange.entries, path)
    if problems:
        raise InputError(problems)
    exchange.path = path
    return exchange


def refuse_duplicates(entries: list[Entry], path: Path, what: str) -> None:
    first: dict[str, int | None] = {}
    problems = []
    for entry in entries:
        if not entry.id:
            continue
        if entry.id in first:
            problems.append(
                Problem(
                    path,
                    entry.line,
                    f"{what} '{entry.id}' appears twice (first at line {first[entry.id]})",
                    entry.id,
                    "keep one entry per string",
                )
            )
        else:
            first[entry.id] = entry.line
    if problems:
        raise InputError(problems)
