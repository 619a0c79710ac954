"""Spreadsheets are read as the user sees them: hidden sheets only when named, formulas refused at their cell
(LibreOffice's and Excel's constant booleans read as booleans), any text YAML can hold imported as it is,
texts no import accepts refused at their cell, errors capped; text columns exported as text so that leading
zeros survive, and a number that lost them is a warning, not a change."""

from __future__ import annotations

import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from openpyxl import load_workbook

import hostile_sheets as hostile
from conftest import ROOT, copy_game
from test_table import ASSETS, edit_cell, read_sheet_rows, write_rows

SHEETS = Path(__file__).parent / "sheets"
LIBREOFFICE_ODS = SHEETS / "greed-inc-assets-libreoffice.ods"
OFFICE_PYTHON = "/usr/bin/python3"  # LibreOffice's Python, with its `uno` module (Debian: python3-uno)
CARDS = "decks/cards.yaml"


def office_can_type() -> bool:
    if not shutil.which("soffice") or not Path(OFFICE_PYTHON).exists():
        return False
    return subprocess.run([OFFICE_PYTHON, "-c", "import uno"], capture_output=True).returncode == 0


def values(game: Path, deck: str = "cards") -> dict:
    """The deck's cards as the loader reads them: id -> plain values."""
    from generator.model import load_game
    from generator.model.table.cards import card_values

    loaded = load_game(game, require_templates=False)
    return {card.id: card_values(card) for card in loaded.decks[deck].cards}


# --- sheets and formulas ---------------------------------------------------------------------------------------


def test_an_ods_libreoffice_saved_from_pnpgens_xlsx_imports_with_nothing_changed(tmp_path, cli):
    game = copy_game("greed-inc", tmp_path)
    (game / ASSETS).write_bytes((SHEETS / "greed-inc-assets.yaml").read_bytes())
    before = (game / ASSETS).read_bytes()
    with zipfile.ZipFile(LIBREOFFICE_ODS) as ods:
        content = ods.read("content.xml").decode()
    assert content.count('table:formula="of:=TRUE()" office:value-type="float" office:value="1"') > 40
    result = cli("table", "import", game, "assets", LIBREOFFICE_ODS)
    assert result.code == 0, result
    assert "nothing to change" in result.out and not result.err
    assert (game / ASSETS).read_bytes() == before
    rows = read_sheet_rows(LIBREOFFICE_ODS)
    primary = rows[0].index("primary")
    assert {type(row[primary]) for row in rows[1:]} == {bool}


def test_a_formula_is_an_error_at_its_cell_and_a_constant_boolean_is_its_boolean(tmp_path, cli):
    game = copy_game("greed-inc", tmp_path)
    (game / ASSETS).write_bytes((SHEETS / "greed-inc-assets.yaml").read_bytes())
    with zipfile.ZipFile(LIBREOFFICE_ODS) as ods:
        parts = {info.filename: ods.read(info) for info in ods.infolist()}
    content = parts["content.xml"].decode()
    # sand-pit (row 3) is a primary producer: its TRUE() cell becomes FALSE()
    row3 = content.index("sand-pit")
    at = content.index('of:=TRUE()" office:value-type="float" office:value="1"', row3)
    content = content[:at] + 'of:=FALSE()" office:value-type="float" office:value="0"' + content[at + 54 :]
    parts["content.xml"] = content.encode()
    edited = hostile.write_zip(tmp_path / "edited.ods", parts)
    result = cli("table", "import", game, "assets", edited)
    assert result.code == 0, result
    assert "changed sand-pit: primary" in result.out
    assert values(game, "assets")["sand-pit"]["primary"] is False

    number = content.index('office:value-type="float" office:value="12"')  # oil-well's number, row 4
    content = content[:number] + 'table:formula="of:=6*2" ' + content[number:]
    parts["content.xml"] = content.encode()
    hostile.write_zip(edited, parts)
    result = cli("table", "import", game, "assets", edited)
    assert result.code == 2
    assert "edited.ods: assets!G4: a formula (of:=6*2): pnpgen reads typed values, not formulas" in result.err
    assert "paste special: values only" in result.err and "Traceback" not in result.err


def test_xlsx_formulas_excel_writes_are_errors_and_its_constant_booleans_booleans(tmp_path, cli):
    game = copy_game("greed-inc", tmp_path)
    sheet = tmp_path / "assets.xlsx"
    assert cli("table", "export", game, "assets", "-o", sheet).code == 0
    book = load_workbook(sheet)
    cells = book["assets"]
    header = [cell.value for cell in cells[1]]
    primary, number = header.index("primary") + 1, header.index("number") + 1
    cells.cell(row=3, column=primary).value = "=FALSE()"  # sand-pit; no cached value: openpyxl computes none
    book.save(sheet)
    result = cli("table", "import", game, "assets", sheet)
    assert result.code == 0 and "changed sand-pit: primary" in result.out, result
    cells.cell(row=4, column=number).value = "=SUM(G2:G3)"
    cells.cell(row=5, column=number).value = "=G4+1"
    book.save(sheet)
    result = cli("table", "import", game, "assets", sheet)
    assert result.code == 2
    assert "assets.xlsx: assets!G4: a formula (SUM(G2:G3))" in result.err
    assert "assets.xlsx: assets!G5: a formula (G4+1)" in result.err


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_a_hidden_sheet_is_read_only_when_named(fmt, small_game, tmp_path, cli):
    """A hidden sheet named after the deck holds old cards; the visible one, the user's edit."""
    export = tmp_path / "cards.csv"
    assert cli("table", "export", small_game, "cards", "-o", export).code == 0
    rows = read_sheet_rows(export)
    name = rows[0].index("name.en")
    visible = [list(row) for row in rows]
    visible[1][name] = "Visible Apple"
    hidden = [list(row) for row in rows]
    hidden[1][name] = "Hidden Apple"
    sheet = tmp_path / f"book.{fmt}"
    if fmt == "xlsx":
        rows_xml = lambda rows: "".join(  # noqa: E731
            f'<row r="{r + 1}">'
            + "".join(hostile.inline(f"{chr(65 + c)}{r + 1}", v) for c, v in enumerate(row) if v is not None)
            + "</row>"
            for r, row in enumerate(rows)
        )
        hostile.xlsx(
            sheet, None, sheets=[("cards", "hidden", rows_xml(hidden)), ("Sheet1", "visible", rows_xml(visible))]
        )
    else:
        table = lambda name, rows, style=None: hostile.table(  # noqa: E731
            name,
            "".join(
                "<table:table-row>"
                + "".join(hostile.text_cell(v) if v is not None else "<table:table-cell/>" for v in row)
                + "</table:table-row>"
                for row in rows
            ),
            style,
        )
        hide = (
            '<style:style style:name="ta2" style:family="table">'
            '<style:table-properties table:display="false"/></style:style>'
        )
        hostile.ods(sheet, table("cards", hidden, "ta2") + table("Sheet1", visible), hide)
    result = cli("table", "import", small_game, "cards", sheet)
    assert result.code == 0, result
    assert values(small_game)["apple"]["name"]["en"] == "Visible Apple"
    assert f"warning: {sheet}: the sheet 'cards' is hidden: read the visible sheet 'Sheet1'" in result.err
    result = cli("table", "import", small_game, "cards", sheet, "--sheet", "cards")
    assert result.code == 0 and values(small_game)["apple"]["name"]["en"] == "Hidden Apple"
    result = cli("table", "import", small_game, "cards", sheet, "--sheet", "Cards")
    assert result.code == 2 and "no sheet 'Cards' (its sheets: cards (hidden), Sheet1)" in result.err


# --- texts -----------------------------------------------------------------------------------------------------

AWKWARD = ["? key", "?x", ": x", "a\x85b", "1:20", "a\u2028b", "- x", "x #y", "'q", "yes", "two\nlines", "Qu\u2029ince"]


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "ods"])
def test_any_text_yaml_holds_imports_from_every_format(fmt, small_game, tmp_path, cli):
    sheet = tmp_path / f"cards.{fmt}"
    assert cli("table", "export", small_game, "cards", "-o", sheet).code == 0
    rows = read_sheet_rows(sheet)
    places = [(r, c) for r in (1, 2, 3) for c in ("name.ja", "name.en", "text.ja", "text.en")]
    for (row, column), text in zip(places, AWKWARD):
        rows[row][rows[0].index(column)] = text
    write_rows(sheet, rows)
    result = cli("table", "import", small_game, "cards", sheet)
    assert result.code == 0, result
    cards = values(small_game)
    for (row, column), text in zip(places, AWKWARD):
        field, lang = column.split(".")
        assert cards[rows[row][0]][field][lang] == text, (row, column)
    assert cli("validate", small_game).code in (0, 1)


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "ods"])
def test_a_cell_of_only_line_separators_is_an_error_not_a_deletion(fmt, small_game, tmp_path, cli):
    before = (small_game / CARDS).read_bytes()
    sheet = tmp_path / f"cards.{fmt}"
    assert cli("table", "export", small_game, "cards", "-o", sheet).code == 0
    edit_cell(sheet, "pear", "name.en", "\u2028")
    result = cli("table", "import", small_game, "cards", sheet)
    assert result.code == 2
    where = "assets!F3" if fmt != "csv" else "F3"  # write_rows names every sheet assets
    assert (
        f"cards.{fmt}: {where}: name.en: the cell holds only invisible characters (U+2028 LINE SEPARATOR)" in result.err
    )
    assert (small_game / CARDS).read_bytes() == before


def test_a_nul_or_an_escape_from_a_csv_cell_is_a_located_error(small_game, tmp_path, cli):
    before = (small_game / CARDS).read_bytes()
    sheet = tmp_path / "cards.csv"
    assert cli("table", "export", small_game, "cards", "-o", sheet).code == 0
    edit_cell(sheet, "pear", "name.en", "Pe\x00ar")
    edit_cell(sheet, "apple", "text.en", "\x1b[31mDraw")
    result = cli("table", "import", small_game, "cards", sheet)
    assert result.code == 2
    assert "cards.csv: F3: name.en: the cell holds a control character, U+0000 (NUL), at character 3" in result.err
    assert "cards.csv: I2: text.en: the cell holds a control character, U+001B (escape), at character 1" in result.err
    assert (small_game / CARDS).read_bytes() == before


def test_errors_are_capped_at_50_then_counted(small_game, tmp_path, cli):
    sheet = tmp_path / "cards.ods"
    assert cli("table", "export", small_game, "cards", "-o", sheet).code == 0
    rows = read_sheet_rows(sheet)
    count = rows[0].index("count")
    for n in range(2000):
        row = list(rows[1])
        row[0], row[count] = f"card-{n}", "many"
        rows.append(row)
    write_rows(sheet, rows)
    result = cli("table", "import", small_game, "cards", sheet)
    assert result.code == 2
    lines = result.err.splitlines()
    assert len(lines) == 51, lines[-3:]
    assert all(": count: expected a whole number" in line for line in lines[:50])
    assert lines[-1] == f"error: {sheet}: and 1,950 more problems (correct these and run again to see the rest)"


# --- leading zeros ---------------------------------------------------------------------------------------------


@pytest.fixture
def coded(small_game):
    """The scaffolded game with a text field holding codes with leading zeros."""
    deck = small_game / CARDS
    text = deck.read_text(encoding="utf-8")
    text = text.replace(
        "  text: {type: text", "  code: {type: str, doc: the code printed under the name}\n  text: {type: text"
    )
    text = text.replace("    value: 1\n", '    value: 1\n    code: "007"\n').replace(
        "    value: 2\n", "    value: 2\n    code: '1.50'\n"
    )
    deck.write_text(text, encoding="utf-8")
    return small_game


def test_text_columns_are_exported_as_text(coded, tmp_path, cli):
    xlsx, ods = tmp_path / "cards.xlsx", tmp_path / "cards.ods"
    assert cli("table", "export", coded, "cards", "-o", xlsx).code == 0
    assert cli("table", "export", coded, "cards", "-o", ods).code == 0
    cells = load_workbook(xlsx)["cards"]
    header = [cell.value for cell in cells[1]]
    code, value, name = (header.index(label) for label in ("code", "value", "name.en"))
    assert cells.cell(row=2, column=code + 1).value == "007"
    assert cells.cell(row=2, column=code + 1).number_format == "@"
    assert cells.cell(row=2, column=name + 1).number_format == "@"
    assert cells.cell(row=2, column=value + 1).number_format == "General"
    assert cells.column_dimensions[chr(65 + code)].number_format == "@"  # rows typed below the cards too
    assert cells.column_dimensions[chr(65 + value)].number_format == "General"
    with zipfile.ZipFile(ods) as archive:
        content = archive.read("content.xml").decode()
    assert '<number:text-style style:name="text-format"' in content
    columns = content.split("<table:table-column ")[1:]
    assert 'table:default-cell-style-name="text"' in columns[code]
    assert "default-cell-style-name" not in columns[value]


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "ods"])
def test_a_number_for_a_text_with_other_digits_is_a_warning_and_the_text_kept(fmt, coded, tmp_path, cli):
    before = (coded / CARDS).read_bytes()
    sheet = tmp_path / f"cards.{fmt}"
    assert cli("table", "export", coded, "cards", "-o", sheet).code == 0
    rows = read_sheet_rows(sheet)
    code = rows[0].index("code")
    rows[1][code], rows[2][code] = (7, 1.5) if fmt != "csv" else ("7", "1.5")  # as a General column stores them
    write_rows(sheet, rows)
    result = cli("table", "import", coded, "cards", sheet)
    assert result.code == 0, result
    assert "nothing to change" in result.out
    letter = chr(65 + code)
    where = f"assets!{letter}" if fmt != "csv" else letter
    assert (
        f"warning: {sheet}: {where}2: code: the cell holds the number 7 where the card has the text '007': kept '007'"
        in result.err
    )
    assert (
        f"{where}3: code: the cell holds the number 1.5 where the card has the text '1.50': kept '1.50'" in result.err
    )
    assert (coded / CARDS).read_bytes() == before
    rows[1][code] = 8 if fmt != "csv" else "8"  # another number: a change, written as its text
    write_rows(sheet, rows)
    assert cli("table", "import", coded, "cards", sheet).code == 0
    assert values(coded)["apple"]["code"] == "8"


@pytest.mark.skipif(
    not office_can_type(), reason="needs LibreOffice and its Python (apt: libreoffice-calc python3-uno)"
)
@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_008_typed_in_libreoffice_stays_008(fmt, coded, tmp_path, cli):
    sheet, typed = tmp_path / f"cards.{fmt}", tmp_path / f"typed.{fmt}"
    assert cli("table", "export", coded, "cards", "-o", sheet).code == 0
    header = read_sheet_rows(sheet)[0]
    code, count = chr(65 + header.index("code")), chr(65 + header.index("count"))
    subprocess.run(
        [
            OFFICE_PYTHON,
            Path(__file__).parent / "office_typing.py",
            sheet,
            typed,
            f"{code}2=008",
            f"{count}2=3",
            f"{code}5=010",
        ],
        check=True,
        timeout=120,
        cwd=ROOT,
    )
    rows = read_sheet_rows(typed)
    assert (rows[1][header.index("code")], rows[1][header.index("count")]) == ("008", 3)
    assert rows[4][header.index("code")] == "010"  # a row typed below the cards
