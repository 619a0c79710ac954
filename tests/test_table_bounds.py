"""Spreadsheets are measured before they are read: a hostile XLSX, ODS or CSV costs at most a few seconds and
200 MB before its located error (the file, the sheet and cell, the limit), in `table import`, in validate and
build of a deck read from a spreadsheet, and in a running `pnpgen serve`.

Each case runs in a child process whose address space is capped at what it uses once its modules are
imported plus 200 MB (RLIMIT_AS): python-calamine given one of these files asks for gigabytes (549 GB for one
value at XFD1048576) and the child aborts; measured, it answers with the error."""

from __future__ import annotations

import json
import subprocess
import zipfile
import sys
import time
from pathlib import Path

import pytest

import hostile_sheets as hostile
from conftest import ROOT
from hostile_sheets import HEADER

MEMORY_MB = 200
CPU_SECONDS = 5
CHILD = """
import json, resource, sys, time
sys.argv = [sys.argv[0]] + json.loads(sys.argv[1])
import python_calamine, openpyxl, odf.opendocument  # what reading may import, loaded before the cap
from generator.cli import main
from generator.commands import NAMES
for name in NAMES:
    __import__("generator.commands." + name)
import generator.model.loader, generator.model.table.cards, generator.checks.validate
def mapped():
    for line in open("/proc/self/status"):
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
cap = mapped() + {mb} * 2**20
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
before = resource.getrusage(resource.RUSAGE_SELF)
started = time.process_time()
try:
    code = main(sys.argv[1:])
except SystemExit as exit_:
    code = exit_.code
after = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({{"code": code, "cpu": time.process_time() - started,
                  "grown_mb": (after.ru_maxrss - before.ru_maxrss) / 1024}}), file=sys.stderr)
"""


def bounded(*args) -> tuple[int, str, dict]:
    """`pnpgen ARGS` in a child capped at its imports + MEMORY_MB: exit code, stderr, measurements."""
    argv = json.dumps([str(a) for a in args])
    child = subprocess.run(
        [sys.executable, "-c", CHILD.format(mb=MEMORY_MB), argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PNPGEN_DAEMON": "0", "PATH": "/usr/bin:/bin"},
    )
    lines = child.stderr.strip().splitlines()
    assert child.returncode == 0 and lines, f"the child died ({child.returncode}): {child.stderr[-2000:]}"
    return json.loads(lines[-1])["code"], "\n".join(lines[:-1]), json.loads(lines[-1])


# --- the files -------------------------------------------------------------------------------------------------


def rows_xml(count: int, numbered: bool = True) -> list[str]:
    """`count` rows of one value each after the header, as XLSX `<row>`s, in chunks of 100,000."""
    chunks = [HEADER]
    for start in range(2, count + 2, 100_000):
        stop = min(start + 100_000, count + 2)
        if numbered:
            chunks.append("".join(f'<row r="{r}"><c r="A{r}"><v>{r}</v></c></row>' for r in range(start, stop)))
        else:
            chunks.append("<row><c><v>1</v></c></row>" * (stop - start))
    return chunks


def ods_header() -> str:
    return "<table:table-row>" + hostile.text_cell("id") + "</table:table-row>"


def make(kind: str, fmt: str, folder: Path) -> Path:
    """The hostile file `kind` in format `fmt`."""
    path = folder / f"{kind}.{fmt}"
    far_cell = '<row r="1048576">' + hostile.inline("XFD1048576", "x") + "</row>"
    if (kind, fmt) == ("far", "xlsx"):
        return hostile.xlsx(path, HEADER + far_cell, dimension="A1:XFD1048576")
    if (kind, fmt) == ("far-undeclared", "xlsx"):  # the dimension says A1: the cell itself is far
        return hostile.xlsx(path, HEADER + far_cell, dimension="A1")
    if (kind, fmt) == ("far", "ods"):
        rows = (
            ods_header()
            + '<table:table-row table:number-rows-repeated="1048574"><table:table-cell/></table:table-row>'
            + '<table:table-row><table:table-cell table:number-columns-repeated="16383"/>'
            + hostile.text_cell("x")
            + "</table:table-row>"
        )
        return hostile.ods(path, hostile.table("assets", rows))
    if (kind, fmt) == ("far", "csv"):
        path.write_text("id\n" + "\n" * 1_048_574 + "," * 16_383 + "x\n", encoding="utf-8")
        return path
    if (kind, fmt) == ("3m-rows", "xlsx"):
        return hostile.xlsx(path, rows_xml(3_000_000))
    if (kind, fmt) == ("3m-rows", "ods"):
        chunks = [ods_header()]
        for start in range(0, 3_000_000, 100_000):
            chunks.append(
                "".join(
                    f"<table:table-row>{hostile.text_cell(str(r))}</table:table-row>"
                    for r in range(start, start + 100_000)
                )
            )
        return hostile.ods(path, ['<table:table table:name="assets">', *chunks, "</table:table>"])
    if (kind, fmt) == ("3m-rows", "csv"):
        path.write_text("id\n" + "".join(f"{r}\n" for r in range(3_000_000)), encoding="utf-8")
        return path
    if (kind, fmt) == ("20m-rows", "xlsx"):  # rows without numbers: 20,000,000 of them in a few MB
        return hostile.xlsx(path, rows_xml(20_000_000, numbered=False))
    if (kind, fmt) == ("20m-rows", "ods"):
        rows = ods_header() + '<table:table-row table:number-rows-repeated="20000000">' + hostile.text_cell("x")
        return hostile.ods(path, hostile.table("assets", rows + "</table:table-row>"))
    if (kind, fmt) == ("20m-rows", "csv"):
        path.write_text("id\n" + "x\n" * 20_000_000, encoding="utf-8")
        return path
    if (kind, fmt) == ("long-row", "csv"):  # one row of 1,100,000 commas: the csv module never holds it
        path.write_text("id\n" + "," * 1_100_000 + "x\n", encoding="utf-8")
        return path
    if (kind, fmt) == ("repeated", "ods"):  # one cell, repeated over the whole sheet
        rows = '<table:table-row table:number-rows-repeated="1048576">' + hostile.text_cell("x", 16384)
        return hostile.ods(path, hostile.table("assets", rows + "</table:table-row>"))
    if (kind, fmt) == ("long-strings", "xlsx"):  # 1,000,000 cells naming one 30,000-character string
        cells = "".join(f'<c r="{c}{{r}}" t="s"><v>0</v></c>' for c in "ABCDEFGHIJ")
        chunks = [HEADER] + [
            "".join(f'<row r="{r}">' + cells.replace("{r}", str(r)) + "</row>" for r in range(s, s + 10_000))
            for s in range(2, 100_000, 10_000)
        ]
        return hostile.xlsx(path, chunks, shared=["x" * 30_000])
    if (kind, fmt) == ("long-strings", "ods"):
        rows = '<table:table-row table:number-rows-repeated="300">' + hostile.text_cell("x" * 30_000, 1000)
        return hostile.ods(path, hostile.table("assets", rows + "</table:table-row>"))
    if (kind, fmt) == ("bomb", "xlsx"):  # a sheet part of 1 GB of spaces: a few MB zipped
        return hostile.xlsx(path, [HEADER] + [" " * (1 << 24)] * 64)
    if (kind, fmt) == ("bomb", "ods"):
        return hostile.ods(path, ['<table:table table:name="assets">', ods_header(), *[" " * (1 << 24)] * 64])
    raise KeyError((kind, fmt))


CASES = {
    # (kind, format): what the error says (after the file's name)
    ("far", "xlsx"): "assets!XFD1048576: the sheet declares cells up to XFD1048576 (its dimension)",
    ("far-undeclared", "xlsx"): "assets!XFD1048576: values reach column XFD (16,384): at most 1,000 columns are read",
    ("far", "ods"): "assets!XFD1048576: values reach column XFD (16,384): at most 1,000 columns are read",
    ("far", "csv"): "XFD1048576: values reach column XFD (16,384): at most 1,000 columns are read",
    ("3m-rows", "xlsx"): "assets!A100001: values reach row 100,001: at most 100,000 rows are read",
    ("3m-rows", "ods"): "assets!A100001: values reach row 100,001: at most 100,000 rows are read",
    ("3m-rows", "csv"): "A100001: values reach row 100,001: at most 100,000 rows are read",
    ("20m-rows", "xlsx"): "assets!A100001: values reach row 100,001: at most 100,000 rows are read",
    ("20m-rows", "ods"): "assets!A100001: values reach row 20,000,001: at most 100,000 rows are read",
    ("20m-rows", "csv"): "A100001: values reach row 100,001: at most 100,000 rows are read",
    ("long-row", "csv"): "long-row.csv:2: a row longer than 1,000,000 characters",
    ("repeated", "ods"): "assets!ALM1: values reach column XFD (16,384): at most 1,000 columns are read",
    ("long-strings", "xlsx"): "assets!D35: the cells hold more than 10,000,000 characters",
    ("long-strings", "ods"): "assets!ALL300: the cells hold more than 10,000,000 characters",
    ("bomb", "xlsx"): "assets!A2: its parts unpack to more than 100 MB",
    ("bomb", "ods"): "assets!A2: its parts unpack to more than 100 MB",
}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    cache: dict = {}

    def get(kind: str, fmt: str) -> Path:
        if (kind, fmt) not in cache:
            cache[kind, fmt] = make(kind, fmt, folder)
        return cache[kind, fmt]

    return get


@pytest.fixture(scope="module")
def greed(tmp_path_factory):
    from conftest import copy_game

    return copy_game("greed-inc", tmp_path_factory.mktemp("bounded"))


@pytest.mark.parametrize("kind, fmt", list(CASES), ids=[f"{k}-{f}" for k, f in CASES])
def test_a_hostile_sheet_is_a_located_error_within_seconds_and_200_mb(files, greed, kind, fmt):
    path = files(kind, fmt)
    before = (greed / "decks" / "assets.yaml").read_bytes()
    code, err, measured = bounded("table", "import", greed, "assets", path)
    assert code == 2, err
    expected = CASES[kind, fmt] if CASES[kind, fmt].startswith(path.name) else f"{path.name}: {CASES[kind, fmt]}"
    assert expected in err, err
    assert "Traceback" not in err and len(err.splitlines()) == 1
    assert measured["cpu"] < CPU_SECONDS, measured
    assert measured["grown_mb"] < MEMORY_MB, measured
    assert (greed / "decks" / "assets.yaml").read_bytes() == before


def test_the_cap_would_stop_calamine_itself(files, tmp_path):
    """The measure is what keeps the child alive: calamine given the far XLSX directly dies under the cap."""
    path = files("far-undeclared", "xlsx")
    script = CHILD.format(mb=MEMORY_MB).replace(
        "code = main(sys.argv[1:])",
        f"python_calamine.CalamineWorkbook.from_path({str(path)!r}).get_sheet_by_index(0).to_python(); code = 0",
    )
    child = subprocess.run([sys.executable, "-c", script, "[]"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert child.returncode != 0 and "memory allocation" in child.stderr


def test_a_deck_read_from_a_hostile_sheet_is_a_located_error_in_validate_and_build(files, small_game, tmp_path):
    sheet = small_game / "decks" / "cards.xlsx"
    deck = small_game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text[: text.index("cards:\n")] + "cards_from: cards.xlsx\n", encoding="utf-8")
    sheet.write_bytes(files("far-undeclared", "xlsx").read_bytes())
    for command in (["validate", small_game], ["build", small_game, "--out", tmp_path / "out", "--quiet"]):
        code, err, measured = bounded(*command)
        assert code == 2, err
        assert "cards.xlsx: assets!XFD1048576: values reach column XFD (16,384)" in err, err
        assert measured["grown_mb"] < MEMORY_MB and measured["cpu"] < CPU_SECONDS, measured
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


def test_a_running_server_reports_a_hostile_sheet_and_keeps_serving(files, small_game, tmp_path):
    """`pnpgen serve` on a deck read from a spreadsheet: the sheet replaced by the far XLSX is shown as its
    located error, the server's peak memory grows by less than 200 MB, and it goes on answering."""
    import resource
    import urllib.request

    sheet = small_game / "decks" / "cards.xlsx"
    deck = small_game / "decks" / "cards.yaml"
    assert (
        subprocess.run(
            [sys.executable, "-m", "generator", "table", "export", small_game, "cards", "-o", sheet],
            cwd=ROOT,
            env={"PNPGEN_DAEMON": "0", "PATH": "/usr/bin:/bin"},
        ).returncode
        == 0
    )
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text[: text.index("cards:\n")] + "cards_from: cards.xlsx\n", encoding="utf-8")

    def capped():  # far below the 549 GB calamine would ask for, far above what serving needs
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    server = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", small_game, "--port", "0", "--out", tmp_path / "out", "-j", "1"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={"PNPGEN_DAEMON": "0", "PATH": "/usr/bin:/bin"},
        preexec_fn=capped,
    )
    try:
        line = server.stdout.readline()
        assert "serving" in line, line + server.stderr.read()
        url = line.split(" on ")[1].split("/ ")[0]

        def state():
            with urllib.request.urlopen(url + "/api/state", timeout=30) as answer:
                return json.loads(answer.read())

        assert state()["error"] is None
        before = peak_rss_mb(server.pid)
        sheet.write_bytes(files("far-undeclared", "xlsx").read_bytes())
        deadline = time.monotonic() + 30
        while not state()["error"] and time.monotonic() < deadline:
            time.sleep(0.1)
        errors = state()["error"]
        assert any("cards.xlsx: assets!XFD1048576: values reach column XFD" in error for error in errors), errors
        assert server.poll() is None
        assert peak_rss_mb(server.pid) - before < MEMORY_MB
    finally:
        server.terminate()
        server.wait(timeout=30)


# --- archives that lie ----------------------------------------------------------------------------------------


def exported(cli, small_game, path: Path) -> Path:
    assert cli("table", "export", small_game, "cards", "-o", path).code == 0
    return path


def refused(path: Path) -> str:
    from generator.errors import InputError
    from generator.model.table.formats import read_sheet

    with pytest.raises(InputError) as error:
        read_sheet(path, "cards")
    return str(error.value)


def test_a_part_larger_than_its_archive_declares_is_refused(cli, small_game, tmp_path):
    """The directory says 100 bytes, with the checksum of the part's first 100: a reader trusting it reads on."""
    sheet = exported(cli, small_game, tmp_path / "cards.xlsx")
    hostile.lie_about_size(sheet, "xl/worksheets/sheet1.xml", 100)
    assert "xl/worksheets/sheet1.xml: the part unpacks to more than the 100 bytes its archive declares" in refused(
        sheet
    )


def test_an_archive_of_too_many_parts_is_refused_before_its_directory_is_read(tmp_path):
    parts = {f"xl/media/{n}.xml": "<a/>" for n in range(2000)}
    path = hostile.write_zip(tmp_path / "many.xlsx", {"xl/workbook.xml": "<workbook/>", **parts})
    assert "many.xlsx: the archive lists 2001 parts in" in refused(path)


def test_a_part_with_a_dtd_is_refused(tmp_path):
    laughs = '<?xml version="1.0"?><!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>'
    path = hostile.xlsx(tmp_path / "dtd.xlsx", hostile.HEADER)
    with zipfile.ZipFile(path) as archive:
        parts = {info.filename: archive.read(info) for info in archive.infolist()}
    sheet = parts["xl/worksheets/sheet1.xml"].decode().replace('<?xml version="1.0"?>', laughs)
    hostile.write_zip(path, {**parts, "xl/worksheets/sheet1.xml": sheet.replace("<sheetData>", "<sheetData>&b;")})
    assert "xl/worksheets/sheet1.xml: the part declares a DTD, which no spreadsheet program writes" in refused(path)
