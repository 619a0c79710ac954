"""Spreadsheet libraries on a 10,000-row card sheet: seconds to write and to read it, per format and library.

    .venv/bin/python bench/tables.py            # median of 3 runs each; prints a table

The sheet has the shape `pnpgen table export` writes: a header and 10,000 rows of 14 columns (an id,
whole numbers, true/false, enum values, `land:1, oil:2` cells and Japanese and English text). Candidates:
XLSX written by openpyxl (normal and write-only mode) and read by openpyxl (read-only) and python-calamine;
ODS written by odfpy and pyexcel-ods3 and read by both and by python-calamine; CSV with the standard library.
The libraries pnpgen does not depend on are skipped when they are not installed.
"""

from __future__ import annotations

import csv
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROWS = 10_000
RUNS = 3
HEADER = [
    "id",
    "count",
    "remove_at",
    "name.ja",
    "name.en",
    "number",
    "primary",
    "produces",
    "recipe.inputs",
    "recipe.outputs",
    "trend",
    "mark",
    "text.ja",
    "text.en",
]


def rows() -> list[list]:
    out = []
    for i in range(ROWS):
        out.append(
            [
                f"card-{i}",
                1 + i % 3,
                "3" if i % 5 == 0 else "",
                f"カード{i}号",
                f"Card number {i}",
                10 + i % 40,
                i % 2 == 0,
                "land:1, oil:2" if i % 2 else "",
                "sand:2" if i % 2 else "",
                "glass:1" if i % 2 else "",
                "coal:-1",
                "X3/4" if i % 7 == 0 else "",
                f"毎年、{i}金を得る。" * 2,
                f"Each year, gain {i} money. " * 2,
            ]
        )
    return out


# --- XLSX -----------------------------------------------------------------------------------------


def write_openpyxl(path: Path, data: list[list]) -> None:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(HEADER)
    for row in data:
        sheet.append(row)
    sheet.freeze_panes = "A2"
    book.save(path)


def write_openpyxl_write_only(path: Path, data: list[list]) -> None:
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet("cards")
    sheet.freeze_panes = "A2"
    sheet.append(HEADER)
    for row in data:
        sheet.append(row)
    book.save(path)


def read_openpyxl(path: Path) -> list[list]:
    from openpyxl import load_workbook

    book = load_workbook(path, read_only=True, data_only=True)
    rows_read = [list(row) for row in book.worksheets[0].iter_rows(values_only=True)]
    book.close()
    return rows_read


def read_calamine(path: Path) -> list[list]:
    from python_calamine import CalamineWorkbook

    book = CalamineWorkbook.from_path(str(path))
    return book.get_sheet_by_index(0).to_python(skip_empty_area=False)


# --- ODS ------------------------------------------------------------------------------------------


def write_odfpy(path: Path, data: list[list]) -> None:
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    table = Table(name="cards")
    for row in [HEADER, *data]:
        tr = TableRow()
        for value in row:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                cell = TableCell(valuetype="string")
                if value != "":
                    cell.addElement(P(text=str(value)))
            else:
                cell = TableCell(valuetype="float", value=value)
                cell.addElement(P(text=str(value)))
            tr.addElement(cell)
        table.addElement(tr)
    document.spreadsheet.addElement(table)
    document.save(str(path))


def read_odfpy(path: Path) -> list[list]:
    from odf.opendocument import load
    from odf.table import Table, TableCell, TableRow

    document = load(str(path))
    table = document.spreadsheet.getElementsByType(Table)[0]
    out = []
    for tr in table.getElementsByType(TableRow):
        out.append([str(cell) for cell in tr.getElementsByType(TableCell)])
    return out


def write_pyexcel_ods3(path: Path, data: list[list]) -> None:
    from pyexcel_ods3 import save_data

    save_data(str(path), {"cards": [HEADER, *data]})


def read_pyexcel_ods3(path: Path) -> list[list]:
    from pyexcel_ods3 import get_data

    return next(iter(get_data(str(path)).values()))


# --- CSV ------------------------------------------------------------------------------------------


def write_csv(path: Path, data: list[list]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(data)


def read_csv(path: Path) -> list[list]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


CANDIDATES = [
    ("xlsx", "openpyxl", "openpyxl", write_openpyxl, read_openpyxl),
    ("xlsx", "openpyxl write-only", "openpyxl", write_openpyxl_write_only, None),
    ("xlsx", "python-calamine (read only)", "python_calamine", None, read_calamine),
    ("ods", "odfpy", "odf", write_odfpy, read_odfpy),
    ("ods", "pyexcel-ods3", "pyexcel_ods3", write_pyexcel_ods3, read_pyexcel_ods3),
    ("ods", "python-calamine (read only)", "python_calamine", None, read_calamine),
    ("csv", "csv (standard library)", "csv", write_csv, read_csv),
]


def timed(action, *args) -> tuple[float, object]:
    times, result = [], None
    for _ in range(RUNS):
        start = time.perf_counter()
        result = action(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> int:
    data = rows()
    print(f"{ROWS} rows x {len(HEADER)} columns, median of {RUNS}\n")
    print(f"{'format':<6} {'library':<30} {'write s':>8} {'read s':>8} {'file KB':>8}")
    with tempfile.TemporaryDirectory() as folder:
        reference = {}
        for fmt, _name, module, write, _read in CANDIDATES:  # a file of each format to read, by the first writer
            if write and fmt not in reference and importlib.util.find_spec(module):
                reference[fmt] = Path(folder) / f"reference.{fmt}"
                write(reference[fmt], data)
        for fmt, name, module, write, read in CANDIDATES:
            if importlib.util.find_spec(module) is None:
                print(f"{fmt:<6} {name:<30} {'(not installed)':>17}")
                continue
            path = Path(folder) / f"{name.split()[0]}.{fmt}"
            write_s = read_s = None
            if write:
                write_s, _ = timed(write, path, data)
            if read:
                read_s, got = timed(read, path if write else reference[fmt])
                assert len(got) >= ROWS + 1, f"{name} read {len(got)} rows"
            size = (path if write else reference[fmt]).stat().st_size / 1024
            show = lambda s: "-" if s is None else f"{s:.2f}"  # noqa: E731
            print(f"{fmt:<6} {name:<30} {show(write_s):>8} {show(read_s):>8} {size:>8.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
