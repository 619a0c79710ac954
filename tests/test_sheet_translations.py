"""Decks read from a spreadsheet (`cards_from:`) in every translation flow: validate and `i18n status` name the
sheet, row and column of a missing translation (the column to add: `name.de`); `i18n import` and the editor write
the texts into the cells (a column added for a new language), every other part of the file kept, all together with
the YAML and the lock, or each text named by its cell when the file cannot be written."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import polib
import pytest
from openpyxl import load_workbook

from generator.i18n.strings import units
from generator.model import load_game
from generator.model.table.formats import read_sheet
from generator.render.own_words import missing_words
from test_all_or_nothing import check_killed_everywhere
from test_i18n import edit, snapshot, status
from test_table import spreadsheet_game


def german(game: Path, fmt: str, cli) -> Path:
    """The small game with its cards in a spreadsheet, and German added (add_german)."""
    sheet = spreadsheet_game(game, cli, fmt)
    add_german(game)
    return sheet


def add_german(game: Path) -> None:
    """German among the game's languages, and pnpgen's own words (it has none in German) among its labels in
    Japanese and English: what a translator's file then carries, to be translated like the game's strings."""
    edit(game / "game.yaml", "languages: [ja, en]", "languages: [ja, en, de]")
    words = missing_words(load_game(game), ["de"])
    labels = "".join(f"  {word.label}: {json.dumps(word.text.values, ensure_ascii=False)}\n" for word in words)
    (game / "labels.yaml").write_text("labels:\n" + labels, encoding="utf-8")


def german_po(cli, game: Path, path: Path) -> dict[str, str]:
    """A translator's German file of every string, each msgstr 'DE: ' and the English; the translations by id."""
    assert cli("i18n", "export", game, "--lang", "de", "-o", path, "--no-layout").code == 0
    english = {unit.id: unit.value("en") for unit in units(load_game(game)).values()}
    po = polib.pofile(str(path))
    for entry in po:
        entry.msgstr = f"DE: {english[entry.msgctxt]}"
    po.save(str(path))
    assert len(po) == len(english)
    return {entry.msgctxt: entry.msgstr for entry in po}


def rows_of(sheet: Path) -> list[list]:
    return read_sheet(sheet).rows


# --- validate and i18n status name the cell ------------------------------------------------------


def test_validate_names_the_sheet_row_and_the_column_to_add(cli, small_game):
    german(small_game, "xlsx", cli)
    result = cli("validate", small_game)
    assert result.code == 1
    assert (
        "decks/cards.xlsx: sheet 'cards', row 2: cards[apple].name has no de text "
        "(add a column name.de and fill its row 2)" in result.out
    )
    assert "cards[grapes].text has no de text (add a column text.de and fill its row 4)" in result.out
    sheet_lines = [line for line in result.out.splitlines() if "decks/cards.xlsx" in line]
    assert sheet_lines and not [line for line in sheet_lines if "beside ja, en" in line]  # no YAML advice for a row
    assert "game.yaml:2: title has no de text (add `de: ...` beside ja, en)" in result.out  # YAML: as before
    report = status(cli, small_game, "--lang", "de")
    missing = {p["id"]: p["message"] for p in report["problems"] if p["kind"] == "missing"}
    assert missing["cards[pear].text"] == "no de text (add a column text.de and fill its row 3)"


def test_validate_names_the_empty_cell_of_an_existing_column(cli, small_game):
    sheet = german(small_game, "csv", cli)
    sheet.write_bytes(sheet.read_bytes().replace(b"text.en\r\n", b"text.en,text.de\r\n", 1))
    result = cli("validate", small_game)
    assert "decks/cards.csv: J2: cards[apple].text has no de text (fill cell J2 (column text.de))" in result.out
    assert "decks/cards.csv: row 2: cards[apple].name has no de text (add a column name.de" in result.out


# --- i18n import writes the cells ----------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["xlsx", "ods", "csv"])
def test_i18n_import_of_a_german_po_writes_the_yaml_strings_and_the_cells(cli, small_game, tmp_path, fmt):
    sheet = german(small_game, fmt, cli)
    before = rows_of(sheet)
    translations = german_po(cli, small_game, tmp_path / "de.po")
    result = cli("i18n", "import", small_game, tmp_path / "de.po")
    assert result.code == 0, result
    assert f"{len(translations)} de translation(s) written" in result.out
    assert f"wrote 6 text(s) into cards.{fmt}" in result.out and "name.de (J), text.de (K)" in result.out
    after = rows_of(sheet)
    assert [row[:9] for row in after] == before  # every cell there was, as it was
    assert after[0][9:] == ["name.de", "text.de"]
    cards = {row[0]: row for row in after[1:]}
    assert cards["pear"][9:] == [translations["cards[pear].name"], translations["cards[pear].text"]]
    assert cards["pear"][9] == "DE: Pear" and cards["grapes"][10] == "DE: Score 2 points."
    assert 'de: "DE: Cards"}' in (small_game / "decks" / "cards.yaml").read_text(encoding="utf-8")
    game = load_game(small_game)
    assert game.title.get("de") == translations["title"]
    assert [card.name.get("de") for card in game.decks["cards"].cards] == ["DE: Apple", "DE: Pear", "DE: Grapes"]
    assert cli("validate", small_game).code == 0  # nothing missing: the loader reads the new column
    report = status(cli, small_game, "--lang", "de")
    assert report["languages"]["de"]["translated"] == len(translations) and report["problems"] == []


def test_an_xlsx_keeps_every_other_part_and_its_styles_when_cells_are_written(cli, small_game, tmp_path):
    sheet = german(small_game, "xlsx", cli)
    parts = {info.filename: zipfile.ZipFile(sheet).read(info) for info in zipfile.ZipFile(sheet).infolist()}
    german_po(cli, small_game, tmp_path / "de.po")
    assert cli("i18n", "import", small_game, tmp_path / "de.po").code == 0
    written = zipfile.ZipFile(sheet)
    assert [info.filename for info in written.infolist()] == list(parts)
    changed = [name for name in parts if written.read(name) != parts[name]]
    assert changed == ["xl/worksheets/sheet1.xml"]
    book = load_workbook(sheet)
    cells = book["cards"]
    assert cells["J1"].value == "name.de" and cells["J1"].font.b  # a header like the others
    assert cells["J3"].value == "DE: Pear" and cells["J3"].number_format == "@"  # a text cell like its neighbour
    assert cells["A1"].comment is not None  # the header's comments, drop-downs and frozen row stay
    assert cells.freeze_panes == "A2" and cells.dimensions == "A1:K4"


def test_a_text_inside_a_cell_of_yaml_is_written_into_that_yaml(cli, small_game, tmp_path):
    deck = small_game / "decks" / "cards.yaml"
    edit(
        deck,
        "  text: {type: text, doc: what the card does}",
        "  text: {type: text, doc: what the card does}\n"
        "  steps: {type: list, of: {type: object, fields: {say: {type: text}}}}",
    )
    edit(
        deck,
        "    value: 1\n",
        "    value: 1\n    steps: [{say: {ja: 一つ目, en: First}}, {say: {ja: 二つ目, en: Second}}]\n",
    )
    sheet = german(small_game, "xlsx", cli)
    cell = next(row for row in rows_of(sheet) if row[0] == "apple")[rows_of(sheet)[0].index("steps")]
    assert cell.startswith("[{say:")
    german_po(cli, small_game, tmp_path / "de.po")
    assert cli("i18n", "import", small_game, tmp_path / "de.po").code == 0
    apple = load_game(small_game).decks["cards"].cards[0]
    assert [step["say"].get("de") for step in apple.fields["steps"]] == ["DE: First", "DE: Second"]
    assert apple.fields["steps"][0]["say"].get("ja") == "一つ目"


def test_a_spreadsheet_that_cannot_be_written_is_named_cell_by_cell_and_the_rest_is_written(cli, small_game, tmp_path):
    sheet = german(small_game, "xlsx", cli)
    with zipfile.ZipFile(sheet, "a") as book:  # as a workbook signed in Excel
        book.writestr("_xmlsignatures/sig1.xml", "<Signature/>")
    kept = sheet.read_bytes()
    translations = german_po(cli, small_game, tmp_path / "de.po")
    result = cli("i18n", "import", small_game, tmp_path / "de.po")
    assert result.code == 1
    assert f"{len(translations) - 6} de translation(s) written" in result.out
    assert sheet.read_bytes() == kept  # not a byte changed
    assert "6 translation(s) could not be written into their spreadsheet" in result.err
    for row, card in ((2, "apple"), (3, "pear"), (4, "grapes")):
        for column in ("name.de", "text.de"):
            assert (
                f"decks/cards.xlsx: sheet 'cards', row {row}: not written: the file is digitally signed: a change "
                f"would break its signature (add a column {column} and fill its row {row})" in result.err
            ), card
    assert load_game(small_game).title.get("de") == translations["title"]  # the YAML strings are written
    report = status(cli, small_game, "--lang", "de")
    assert {p["id"] for p in report["problems"]} == {
        f"cards[{c}].{f}" for c in ("apple", "pear", "grapes") for f in ("name", "text")
    }


def test_an_import_writes_the_yaml_the_cells_and_the_lock_together_or_none(cli, small_game, tmp_path, monkeypatch):
    from generator.commands import i18n

    german(small_game, "ods", cli)
    german_po(cli, small_game, tmp_path / "de.po")
    before = snapshot(small_game)

    def failing(lock):
        raise OSError("disk full")

    monkeypatch.setattr(i18n, "write_lock", failing)  # after the YAML files and the sheet are staged
    with pytest.raises(OSError):
        cli("i18n", "import", small_game, tmp_path / "de.po")
    assert snapshot(small_game) == before


def test_the_editor_writes_a_translation_into_a_new_column_of_the_sheet(cli, small_game, tmp_path):
    from generator.web.session import GameSession, file_version

    sheet = german(small_game, "ods", cli)
    session = GameSession(small_game, tmp_path / "cache")
    written = session.edit("cards[grapes].text", "de", "Erhalte 2 Punkte.", file_version(sheet))
    assert written["written"] == ["decks/cards.ods", "i18n.lock.yaml"]
    rows = rows_of(sheet)
    assert rows[0][-1] == "text.de" and rows[3][-1] == "Erhalte 2 Punkte." and rows[1][-1] is None


def test_the_editor_names_the_cell_of_a_sheet_it_cannot_write(cli, small_game, tmp_path):
    from generator.web.session import EditRefused, GameSession, file_version

    sheet = german(small_game, "xlsx", cli)
    with zipfile.ZipFile(sheet, "a") as book:
        book.writestr("_xmlsignatures/sig1.xml", "<Signature/>")
    session = GameSession(small_game, tmp_path / "cache")
    with pytest.raises(EditRefused) as refused:
        session.edit("cards[pear].name", "en", "Quince", file_version(sheet))
    assert refused.value.status == 409
    assert "cards.xlsx, cards!F3, which cannot be written (the file is digitally signed" in str(refused.value)
    assert "fill cell cards!F3 (column name.en)" in str(refused.value)


@pytest.mark.slow
def test_a_killed_import_into_a_spreadsheet_deck_leaves_every_file_old_or_every_file_new(cli, small_game, tmp_path):
    sheet = german(small_game, "xlsx", cli)
    po = tmp_path / "de.po"
    german_po(cli, small_game, po)
    code = f"from generator.cli import main; sys.exit(main(['i18n', 'import', {str(small_game)!r}, {str(po)!r}]))"
    validate = [sys.executable, "-m", "generator", "validate", str(small_game)]
    assert check_killed_everywhere(small_game, code, tmp_path, validate) >= 8
    # the last kill may have come before anything was written: the import run whole writes the sheet's cells
    assert cli("i18n", "import", small_game, po).code == 0
    assert "DE: Pear" in json.dumps(rows_of(sheet), ensure_ascii=False)
    assert subprocess.run(validate, capture_output=True).returncode == 0


def test_two_decks_reading_two_sheets_of_one_workbook_get_their_own_cells(cli, small_game, tmp_path):
    sheet = spreadsheet_game(small_game, cli, "xlsx")
    book = load_workbook(sheet)
    extra = book.copy_worksheet(book["cards"])
    extra.title = "extra"
    for row in extra.iter_rows(min_row=2):
        row[0].value = f"extra-{row[0].value}"
        row[4].value, row[5].value = f"特{row[4].value}", f"Extra {row[5].value}"
    book.save(sheet)
    deck = (small_game / "decks" / "cards.yaml").read_text(encoding="utf-8")
    (small_game / "decks" / "extra.yaml").write_text(deck.replace("{ja: カード, en: Cards}", "{ja: 追加, en: Extra}"))
    edit(
        small_game / "components.yaml",
        "    deck: cards\n",
        "    deck: cards\n  - id: extra\n    name: {ja: 追加, en: Extra}\n    count: 6\n    deck: extra\n",
    )
    add_german(small_game)
    result = cli("validate", small_game)
    assert "decks/cards.xlsx: sheet 'extra', row 3: cards[extra-pear].name has no de text" in result.out
    translations = german_po(cli, small_game, tmp_path / "de.po")
    assert cli("i18n", "import", small_game, tmp_path / "de.po").code == 0
    book = load_workbook(sheet)
    assert book["cards"]["J3"].value == translations["cards[pear].name"] == "DE: Pear"
    assert book["extra"]["J3"].value == translations["cards[extra-pear].name"] == "DE: Extra Pear"
    result = cli("validate", small_game)
    assert result.code == 0, result.out[-2000:]


# --- the writer on files other programs saved -----------------------------------------------------

LIBREOFFICE_ODS = Path(__file__).parent / "sheets" / "greed-inc-assets-libreoffice.ods"


def libreoffice_edits(rows: list[list]) -> dict[tuple[int, int], str]:
    """Cells of the LibreOffice file that test the writer: the first of two empty neighbours in one row and the
    second in another (LibreOffice stores them as one repeated cell), and a new column past the last, header
    and all (inside the row's last cell, repeated to the sheet's edge)."""
    runs = [(r, c) for r, row in enumerate(rows[1:], 1) for c in range(len(row) - 1) if row[c] is None is row[c + 1]]
    (first_row, first_col), (second_row, second_col) = runs[0], next(run for run in runs if run[0] != runs[0][0])
    width = len(rows[0])
    return {
        (first_row, first_col): "  two  spaces & <tags>",
        (second_row, second_col + 1): "filled\nover two lines",
        (0, width): "name.de",
        (2, width): "Neu",
    }


def test_the_writer_keeps_a_libreoffice_ods_whole_and_splits_its_repeated_cells(tmp_path):
    from generator.model.table.cells import read_back, with_edits
    from generator.model.table.patch import patched

    rows = read_sheet(LIBREOFFICE_ODS).rows
    edits = libreoffice_edits(rows)
    data = patched("ods", LIBREOFFICE_ODS, {"assets": edits})
    assert read_back(data, "ods", "assets") == with_edits(rows, edits)
    before, after = zipfile.ZipFile(LIBREOFFICE_ODS), zipfile.ZipFile(io.BytesIO(data))
    assert [(i.filename, i.compress_type) for i in after.infolist()] == [
        (i.filename, i.compress_type) for i in before.infolist()
    ]
    assert after.infolist()[0].filename == "mimetype" and after.read("mimetype") == before.read("mimetype")
    assert [name for name in before.namelist() if before.read(name) != after.read(name)] == ["content.xml"]


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("soffice"), reason="needs LibreOffice (apt: libreoffice-calc)")
@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_libreoffice_reads_the_cells_pnpgen_wrote(fmt, cli, small_game, tmp_path):
    sheet = german(small_game, fmt, cli)
    german_po(cli, small_game, tmp_path / "de.po")
    assert cli("i18n", "import", small_game, tmp_path / "de.po").code == 0
    office = subprocess.run(
        [
            "soffice",
            f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}",
            "--headless",
            "--convert-to",
            "csv:Text - txt - csv (StarCalc):44,34,76",
            "--outdir",
            str(tmp_path / "csv"),
            str(sheet),
        ],
        capture_output=True,
        timeout=300,
    )
    assert office.returncode == 0, office.stderr
    with open(tmp_path / "csv" / "cards.csv", encoding="utf-8", newline="") as read:
        seen = list(csv.reader(read))
    assert seen[0][-2:] == ["name.de", "text.de"]
    assert seen[2][-2:] == ["DE: Pear", "DE: Any one player discards 1 card."]
    assert seen[2][:2] == ["pear", "2"]
