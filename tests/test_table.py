"""`pnpgen table`: decks to CSV, XLSX and ODS and back, cell-located errors, and decks read from a spreadsheet."""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path

import pytest
from openpyxl import load_workbook

from conftest import copy_game, page_text

FORMATS = ["csv", "xlsx", "ods"]
ASSETS = "decks/assets.yaml"


@pytest.fixture(scope="module")
def greed(tmp_path_factory):
    return copy_game("greed-inc", tmp_path_factory.mktemp("table"))


@pytest.fixture
def game(tmp_path):
    return copy_game("greed-inc", tmp_path)


def read_sheet_rows(path: Path) -> list[list]:
    from generator.model.table.formats import read_sheet

    return read_sheet(path).rows


def write_rows(path: Path, rows: list[list]) -> None:
    """Save edited rows in the file's own format, as a spreadsheet program would."""
    from generator.model.table.formats import Header, write_sheet

    fmt = path.suffix.lstrip(".")
    headers = [Header(str(label)) for label in rows[0]]
    path.write_bytes(write_sheet(fmt, "assets", headers, rows[1:]))


def edit_cell(path: Path, card_id: str, column: str, value) -> None:
    rows = read_sheet_rows(path)
    row = next(r for r in rows if r[0] == card_id)
    row[rows[0].index(column)] = value
    write_rows(path, rows)


def changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    old, new = before.splitlines(), after.splitlines()
    assert len(old) == len(new)
    return [(a, b) for a, b in zip(old, new) if a != b]


def comments(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith("#")]


KITS = {
    "greed-inc": ["assets", "companies", "goods", "status-symbols"],
    "ikkin": ["employees"],
    "mint-rails": ["asset-card", "draft-certificates", "map", "market-certificates", "portfolio", "worth"],
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_kit_deck_round_trips_byte_identical(fmt, tmp_path, cli):
    for kit, decks in KITS.items():
        game = copy_game(kit, tmp_path)
        for deck in decks:
            before = (game / "decks" / f"{deck}.yaml").read_bytes()
            sheet = tmp_path / f"{kit}-{deck}.{fmt}"
            assert cli("table", "export", game, deck, "-o", sheet).code == 0
            result = cli("table", "import", game, deck, sheet)
            assert result.code == 0, result
            assert "nothing to change" in result.out
            assert (game / "decks" / f"{deck}.yaml").read_bytes() == before, (kit, deck)


def test_export_has_a_column_per_field_and_language_and_cell_forms(greed, tmp_path, cli):
    out = tmp_path / "assets.csv"
    assert cli("table", "export", greed, "assets", "-o", out).code == 0
    rows = list(csv.reader(out.open(encoding="utf-8-sig")))
    assert rows[0] == [
        "id",
        "count",
        "remove_at",
        "placeholder",
        "name.ja",
        "name.en",
        "number",
        "primary",
        "produces",
        "recipe.inputs",
        "recipe.outputs",
        "trend",
        "trend_by_ability",
        "mark",
        "text.ja",
        "text.en",
    ]
    by_id = {row[0]: dict(zip(rows[0], row)) for row in rows[1:]}
    assert len(by_id) == 40
    assert by_id["local-builder"]["recipe.inputs"] == "land:1, glass:1"
    assert by_id["oil-well"]["remove_at"] == "3" and by_id["oil-well"]["mark"] == "X3/4"
    assert by_id["small-land-owner"]["placeholder"] == "number, produces, trend"
    assert (by_id["coal-mine"]["name.ja"], by_id["coal-mine"]["name.en"]) == ("炭鉱", "Coal Mine")
    only_en = tmp_path / "en.csv"
    assert cli("table", "export", greed, "assets", "-o", only_en, "--lang", "en").code == 0
    header = next(csv.reader(only_en.open(encoding="utf-8-sig")))
    assert "name.en" in header and "text.en" in header and not any(h.endswith(".ja") for h in header)


def test_xlsx_export_has_numbers_a_frozen_header_drop_downs_and_header_comments(greed, tmp_path, cli):
    out = tmp_path / "assets.xlsx"
    assert cli("table", "export", greed, "assets", "-o", out).code == 0
    sheet = load_workbook(out)["assets"]
    header = [cell.value for cell in sheet[1]]
    assert sheet.freeze_panes == "A2"
    number = header.index("number") + 1
    assert sheet.cell(row=2, column=number).value == 10 and sheet.cell(row=2, column=number).data_type == "n"
    assert sheet.cell(row=1, column=number).comment.text.startswith("asset number printed in the corner")
    mark = chr(ord("A") + header.index("mark"))
    lists = {v.formula1: str(v.sqref) for v in sheet.data_validations.dataValidation}
    assert lists['"X3/4,X4"'].startswith(f"{mark}2:")
    assert "like coal:1, sand:2" in sheet.cell(row=1, column=header.index("produces") + 1).comment.text


def test_ods_export_has_numbers_a_frozen_header_drop_downs_and_header_comments(greed, tmp_path, cli):
    out = tmp_path / "assets.ods"
    assert cli("table", "export", greed, "assets", "-o", out).code == 0
    with zipfile.ZipFile(out) as ods:
        content = ods.read("content.xml").decode()
        settings = ods.read("settings.xml").decode()
    assert 'table:condition=\'of:cell-content-is-in-list("X3/4";"X4")\'' in content
    assert 'office:value-type="float" office:value="10"' in content
    assert "<office:annotation><text:p>asset number printed in the corner" in content
    assert 'config:name="VerticalSplitMode" config:type="short">2<' in settings
    assert read_sheet_rows(out)[1][:2] == ["small-land-owner", 1]


@pytest.mark.parametrize("fmt", FORMATS)
def test_one_edited_cell_changes_one_yaml_line_and_keeps_every_comment(fmt, game, tmp_path, cli):
    before = (game / ASSETS).read_text(encoding="utf-8")
    sheet = tmp_path / f"assets.{fmt}"
    assert cli("table", "export", game, "assets", "-o", sheet).code == 0
    edit_cell(sheet, "coal-mine", "name.en", "Coal Pit")
    result = cli("table", "import", game, "assets", sheet)
    assert result.code == 0, result
    assert "changed coal-mine: name.en" in result.out
    after = (game / ASSETS).read_text(encoding="utf-8")
    assert changed_lines(before, after) == [
        ("    name: {ja: 炭鉱, en: Coal Mine}", "    name: {ja: 炭鉱, en: Coal Pit}")
    ]
    assert comments(after) == comments(before)


def test_a_changed_source_text_makes_its_translation_stale(game, tmp_path, cli):
    from generator.i18n.lock import STALE, read_lock
    from generator.i18n.strings import units
    from generator.model import load_game

    sheet = tmp_path / "assets.xlsx"
    assert cli("table", "export", game, "assets", "-o", sheet).code == 0
    edit_cell(sheet, "coal-mine", "name.en", "Coal Pit")  # en is Greed Inc's source language
    result = cli("table", "import", game, "assets", sheet)
    assert "1 source text(s) changed" in result.out
    loaded = load_game(game, require_templates=False)
    unit = units(loaded)["cards[coal-mine].name"]
    assert read_lock(loaded).state(unit, "ja", "en") == STALE


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_bad_cell_is_located_and_nothing_is_written(fmt, game, tmp_path, cli):
    before = (game / ASSETS).read_bytes()
    sheet = tmp_path / f"assets.{fmt}"
    assert cli("table", "export", game, "assets", "-o", sheet).code == 0
    rows = read_sheet_rows(sheet)
    row = next(i for i, r in enumerate(rows) if r[0] == "coal-mine")
    edit_cell(sheet, "coal-mine", "name.en", "Coal Pit")  # a good change beside the bad one is not written
    edit_cell(sheet, "coal-mine", "count", "abc")
    result = cli("table", "import", game, "assets", sheet)
    assert result.code == 2
    where = f"assets!B{row + 1}" if fmt != "csv" else f"B{row + 1}"
    assert f"assets.{fmt}: {where}: count: expected a whole number" in result.err
    assert "'abc'" in result.err and "Traceback" not in result.err
    assert (game / ASSETS).read_bytes() == before


def test_cells_are_checked_against_the_schema_and_references(game, tmp_path, cli):
    sheet = tmp_path / "assets.csv"
    assert cli("table", "export", game, "assets", "-o", sheet).code == 0
    edit_cell(sheet, "coal-mine", "produces", "cole:2")
    edit_cell(sheet, "oil-well", "mark", "X5")
    edit_cell(sheet, "sand-pit", "trend", "glass 1")
    edit_cell(sheet, "ironworks", "text.en", "x" * 10_001)
    result = cli("table", "import", game, "assets", sheet)
    assert result.code == 2
    assert "produces: no card 'cole' in deck 'goods' (did you mean 'coal'?)" not in result.err  # refs come after cells
    assert ": mark: expected one of X3/4, X4, found 'X5'" in result.err
    assert ": trend: expected id:amount pairs like land:1, oil:2, found 'glass 1'" in result.err
    assert ": text.en: the cell holds 10001 characters" in result.err
    edit_cell(sheet, "oil-well", "mark", "X4")
    edit_cell(sheet, "sand-pit", "trend", "glass:1")
    edit_cell(sheet, "ironworks", "text.en", "")
    result = cli("table", "import", game, "assets", sheet)
    assert result.code == 2 and "produces: no card 'cole' in deck 'goods' (did you mean 'coal'?)" in result.err


def test_unknown_columns_are_located_at_their_header(game, tmp_path, cli):
    sheet = tmp_path / "assets.xlsx"
    assert cli("table", "export", game, "assets", "-o", sheet).code == 0
    rows = read_sheet_rows(sheet)
    rows[0][rows[0].index("number")] = "nubmer"
    write_rows(sheet, rows)
    result = cli("table", "import", game, "assets", sheet)
    assert result.code == 2 and "assets!G1: nubmer: unknown column 'nubmer' (did you mean 'number'?)" in result.err


def test_new_rows_become_cards_and_missing_ones_are_removed_only_when_asked(game, tmp_path, cli):
    before = (game / ASSETS).read_text(encoding="utf-8")
    sheet = tmp_path / "assets.xlsx"
    assert cli("table", "export", game, "assets", "-o", sheet).code == 0
    rows = read_sheet_rows(sheet)
    header = rows[0]
    ids = [row[0] for row in rows]
    new = list(rows[ids.index("sand-pit")])
    new[0], new[header.index("name.en")], new[header.index("name.ja")] = "clay-pit", "Clay Pit", "粘土採掘場"
    new[header.index("placeholder")] = True
    rows.insert(ids.index("sand-pit") + 1, new)
    rows = [row for row in rows if row[0] != "coal-mine"]  # the first card below a band comment
    write_rows(sheet, rows)

    result = cli("table", "import", game, "assets", sheet)
    assert result.code == 0, result
    assert "added: clay-pit" in result.out and "not in the sheet, kept: coal-mine" in result.out
    after = (game / ASSETS).read_text(encoding="utf-8")
    assert "  - id: clay-pit\n    name: {ja: 粘土採掘場, en: Clay Pit}\n    placeholder: true\n" in after
    assert after.index("id: sand-pit") < after.index("id: clay-pit") < after.index("id: oil-well")
    assert "id: coal-mine" in after

    result = cli("table", "import", game, "assets", sheet, "--delete")
    assert result.code == 0 and "removed: coal-mine" in result.out
    after = (game / ASSETS).read_text(encoding="utf-8")
    assert "id: coal-mine" not in after
    assert comments(after) == comments(before)  # the band heading above coal-mine stays
    assert "  # --- band 20-29 ---\n  - id: oil-field" in after
    assert cli("validate", game).code in (0, 1)  # readable; the counts check may now complain


def test_csv_cells_that_a_spreadsheet_would_run_as_formulas_are_neutralised_and_restored(game, tmp_path, cli):
    deck = game / ASSETS
    text = deck.read_text(encoding="utf-8")
    deck.write_text(
        text.replace("name: {ja: 炭鉱, en: Coal Mine}", 'name: {ja: 炭鉱, en: \'=HYPERLINK("http://x","y")\'}'),
        encoding="utf-8",
    )
    before = deck.read_bytes()
    sheet = tmp_path / "assets.csv"
    assert cli("table", "export", game, "assets", "-o", sheet).code == 0
    row = next(r for r in csv.reader(sheet.open(encoding="utf-8-sig")) if r[0] == "coal-mine")
    assert row[5] == '\'=HYPERLINK("http://x","y")'
    assert cli("table", "import", game, "assets", sheet).code == 0
    assert deck.read_bytes() == before
    xlsx = tmp_path / "assets.xlsx"
    assert cli("table", "export", game, "assets", "-o", xlsx).code == 0
    cell = next(r for r in load_workbook(xlsx)["assets"].iter_rows() if r[0].value == "coal-mine")[5]
    assert cell.data_type == "s" and cell.value.startswith("=HYPERLINK")


def spreadsheet_game(small_game: Path, cli, fmt: str = "xlsx") -> Path:
    """The scaffolded game with its deck's cards moved into a spreadsheet named by `cards_from:`."""
    sheet = small_game / "decks" / f"cards.{fmt}"
    assert cli("table", "export", small_game, "cards", "-o", sheet).code == 0
    deck = small_game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text[: text.index("cards:\n")] + f"cards_from: cards.{fmt}\n", encoding="utf-8")
    return sheet


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_a_deck_read_from_a_spreadsheet_builds(fmt, small_game, tmp_path, cli):
    sheet = spreadsheet_game(small_game, cli, fmt)
    edit_cell(sheet, "pear", "name.en", "Quince")
    assert cli("validate", small_game).code == 0
    out = tmp_path / "out"
    result = cli("build", small_game, "--lang", "en", "--paper", "a4", "--out", out, "--quiet")
    assert result.code == 0, result
    text = page_text(out / "small" / "cards-en-a4.pdf", 0)
    assert "Quince" in text and "Apple" in text and "Pear" not in text


def test_a_bad_cell_in_a_deck_read_from_a_spreadsheet_is_located(small_game, tmp_path, cli):
    sheet = spreadsheet_game(small_game, cli, "csv")
    edit_cell(sheet, "grapes", "value", 12)
    for command in (["validate", small_game], ["build", small_game, "--out", tmp_path / "out", "--quiet"]):
        result = cli(*command)
        assert result.code == 2
        assert "cards.csv: G4: value: expected a whole number from 1 to 9, found 12" in result.err


def test_the_editor_writes_into_a_spreadsheet_deck_and_table_import_refuses_it(small_game, tmp_path, cli):
    from generator.web.session import GameSession, file_version

    sheet = spreadsheet_game(small_game, cli)
    session = GameSession(small_game, tmp_path / "cache")
    written = session.edit("cards[pear].name", "en", "Quince", file_version(sheet))
    assert written["written"] == ["decks/cards.xlsx"]
    rows = list(load_workbook(sheet).active.iter_rows(values_only=True))
    assert rows[2][rows[0].index("name.en")] == "Quince" and rows[2][rows[0].index("name.ja")] == "洋なし"
    result = cli("table", "import", small_game, "cards", sheet)
    assert result.code == 2 and "reads its cards from cards.xlsx" in result.err


def test_removing_items_and_keys_moves_their_comments_to_a_neighbour():
    from generator.yamlio.edit import delete_item, delete_key
    from generator.yamlio.round_trip import dump, faithful_yaml

    text = (
        "a:\n  # head 0\n  - id: x\n    n: 1  # eol n\n    m: 2\n  # head 1\n  - id: y\n    n: 2\n"
        "  # head 2\n  - id: z\n    n: {p: 1, q: 2}  # eol z\n  # tail\n"
    )
    yaml, document = faithful_yaml(text, None)
    delete_item(document["a"], 1)
    assert dump(yaml, document) == (
        "a:\n  # head 0\n  - id: x\n    n: 1  # eol n\n    m: 2\n  # head 1\n"
        "  # head 2\n  - id: z\n    n: {p: 1, q: 2}  # eol z\n  # tail\n"
    )
    yaml, document = faithful_yaml(text, None)
    delete_key(document["a"][0], "n")
    delete_item(document["a"], 2)
    assert dump(yaml, document) == (
        "a:\n  # head 0\n  - id: x # eol n\n    m: 2\n  # head 1\n  - id: y\n"
        "    n: 2\n  # head 2\n  # eol z\n  # tail\n"
    )
