"""CSV files with translate-toolkit's columns (the string id is `context`), written with a byte order mark
so that spreadsheets read them as UTF-8, and cells a spreadsheet would run as formulas escaped."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from generator.errors import InputError, Problem
from generator.i18n.exchange.entries import Entry, Exchange, flags_to_checks

# translate-toolkit's column names (csv2po reads them: context becomes msgctxt); `language` names the
# target language on every row, so that a sorted or filtered sheet still says it.
CSV_COLUMNS = ["location", "source", "target", "context", "fuzzy", "developer_comments", "flags", "language"]
# A cell a spreadsheet would run as a formula gets a leading apostrophe (as OWASP and translate-toolkit do);
# one more apostrophe is added to a cell that already starts with apostrophes before such a character, so
# that removing one on import gives back exactly what was written.
FORMULA = re.compile(r"^'*[=+\-@\t\r]")
TRUE = {"1", "x", "true", "yes", "fuzzy", "stale"}
# Other names translate-toolkit reads for the same columns. Without `context` (po2csv's default columns are
# location, source, target) each row is matched by its location and source text.
CSV_ALIASES = {
    "original": "source",
    "untranslated": "source",
    "translated": "target",
    "translation": "target",
    "state": "fuzzy",
    "msgctxt": "context",
}


def csv_cell(text: str) -> str:
    return "'" + text if FORMULA.match(text) else text


def csv_value(cell: str) -> str:
    return cell[1:] if cell.startswith("'") and FORMULA.match(cell) else cell


def write_csv(exchange: Exchange) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for entry in exchange.entries:
        notes = entry.developer_note
        if entry.stale and entry.previous is not None:
            notes += f"\nprevious source: {entry.previous}"
        writer.writerow(
            [
                csv_cell(cell)
                for cell in (
                    entry.location,
                    entry.source,
                    entry.target,
                    entry.id,
                    "True" if entry.stale else "False",
                    notes,
                    ", ".join(entry.flags),
                    exchange.target_lang,
                )
            ]
        )
    # A byte order mark makes spreadsheets read the file as UTF-8 (Japanese stays Japanese).
    return "\ufeff" + buffer.getvalue()


def read_csv(text: str, path: Path) -> Exchange:
    rows = _csv_rows(text, path)
    header = (
        [CSV_ALIASES.get(name, name) for name in (cell.strip().lower().replace(" ", "_") for cell in rows[0][1])]
        if rows
        else []
    )
    if "source" not in header or "target" not in header:
        raise InputError(
            Problem(
                path,
                1,
                "expected a header row with the columns source and target (and context, the string id)",
                hint="export a CSV with `pnpgen i18n export --format csv` to see the layout",
            )
        )
    column = {name: header.index(name) for name in CSV_COLUMNS if name in header}
    entries, languages, problems = [], set(), []
    for line, row in rows[1:]:
        if not any(cell.strip() for cell in row):
            continue
        if len(row) <= column["target"]:
            problems.append(
                Problem(
                    path,
                    line,
                    f"this row has {len(row)} cell(s): the translation is column {column['target'] + 1} ('target')",
                    hint="give every row a target cell, empty when not translated",
                )
            )
            continue
        cell = {name: csv_value(row[index]) if index < len(row) else "" for name, index in column.items()}
        if cell.get("language", "").strip():
            languages.add(cell["language"].strip())
        entries.append(
            Entry(
                cell.get("context", "").strip(),
                cell["source"],
                cell["target"],
                stale=cell.get("fuzzy", "").strip().lower() in TRUE,
                line=line,
                location=cell.get("location", "").strip(),
                ignored=flags_to_checks(flag.strip() for flag in cell.get("flags", "").split(",")),
            )
        )
    if len(languages) > 1:
        problems.append(
            Problem(
                path,
                None,
                f"rows name different languages: {', '.join(sorted(languages))}",
                "language",
                "a file holds one language",
            )
        )
    if problems:
        raise InputError(problems)
    return Exchange(
        "",
        "",
        languages.pop() if languages else "",
        entries,
        id_name="context",
        language_header='a "language" column naming it on every row',
    )


def _csv_rows(text: str, path: Path) -> list[tuple[int, list[str]]]:
    """(line where the row starts, cells) for every row."""
    reader = csv.reader(io.StringIO(text, newline=""))
    rows, line = [], 1
    try:
        for row in reader:
            rows.append((line, row))
            line = reader.line_num + 1
    except csv.Error as exc:
        raise InputError(Problem(path, line, f"malformed CSV: {exc}")) from None
    return rows
